//! The statements of a write transaction: a room's advisory lock
//! (PostgreSQL), the room's state and chain end as the transaction sees
//! them, and events numbered, chained and inserted (many to a statement for
//! a group-commit batch). Shared by every way of appending.

use sqlx::Row;

use super::model::{Backend, Draft, Event, NOTIFY_CHANNEL, Room, StoreError, now_ms, room_from};
use crate::fair;

/// The key of a room's PostgreSQL advisory lock: the first 60 bits of the
/// SHA-256 of its id.
pub(crate) fn lock_key(room: &str) -> i64 {
    let digest = fair::sha256_hex(room.as_bytes());
    i64::from_str_radix(&digest[..15], 16).unwrap_or(0)
}

/// Takes the advisory locks of `rooms` on PostgreSQL until the transaction
/// ends, in the order of their keys (every batch takes them in that one
/// order, so no two can deadlock), in one statement a chunk: PostgreSQL
/// evaluates a volatile function of the output list after `ORDER BY` sorts
/// the rows ("SELECT", the output list's evaluation), and the keys are also
/// given sorted.
pub(crate) async fn lock_rooms(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    rooms: &[impl AsRef<str>],
) -> Result<(), StoreError> {
    let mut keys: Vec<i64> = rooms.iter().map(|room| lock_key(room.as_ref())).collect();
    keys.sort_unstable();
    keys.dedup();
    for chunk in keys.chunks(500) {
        // Padded with the last key again (a lock a transaction holds is
        // taken again at once), so the statement comes in a few shapes.
        let padded = padded(chunk.len());
        let list: Vec<String> = (1..=padded).map(|i| format!("(${i})")).collect();
        // Only placeholders are formatted into the statement.
        let mut query = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT pg_advisory_xact_lock(k) FROM (VALUES {}) AS v(k) ORDER BY k",
            list.join(", ")
        )));
        for key in chunk.iter().chain(std::iter::repeat_n(
            &chunk[chunk.len() - 1],
            padded - chunk.len(),
        )) {
            query = query.bind(*key);
        }
        query.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Takes the room's advisory lock on PostgreSQL until the transaction ends:
/// every writer of a room, in any process, holds it, so they append one
/// after the other.
pub(crate) async fn lock_room(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    room: &str,
) -> Result<(), StoreError> {
    lock_rooms(tx, &[room]).await
}

/// The room as the transaction sees it.
pub(crate) async fn room_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
) -> Result<Room, StoreError> {
    let row = sqlx::query("SELECT id, name, invite_hash, epoch, seed FROM rooms WHERE id = $1")
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
    room_from(&row)
}

/// The next sequence number of a room and the hash it chains to.
pub(crate) async fn last_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    room: &str,
) -> Result<(i64, String), StoreError> {
    let last =
        sqlx::query("SELECT seq, hash FROM events WHERE room = $1 ORDER BY seq DESC LIMIT 1")
            .bind(room)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(match last {
        Some(row) => (
            row.try_get::<i64, _>("seq")? + 1,
            row.try_get::<String, _>("hash")?,
        ),
        None => (1, fair::GENESIS.to_string()),
    })
}

/// An event ready to insert: numbered, chained, hashed; its stored body
/// text and thread beside it.
pub(crate) struct Sealed {
    pub event: Event,
    body_text: String,
    thread: Option<i64>,
    roller: Option<(i64, i64)>,
}

impl Sealed {
    /// The bytes its body takes as stored.
    pub fn body_bytes(&self) -> usize {
        self.body_text.len()
    }
}

/// Numbers `draft` as event `seq` of `room`, chained to `prev`.
pub(crate) fn seal(room: &str, seq: i64, prev: String, draft: Draft) -> Sealed {
    let body_text = fair::canonical(&draft.body);
    let body_hash = fair::sha256_hex(body_text.as_bytes());
    let at_ms = now_ms();
    let hash = fair::chain_hash(&fair::Link {
        at_ms,
        body_hash: &body_hash,
        epoch: draft.epoch,
        kind: draft.kind,
        prev: &prev,
        room,
        secret: draft.secret,
        seq,
    });
    Sealed {
        event: Event {
            room: room.to_string(),
            seq,
            kind: draft.kind.to_string(),
            epoch: draft.epoch,
            secret: draft.secret,
            shown: false,
            body: draft.body,
            body_hash,
            prev,
            hash,
            at_ms,
        },
        body_text,
        thread: draft.thread,
        roller: draft.roller,
    }
}

/// The most events one `INSERT` statement writes (13 parameters each):
/// fewer statements are fewer round trips to the database's worker.
const INSERT_ROWS: usize = 256;

/// How a batch of `n` events is cut into `INSERT` statements: the largest
/// power of two (at most [`INSERT_ROWS`]) first, then the next, so that
/// every statement has one of nine shapes (1, 2, 4, … 256 rows), each
/// prepared once per connection and kept, and a batch takes a few
/// statements (450 events: 256 + 128 + 64 + 2).
///
/// ```text
/// insert_chunks(450) == [256, 128, 64, 2]
/// ```
fn insert_chunks(mut n: usize) -> Vec<usize> {
    let mut chunks = Vec::new();
    while n > 0 {
        let size = (1 << n.ilog2()).min(INSERT_ROWS);
        chunks.push(size);
        n -= size;
    }
    chunks
}

/// The `n`th (1-based) of `count` placeholders of a statement, as the
/// backend reads them fastest: PostgreSQL's `$n`; on SQLite a bare `?`, taken
/// in order (sqlx finds a named `$n` by scanning the statement's list of
/// names, so binding named ones costs the square of their number: 6% of the
/// server's time under load at 64 rows an `INSERT`).
fn placeholders(backend: Backend, first: usize, count: usize) -> Vec<String> {
    (first..first + count)
        .map(|n| match backend {
            Backend::Sqlite => "?".to_string(),
            Backend::Postgres => format!("${n}"),
        })
        .collect()
}

/// Inserts sealed events, many to a statement (each statement is a round
/// trip to the database's worker); on PostgreSQL also queues their
/// notifications, sent by the commit.
pub(crate) async fn insert_events(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    sealed: &[Sealed],
    backend: Backend,
) -> Result<(), StoreError> {
    let mut rest = sealed;
    for size in insert_chunks(sealed.len()) {
        let (chunk, after) = rest.split_at(size);
        rest = after;
        let mut sql = String::from(
            "INSERT INTO events (room, seq, kind, epoch, secret, shown, body, body_hash, prev, hash, at_ms, thread, roller, roll_count) VALUES ",
        );
        for i in 0..chunk.len() {
            if i > 0 {
                sql.push_str(", ");
            }
            let p = placeholders(backend, i * 13 + 1, 13);
            sql.push_str(&format!(
                "({}, {}, {}, {}, {}, 0, {})",
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                p[5..].join(", ")
            ));
        }
        // Only placeholders are formatted into the statement.
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for one in chunk {
            let e = &one.event;
            query = query
                .bind(e.room.clone())
                .bind(e.seq)
                .bind(e.kind.clone())
                .bind(e.epoch)
                .bind(i64::from(e.secret))
                .bind(one.body_text.clone())
                .bind(e.body_hash.clone())
                .bind(e.prev.clone())
                .bind(e.hash.clone())
                .bind(e.at_ms)
                .bind(one.thread)
                .bind(one.roller.map(|(roller, _)| roller))
                .bind(one.roller.map(|(_, count)| count));
        }
        query.execute(&mut **tx).await?;
        if backend == Backend::Postgres {
            let calls: Vec<String> = (0..chunk.len())
                .map(|i| format!("pg_notify($1, ${})", i + 2))
                .collect();
            let mut notify =
                sqlx::query(sqlx::AssertSqlSafe(format!("SELECT {}", calls.join(", "))))
                    .bind(NOTIFY_CHANNEL);
            for one in chunk {
                notify = notify.bind(format!("{}:{}", one.event.room, one.event.seq));
            }
            notify.execute(&mut **tx).await?;
        }
    }
    Ok(())
}

/// Inserts event `seq` chained to `prev`; on PostgreSQL also queues its
/// notification, sent by the commit.
pub(crate) async fn insert_event(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    room: &str,
    seq: i64,
    prev: String,
    draft: Draft,
    backend: Backend,
) -> Result<Event, StoreError> {
    let sealed = seal(room, seq, prev, draft);
    insert_events(tx, std::slice::from_ref(&sealed), backend).await?;
    Ok(sealed.event)
}

/// How many dice-drawing events `roller` has in `room`, as the transaction
/// sees them: the count of their latest (one look-up in the index).
pub(crate) async fn rolls_of(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    room: &str,
    roller: i64,
    backend: Backend,
) -> Result<i64, StoreError> {
    let pair = (room.to_string(), roller);
    let counts = rolls_of_many(tx, std::slice::from_ref(&pair), backend).await?;
    Ok(counts.get(&pair).copied().unwrap_or(0))
}

/// How many dice-drawing events each `(room, roller)` of `pairs` has, as
/// the transaction sees them (0 for none): each the count of the pair's
/// latest event, one look-up in the index a pair, and one statement for up
/// to 250 pairs (a statement a pair made a round trip to the database for
/// every event of a batch).
pub(crate) async fn rolls_of_many(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    pairs: &[(String, i64)],
    backend: Backend,
) -> Result<std::collections::HashMap<(String, i64), i64>, StoreError> {
    let mut found = std::collections::HashMap::with_capacity(pairs.len());
    for chunk in pairs.chunks(250) {
        let padded = padded(chunk.len());
        let list: Vec<String> = (0..padded)
            .map(|i| format!("({})", placeholders(backend, 2 * i + 1, 2).join(", ")))
            .collect();
        // Only placeholders are formatted into the statement.
        let mut query = sqlx::query(sqlx::AssertSqlSafe(format!(
            "WITH want(room, roller) AS (VALUES {}) \
             SELECT want.room AS room, want.roller AS roller, \
             CAST(COALESCE((SELECT MAX(e.roll_count) FROM events e \
             WHERE e.room = want.room AND e.roller = want.roller), 0) AS BIGINT) AS n FROM want",
            list.join(", ")
        )));
        for (room, roller) in chunk
            .iter()
            .chain(std::iter::repeat_n(&chunk[0], padded - chunk.len()))
        {
            query = query.bind(room.clone()).bind(*roller);
        }
        for row in query.fetch_all(&mut **tx).await? {
            let room: String = row.try_get("room")?;
            let roller: i64 = row.try_get("roller")?;
            found.insert((room, roller), row.try_get::<i64, _>("n")?);
        }
    }
    Ok(found)
}

/// The bytes of event bodies `room` holds, as the transaction sees them.
pub(crate) async fn room_bytes(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    room: &str,
    backend: Backend,
) -> Result<u64, StoreError> {
    let sql = match backend {
        Backend::Sqlite => {
            "SELECT CAST(COALESCE(SUM(LENGTH(CAST(body AS BLOB))), 0) AS BIGINT) AS bytes FROM events WHERE room = $1"
        }
        Backend::Postgres => {
            "SELECT CAST(COALESCE(SUM(OCTET_LENGTH(body)), 0) AS BIGINT) AS bytes FROM events WHERE room = $1"
        }
    };
    let row = sqlx::query(sql).bind(room).fetch_one(&mut **tx).await?;
    Ok(row.try_get::<i64, _>("bytes")?.max(0) as u64)
}

/// SQLite's `PRAGMA data_version` on the transaction's connection: a
/// number that changes when another connection commits, so that what this
/// one learned from its own commits is known to still hold while it has
/// not changed (`group_commit`'s `Known`).
pub(crate) async fn data_version(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
) -> Result<i64, StoreError> {
    let row = sqlx::query("PRAGMA data_version")
        .fetch_one(&mut **tx)
        .await?;
    Ok(row.try_get::<i64, _>(0)?)
}

/// The state of each of `rooms` and the next sequence number and chain end
/// of each, in one statement for up to 500 rooms (rooms missing from the
/// answer do not exist).
pub(crate) async fn rooms_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    rooms: &[String],
    backend: Backend,
) -> Result<std::collections::HashMap<String, (Room, i64, String)>, StoreError> {
    let mut found = std::collections::HashMap::new();
    for chunk in rooms.chunks(500) {
        let padded = padded(chunk.len());
        let list = placeholders(backend, 1, padded).join(", ");
        // Each room's last event by one look-up in the (room, seq) index: a
        // `MAX(seq) ... GROUP BY room` reads every event of every room in
        // the batch (SQLite's one-row MAX shortcut does not apply to a
        // group), a cost that grew with the rooms' logs. Only placeholders
        // are formatted into the statement.
        let last = match backend {
            // A lateral look-up, so that PostgreSQL's plan for the prepared
            // statement (generic after a few runs) cannot become a scan of
            // every event of the rooms: measured growing with the log, a
            // third of a batch's time after 70,000 events.
            Backend::Postgres => {
                "LEFT JOIN LATERAL (SELECT seq, hash FROM events WHERE room = r.id ORDER BY seq DESC LIMIT 1) e ON TRUE"
            }
            Backend::Sqlite => {
                "LEFT JOIN events e ON e.room = r.id AND e.seq = (SELECT MAX(seq) FROM events WHERE room = r.id)"
            }
        };
        let mut query = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT r.id AS id, r.name AS name, r.invite_hash AS invite_hash, r.epoch AS epoch, \
             r.seed AS seed, e.seq AS seq, e.hash AS hash FROM rooms r {last} WHERE r.id IN ({list})"
        )));
        for room in chunk
            .iter()
            .chain(std::iter::repeat_n(&chunk[0], padded - chunk.len()))
        {
            query = query.bind(room.clone());
        }
        for row in query.fetch_all(&mut **tx).await? {
            let room = room_from(&row)?;
            let seq: Option<i64> = row.try_get("seq")?;
            let end = match seq {
                Some(seq) => (seq + 1, row.try_get::<String, _>("hash")?),
                None => (1, fair::GENESIS.to_string()),
            };
            found.insert(room.id.clone(), (room, end.0, end.1));
        }
    }
    Ok(found)
}

/// How many placeholders a list of `n` values is given: the next power of
/// two (at least 8), the values after the `n`th repeating one of them, so
/// that a batch's statements come in a few shapes that each connection
/// prepares once and keeps, rather than a new text for every count.
fn padded(n: usize) -> usize {
    n.next_power_of_two().max(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_cut_into_statements_of_a_few_shapes_that_cover_it_once() {
        assert_eq!(insert_chunks(450), vec![256, 128, 64, 2]);
        assert_eq!(insert_chunks(1), vec![1]);
        assert!(insert_chunks(0).is_empty());
        let mut shapes = std::collections::BTreeSet::new();
        for n in 0..=3000 {
            let chunks = insert_chunks(n);
            assert_eq!(chunks.iter().sum::<usize>(), n, "{n} events");
            // Largest first, so that a batch takes as few statements as
            // its shapes allow.
            assert!(
                chunks.windows(2).all(|pair| pair[0] >= pair[1]),
                "{chunks:?}"
            );
            shapes.extend(chunks);
        }
        assert_eq!(shapes.len(), 9, "{shapes:?}");
    }
}
