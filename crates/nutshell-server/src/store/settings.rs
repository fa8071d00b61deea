//! How the store talks to its database and what a room may hold: the
//! timeout on every database operation, the quotas, and which database
//! failures mean "not reachable now" (503, try again) rather than "broken"
//! (500).
//!
//! A database that does not answer (a network partition keeps a connection
//! open and silent; a locked SQLite file; a PostgreSQL that is starting or
//! shutting down) makes each operation fail after [`StoreSettings::timeout`]
//! instead of hanging: a request then gets 503 with `Retry-After`.

use std::time::Duration;

/// The store's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreSettings {
    /// The longest a database operation (a query, a write transaction,
    /// getting a connection) may take before it fails as unavailable. Also
    /// PostgreSQL's `statement_timeout` and SQLite's `busy_timeout`.
    pub timeout: Duration,
    /// The largest event (its body as stored, in bytes): a bigger roll,
    /// fight step or sheet is refused (413 `event_too_large`).
    pub max_event_bytes: usize,
    /// The most events a room may hold.
    pub max_room_events: i64,
    /// The most bytes of event bodies a room may hold.
    pub max_room_bytes: u64,
    /// The most members (the GM included) a room may have.
    pub max_members: usize,
}

impl Default for StoreSettings {
    /// 5 s; events up to 256 KiB; rooms up to 100,000 events, 64 MiB and
    /// 64 members.
    fn default() -> StoreSettings {
        StoreSettings {
            timeout: Duration::from_secs(5),
            max_event_bytes: 256 * 1024,
            max_room_events: 100_000,
            max_room_bytes: 64 * 1024 * 1024,
            max_members: 64,
        }
    }
}

/// Whether a database error means the database cannot serve now (it is
/// down, starting, stopping, out of connections or disk, locked, or the
/// connection failed), as opposed to refusing the statement.
pub(crate) fn is_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed
        | sqlx::Error::Tls(_) => true,
        sqlx::Error::Database(database) => {
            let code = database.code().unwrap_or_default();
            if code.len() == 5 && !code.bytes().all(|b| b.is_ascii_digit()) {
                postgres_unavailable(&code)
            } else {
                code.parse::<i64>().is_ok_and(sqlite_unavailable)
            }
        }
        _ => false,
    }
}

/// PostgreSQL SQLSTATEs of a server that cannot serve now: class 08
/// (connection), 53 (insufficient resources), 57 (operator intervention:
/// shutting down, starting up, a statement cancelled by its timeout), 58
/// (system error), serialization failures and deadlocks (40001, 40P01), a
/// lock not available (55P03), and the database gone (3D000: dropped or
/// renamed away while the server runs).
fn postgres_unavailable(code: &str) -> bool {
    matches!(&code[..2], "08" | "53" | "57" | "58")
        || matches!(code, "40001" | "40P01" | "55P03" | "3D000")
}

/// SQLite result codes (extended codes carry the primary one in their low
/// byte) of a database that cannot serve now: busy (5), locked (6), out of
/// memory (7), I/O error (10), full (13), cannot open (14), protocol (15).
fn sqlite_unavailable(code: i64) -> bool {
    matches!(code & 0xff, 5 | 6 | 7 | 10 | 13 | 14 | 15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlstates_and_sqlite_codes_are_classified() {
        for code in [
            "08006", "08001", "57P01", "57P03", "57014", "53300", "40001", "40P01", "55P03",
            "3D000",
        ] {
            assert!(postgres_unavailable(code), "{code}");
        }
        for code in ["42P01", "23505", "22P02", "42703"] {
            assert!(!postgres_unavailable(code), "{code}");
        }
        for code in [5, 6, 517, 261, 10, 266, 13, 14] {
            assert!(sqlite_unavailable(code), "{code}");
        }
        for code in [1, 19, 2067, 11] {
            assert!(!sqlite_unavailable(code), "{code}");
        }
    }
}
