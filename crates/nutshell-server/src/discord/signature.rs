//! Discord's request signature: `X-Signature-Ed25519` (64 bytes, hex) over
//! `X-Signature-Timestamp` (Unix seconds, as text) followed by the raw body,
//! by the application's Ed25519 key (its public half, hex, from the
//! developer portal). Checked before anything else is read: a request that
//! fails is answered 401 and nothing is done.
//!
//! ```
//! use ed25519_dalek::{Signer, SigningKey};
//! use nutshell_server::discord::signature::{Verifier, Refused};
//! let key = SigningKey::from_bytes(&[7; 32]);
//! let public = nutshell_server::fair::hex(key.verifying_key().as_bytes());
//! let verifier = Verifier::from_hex(&public, std::time::Duration::from_secs(300)).unwrap();
//! let body = br#"{"type":1}"#;
//! let now = 1_800_000_000;
//! let signed = key.sign(&[b"1800000000".as_slice(), body].concat());
//! let signature = nutshell_server::fair::hex(&signed.to_bytes());
//! assert_eq!(verifier.check(Some(&signature), Some("1800000000"), body, now), Ok(()));
//! // The body changed: refused.
//! assert_eq!(
//!     verifier.check(Some(&signature), Some("1800000000"), br#"{"type":2}"#, now),
//!     Err(Refused::Wrong)
//! );
//! // The same request an hour later: refused as old.
//! assert!(matches!(
//!     verifier.check(Some(&signature), Some("1800000000"), body, now + 3600),
//!     Err(Refused::Stale { .. })
//! ));
//! ```

use std::time::Duration;

use ed25519_dalek::{Signature, VerifyingKey};

/// Why a request's signature is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the request has no `{0}` header")]
    Missing(&'static str),
    #[error("`{0}` is not {1}")]
    Malformed(&'static str, &'static str),
    #[error("the signature does not match the body, the timestamp and the application's key")]
    Wrong,
    #[error(
        "the request's timestamp is {skew} s from the server's clock; at most {max} s are accepted"
    )]
    Stale { skew: u64, max: u64 },
}

/// The application's public key and how far a request's timestamp may be
/// from the server's clock.
#[derive(Debug, Clone)]
pub struct Verifier {
    key: VerifyingKey,
    max_skew: Duration,
}

impl Verifier {
    /// The key as the developer portal shows it: 64 hex digits.
    pub fn from_hex(public_key: &str, max_skew: Duration) -> Result<Verifier, String> {
        let bytes = crate::fair::unhex(public_key.trim())
            .filter(|b| b.len() == 32)
            .ok_or_else(|| {
                format!(
                    "the Discord public key must be 64 hex digits (the application's \"Public Key\" in the developer portal); got {} characters",
                    public_key.trim().chars().count()
                )
            })?;
        let mut array = [0u8; 32];
        array.copy_from_slice(&bytes);
        let key = VerifyingKey::from_bytes(&array)
            .map_err(|_| "the Discord public key is not an Ed25519 public key".to_string())?;
        Ok(Verifier { key, max_skew })
    }

    /// Checks a request: the two headers' values, the raw body, and the
    /// server's clock in Unix seconds. `verify_strict` refuses the weak
    /// keys and non-canonical signatures a forger could use.
    pub fn check(
        &self,
        signature: Option<&str>,
        timestamp: Option<&str>,
        body: &[u8],
        now: u64,
    ) -> Result<(), Refused> {
        let signature = signature.ok_or(Refused::Missing("X-Signature-Ed25519"))?;
        let timestamp = timestamp.ok_or(Refused::Missing("X-Signature-Timestamp"))?;
        let bytes = crate::fair::unhex(signature)
            .filter(|b| b.len() == 64)
            .ok_or(Refused::Malformed("X-Signature-Ed25519", "128 hex digits"))?;
        let mut array = [0u8; 64];
        array.copy_from_slice(&bytes);
        let signature = Signature::from_bytes(&array);
        let seconds: u64 = timestamp
            .parse()
            .ok()
            .filter(|_| timestamp.len() <= 20 && timestamp.bytes().all(|b| b.is_ascii_digit()))
            .ok_or(Refused::Malformed(
                "X-Signature-Timestamp",
                "a time in Unix seconds",
            ))?;
        let mut message = Vec::with_capacity(timestamp.len() + body.len());
        message.extend_from_slice(timestamp.as_bytes());
        message.extend_from_slice(body);
        self.key
            .verify_strict(&message, &signature)
            .map_err(|_| Refused::Wrong)?;
        // Checked after the signature, so a stranger learns nothing of the
        // server's clock.
        let skew = now.abs_diff(seconds);
        if skew > self.max_skew.as_secs() {
            return Err(Refused::Stale {
                skew,
                max: self.max_skew.as_secs(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    fn signed(key: &SigningKey, timestamp: &str, body: &[u8]) -> String {
        crate::fair::hex(&key.sign(&[timestamp.as_bytes(), body].concat()).to_bytes())
    }

    /// Every way a request can fail the check, each named.
    #[test]
    fn refuses_missing_malformed_wrong_and_stale() {
        let key = SigningKey::from_bytes(&[3; 32]);
        let other = SigningKey::from_bytes(&[4; 32]);
        let verifier = Verifier::from_hex(
            &crate::fair::hex(key.verifying_key().as_bytes()),
            Duration::from_secs(300),
        )
        .unwrap();
        let body = br#"{"type":1,"id":"1"}"#;
        let good = signed(&key, "1000", body);
        assert_eq!(
            verifier.check(Some(&good), Some("1000"), body, 1000),
            Ok(())
        );
        assert_eq!(
            verifier.check(Some(&good), Some("1000"), body, 1300),
            Ok(())
        );
        assert_eq!(
            verifier.check(Some(&good), Some("1000"), body, 1301),
            Err(Refused::Stale {
                skew: 301,
                max: 300
            })
        );
        // From the future too.
        assert_eq!(
            verifier.check(Some(&good), Some("1000"), body, 600),
            Err(Refused::Stale {
                skew: 400,
                max: 300
            })
        );
        assert_eq!(
            verifier.check(None, Some("1000"), body, 1000),
            Err(Refused::Missing("X-Signature-Ed25519"))
        );
        assert_eq!(
            verifier.check(Some(&good), None, body, 1000),
            Err(Refused::Missing("X-Signature-Timestamp"))
        );
        assert_eq!(
            verifier.check(Some("zz"), Some("1000"), body, 1000),
            Err(Refused::Malformed("X-Signature-Ed25519", "128 hex digits"))
        );
        assert_eq!(
            verifier.check(Some(&good), Some("-5"), body, 1000),
            Err(Refused::Malformed(
                "X-Signature-Timestamp",
                "a time in Unix seconds"
            ))
        );
        // Signed by another key, or over another timestamp.
        let forged = signed(&other, "1000", body);
        assert_eq!(
            verifier.check(Some(&forged), Some("1000"), body, 1000),
            Err(Refused::Wrong)
        );
        assert_eq!(
            verifier.check(Some(&good), Some("1001"), body, 1000),
            Err(Refused::Wrong)
        );
    }

    #[test]
    fn a_public_key_must_be_32_bytes_of_hex() {
        let error = Verifier::from_hex("abcd", Duration::from_secs(1)).unwrap_err();
        assert!(error.contains("64 hex digits"), "{error}");
        assert!(error.contains("got 4 characters"), "{error}");
    }
}
