//! Discord's part of the server's state ([`Discord`], built from
//! [`DiscordConfig`]): the key requests are checked against, the client
//! that edits deferred answers, and the interaction ids already answered
//! (so a replayed request is refused). It knows nothing of the routes.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{client, signature};

/// How `nutshell serve` answers Discord.
#[derive(Debug, Clone)]
pub struct DiscordConfig {
    /// The application's public key, 64 hex digits.
    pub public_key: String,
    /// Discord's API (`--discord-api-base`).
    pub api_base: String,
    /// How long a command may work before it is answered "thinking…" and
    /// its answer sent later (Discord waits 3 seconds for the first answer).
    pub answer_within: Duration,
    /// How far a request's timestamp may be from the server's clock.
    pub max_skew: Duration,
}

impl DiscordConfig {
    /// The defaults with `public_key`: Discord's API, answers within 2 s,
    /// timestamps within 5 minutes.
    pub fn new(public_key: &str) -> DiscordConfig {
        DiscordConfig {
            public_key: public_key.to_string(),
            api_base: client::DEFAULT_API_BASE.to_string(),
            answer_within: Duration::from_secs(2),
            max_skew: Duration::from_secs(300),
        }
    }
}

/// Discord's part of the server's state.
pub struct Discord {
    pub(super) verifier: signature::Verifier,
    pub(super) api: client::Api,
    pub(super) answer_within: Duration,
    pub(super) seen: Mutex<Seen>,
    /// Held while a channel's first room is made, so two first commands in
    /// this process make one room.
    pub(super) creating: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for Discord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Discord")
            .field("api", &self.api.base())
            .finish_non_exhaustive()
    }
}

impl Discord {
    /// Discord's state from its configuration, or why the key is refused.
    pub fn new(config: &DiscordConfig) -> Result<Discord, String> {
        Ok(Discord {
            verifier: signature::Verifier::from_hex(&config.public_key, config.max_skew)?,
            api: client::Api::new(&config.api_base),
            answer_within: config.answer_within,
            seen: Mutex::new(Seen::new(config.max_skew * 2)),
            creating: tokio::sync::Mutex::new(()),
        })
    }
}

/// Interactions answered within the time a replay of one could still pass
/// the timestamp check: a replayed request is refused.
pub(super) struct Seen {
    keep: Duration,
    order: VecDeque<(Instant, String)>,
    ids: HashMap<String, Instant>,
}

/// The most interaction ids remembered; past it the oldest are forgotten
/// (they are older than the timestamp check lets through in any real use).
const SEEN_MAX: usize = 100_000;

impl Seen {
    fn new(keep: Duration) -> Seen {
        Seen {
            keep,
            order: VecDeque::new(),
            ids: HashMap::new(),
        }
    }

    /// Notes `id`; false when it was seen within the window.
    pub(super) fn first(&mut self, id: &str) -> bool {
        let now = Instant::now();
        while let Some((at, old)) = self.order.front() {
            if now.duration_since(*at) <= self.keep && self.order.len() < SEEN_MAX {
                break;
            }
            self.ids.remove(old);
            self.order.pop_front();
        }
        if self.ids.contains_key(id) {
            return false;
        }
        self.ids.insert(id.to_string(), now);
        self.order.push_back((now, id.to_string()));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interaction_is_answered_once_within_the_window() {
        let mut seen = Seen::new(Duration::from_secs(600));
        assert!(seen.first("1"));
        assert!(seen.first("2"));
        assert!(!seen.first("1"));
        let mut short = Seen::new(Duration::ZERO);
        assert!(short.first("1"));
        std::thread::sleep(Duration::from_millis(2));
        assert!(short.first("1"));
    }
}
