//! nutshell in Discord: `POST /discord/interactions`, Discord's "interactions
//! endpoint" (on when `nutshell serve --discord-public-key` is given).
//!
//! Each request is checked before anything else ([`signature`]): the
//! Ed25519 signature over the timestamp and the raw body, the timestamp
//! near the server's clock, the interaction not seen before; a request that
//! fails is answered 401 and nothing is read or written. A PING is answered
//! `{"type": 1}`; a slash command ([`run`]) is answered with a message
//! (`type` 4) when its work ends within [`DiscordConfig::answer_within`],
//! else with `type` 5 (Discord shows "thinking…") and the answer is sent
//! later by editing the original message ([`client`]).
//!
//! Every command is a thin call into the server's own routes: a channel is
//! a room, a Discord user a member of it ([`links`]); rolls, checks and
//! contests are written by the same code as the web table's, so `nutshell
//! verify` checks a Discord game as it checks a web one and the web table
//! shows the channel's rolls live. [`commands`] is the command set;
//! [`text`] turns answers into Discord Markdown.
//!
//! # In detail
//!
//! Discord's interactions endpoint (`POST /discord/interactions`, on with
//! `--discord-public-key`): `signature` (Ed25519 over timestamp + raw body,
//! `verify_strict`, the timestamp's window, checked before anything is read;
//! an interaction id answered once), `commands` (the slash commands as
//! Discord's JSON, option names the routes' fields, and `check`, Discord's
//! documented limits), `links` (its own tables: the room a channel plays in,
//! a Discord user's member and key in a room), `run` (each command a call of
//! the routes' own handlers: rolls, checks, contests, odds, reveals; a
//! channel's first command makes its room with its sender as GM, a user's
//! first joins them), `text` (answers as Discord Markdown), `client` (editing
//! a deferred answer, registering the commands), `state` (Discord's part of
//! the server's state: the key, the client, the interaction ids answered;
//! below the routes); a command not done within `answer_within` is answered
//! `type` 5 and its work goes on in a task of its own.

pub mod client;
pub mod commands;
pub mod links;
mod run;
pub mod signature;
mod state;
pub mod text;

pub use state::{Discord, DiscordConfig};

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::state::AppState;

/// The parts of an interaction nutshell reads (Discord sends more).
#[derive(Debug, Clone, Deserialize)]
pub struct Interaction {
    pub id: String,
    pub application_id: String,
    #[serde(rename = "type")]
    pub kind: u8,
    #[serde(default)]
    pub token: String,
    #[serde(default)]
    pub data: Option<CommandData>,
    #[serde(default)]
    pub channel_id: Option<String>,
    #[serde(default)]
    pub channel: Option<Channel>,
    /// In a server: the member, with their user.
    #[serde(default)]
    pub member: Option<GuildMember>,
    /// In a direct message: the user.
    #[serde(default)]
    pub user: Option<User>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Channel {
    #[serde(default)]
    pub name: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct GuildMember {
    pub user: User,
    #[serde(default)]
    pub nick: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct User {
    pub id: String,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub global_name: Option<String>,
}

/// A command and its options as Discord sends them.
#[derive(Debug, Clone, Deserialize)]
pub struct CommandData {
    pub name: String,
    #[serde(default)]
    pub options: Vec<CommandOption>,
}

/// One option: a value, or a subcommand with options of its own.
#[derive(Debug, Clone, Deserialize)]
pub struct CommandOption {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: u64,
    #[serde(default)]
    pub value: Option<Value>,
    #[serde(default)]
    pub options: Vec<CommandOption>,
}

impl Interaction {
    /// Who sent it.
    pub fn user(&self) -> Option<&User> {
        self.member.as_ref().map(|m| &m.user).or(self.user.as_ref())
    }

    /// The name they are shown by in the room: their server nickname, their
    /// display name, or their user name.
    pub fn shown_name(&self) -> String {
        let nick = self.member.as_ref().and_then(|m| m.nick.clone());
        let user = self.user();
        nick.or_else(|| user.and_then(|u| u.global_name.clone()))
            .or_else(|| user.map(|u| u.username.clone()))
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| "Discord user".to_string())
    }
}

/// An answer to show in Discord.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub content: String,
    /// Only the user who sent the command sees it (flag 64).
    pub ephemeral: bool,
}

impl Reply {
    pub fn public(content: String) -> Reply {
        Reply {
            content,
            ephemeral: false,
        }
    }

    pub fn private(content: String) -> Reply {
        Reply {
            content,
            ephemeral: true,
        }
    }

    /// The message's JSON: content, flags, and no mentions (a name or a
    /// label that says `@everyone` pings nobody).
    fn message(&self) -> Value {
        let mut message = json!({
            "content": self.content,
            "allowed_mentions": {"parse": []},
        });
        if self.ephemeral {
            message["flags"] = json!(EPHEMERAL);
        }
        message
    }

    /// The message as an edit of a deferred answer: without flags (an edit
    /// cannot change them; the deferred answer's flags made it private).
    fn edit(&self) -> Value {
        json!({
            "content": self.content,
            "allowed_mentions": {"parse": []},
        })
    }
}

/// Discord's message flag for an answer only its user sees.
pub const EPHEMERAL: u64 = 64;

fn unauthorized(why: impl std::fmt::Display) -> Response {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "bad_signature",
        format!("invalid request signature: {why}"),
    )
    .into_response()
}

fn now_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// `POST /discord/interactions`.
pub async fn interactions(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(discord) = state.discord.clone() else {
        return ApiError::not_found(
            "this server does not answer Discord (start it with --discord-public-key)",
        )
        .into_response();
    };
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Err(why) = discord.verifier.check(
        header("x-signature-ed25519"),
        header("x-signature-timestamp"),
        &body,
        now_seconds(),
    ) {
        return unauthorized(why);
    }
    let interaction: Interaction = match serde_json::from_slice(&body) {
        Ok(interaction) => interaction,
        Err(error) => {
            return ApiError::bad_request("bad_interaction", format!("the interaction: {error}"))
                .into_response();
        }
    };
    let first = discord
        .seen
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .first(&interaction.id);
    if !first {
        return unauthorized(format!(
            "interaction {} was already answered",
            interaction.id
        ));
    }
    match interaction.kind {
        1 => axum::Json(json!({"type": 1})).into_response(),
        2 => answer(state, discord, interaction, &headers).await,
        other => ApiError::bad_request(
            "bad_interaction",
            format!("interactions of type {other} are not answered here (only 1, PING, and 2, slash commands)"),
        )
        .into_response(),
    }
}

/// Answers a slash command: its message at once if its work ends in time,
/// else "thinking…" (`type` 5) and the message later, edited in.
async fn answer(
    state: AppState,
    discord: Arc<Discord>,
    interaction: Interaction,
    headers: &HeaderMap,
) -> Response {
    let ephemeral = run::is_private(&interaction);
    let base = public_base(headers);
    let application = interaction.application_id.clone();
    let token = interaction.token.clone();
    // A task of its own: if the answer is deferred, the work goes on after
    // this request is answered.
    let mut work = tokio::spawn(run::command(state, discord.clone(), interaction, base));
    let reply = match tokio::time::timeout(discord.answer_within, &mut work).await {
        Ok(done) => done.unwrap_or_else(|_| {
            Reply::private(text::refusal("the command failed inside the server"))
        }),
        Err(_) => {
            tokio::spawn(async move {
                let reply = work.await.unwrap_or_else(|_| {
                    Reply::private(text::refusal("the command failed inside the server"))
                });
                if let Err(error) = discord
                    .api
                    .edit_original(&application, &token, &reply.edit())
                    .await
                {
                    tracing::warn!(%error, "the deferred Discord answer could not be sent");
                }
            });
            let mut deferred = json!({"type": 5});
            if ephemeral {
                deferred["data"] = json!({"flags": EPHEMERAL});
            }
            return axum::Json(deferred).into_response();
        }
    };
    axum::Json(json!({"type": 4, "data": reply.message()})).into_response()
}

/// The server's address as Discord's users reach it: the request's host
/// (a reverse proxy passes it on) and `X-Forwarded-Proto` (else https).
fn public_base(headers: &HeaderMap) -> String {
    let host = ["x-forwarded-host", "host"]
        .iter()
        .filter_map(|name| headers.get(*name).and_then(|v| v.to_str().ok()))
        .find(|h| {
            !h.is_empty()
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
        })
        .unwrap_or("localhost");
    let scheme = match headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
    {
        Some("http") => "http",
        _ => "https",
    };
    format!("{scheme}://{host}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_base_comes_from_the_proxy_headers() {
        let mut headers = HeaderMap::new();
        headers.insert("host", "127.0.0.1:8080".parse().unwrap());
        assert_eq!(public_base(&headers), "https://127.0.0.1:8080");
        headers.insert("x-forwarded-proto", "http".parse().unwrap());
        assert_eq!(public_base(&headers), "http://127.0.0.1:8080");
        headers.insert("x-forwarded-host", "dice.example.org".parse().unwrap());
        assert_eq!(public_base(&headers), "http://dice.example.org");
        headers.insert("x-forwarded-host", "evil.example/<x>".parse().unwrap());
        assert_eq!(public_base(&headers), "http://127.0.0.1:8080");
    }
}
