//! The store's own types, below both its queries and the group-commit
//! writer: what a room, a member and an event are, what an append gets and
//! gives, what can go wrong, and how a database row reads as each.

use serde_json::Value;
use sqlx::Row;
use sqlx::any::AnyRow;

use std::future::Future;
use std::time::Duration;

use super::settings;
use crate::fair;

/// What went wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database said no.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration failed.
    #[error("database migration: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// A stored body is not JSON (the database was edited by hand).
    #[error("stored event {room}#{seq} is not JSON: {error}")]
    Corrupt {
        room: String,
        seq: i64,
        error: serde_json::Error,
    },
    /// The group-commit transaction this append was in failed (`unavailable`:
    /// because the database could not be reached).
    #[error("database: {message}")]
    Batch { message: String, unavailable: bool },
    /// The writer task is gone (the server is stopping).
    #[error("the server is stopping")]
    Stopping,
    /// The database did not answer within the store's timeout (a write may
    /// or may not have been committed: it was not acknowledged).
    #[error("the database did not answer within {} s", .0.as_secs_f64())]
    TimedOut(std::time::Duration),
    /// A room over one of its quotas; nothing was written.
    #[error("{0}")]
    Quota(#[from] Quota),
    /// An event over the size limit; nothing was written.
    #[error(
        "this event would take {bytes} bytes; the most one event may take on this server is {max} (roll fewer dice)"
    )]
    TooLarge { bytes: usize, max: usize },
    /// A join under a name a member of the room has (the GM's `GM`
    /// included), compared trimmed, without regard to case, and with
    /// look-alike letters of other scripts as one ([`crate::names`]).
    #[error(
        "`{0}` is already a member's name in this room, or looks like one (the GM is `GM`): choose another name"
    )]
    NameTaken(String),
}

impl StoreError {
    /// Whether the database could not be reached (down, restarting, the
    /// connection cut), as opposed to refusing a statement.
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Database(error) => settings::is_unavailable(error),
            StoreError::Stopping | StoreError::TimedOut(_) => true,
            StoreError::Batch { unavailable, .. } => *unavailable,
            _ => false,
        }
    }

    /// What a 503 says: why, without the database's own words.
    pub fn unavailable_message(&self) -> String {
        match self {
            StoreError::TimedOut(_) | StoreError::Batch { .. } => format!(
                "the database did not answer in time: {}; try again",
                "the request may not have been written"
            ),
            StoreError::Stopping => "the server is stopping; nothing was written".to_string(),
            _ => "the database cannot be reached now; nothing was written; try again".to_string(),
        }
    }
}

/// A member of a room, as their key identifies them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub room: String,
    pub id: i64,
    pub name: String,
    pub role: Role,
}

/// What a member may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The game master: secret rolls, reveals, everything visible.
    Gm,
    /// A player: sees what is public and what has been revealed.
    Player,
}

impl Role {
    /// `gm` or `player`, as event bodies and the room's view name a role.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Gm => "gm",
            Role::Player => "player",
        }
    }
}

/// A room's state that is not in its log.
#[derive(Debug, Clone)]
pub struct Room {
    pub id: String,
    pub name: String,
    pub invite_hash: String,
    pub epoch: i64,
    pub seed: fair::Seed,
}

/// An event as stored.
#[derive(Debug, Clone)]
pub struct Event {
    pub room: String,
    pub seq: i64,
    pub kind: String,
    pub epoch: i64,
    pub secret: bool,
    pub shown: bool,
    pub body: Value,
    pub body_hash: String,
    pub prev: String,
    pub hash: String,
    pub at_ms: i64,
}

/// Where committed events go to the room's readers (the server's event
/// hub). The group-commit writer passes each event of a batch on as soon
/// as the batch commits, in the log's order, before any request is
/// answered: a room's readers get its events in order (nothing for them to
/// fill from the log), and an event whose request was dropped meanwhile
/// (the client went away) reaches them all the same.
pub trait Readers: Send + Sync {
    /// Passes a committed event on.
    fn publish(&self, event: std::sync::Arc<Event>);
}

/// An event to append: the store numbers and chains it.
#[derive(Debug, Clone)]
pub struct Draft {
    pub kind: &'static str,
    pub epoch: i64,
    pub secret: bool,
    pub body: Value,
    /// The thread this event continues (the `seq` of its first event: a
    /// fight's steps name the fight), or none.
    pub thread: Option<i64>,
    /// The member whose action draws this event's dice and their count
    /// ([`Slot::count`]), or none (set by the store from the roller given to
    /// the append).
    pub roller: Option<(i64, i64)>,
}

/// Where an event goes: its sequence number and, for an event that draws
/// dice, the roller's count of such events in the room, this one included
/// (0 for an event that draws none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    pub seq: i64,
    pub count: i64,
}

/// Which database a [`Store`](super::Store) talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// One file, one server process.
    Sqlite,
    /// Several server processes may share it (LISTEN/NOTIFY carries events
    /// between them, an advisory lock per room orders their writes).
    Postgres,
}

/// Why an append did not happen: the store failed, or the caller's own
/// check refused (then nothing was written).
#[derive(Debug)]
pub enum AppendError<E> {
    Store(StoreError),
    Refused(E),
}

impl<E> From<sqlx::Error> for AppendError<E> {
    fn from(error: sqlx::Error) -> Self {
        AppendError::Store(StoreError::Database(error))
    }
}

impl<E> From<StoreError> for AppendError<E> {
    fn from(error: StoreError) -> Self {
        AppendError::Store(error)
    }
}

/// The channel of PostgreSQL notifications: payload `room:seq`.
pub const NOTIFY_CHANNEL: &str = "nutshell_events";

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A room over one of its quotas.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Quota {
    #[error(
        "this room holds {0} events, the most a room may hold on this server: start a new room"
    )]
    Events(i64),
    #[error(
        "this room holds {held} bytes of events and this one would take it over {max}, the most a room may hold on this server: start a new room"
    )]
    Bytes { held: u64, max: u64 },
    #[error("this room has {0} members, the most a room may have on this server")]
    Members(usize),
}

/// Database work bounded by a timeout: past it, [`StoreError::TimedOut`].
pub(crate) trait Within<T, E>: Future<Output = Result<T, E>> + Sized
where
    E: Into<StoreError>,
{
    fn within(self, timeout: Duration) -> impl Future<Output = Result<T, StoreError>> + Send
    where
        Self: Send,
        T: Send,
        E: Send,
    {
        async move {
            match tokio::time::timeout(timeout, self).await {
                Ok(result) => result.map_err(Into::into),
                Err(_) => Err(StoreError::TimedOut(timeout)),
            }
        }
    }
}

impl<F, T, E> Within<T, E> for F
where
    F: Future<Output = Result<T, E>>,
    E: Into<StoreError>,
{
}

pub(crate) fn room_from(row: &AnyRow) -> Result<Room, StoreError> {
    let seed_hex: String = row.try_get("seed")?;
    let mut seed = [0u8; 32];
    if let Some(bytes) = fair::unhex(&seed_hex).filter(|b| b.len() == 32) {
        seed.copy_from_slice(&bytes);
    }
    Ok(Room {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        invite_hash: row.try_get("invite_hash")?,
        epoch: row.try_get("epoch")?,
        seed,
    })
}

pub(crate) fn member_from(row: &AnyRow) -> Result<Member, StoreError> {
    let role: String = row.try_get("role")?;
    Ok(Member {
        room: row.try_get("room")?,
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        role: if role == "gm" { Role::Gm } else { Role::Player },
    })
}

pub(crate) fn event_from(row: &AnyRow) -> Result<Event, StoreError> {
    let room: String = row.try_get("room")?;
    let seq: i64 = row.try_get("seq")?;
    let text: String = row.try_get("body")?;
    let body = serde_json::from_str(&text).map_err(|error| StoreError::Corrupt {
        room: room.clone(),
        seq,
        error,
    })?;
    Ok(Event {
        room,
        seq,
        kind: row.try_get("kind")?,
        epoch: row.try_get("epoch")?,
        secret: row.try_get::<i64, _>("secret")? != 0,
        shown: row.try_get::<i64, _>("shown")? != 0,
        body,
        body_hash: row.try_get("body_hash")?,
        prev: row.try_get("prev")?,
        hash: row.try_get("hash")?,
        at_ms: row.try_get("at_ms")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_past_the_timeout_fails_as_unavailable() {
        let slow = async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            Ok::<_, StoreError>(())
        };
        let error = slow.within(Duration::from_millis(20)).await.unwrap_err();
        assert!(error.is_unavailable());
        assert!(matches!(error, StoreError::TimedOut(_)));
    }
}
