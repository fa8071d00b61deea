//! Verifiable dice: seeds, commitments, the derivation of a roll's dice from
//! them, and the canonical JSON that the hash chain covers. Shared by the
//! server and by `nutshell verify`, which recomputes everything offline.
//!
//! For each epoch of a room the server draws a 32-byte seed from the
//! operating system and publishes `commitment = SHA-256(seed)` before any roll
//! of that epoch. A roll's dice come from [`Seeded::from_key`] keyed with
//! `HMAC-SHA256(seed, record)`, where `record` is the canonical JSON of
//! [`RollRecord`]: room, epoch, sequence number, roller, the client's own seed
//! and the expression. The server cannot pick the result without changing the
//! seed it already committed to, the player cannot predict it without the
//! seed, and the sequence number makes a re-roll-until-happy or a deleted
//! roll visible in the log.
//!
//! ```
//! use nutshell_server::fair::{commitment, hex, roll_key, RollRecord};
//! let seed = [1u8; 32];
//! let record = RollRecord {
//!     room: "r1",
//!     epoch: 0,
//!     seq: 2,
//!     roller: 1,
//!     client_seed: "lucky",
//!     expression: "1d20",
//! };
//! let key = roll_key(&seed, &record);
//! assert_eq!(key, roll_key(&seed, &record)); // the same record, the same dice
//! assert_eq!(commitment(&seed).len(), 64);    // hex of SHA-256
//! assert_eq!(hex(&[0, 255]), "00ff");
//! ```

use hmac::{Hmac, Mac};
use nutshell_dice::roll::RollReport;
use nutshell_dice::{Expression, Limits, Seeded};
use nutshell_rules::request::{CheckRequest, ContestRequest};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The bytes of one epoch's secret seed.
pub type Seed = [u8; 32];

/// A fresh seed from the operating system.
pub fn fresh_seed() -> Result<Seed, getrandom::Error> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed)?;
    Ok(seed)
}

/// `n` random bytes from the operating system, as lowercase hex: keys and
/// invite codes.
pub fn random_token(bytes: usize) -> Result<String, getrandom::Error> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer)?;
    Ok(hex(&buffer))
}

/// Lowercase hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        text.push(DIGITS[usize::from(b >> 4)] as char);
        text.push(DIGITS[usize::from(b & 15)] as char);
    }
    text
}

/// The bytes of a hex string, or `None` if it is not one.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    text.as_bytes()
        .chunks_exact(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

/// SHA-256 of `bytes`, as hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The public commitment to a seed: SHA-256 of its 32 bytes, as hex.
pub fn commitment(seed: &Seed) -> String {
    sha256_hex(seed)
}

/// Everything a roll's dice depend on besides the seed. Its canonical JSON
/// (keys in this order, no spaces) is the HMAC message.
#[derive(Debug, Clone, Serialize)]
pub struct RollRecord<'a> {
    /// The room's id.
    pub room: &'a str,
    /// The epoch whose seed keys the dice.
    pub epoch: i64,
    /// The sequence number the roll's event gets.
    pub seq: i64,
    /// The member who rolls.
    pub roller: i64,
    /// The client's own seed, sent with the request (any text).
    pub client_seed: &'a str,
    /// The expression exactly as sent.
    pub expression: &'a str,
}

/// The key of a roll's dice: `HMAC-SHA256(seed, canonical JSON of record)`.
pub fn roll_key(seed: &Seed, record: &RollRecord<'_>) -> [u8; 32] {
    let message = serde_json::to_string(record).expect("a record of strings and integers");
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(seed).expect("HMAC takes any key length");
    mac.update(message.as_bytes());
    mac.finalize().into_bytes().into()
}

/// Why a roll could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RollError {
    /// The expression does not parse (the message points at the character).
    #[error("{0}")]
    Notation(String),
    /// The roll broke a limit.
    #[error("{0}")]
    Roll(String),
    /// A check or contest the ruleset refuses, or whose request is not one.
    #[error("{0}")]
    Rules(String),
}

/// How a check's record names it: `check ` and the canonical JSON of the
/// request (`nutshell check`'s options, tagged by `ruleset`).
pub const CHECK_PREFIX: &str = "check ";

/// How a contest's record names it: `contest ` and the canonical JSON of the
/// request.
pub const CONTEST_PREFIX: &str = "contest ";

/// The record text of a check: what its dice are keyed by and what
/// `nutshell verify` reads back.
pub fn check_text(request: &CheckRequest) -> String {
    let value = serde_json::to_value(request).expect("a check request is plain data");
    format!("{CHECK_PREFIX}{}", canonical(&value))
}

/// The record text of a contest.
pub fn contest_text(request: &ContestRequest) -> String {
    let value = serde_json::to_value(request).expect("a contest request is plain data");
    format!("{CONTEST_PREFIX}{}", canonical(&value))
}

/// Performs what `record.expression` asks, with the dice that `seed` and
/// `record` give, and answers its result as JSON: a dice expression's
/// transcript (`nutshell roll --json`); for a [`check_text`] or
/// [`contest_text`], the check's or contest's result (`nutshell check
/// --json`); for a fight's text of an earlier server
/// ([`crate::fight::FightRequest::text`]), the fight's report (`nutshell mls
/// fight --json`); for a sheet's or an advance's text, the sheet. The server and `nutshell verify` both call this, so they cannot
/// disagree.
pub fn perform(seed: &Seed, record: &RollRecord<'_>, limits: &Limits) -> Result<Value, RollError> {
    let to_json = |result: Result<Value, serde_json::Error>| {
        result.map_err(|e| RollError::Rules(format!("the result is not JSON: {e}")))
    };
    let rules = |e: nutshell_rules::RulesError| RollError::Rules(e.to_string());
    if let Some(json) = record.expression.strip_prefix(CHECK_PREFIX) {
        let request: CheckRequest = serde_json::from_str(json)
            .map_err(|e| RollError::Rules(format!("not a check request: {e}")))?;
        request.validate().map_err(rules)?;
        let mut dice = Seeded::from_key(roll_key(seed, record));
        return to_json(serde_json::to_value(
            request.roll(&mut dice).map_err(rules)?,
        ));
    }
    if let Some(json) = record.expression.strip_prefix(CONTEST_PREFIX) {
        let request: ContestRequest = serde_json::from_str(json)
            .map_err(|e| RollError::Rules(format!("not a contest request: {e}")))?;
        request.validate().map_err(rules)?;
        let mut dice = Seeded::from_key(roll_key(seed, record));
        return to_json(serde_json::to_value(
            request.roll(&mut dice).map_err(rules)?,
        ));
    }
    if let Some(json) = record.expression.strip_prefix(crate::fight::FIGHT_PREFIX) {
        return crate::fight::perform(seed, record, json);
    }
    if let Some(json) = record.expression.strip_prefix(crate::sheet::SHEET_PREFIX) {
        return crate::sheet::perform(seed, record, json);
    }
    if let Some(json) = record.expression.strip_prefix(crate::sheet::ADVANCE_PREFIX) {
        return crate::sheet::perform_advance(seed, record, json);
    }
    to_json(serde_json::to_value(roll(seed, record, limits)?))
}

/// Rolls `record.expression` with the dice that `seed` and `record` give.
pub fn roll(
    seed: &Seed,
    record: &RollRecord<'_>,
    limits: &Limits,
) -> Result<RollReport, RollError> {
    let expr = Expression::parse_with(record.expression, limits)
        .map_err(|e| RollError::Notation(e.render(record.expression)))?;
    let mut dice = Seeded::from_key(roll_key(seed, record));
    let roll = expr
        .roll(&mut dice)
        .map_err(|e| RollError::Roll(e.render(record.expression)))?;
    Ok(roll.report())
}

/// The canonical text of a JSON value: object keys sorted by their UTF-8
/// bytes, no whitespace, strings and numbers as `serde_json` writes them. The
/// hash chain covers these bytes, so a log can be re-serialized in any key
/// order or spacing and still verify; the web page computes the same text with
/// `JSON.stringify` over sorted keys.
pub fn canonical(value: &serde_json::Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(key).expect("a string serializes"));
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&serde_json::to_string(other).expect("a scalar serializes")),
    }
}

/// The hash of an event's body: SHA-256 of its canonical JSON, as hex. A
/// secret roll's body hash is its commitment: players see it at once and can
/// check the body against it once it is revealed.
pub fn body_hash(body: &serde_json::Value) -> String {
    sha256_hex(canonical(body).as_bytes())
}

/// Everything the hash of an event covers besides the body (through its
/// hash): the previous event's hash, so the events form a chain, and every
/// field of the event's line in the log.
#[derive(Debug, Clone, Serialize)]
pub struct Link<'a> {
    pub at_ms: i64,
    pub body_hash: &'a str,
    pub epoch: i64,
    pub kind: &'a str,
    pub prev: &'a str,
    pub room: &'a str,
    pub secret: bool,
    pub seq: i64,
}

/// The hash of the chain up to an event: SHA-256 of the canonical JSON of its
/// [`Link`] (fields in alphabetical order, as declared), with `prev` the
/// previous event's hash ([`GENESIS`] before a room's first event).
pub fn chain_hash(link: &Link<'_>) -> String {
    let text = serde_json::to_string(link).expect("a link of strings and integers");
    sha256_hex(text.as_bytes())
}

/// The `prev` of a room's first event.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

#[cfg(test)]
mod tests {
    use super::*;

    fn record<'a>(expression: &'a str, client_seed: &'a str) -> RollRecord<'a> {
        RollRecord {
            room: "room",
            epoch: 0,
            seq: 3,
            roller: 1,
            client_seed,
            expression,
        }
    }

    /// The golden vector of `docs/server.md`: any other verifier (the web
    /// page's, a bot's) checks itself against it. The key was computed
    /// independently with Python's `hmac`; the faces pin the generator and
    /// its range reduction.
    #[test]
    fn golden_vector() {
        let seed: Seed = core::array::from_fn(|i| i as u8);
        assert_eq!(
            commitment(&seed),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        );
        let record = RollRecord {
            room: "golden",
            epoch: 0,
            seq: 1,
            roller: 1,
            client_seed: "table",
            expression: "4d6 + 1d20",
        };
        assert_eq!(
            hex(&roll_key(&seed, &record)),
            "011574c3615952195de775fec1cc75ac0b9882eea499fdd42ae6bc1d1d95ec4c"
        );
        let report = roll(&seed, &record, &Limits::default()).unwrap();
        let faces: Vec<i64> = report.dice.iter().map(|d| d.value).collect();
        assert_eq!(faces, GOLDEN_FACES);
        assert_eq!(report.total, GOLDEN_FACES.iter().sum::<i64>());
    }

    const GOLDEN_FACES: [i64; 5] = [2, 5, 4, 5, 20];

    #[test]
    fn hex_round_trips() {
        let bytes: Vec<u8> = (0..=255).collect();
        assert_eq!(unhex(&hex(&bytes)).unwrap(), bytes);
        assert_eq!(unhex("0g"), None);
        assert_eq!(unhex("abc"), None);
    }

    #[test]
    fn commitment_is_sha256_of_the_seed() {
        // SHA-256 of 32 zero bytes, a published test value.
        assert_eq!(
            commitment(&[0; 32]),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }

    #[test]
    fn the_record_is_canonical_json_in_field_order() {
        let text = serde_json::to_string(&record("1d20", "x")).unwrap();
        assert_eq!(
            text,
            r#"{"room":"room","epoch":0,"seq":3,"roller":1,"client_seed":"x","expression":"1d20"}"#
        );
    }

    #[test]
    fn every_part_of_the_record_changes_the_dice() {
        let seed = [9u8; 32];
        let base = roll_key(&seed, &record("1d20", "a"));
        assert_ne!(base, roll_key(&seed, &record("1d20", "b")));
        assert_ne!(base, roll_key(&seed, &record("1d20 ", "a")));
        assert_ne!(base, roll_key(&[8u8; 32], &record("1d20", "a")));
        let mut later = record("1d20", "a");
        later.seq = 4;
        assert_ne!(base, roll_key(&seed, &later));
    }

    #[test]
    fn a_roll_is_reproducible_from_seed_and_record() {
        let seed = [5u8; 32];
        let limits = Limits::default();
        let a = roll(&seed, &record("4d6kh3 + 2", "c"), &limits).unwrap();
        let b = roll(&seed, &record("4d6kh3 + 2", "c"), &limits).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.expression, "4d6kh3 + 2");
        assert!((5..=20).contains(&a.total));
    }

    #[test]
    fn a_bad_expression_is_refused_with_its_caret() {
        let err = roll(&[0; 32], &record("2d6+", "c"), &Limits::default()).unwrap_err();
        assert!(err.to_string().contains('^'), "{err}");
    }

    #[test]
    fn canonical_json_sorts_keys_and_drops_spaces() {
        let value: serde_json::Value =
            serde_json::from_str(r#"{ "b": [1, {"z": true, "a": null}], "a": "x\"y" }"#).unwrap();
        assert_eq!(
            canonical(&value),
            r#"{"a":"x\"y","b":[1,{"a":null,"z":true}]}"#
        );
    }

    #[test]
    fn the_chain_hash_covers_the_previous_hash_and_the_sequence_number() {
        let body = body_hash(&serde_json::json!({"kind": "join"}));
        let link = Link {
            at_ms: 1,
            body_hash: &body,
            epoch: 0,
            kind: "join",
            prev: GENESIS,
            room: "r",
            secret: false,
            seq: 1,
        };
        let first = chain_hash(&link);
        assert_ne!(
            first,
            chain_hash(&Link {
                seq: 2,
                ..link.clone()
            })
        );
        assert_ne!(
            first,
            chain_hash(&Link {
                prev: &first,
                ..link.clone()
            })
        );
        assert_ne!(
            first,
            chain_hash(&Link {
                at_ms: 2,
                ..link.clone()
            })
        );
        assert_ne!(
            first,
            chain_hash(&Link {
                secret: true,
                ..link.clone()
            })
        );
        assert_eq!(first.len(), 64);
        // The link is canonical JSON already: its fields are declared sorted.
        let text = serde_json::to_string(&link).unwrap();
        assert_eq!(canonical(&serde_json::from_str(&text).unwrap()), text);
    }
}
