//! The durable store: rooms, members and each room's hash-chained event log,
//! in SQLite (the embedded default) or PostgreSQL, through one code path
//! (sqlx's Any driver, portable SQL, `$n` parameters that both accept; the
//! group-commit writer's long statements take SQLite's bare `?`). The
//! migrations beside this crate run at connect. Its types are in
//! `model`, below both its queries (`writes`, `threads`) and the
//! group-commit writer ([`crate::group_commit`]), which this facade starts.
//!
//! An event is appended inside a transaction that reads the room's last hash
//! and inserts the next sequence number: the caller acknowledges it only after
//! the commit, and the primary key `(room, seq)` refuses a second event with
//! the same number even if two server processes share a database.
//!
//! # In detail
//!
//! The database: migrations, rooms, members (key hashes), `store::model` (its
//! types, below both its queries and the group-commit writer: rooms, members,
//! events, drafts, slots, errors and quotas, the timeout wrapper, rows read
//! as each), `store::settings` (the timeout every operation runs under, which
//! failures mean unavailable), `append_with` (a `Slot`: sequence number and
//! the roller's count of dice-drawing events, the roller's latest
//! `roll_count` plus one; roll and hash chain built inside one write
//! transaction: `BEGIN IMMEDIATE` on SQLite, a per-room advisory lock on
//! PostgreSQL), `NOTIFY` on commit; `store::writes`: the statements of a
//! write transaction (lock, room state and chain end, events sealed and
//! inserted many to a statement); `store::threads`: events that continue an
//! earlier one (a fight's steps, a sheet's advances) name it in a `thread`
//! column, and `append_to_thread` reads the thread's latest event inside the
//! write transaction, so two requests built on the same state cannot both
//! append (of two answers to one decision, one is written); an event that
//! draws no dice (a change of control) is appended with no roller

use serde_json::Value;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

use crate::fair;
use crate::group_commit;

/// The columns of an event, as a literal for `concat!`.
macro_rules! select_event {
    () => {
        "SELECT room, seq, kind, epoch, secret, shown, body, body_hash, prev, hash, at_ms FROM events"
    };
}

pub(crate) mod model;
pub(crate) mod settings;
mod threads;
pub(crate) mod writes;

pub use model::{
    AppendError, Backend, Draft, Event, Member, NOTIFY_CHANNEL, Quota, Readers, Role, Room, Slot,
    StoreError,
};
pub(crate) use model::{Within, event_from, member_from, now_ms, room_from};
pub use settings::StoreSettings;

pub(crate) use writes::{insert_event, last_in, lock_room, rolls_of, room_in};

/// Whether two members' names are one: trimmed, without regard to case,
/// and look-alikes as one ([`crate::names::same_name`]).
pub use crate::names::same_name;

/// The database, whichever it is.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    url: std::sync::Arc<str>,
    /// The group-commit writer (see [`crate::group_commit`]).
    queue: group_commit::Queue,
    /// Members found by key: every request names its member by key, and a
    /// member never changes once added (keys cannot be revoked yet; when
    /// they can, this goes), so a key found once is not read again. Shared
    /// by the store's clones; emptied when it reaches [`MEMBERS_KEPT`].
    members: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, Member>>>,
    /// Where the writer passes committed events on ([`Store::pass_to`]).
    readers: group_commit::ReadersSlot,
    /// Timeouts and quotas.
    settings: StoreSettings,
}

/// How many members [`Store::member_by_key`] keeps in memory.
const MEMBERS_KEPT: usize = 100_000;

impl Store {
    /// Connects to `url` (`sqlite:PATH` or `postgres://...`) with the
    /// default [`StoreSettings`] and runs the migrations. A SQLite file is
    /// created if missing and put in WAL mode.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, StoreSettings::default()).await
    }

    /// [`connect`](Self::connect) with `settings`. Connecting and migrating
    /// must also finish within the timeout.
    pub async fn connect_with(url: &str, settings: StoreSettings) -> Result<Store, StoreError> {
        let timeout = settings.timeout;
        Store::open(url, settings).within(timeout).await
    }

    async fn open(url: &str, settings: StoreSettings) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let url = if sqlite && !url.contains('?') && !url.contains(":memory:") {
            format!("{url}?mode=rwc")
        } else {
            url.to_string()
        };
        let pool = pool_options(sqlite, &settings, if sqlite { 4 } else { 32 })
            .connect(&url)
            .await?;
        if sqlite {
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&pool)
                .await?;
        }
        sqlx::migrate!("./migrations").run(&pool).await?;
        let backend = if sqlite {
            Backend::Sqlite
        } else {
            Backend::Postgres
        };
        // The writer has connections of its own: exports, streams and
        // other reads, however many, never make an append wait for one.
        // Two: the one it writes with, and on SQLite its checkpointer's.
        let writer = pool_options(sqlite, &settings, 2);
        let writer_url = url.clone();
        let readers = group_commit::ReadersSlot::default();
        let queue = group_commit::start(
            Box::new(move || Box::pin(async move { writer.connect(&writer_url).await })),
            backend,
            settings.clone(),
            readers.clone(),
        )
        .await?;
        Ok(Store {
            pool,
            backend,
            url: url.into(),
            queue,
            members: Default::default(),
            readers,
            settings,
        })
    }

    /// The store's settings.
    pub fn settings(&self) -> &StoreSettings {
        &self.settings
    }

    fn timeout(&self) -> std::time::Duration {
        self.settings.timeout
    }

    /// The pool and the timeout every operation runs under, for a module
    /// with tables of its own (`discord::links`).
    pub(crate) fn pool_within(&self) -> (&AnyPool, std::time::Duration) {
        (&self.pool, self.timeout())
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The URL it was opened with (for PostgreSQL's listener connection).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// A transaction that may append to `room`: SQLite takes the write lock
    /// at once (`BEGIN IMMEDIATE`, so a stale read can never meet a write);
    /// PostgreSQL takes an advisory lock on the room, so writers in several
    /// processes append one after the other and sequence numbers stay gapless.
    pub(crate) async fn begin_write(
        &self,
        room: &str,
    ) -> Result<sqlx::Transaction<'static, sqlx::Any>, StoreError> {
        match self.backend {
            Backend::Sqlite => Ok(self
                .pool
                .begin_with("BEGIN IMMEDIATE")
                .within(self.timeout())
                .await?),
            Backend::Postgres => {
                let mut tx = self.pool.begin().within(self.timeout()).await?;
                lock_room(&mut tx, room).await?;
                Ok(tx)
            }
        }
    }

    /// Appends one event built by `build` from the room as it is inside the
    /// write transaction and the event's [`Slot`] (a roll's dice depend on
    /// the room's epoch and seed and on the roller's count); `build` also
    /// answers an output of its own, given back with the event. `roller` is
    /// the member whose action draws the event's dice (none for an event
    /// that draws none). `build` may refuse; then nothing is written.
    /// Committed before this returns, and passed on to the room's readers
    /// ([`Store::pass_to`]) before this returns: the caller does not pass it
    /// on again. Appends waiting at the same time share one transaction
    /// ([`crate::group_commit`]).
    pub async fn append_with<E, T, F>(
        &self,
        room: &str,
        roller: Option<i64>,
        build: F,
    ) -> Result<(std::sync::Arc<Event>, T), AppendError<E>>
    where
        E: Send + 'static,
        T: Send + 'static,
        F: FnOnce(&Room, Slot) -> Result<(Draft, T), E> + Send + 'static,
    {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job = group_commit::Job {
            room: room.to_string(),
            roller,
            build: Some(build),
            output: None,
            reply,
        };
        // The writer answers within its own timeout; waiting for room in
        // its queue counts against this one.
        let sent = tokio::time::timeout(self.timeout(), self.queue.send(Box::new(job))).await;
        match sent {
            Err(_) => return Err(AppendError::Store(StoreError::TimedOut(self.timeout()))),
            Ok(Err(_)) => return Err(AppendError::Store(StoreError::Stopping)),
            Ok(Ok(())) => {}
        }
        // A writer that gave up on the batch (past its timeout) drops the
        // reply: the append was not acknowledged.
        answer
            .await
            .map_err(|_| AppendError::Store(StoreError::TimedOut(self.timeout())))?
    }

    /// Sets where the events [`Store::append_with`] commits are passed on
    /// (the server's hub; the first call holds, later ones are ignored).
    /// Without it they are passed nowhere: the caller gets its event and
    /// readers would find it in the log.
    pub fn pass_to(&self, readers: std::sync::Arc<dyn Readers>) {
        self.readers.set(readers);
    }

    /// Creates a room with its GM and its first event (`room`, carrying the
    /// first commitment), in one transaction.
    pub async fn create_room(
        &self,
        room: &Room,
        gm_key_hash: &str,
        first: Draft,
    ) -> Result<Event, StoreError> {
        self.create_room_now(room, gm_key_hash, first)
            .within(self.timeout())
            .await
    }

    async fn create_room_now(
        &self,
        room: &Room,
        gm_key_hash: &str,
        first: Draft,
    ) -> Result<Event, StoreError> {
        let mut tx = self.begin_write(&room.id).await?;
        sqlx::query(
            "INSERT INTO rooms (id, name, invite_hash, epoch, seed, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&room.id)
        .bind(&room.name)
        .bind(&room.invite_hash)
        .bind(room.epoch)
        .bind(fair::hex(&room.seed))
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        insert_member(&mut tx, &room.id, 0, "GM", Role::Gm, gm_key_hash).await?;
        let (seq, prev) = last_in(&mut tx, &room.id).await?;
        let event = insert_event(&mut tx, &room.id, seq, prev, first, self.backend).await?;
        tx.commit().await?;
        Ok(event)
    }

    /// The member whose key hashes to `key_hash` if this process has seen
    /// the key before: no database look-up.
    pub fn member_in_memory(&self, key_hash: &str) -> Option<Member> {
        self.members
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key_hash)
            .cloned()
    }

    /// The member whose key hashes to `key_hash`. A key unknown here is
    /// read from the database each time (another process may have just
    /// added it).
    pub async fn member_by_key(&self, key_hash: &str) -> Result<Option<Member>, StoreError> {
        let kept = self
            .members
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key_hash)
            .cloned();
        if kept.is_some() {
            return Ok(kept);
        }
        let row = sqlx::query("SELECT room, id, name, role FROM members WHERE key_hash = $1")
            .bind(key_hash)
            .fetch_optional(&self.pool)
            .within(self.timeout())
            .await?;
        let member = row.map(|row| member_from(&row)).transpose()?;
        if let Some(member) = &member {
            let mut members = self.members.lock().unwrap_or_else(|e| e.into_inner());
            if members.len() >= MEMBERS_KEPT {
                members.clear();
            }
            members.insert(key_hash.to_string(), member.clone());
        }
        Ok(member)
    }

    /// The room `id`.
    pub async fn room(&self, id: &str) -> Result<Option<Room>, StoreError> {
        let row = sqlx::query("SELECT id, name, invite_hash, epoch, seed FROM rooms WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .within(self.timeout())
            .await?;
        row.map(|row| room_from(&row)).transpose()
    }

    /// The members of a room, in joining order.
    pub async fn members(&self, room: &str) -> Result<Vec<Member>, StoreError> {
        let rows =
            sqlx::query("SELECT room, id, name, role FROM members WHERE room = $1 ORDER BY id")
                .bind(room)
                .fetch_all(&self.pool)
                .within(self.timeout())
                .await?;
        rows.iter().map(member_from).collect()
    }

    /// Adds a player and their `join` event, in one transaction; the draft's
    /// body gets the new member's id as `member`.
    /// Refuses a member past [`StoreSettings::max_members`].
    pub async fn join(
        &self,
        room: &str,
        name: &str,
        key_hash: &str,
        draft: Draft,
    ) -> Result<(Member, Event), StoreError> {
        self.join_now(room, name, key_hash, draft)
            .within(self.timeout())
            .await
    }

    async fn join_now(
        &self,
        room: &str,
        name: &str,
        key_hash: &str,
        mut draft: Draft,
    ) -> Result<(Member, Event), StoreError> {
        // A write transaction from the start: a deferred one that read first
        // could not be promoted while another join writes (SQLite answers
        // "database is locked" at once) or would race for the member id.
        let mut tx = self.begin_write(room).await?;
        // Names are compared inside the write transaction, so two joins
        // under one name sent at once cannot both be let in.
        let names: Vec<String> = sqlx::query("SELECT name FROM members WHERE room = $1")
            .bind(room)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|row| row.try_get("name"))
            .collect::<Result<_, _>>()?;
        if names.iter().any(|taken| same_name(taken, name)) {
            return Err(StoreError::NameTaken(name.to_string()));
        }
        if names.len() >= self.settings.max_members {
            return Err(Quota::Members(names.len()).into());
        }
        let next: i64 =
            sqlx::query("SELECT COALESCE(MAX(id), 0) + 1 AS next FROM members WHERE room = $1")
                .bind(room)
                .fetch_one(&mut *tx)
                .await?
                .try_get("next")?;
        insert_member(&mut tx, room, next, name, Role::Player, key_hash).await?;
        draft.body["member"] = Value::from(next);
        draft.epoch = room_in(&mut tx, room).await?.epoch;
        let (seq, prev) = last_in(&mut tx, room).await?;
        let event = insert_event(&mut tx, room, seq, prev, draft, self.backend).await?;
        tx.commit().await?;
        let member = Member {
            room: room.to_string(),
            id: next,
            name: name.to_string(),
            role: Role::Player,
        };
        Ok((member, event))
    }

    /// The number the next event of `room` will get.
    pub async fn next_seq(&self, room: &str) -> Result<i64, StoreError> {
        let row =
            sqlx::query("SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM events WHERE room = $1")
                .bind(room)
                .fetch_one(&self.pool)
                .within(self.timeout())
                .await?;
        Ok(row.try_get("next")?)
    }

    /// Ends the room's epoch: appends the `reveal` event that `build` makes
    /// from the room (its seed is revealed there), stores `next_seed` for the
    /// next epoch and shows every secret event of the ended epoch, in one
    /// transaction.
    pub async fn rotate<E: Send>(
        &self,
        room: &str,
        next_seed: &fair::Seed,
        build: impl FnOnce(&Room, i64) -> Result<Draft, E> + Send,
    ) -> Result<Event, AppendError<E>> {
        let timeout = self.timeout();
        match tokio::time::timeout(timeout, self.rotate_now(room, next_seed, build)).await {
            Ok(done) => done,
            Err(_) => Err(AppendError::Store(StoreError::TimedOut(timeout))),
        }
    }

    async fn rotate_now<E>(
        &self,
        room: &str,
        next_seed: &fair::Seed,
        build: impl FnOnce(&Room, i64) -> Result<Draft, E>,
    ) -> Result<Event, AppendError<E>> {
        let mut tx = self.begin_write(room).await?;
        let state = room_in(&mut tx, room).await?;
        let (seq, prev) = last_in(&mut tx, room).await?;
        self.check_room_events(seq)?;
        let draft = build(&state, seq).map_err(AppendError::Refused)?;
        sqlx::query("UPDATE rooms SET epoch = $1, seed = $2 WHERE id = $3")
            .bind(state.epoch + 1)
            .bind(fair::hex(next_seed))
            .bind(room)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE events SET shown = 1 WHERE room = $1 AND epoch = $2 AND secret = 1")
            .bind(room)
            .bind(state.epoch)
            .execute(&mut *tx)
            .await?;
        let event = insert_event(&mut tx, room, seq, prev, draft, self.backend).await?;
        tx.commit().await?;
        Ok(event)
    }

    /// Shows the secret event `of` to everyone and appends the `show` event
    /// that `build` makes from it, in one transaction. `build` refuses an
    /// event that is not a secret roll or is already shown.
    pub async fn show<E: Send>(
        &self,
        room: &str,
        of: i64,
        build: impl FnOnce(&Room, Option<&Event>) -> Result<Draft, E> + Send,
    ) -> Result<(Event, Option<Event>), AppendError<E>> {
        let timeout = self.timeout();
        match tokio::time::timeout(timeout, self.show_now(room, of, build)).await {
            Ok(done) => done,
            Err(_) => Err(AppendError::Store(StoreError::TimedOut(timeout))),
        }
    }

    async fn show_now<E>(
        &self,
        room: &str,
        of: i64,
        build: impl FnOnce(&Room, Option<&Event>) -> Result<Draft, E>,
    ) -> Result<(Event, Option<Event>), AppendError<E>> {
        let mut tx = self.begin_write(room).await?;
        let state = room_in(&mut tx, room).await?;
        let target = sqlx::query(concat!(select_event!(), " WHERE room = $1 AND seq = $2"))
            .bind(room)
            .bind(of)
            .fetch_optional(&mut *tx)
            .await?
            .map(|row| event_from(&row))
            .transpose()?;
        let draft = build(&state, target.as_ref()).map_err(AppendError::Refused)?;
        sqlx::query("UPDATE events SET shown = 1 WHERE room = $1 AND seq = $2 AND secret = 1")
            .bind(room)
            .bind(of)
            .execute(&mut *tx)
            .await?;
        let (seq, prev) = last_in(&mut tx, room).await?;
        self.check_room_events(seq)?;
        let event = insert_event(&mut tx, room, seq, prev, draft, self.backend).await?;
        tx.commit().await?;
        Ok((event, target))
    }

    /// The event `seq` of a room.
    pub async fn event(&self, room: &str, seq: i64) -> Result<Option<Event>, StoreError> {
        let row = sqlx::query(concat!(select_event!(), " WHERE room = $1 AND seq = $2"))
            .bind(room)
            .bind(seq)
            .fetch_optional(&self.pool)
            .within(self.timeout())
            .await?;
        row.map(|row| event_from(&row)).transpose()
    }

    /// The events of a room whose stored body matches the SQL `LIKE`
    /// `pattern`, in order (at most 10,000).
    pub async fn events_matching(
        &self,
        room: &str,
        pattern: &str,
    ) -> Result<Vec<Event>, StoreError> {
        let rows = sqlx::query(concat!(
            select_event!(),
            " WHERE room = $1 AND body LIKE $2 ORDER BY seq LIMIT 10000"
        ))
        .bind(room)
        .bind(pattern)
        .fetch_all(&self.pool)
        .within(self.timeout())
        .await?;
        rows.iter().map(event_from).collect()
    }

    /// The first events of played fights in every room (room and sequence
    /// number, at most 10,000, the latest first): what a server starting
    /// looks through for decisions whose time may run out.
    pub async fn played_fights(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT room, seq FROM events WHERE kind = 'fight' AND body LIKE $1 ORDER BY seq DESC LIMIT 10000",
        )
        .bind("%\"played\":true%")
        .fetch_all(&self.pool)
        .within(self.timeout())
        .await?;
        rows.iter()
            .map(|row| -> Result<(String, i64), StoreError> {
                Ok((row.try_get::<String, _>(0)?, row.try_get::<i64, _>(1)?))
            })
            .collect()
    }

    /// Up to `limit` events of a room after `after`, in order.
    pub async fn events_after(
        &self,
        room: &str,
        after: i64,
        limit: i64,
    ) -> Result<Vec<Event>, StoreError> {
        self.event_rows_after(room, after, limit)
            .await?
            .events()
            .collect()
    }

    /// [`events_after`](Self::events_after) as the database's rows, not
    /// yet parsed: exports and streams parse and render them off the
    /// threads that answer requests ([`StoredRows::events`]).
    pub async fn event_rows_after(
        &self,
        room: &str,
        after: i64,
        limit: i64,
    ) -> Result<StoredRows, StoreError> {
        let rows = sqlx::query(concat!(
            select_event!(),
            " WHERE room = $1 AND seq > $2 ORDER BY seq LIMIT $3"
        ))
        .bind(room)
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .within(self.timeout())
        .await?;
        Ok(StoredRows(rows))
    }
}

/// Events as read from the database, not yet parsed.
pub struct StoredRows(Vec<AnyRow>);

impl StoredRows {
    /// How many events.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Parses each event (its body's JSON: the costly part of a big room's
    /// page).
    pub fn events(&self) -> impl Iterator<Item = Result<Event, StoreError>> + '_ {
        self.0.iter().map(event_from)
    }
}

/// What every SQLite connection is set to, after its busy timeout:
///
/// - `foreign_keys`: members and events name rooms that exist;
/// - `synchronous = FULL`: a commit is on disk before the answer (in WAL
///   mode FULL syncs the log at every commit; NORMAL would lose the last
///   commits on a power cut);
/// - `temp_store = MEMORY`: a statement's own undo journal (a multi-row
///   INSERT keeps one inside the transaction) in memory, not a temporary
///   file written page by page; it only undoes a statement that fails and
///   never survives a crash, so the commit's durability is the WAL's;
/// - `cache_size`: 16 MiB of pages a connection (six at most) rather than
///   SQLite's 2 MiB, so the indexes a write reads stay in memory as the log
///   grows;
/// - `wal_autocheckpoint = 8192`: the log checkpointed (copied into the
///   database, which is synced) by the commit that finds it past 8,192
///   pages (32 MiB) rather than SQLite's 1,000: pages a batch writes again
///   are copied once, not every few batches (closed loop 9,000 to 9,500
///   rolls a second against 7,800 to 8,100, in bench/server/run's order).
///   Most of the log is copied before by the writer's checkpointer
///   (`group_commit`), so that commit finishes the copy and lets the log
///   start again from its beginning, without stalling its batch.
const SQLITE_PRAGMAS: &[&str] = &[
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = FULL",
    "PRAGMA temp_store = MEMORY",
    "PRAGMA cache_size = -16384",
    "PRAGMA wal_autocheckpoint = 8192",
];

/// A pool of up to `size` connections set up as the store needs them.
fn pool_options(sqlite: bool, settings: &StoreSettings, size: u32) -> AnyPoolOptions {
    let timeout_ms = settings.timeout.as_millis().max(1) as u64;
    AnyPoolOptions::new()
        .max_connections(size)
        // While the database is down a request fails after this long
        // rather than waiting for it (then 503; the pool reconnects).
        .acquire_timeout(settings.timeout)
        .after_connect(move |conn, _| {
            Box::pin(async move {
                if !sqlite {
                    // No statement runs (or waits for a lock) longer than
                    // the store's timeout.
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "SET statement_timeout = {timeout_ms}"
                    )))
                    .execute(&mut *conn)
                    .await?;
                }
                if sqlite {
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "PRAGMA busy_timeout = {timeout_ms}"
                    )))
                    .execute(&mut *conn)
                    .await?;
                    for pragma in SQLITE_PRAGMAS {
                        sqlx::query(*pragma).execute(&mut *conn).await?;
                    }
                }
                Ok(())
            })
        })
}

impl Store {
    /// Refuses event `seq` of a room past [`StoreSettings::max_room_events`].
    pub(crate) fn check_room_events(&self, seq: i64) -> Result<(), StoreError> {
        if seq > self.settings.max_room_events {
            return Err(Quota::Events(seq - 1).into());
        }
        Ok(())
    }

    /// Refuses an event over [`StoreSettings::max_event_bytes`].
    pub(crate) fn check_event_size(&self, draft: &Draft) -> Result<(), StoreError> {
        let bytes = fair::canonical(&draft.body).len();
        if bytes > self.settings.max_event_bytes {
            return Err(StoreError::TooLarge {
                bytes,
                max: self.settings.max_event_bytes,
            });
        }
        Ok(())
    }
}

async fn insert_member(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    room: &str,
    id: i64,
    name: &str,
    role: Role,
    key_hash: &str,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO members (room, id, name, role, key_hash) VALUES ($1, $2, $3, $4, $5)")
        .bind(room)
        .bind(id)
        .bind(name)
        .bind(role.as_str())
        .bind(key_hash)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
