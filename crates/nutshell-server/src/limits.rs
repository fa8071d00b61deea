//! Every limit of the server in one value, [`ServerLimits`], with the
//! defaults `nutshell serve` runs with. They are lower than the command
//! line's where a request costs the server what a command costs only its
//! user: one room's requests must leave time, memory and connections for
//! every other room.
//!
//! | what | default | where |
//! |---|---|---|
//! | dice per roll | 1,000 (command line: 10,000) | [`server_engine_limits`] |
//! | exact-odds work | 5 x 10^8 steps, about half a second (command line: 4 x 10^9) | [`server_engine_limits`] |
//! | outcomes an exact computation spans | 20,000 (command line: 1,000,000) | [`server_engine_limits`] |
//! | expression length | 1,000 characters (command line: 10,000) | [`server_engine_limits`] |
//! | odds answer | 10,000 outcomes, 2 MiB | [`AnswerLimits`] |
//! | one event | 256 KiB | [`crate::store::StoreSettings`] |
//! | a room | 100,000 events, 64 MiB, 64 members | [`crate::store::StoreSettings`] |
//! | a database operation | 5 s, then 503 | [`crate::store::StoreSettings`] |
//! | long work (odds, simulations) | half the cores at nice 10, 16 waiting, 2 per room | [`crate::work::PoolConfig`] |
//! | rendering pages of exports and streams | as many threads as cores at nice 10, 256 waiting, 32 per room | [`crate::work::PoolConfig::rendering`] |
//! | heap above which no new long work starts | 1 GiB (`nutshell serve --memory-limit`) | [`crate::memory`] |
//! | connections | 4,096 in all, 128 per address | [`crate::serve::ConnectionLimits`] |
//! | a request's head | 10 s (also an idle kept-alive connection) | [`crate::serve::ConnectionLimits`] |
//! | an unread answer | 30 s, then the connection is dropped | [`crate::serve::ConnectionLimits`] |
//! | a request, head to answer | 30 s, then 408 | [`ServerLimits::request_timeout`] |
//! | rates | see [`crate::rate::RateConfig`] | |

use std::time::Duration;

use nutshell_dice::Limits;

use crate::rate::RateConfig;
use crate::serve::ConnectionLimits;
use crate::store::StoreSettings;
use crate::work::PoolConfig;

/// Every limit of the server.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerLimits {
    /// The engine's limits for every roll and exact computation.
    pub engine: Limits,
    /// How large an odds answer may be.
    pub answer: AnswerLimits,
    /// Database timeouts and room quotas.
    pub store: StoreSettings,
    /// The pool for long work.
    pub pool: PoolConfig,
    /// The pool that renders pages of the log for exports and streams.
    pub render: PoolConfig,
    /// Rate limits.
    pub rates: RateConfig,
    /// Connections and their timeouts.
    pub connections: ConnectionLimits,
    /// How long a request may take from its head to its answer's head.
    pub request_timeout: Duration,
}

impl Default for ServerLimits {
    fn default() -> ServerLimits {
        ServerLimits {
            engine: server_engine_limits(),
            answer: AnswerLimits::default(),
            store: StoreSettings::default(),
            pool: PoolConfig::default(),
            render: PoolConfig::rendering(),
            rates: RateConfig::default(),
            connections: ConnectionLimits::default(),
            request_timeout: Duration::from_secs(30),
        }
    }
}

/// The engine's limits on the server: the command line's, lowered where
/// one request could otherwise take seconds or megabytes.
///
/// ```
/// use nutshell_dice::Limits;
/// let server = nutshell_server::limits::server_engine_limits();
/// let cli = Limits::default();
/// assert!(server.max_dice < cli.max_dice && server.max_work < cli.max_work);
/// ```
pub fn server_engine_limits() -> Limits {
    Limits {
        max_expression_chars: 1_000,
        max_dice: 1_000,
        max_outcomes: 20_000,
        max_work: 500_000_000,
        ..Limits::default()
    }
}

/// The server's engine limits with each of `given` that differs from the
/// command line's default taken instead (a limit flag given to `nutshell
/// serve` overrides the server's default, up or down).
pub fn engine_limits_from(given: &Limits) -> Limits {
    let cli = Limits::default();
    let mut limits = server_engine_limits();
    macro_rules! take {
        ($($field:ident),*) => {$(
            if given.$field != cli.$field {
                limits.$field = given.$field;
            }
        )*};
    }
    take!(
        max_expression_chars,
        max_nesting,
        max_dice,
        max_repeats_per_die,
        max_outcomes,
        max_work,
        tail_digits
    );
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_limit_overrides_the_servers_default() {
        assert_eq!(
            engine_limits_from(&Limits::default()),
            server_engine_limits()
        );
        let given = Limits {
            max_dice: 50_000,
            max_work: 1_000,
            ..Limits::default()
        };
        let limits = engine_limits_from(&given);
        assert_eq!(limits.max_dice, 50_000);
        assert_eq!(limits.max_work, 1_000);
        assert_eq!(limits.max_outcomes, server_engine_limits().max_outcomes);
    }
}

/// How large an odds answer may be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerLimits {
    /// Outcomes listed.
    pub max_outcomes: usize,
    /// Bytes of the JSON answer.
    pub max_bytes: usize,
}

impl Default for AnswerLimits {
    /// 10,000 outcomes, 2 MiB.
    fn default() -> AnswerLimits {
        AnswerLimits {
            max_outcomes: 10_000,
            max_bytes: 2 * 1024 * 1024,
        }
    }
}
