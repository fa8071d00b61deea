//! Calls to Discord's HTTP API: editing a deferred answer (`PATCH
//! /webhooks/{application}/{token}/messages/@original`, authorized by the
//! interaction's token in the path) and registering the commands (`PUT
//! /applications/{application}/commands`, with the bot's token). The base is
//! `--discord-api-base` (Discord's `https://discord.com/api/v10` unless a
//! test gives a stand-in).

use std::time::Duration;

use serde_json::Value;

/// Discord's API, version 10.
pub const DEFAULT_API_BASE: &str = "https://discord.com/api/v10";

/// How long one call to Discord may take.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(15);

/// A client of Discord's API at `base`.
#[derive(Debug, Clone)]
pub struct Api {
    base: String,
    http: reqwest::Client,
}

/// Why a call failed: Discord's status and its words, or no answer.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    #[error("Discord answered {status}: {body}")]
    Status { status: u16, body: String },
    #[error("Discord could not be reached at {base}: {error}")]
    Unreachable { base: String, error: reqwest::Error },
}

impl Api {
    /// A client of the API at `base` (no trailing slash needed).
    pub fn new(base: &str) -> Api {
        let http = reqwest::Client::builder()
            .timeout(CALL_TIMEOUT)
            .user_agent(concat!(
                "DiscordBot (https://example.invalid/nutshell, ",
                env!("CARGO_PKG_VERSION"),
                ")"
            ))
            .build()
            .unwrap_or_default();
        Api {
            base: base.trim_end_matches('/').to_string(),
            http,
        }
    }

    /// The base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Result<Value, CallError> {
        let response = request
            .send()
            .await
            .map_err(|error| CallError::Unreachable {
                base: self.base.clone(),
                error,
            })?;
        let status = response.status().as_u16();
        let body = response.text().await.unwrap_or_default();
        if !(200..300).contains(&status) {
            let body: String = body.chars().take(500).collect();
            return Err(CallError::Status { status, body });
        }
        Ok(serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    /// Replaces the deferred answer of an interaction with `message`
    /// (`{"content", "allowed_mentions"}`).
    pub async fn edit_original(
        &self,
        application: &str,
        token: &str,
        message: &Value,
    ) -> Result<Value, CallError> {
        let url = format!(
            "{}/webhooks/{}/{}/messages/@original",
            self.base,
            path_segment(application),
            path_segment(token)
        );
        self.send(self.http.patch(url).json(message)).await
    }

    /// Registers `commands` as the application's global commands (replacing
    /// the ones registered before), with the bot's token.
    pub async fn register(
        &self,
        application: &str,
        bot_token: &str,
        commands: &[Value],
    ) -> Result<Value, CallError> {
        let url = format!(
            "{}/applications/{}/commands",
            self.base,
            path_segment(application)
        );
        self.send(
            self.http
                .put(url)
                .header("Authorization", format!("Bot {bot_token}"))
                .json(commands),
        )
        .await
    }
}

/// `text` with every character that is not safe in a URL's path segment
/// percent-encoded (ids and tokens are letters, digits, `-`, `_` and `.`).
fn path_segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Registers the command set ([`super::commands::all`]) for `application`
/// at `base`, waiting for the answer: what `nutshell discord register` runs.
/// The answer is Discord's list of the commands as registered.
pub fn register_blocking(base: &str, application: &str, bot_token: &str) -> Result<Value, String> {
    let commands = super::commands::all();
    let problems = super::commands::check(&commands);
    if !problems.is_empty() {
        return Err(format!(
            "the command set breaks Discord's limits: {}",
            problems.join("; ")
        ));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime
        .block_on(Api::new(base).register(application, bot_token, &commands))
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_segments_are_encoded() {
        assert_eq!(path_segment("aW50ZXJhY3Rpb24.x-_"), "aW50ZXJhY3Rpb24.x-_");
        assert_eq!(path_segment("a/b?c"), "a%2Fb%3Fc");
    }
}
