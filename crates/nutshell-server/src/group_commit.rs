//! Group commit: appends that arrive while a transaction is being written
//! wait and go into the next transaction together.
//!
//! Each write transaction costs a lock, several statements and a sync of
//! the log (SQLite's, PostgreSQL's WAL), whatever it holds. One writer per
//! process, on a thread and runtime of its own ([`start`]), takes every
//! waiting append (up to [`MAX_BATCH`]) into one transaction (`BEGIN
//! IMMEDIATE` on SQLite; on PostgreSQL it first takes the advisory lock of
//! every room in the batch, in one sorted order, so writers in other
//! processes wait for it and no two batches can deadlock), numbers and
//! chains each event in turn, and commits once; only then does it pass the
//! batch's events on to their rooms' readers, in the log's order, and give
//! each request its answer. An
//! acknowledgement still means committed: a crash before the commit loses
//! the whole batch, none of which was acknowledged. An append its builder
//! refuses is answered at once and writes nothing; a database error fails
//! the batch and every append in it.
//!
//! Nothing waits on purpose: a lone request is written at once, and batches
//! form only when requests arrive faster than transactions commit.

use tokio::sync::{mpsc, oneshot};

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::store::model::{
    AppendError, Backend, Draft, Event, Quota, Readers, Room, Slot, StoreError,
};

/// Where the writer passes committed events on, once the server has said
/// (set after the writer starts: the hub is made after the store). Shared
/// by the store's clones and the writer; the first setting holds.
#[derive(Clone, Default)]
pub(crate) struct ReadersSlot(Arc<OnceLock<Arc<dyn Readers>>>);

impl ReadersSlot {
    /// Sets the readers, unless set already.
    pub(crate) fn set(&self, readers: Arc<dyn Readers>) {
        let _ = self.0.set(readers);
    }

    fn get(&self) -> Option<&Arc<dyn Readers>> {
        self.0.get()
    }
}

impl std::fmt::Debug for ReadersSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.get().is_some() {
            "ReadersSlot(set)"
        } else {
            "ReadersSlot(unset)"
        })
    }
}
use crate::store::settings::StoreSettings;
use crate::store::writes as store;

/// Bytes of event bodies per room, as far as this writer knows: read once
/// per room (inside a write transaction), then counted up as it commits.
/// Forgotten for a room whose batch failed, and all at once past
/// [`TALLIES_KEPT`] rooms. With several processes on one database each
/// counts only its own appends after its first read: the quota holds to
/// within what the others added since.
#[derive(Default)]
struct Tallies(HashMap<String, u64>);

/// What the writer knows from its own batches on SQLite: each room's state
/// and chain end, and each roller's count, as its last commit left them.
/// Valid only while no other connection has written since (SQLite's
/// `PRAGMA data_version`, read inside the batch's write transaction, is
/// unchanged): then a batch reads only the rooms and rollers it does not
/// know, else everything again. Forgotten with a failed batch or a new
/// connection, and all at once past [`TALLIES_KEPT`] rooms. On PostgreSQL
/// (other processes write without a version to compare) nothing is kept.
#[derive(Default)]
struct Known {
    version: Option<i64>,
    rooms: HashMap<String, (Room, i64, String)>,
    counts: HashMap<(String, i64), i64>,
}

impl Known {
    fn forget(&mut self) {
        self.version = None;
        self.rooms.clear();
        self.counts.clear();
    }
}

/// How many rooms' byte counts the writer keeps.
const TALLIES_KEPT: usize = 10_000;

/// How long the writer's connection may sit idle before it is tested
/// (a round trip) ahead of its next batch.
const IDLE_TEST: std::time::Duration = std::time::Duration::from_secs(1);

/// The most appends one transaction takes (a thousand clients rolling as
/// fast as they are answered fill batches of about 450: each batch's round
/// trips and sync shared by more appends).
pub const MAX_BATCH: usize = 1024;

/// One waiting append, whatever its caller's types.
pub(crate) trait Pending: Send {
    /// The room it appends to.
    fn room(&self) -> &str;
    /// The member whose action draws the event's dice, if any.
    fn roller(&self) -> Option<i64>;
    /// Builds its event from the room and the event's slot; `None` when the
    /// builder refused (the refusal is answered at once).
    fn build(&mut self, room: &Room, slot: Slot) -> Option<Draft>;
    /// Answers the request: its event was committed (and passed on).
    fn committed(self: Box<Self>, event: Arc<Event>);
    /// Answers the request: the store failed.
    fn failed(self: Box<Self>, error: StoreError);
}

/// What an append answers: its committed event and the builder's output,
/// or why not.
pub(crate) type Appended<E, T> = Result<(Arc<Event>, T), AppendError<E>>;

/// An append with the caller's builder `F`, refusal `E` and extra output `T`.
pub(crate) struct Job<E, T, F> {
    pub room: String,
    pub roller: Option<i64>,
    pub build: Option<F>,
    pub output: Option<T>,
    pub reply: oneshot::Sender<Appended<E, T>>,
}

impl<E, T, F> Pending for Job<E, T, F>
where
    E: Send + 'static,
    T: Send + 'static,
    F: FnOnce(&Room, Slot) -> Result<(Draft, T), E> + Send + 'static,
{
    fn room(&self) -> &str {
        &self.room
    }

    fn roller(&self) -> Option<i64> {
        self.roller
    }

    fn build(&mut self, room: &Room, slot: Slot) -> Option<Draft> {
        let build = self.build.take()?;
        match build(room, slot) {
            Ok((mut draft, output)) => {
                self.output = Some(output);
                draft.roller = self.roller.map(|roller| (roller, slot.count));
                Some(draft)
            }
            Err(refusal) => {
                // The reply channel is consumed in `committed`/`failed`; a
                // refused job is answered through a replaced sender.
                let (sender, _) = oneshot::channel();
                let reply = std::mem::replace(&mut self.reply, sender);
                let _ = reply.send(Err(AppendError::Refused(refusal)));
                None
            }
        }
    }

    fn committed(self: Box<Self>, event: Arc<Event>) {
        let job = *self;
        if let Some(output) = job.output {
            let _ = job.reply.send(Ok((event, output)));
        }
    }

    fn failed(self: Box<Self>, error: StoreError) {
        let _ = self.reply.send(Err(AppendError::Store(error)));
    }
}

/// The queue of appends and the task that writes them.
pub(crate) type Queue = mpsc::Sender<Box<dyn Pending>>;

/// How the writer connects its own pool: called on the writer's thread, so
/// that the connections' sockets (PostgreSQL's) are driven by the writer's
/// own runtime.
pub(crate) type Connect = Box<
    dyn FnOnce() -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<sqlx::AnyPool, sqlx::Error>> + Send>,
        > + Send,
>;

/// Starts the writer on a thread of its own, with a runtime of its own
/// that runs nothing else, and connects its pool there (`connect`); answers
/// once connected. The writer ends when every sender is dropped. A batch
/// that takes longer than the settings' timeout is given up (its
/// transaction dropped, so rolled back unless its commit had gone through)
/// and its appends are answered as unavailable, not acknowledged.
///
/// Why a thread: a batch waits on the database a dozen times (begin, the
/// rooms' state, the rollers' counts, the inserts, the commit). On the
/// server's shared runtime each of those waits ended behind every request
/// ready to run (a thousand clients: about 3 ms a wait under load, most of
/// a batch's time), and the one writer is what every roll goes through.
pub(crate) async fn start(
    connect: Connect,
    backend: Backend,
    settings: StoreSettings,
    readers: ReadersSlot,
) -> Result<Queue, StoreError> {
    let (sender, receiver) = mpsc::channel::<Box<dyn Pending>>(MAX_BATCH * 16);
    let (ready, connected) = oneshot::channel::<Result<(), StoreError>>();
    std::thread::Builder::new()
        .name("nutshell-writer".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(error) => {
                    let _ = ready.send(Err(sqlx::Error::Io(error).into()));
                    return;
                }
            };
            runtime.block_on(async move {
                let pool = match connect().await {
                    Ok(pool) => pool,
                    Err(error) => {
                        let _ = ready.send(Err(error.into()));
                        return;
                    }
                };
                if ready.send(Ok(())).is_err() {
                    return;
                }
                let checkpoints = (backend == Backend::Sqlite)
                    .then(|| tokio::spawn(checkpoint_often(pool.clone())));
                write_all(&pool, backend, &settings, &readers, receiver).await;
                if let Some(checkpoints) = checkpoints {
                    checkpoints.abort();
                    let _ = checkpoints.await;
                }
                pool.close().await;
            });
        })
        .map_err(sqlx::Error::Io)?;
    connected.await.map_err(|_| StoreError::Stopping)??;
    Ok(sender)
}

/// How often the SQLite log is checkpointed beside the writer.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// Copies the SQLite log's new pages into the database every
/// [`CHECKPOINT_EVERY`], on a connection of the writer's pool other than
/// the one it writes with (a `PASSIVE` checkpoint: it never waits for the
/// writer, nor makes it wait), until aborted.
///
/// Why: the commit that finds the log past its `wal_autocheckpoint` pages
/// checkpoints them itself before its batch is answered: 8,192 pages, tens
/// of milliseconds in which no roll is acknowledged (at 5,000 rolls a
/// second offered, the p99 of an acknowledgement was 21 to 66 ms with it,
/// 7 to 14 ms without any checkpoint). With the pages copied here as they
/// come, that commit finds only the last tenth of a second's left to copy.
/// It still runs: only a checkpoint that finds the whole log copied lets
/// the next commit start the log again from its beginning (a checkpoint
/// here alone, racing the writer, never catches its end, and the log grew
/// without bound when it was the only one).
async fn checkpoint_often(pool: sqlx::AnyPool) {
    let mut every = tokio::time::interval(CHECKPOINT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let Ok(mut connection) = pool.acquire().await else {
            continue;
        };
        // Busy (another checkpoint running) or failed: the next one, or
        // the writer's own, copies what this one did not.
        match sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&mut *connection)
            .await
        {
            Ok(row) => {
                use sqlx::Row;
                tracing::debug!(
                    busy = row.try_get::<i64, _>(0).unwrap_or(-1),
                    log_pages = row.try_get::<i64, _>(1).unwrap_or(-1),
                    copied = row.try_get::<i64, _>(2).unwrap_or(-1),
                    "checkpoint"
                );
            }
            Err(error) => tracing::debug!(%error, "checkpoint failed"),
        }
    }
}

/// The writer's loop: takes every waiting append (up to [`MAX_BATCH`]) into
/// one batch and writes it, until every sender is dropped.
async fn write_all(
    pool: &sqlx::AnyPool,
    backend: Backend,
    settings: &StoreSettings,
    readers: &ReadersSlot,
    mut receiver: mpsc::Receiver<Box<dyn Pending>>,
) {
    let mut batch: Vec<Box<dyn Pending>> = Vec::with_capacity(MAX_BATCH);
    let mut tallies = Tallies::default();
    let mut known = Known::default();
    // The writer's connection, held from batch to batch: taking one from
    // the pool for each batch tested it with a round trip first, a wait of
    // its own in every batch under load. A connection that sat idle for a
    // while is tested before its batch (a database restarted meanwhile
    // fails the test, not the batch); one is let go after a database error
    // or a batch given up, and another taken.
    let mut held: Option<(sqlx::pool::PoolConnection<sqlx::Any>, std::time::Instant)> = None;
    while let Some(first) = receiver.recv().await {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match receiver.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let mut kept = held.take();
        if let Some((connection, last)) = kept.as_mut()
            && last.elapsed() >= IDLE_TEST
            && sqlx::Connection::ping(&mut **connection).await.is_err()
        {
            kept = None;
        }
        let mut connection = match kept {
            Some((connection, _)) => connection,
            None => match pool.acquire().await {
                Ok(connection) => {
                    known.forget();
                    connection
                }
                Err(error) => {
                    fail_all(batch.drain(..), &StoreError::Database(error));
                    continue;
                }
            },
        };
        let written = write(
            &mut connection,
            backend,
            settings,
            readers.get(),
            &mut tallies,
            &mut known,
            &mut batch,
        );
        match tokio::time::timeout(settings.timeout, written).await {
            Ok(true) => held = Some((connection, std::time::Instant::now())),
            Ok(false) => known.forget(),
            Err(_) => {
                known.forget();
                tracing::warn!(
                    "a write transaction took over {:?}; given up",
                    settings.timeout
                );
                // What it had counted may not have been committed.
                tallies.0.clear();
                batch.clear();
            }
        }
    }
}

/// Writes one batch in one transaction and answers every job in it; false
/// when the database failed (the connection is then let go).
async fn write(
    connection: &mut sqlx::AnyConnection,
    backend: Backend,
    settings: &StoreSettings,
    readers: Option<&Arc<dyn Readers>>,
    tallies: &mut Tallies,
    known: &mut Known,
    batch: &mut Vec<Box<dyn Pending>>,
) -> bool {
    let t0 = std::time::Instant::now();
    let n = batch.len();
    let began = match backend {
        Backend::Sqlite => sqlx::Connection::begin_with(connection, "BEGIN IMMEDIATE").await,
        Backend::Postgres => sqlx::Connection::begin(connection).await,
    };
    let mut tx = match began {
        Ok(tx) => tx,
        Err(error) => {
            fail_all(batch.drain(..), &StoreError::Database(error));
            return false;
        }
    };
    let t_begin = t0.elapsed();
    let mut room_ids: Vec<String> = batch.iter().map(|job| job.room().to_string()).collect();
    room_ids.sort();
    room_ids.dedup();
    if backend == Backend::Postgres
        && let Err(error) = store::lock_rooms(&mut tx, &room_ids).await
    {
        let _ = tx.rollback().await;
        fail_all(batch.drain(..), &error);
        return false;
    }
    let t_locked = t0.elapsed();
    // Each room's state and chain end, read once per batch (one statement
    // for all its rooms: each statement is a round trip to the database).
    if backend == Backend::Sqlite {
        match store::data_version(&mut tx).await {
            Ok(version) if known.version == Some(version) => {}
            Ok(version) => {
                known.forget();
                known.version = Some(version);
            }
            Err(error) => {
                let _ = tx.rollback().await;
                fail_all(batch.drain(..), &error);
                return false;
            }
        }
    }
    let unknown: Vec<String> = room_ids
        .iter()
        .filter(|id| !known.rooms.contains_key(*id))
        .cloned()
        .collect();
    let mut rooms = match store::rooms_in(&mut tx, &unknown, backend).await {
        Ok(mut rooms) => {
            for id in &room_ids {
                if let Some(state) = known.rooms.get(id) {
                    rooms.insert(id.clone(), state.clone());
                }
            }
            rooms
        }
        Err(error) => {
            let _ = tx.rollback().await;
            fail_all(batch.drain(..), &error);
            return false;
        }
    };
    // Each roller's count of dice-drawing events, read once per batch (one
    // statement for every roller in it) and counted up as the batch's
    // events are built.
    let t_rooms = t0.elapsed();
    let mut pairs: Vec<(String, i64)> = batch
        .iter()
        .filter_map(|job| Some((job.room().to_string(), job.roller()?)))
        .collect();
    pairs.sort();
    pairs.dedup();
    let (cached, pairs): (Vec<_>, Vec<_>) = pairs
        .into_iter()
        .partition(|pair| known.counts.contains_key(pair));
    let mut counts: HashMap<(String, i64), i64> =
        match store::rolls_of_many(&mut tx, &pairs, backend).await {
            Ok(mut counts) => {
                for pair in cached {
                    let count = known.counts[&pair];
                    counts.insert(pair, count);
                }
                counts
            }
            Err(error) => {
                let _ = tx.rollback().await;
                fail_all(batch.drain(..), &error);
                return false;
            }
        };
    let t_read = t0.elapsed();
    let mut sealed: Vec<store::Sealed> = Vec::with_capacity(batch.len());
    let mut waiting: Vec<Box<dyn Pending>> = Vec::with_capacity(batch.len());
    for mut job in batch.drain(..) {
        let Some((room, seq, prev)) = rooms.get_mut(job.room()) else {
            let room = job.room().to_string();
            job.failed(StoreError::Database(sqlx::Error::Protocol(format!(
                "no room {room}"
            ))));
            continue;
        };
        if *seq > settings.max_room_events {
            job.failed(Quota::Events(*seq - 1).into());
            continue;
        }
        let count = match job.roller() {
            None => 0,
            Some(roller) => counts.get(&(room.id.clone(), roller)).copied().unwrap_or(0) + 1,
        };
        let Some(draft) = job.build(room, Slot { seq: *seq, count }) else {
            continue;
        };
        let one = store::seal(&room.id, *seq, prev.clone(), draft);
        let bytes = one.body_bytes();
        if bytes > settings.max_event_bytes {
            job.failed(StoreError::TooLarge {
                bytes,
                max: settings.max_event_bytes,
            });
            continue;
        }
        let held = match tallies.0.get(&room.id) {
            Some(held) => *held,
            None => match store::room_bytes(&mut tx, &room.id, backend).await {
                Ok(held) => {
                    if tallies.0.len() >= TALLIES_KEPT {
                        tallies.0.clear();
                    }
                    tallies.0.insert(room.id.clone(), held);
                    held
                }
                Err(error) => {
                    job.failed(error);
                    continue;
                }
            },
        };
        if held + bytes as u64 > settings.max_room_bytes {
            job.failed(
                Quota::Bytes {
                    held,
                    max: settings.max_room_bytes,
                }
                .into(),
            );
            continue;
        }
        tallies.0.insert(room.id.clone(), held + bytes as u64);
        if let Some(roller) = job.roller() {
            counts.insert((room.id.clone(), roller), count);
        }
        *seq += 1;
        *prev = one.event.hash.clone();
        sealed.push(one);
        waiting.push(job);
    }
    let t_build = t0.elapsed();
    if let Err(error) = store::insert_events(&mut tx, &sealed, backend).await {
        let _ = tx.rollback().await;
        forget(tallies, &sealed);
        {
            fail_all(waiting.into_iter(), &error);
            return false;
        }
    }
    let t_insert = t0.elapsed();
    let committed = tx.commit().await;
    let t_commit = t0.elapsed();
    // Where a batch's time goes (`RUST_LOG=nutshell_server::group_commit=debug`):
    // each part's microseconds.
    tracing::debug!(
        appends = n,
        begin_us = t_begin.as_micros() as u64,
        lock_us = (t_locked - t_begin).as_micros() as u64,
        rooms_us = (t_rooms - t_locked).as_micros() as u64,
        counts_us = (t_read - t_rooms).as_micros() as u64,
        build_us = (t_build - t_read).as_micros() as u64,
        insert_us = (t_insert - t_build).as_micros() as u64,
        commit_us = (t_commit - t_insert).as_micros() as u64,
        "batch written"
    );
    match committed {
        Ok(()) => {
            // In the log's order: each room's readers get its events in
            // turn, before any of their requests is answered.
            for (job, one) in waiting.into_iter().zip(sealed) {
                let event = Arc::new(one.event);
                if let Some(readers) = readers {
                    readers.publish(event.clone());
                }
                job.committed(event);
            }
            if backend == Backend::Sqlite {
                if known.rooms.len() >= TALLIES_KEPT || known.counts.len() >= 4 * TALLIES_KEPT {
                    let version = known.version;
                    known.forget();
                    known.version = version;
                }
                known.rooms.extend(rooms);
                known.counts.extend(counts);
            }
            true
        }
        Err(error) => {
            forget(tallies, &sealed);
            fail_all(waiting.into_iter(), &StoreError::Database(error));
            false
        }
    }
}

/// Forgets the byte counts of the rooms of a batch that was not committed.
fn forget(tallies: &mut Tallies, sealed: &[store::Sealed]) {
    for one in sealed {
        tallies.0.remove(&one.event.room);
    }
}

/// Fails every job with the batch's error (whether the database could not
/// be reached is kept, so each request answers 503 rather than 500).
fn fail_all(jobs: impl Iterator<Item = Box<dyn Pending>>, error: &StoreError) {
    for job in jobs {
        job.failed(StoreError::Batch {
            message: error.to_string(),
            unavailable: error.is_unavailable(),
        });
    }
}
