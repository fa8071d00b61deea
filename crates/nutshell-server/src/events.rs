//! Live events: a broadcast channel per room, what each member may see of an
//! event, and the stream a member reads: back-filled from the log after the
//! last sequence number they saw, then live, in order, without gaps or
//! duplicates.
//!
//! Events reach a room's channel from the handler that committed them and,
//! on PostgreSQL, from the notifications of other server processes; the hub
//! passes each sequence number on once and in increasing order (a number that
//! arrives after a later one is dropped). A reader subscribes before it
//! back-fills, skips what it already sent, and fills any gap (a dropped or
//! missed number, or a slow reader that lagged behind the channel) from the
//! log, so it sees every event exactly once, in order.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};

use crate::store::{Event, Member, Role, Store, StoreError};
use crate::work::{Busy, WorkPool};

/// How many events a room's channel holds for a slow reader before it must
/// re-read the log.
const CHANNEL_DEPTH: usize = 256;

/// How many events one back-fill query reads: a reader from sequence 0
/// holds at most this many events in memory at once (each at most the
/// store's `max_event_bytes`), whatever the room's size.
pub const BACKFILL_BATCH: i64 = 16;

/// Events waiting between a reader's task and its connection.
const OUT_DEPTH: usize = 8;

/// How long a reader's task waits for the connection to take an event
/// before it gives the reader up (the connection's own write timeout
/// usually closes it first).
const SLOW_READER: std::time::Duration = std::time::Duration::from_secs(60);

/// The rooms' channels.
#[derive(Default)]
pub struct Hub {
    channels: Mutex<HashMap<String, Channel>>,
}

struct Channel {
    sender: broadcast::Sender<Arc<Event>>,
    /// The highest sequence number passed on.
    last: i64,
}

/// The group-commit writer passes each committed event on here.
impl crate::store::Readers for Hub {
    fn publish(&self, event: Arc<Event>) {
        self.publish_shared(event);
    }
}

impl Hub {
    fn subscribe(&self, room: &str) -> broadcast::Receiver<Arc<Event>> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels
            .entry(room.to_string())
            .or_insert_with(|| Channel {
                sender: broadcast::channel(CHANNEL_DEPTH).0,
                last: 0,
            })
            .sender
            .subscribe()
    }

    /// Sends a committed event to the room's readers, unless a later one has
    /// gone already (readers fill such gaps from the log).
    pub fn publish(&self, event: Event) {
        self.publish_shared(Arc::new(event));
    }

    /// [`Hub::publish`] for an event already shared.
    fn publish_shared(&self, event: Arc<Event>) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        // A room nobody reads has no channel: nothing to do.
        if let Some(channel) = channels.get_mut(&event.room)
            && event.seq > channel.last
        {
            channel.last = event.seq;
            // No reader is not an error.
            let _ = channel.sender.send(event);
        }
    }

    /// Whether event `seq` of `room` would reach anyone here: the room has
    /// readers in this process and the number is past the last passed on
    /// (this process's own events were passed on by its writer or handlers).
    fn wants(&self, room: &str, seq: i64) -> bool {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels.get(room).is_some_and(|c| seq > c.last)
    }

    /// The rooms with readers in this process and the last number each got.
    fn watched(&self) -> Vec<(String, i64)> {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels
            .iter()
            .map(|(room, c)| (room.clone(), c.last))
            .collect()
    }

    /// Feeds this process's channels with the events other processes commit
    /// to the same PostgreSQL database: one listener connection for the
    /// process, `LISTEN nutshell_events`, each notification's event read from
    /// the table. After the connection drops (notifications sent meanwhile are
    /// lost) it reconnects and back-fills every watched room from the table.
    pub fn listen_postgres(self: &Arc<Self>, store: Store) {
        let hub = self.clone();
        tokio::spawn(async move {
            let mut delay = std::time::Duration::from_millis(100);
            loop {
                match hub.listen_once(&store).await {
                    Ok(()) => return,
                    Err(error) => {
                        tracing::warn!(%error, "event listener lost its connection; reconnecting");
                        tokio::time::sleep(delay).await;
                        delay = (delay * 2).min(std::time::Duration::from_secs(5));
                    }
                }
            }
        });
    }

    async fn listen_once(&self, store: &Store) -> Result<(), sqlx::Error> {
        let mut listener = sqlx::postgres::PgListener::connect(store.url()).await?;
        listener.ignore_pool_close_event(true);
        listener.listen(crate::store::NOTIFY_CHANNEL).await?;
        // Whatever was committed while no listener ran.
        self.catch_up(store).await;
        loop {
            // `try_recv` gives `None` when the connection dropped (it
            // reconnects on the next call): back-fill then.
            match listener.try_recv().await? {
                Some(notification) => {
                    let Some((room, seq)) = notification.payload().rsplit_once(':') else {
                        continue;
                    };
                    let Ok(seq) = seq.parse::<i64>() else {
                        continue;
                    };
                    // Only read the event if someone here needs it.
                    if !self.wants(room, seq) {
                        continue;
                    }
                    if let Ok(Some(event)) = store.event(room, seq).await {
                        self.publish(event);
                    }
                }
                None => self.catch_up(store).await,
            }
        }
    }

    async fn catch_up(&self, store: &Store) {
        for (room, last) in self.watched() {
            if let Ok(events) = store.events_after(&room, last, BACKFILL_BATCH).await {
                for event in events {
                    self.publish(event);
                }
            }
        }
    }

    /// Streams the events of `member`'s room after `after`, as `member` may
    /// see them, into a channel the caller turns into server-sent events.
    /// Each event comes as its sequence number and its log line
    /// ([`line`]); pages of the log are rendered on `render` (see [`page`]).
    pub fn stream(
        self: &Arc<Self>,
        store: Store,
        render: Arc<WorkPool>,
        member: Member,
        after: i64,
    ) -> mpsc::Receiver<(i64, String)> {
        let (out, receiver) = mpsc::channel(OUT_DEPTH);
        let mut live = self.subscribe(&member.room);
        tokio::spawn(async move {
            let mut last = after;
            if backfill(&store, &render, &member, &mut last, &out)
                .await
                .is_err()
            {
                return;
            }
            loop {
                match live.recv().await {
                    Ok(event) => {
                        if event.seq <= last {
                            continue;
                        }
                        if event.seq > last + 1
                            && backfill(&store, &render, &member, &mut last, &out)
                                .await
                                .is_err()
                        {
                            return;
                        }
                        if event.seq == last + 1 {
                            if send(&out, (event.seq, line(&event, &member)))
                                .await
                                .is_err()
                            {
                                return;
                            }
                            last = event.seq;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        if backfill(&store, &render, &member, &mut last, &out)
                            .await
                            .is_err()
                        {
                            return;
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        });
        receiver
    }
}

/// Why a page could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Busy(#[from] Busy),
}

/// Up to `limit` events of `member`'s room after `after`, as log lines
/// `member` may see: read from the database here, parsed and rendered on
/// `render`, threads of their own at a lower priority than those that
/// answer requests (a page of a room of big rolls takes milliseconds of
/// work and megabytes; it must not hold up another room's roll). While the
/// pool is full this waits for it, up to 10 s.
pub async fn page(
    store: &Store,
    render: &WorkPool,
    member: &Member,
    after: i64,
    limit: i64,
) -> Result<Vec<(i64, String)>, PageError> {
    let rows = store.event_rows_after(&member.room, after, limit).await?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let mut rows = Some(rows);
    let mut waited = std::time::Duration::ZERO;
    loop {
        let batch = match rows.take() {
            Some(batch) => batch,
            None => store.event_rows_after(&member.room, after, limit).await?,
        };
        let viewer = member.clone();
        let rendered = render
            .run(&member.room, move |_cancel| {
                batch
                    .events()
                    .map(|event| event.map(|e| (e.seq, line(&e, &viewer))))
                    .collect::<Result<Vec<(i64, String)>, StoreError>>()
            })
            .await;
        match rendered {
            Ok(lines) => return Ok(lines?),
            Err(Busy::Stopped) => return Err(Busy::Stopped.into()),
            // The pool is full: wait a little, then read the page again.
            Err(busy) => {
                if waited >= std::time::Duration::from_secs(10) {
                    return Err(busy.into());
                }
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                waited += std::time::Duration::from_millis(20);
            }
        }
    }
}

/// Sends every stored event after `last`; `Err` when the reader has gone.
async fn backfill(
    store: &Store,
    render: &WorkPool,
    member: &Member,
    last: &mut i64,
    out: &mpsc::Sender<(i64, String)>,
) -> Result<(), ()> {
    // While the database is unreachable the reader waits for it (up to
    // about a minute, as long as the client stays) rather than ending the
    // stream; it then goes on where it was.
    let mut wait = std::time::Duration::from_millis(100);
    let mut waited = std::time::Duration::ZERO;
    loop {
        let batch = match page(store, render, member, *last, BACKFILL_BATCH).await {
            Ok(batch) => batch,
            Err(PageError::Store(error))
                if error.is_unavailable()
                    && waited < std::time::Duration::from_secs(60)
                    && !out.is_closed() =>
            {
                tokio::time::sleep(wait).await;
                waited += wait;
                wait = (wait * 2).min(std::time::Duration::from_secs(2));
                continue;
            }
            Err(error) => {
                // The database's own words stay in the server's log.
                tracing::warn!(%error, "an event stream's back-fill failed");
                let (code, message) = match &error {
                    PageError::Store(e) if e.is_unavailable() => (
                        "database_unavailable",
                        "the database cannot be reached now: reconnect with Last-Event-ID",
                    ),
                    PageError::Busy(_) => {
                        ("busy", "the server is busy: reconnect with Last-Event-ID")
                    }
                    PageError::Store(_) => (
                        "store",
                        "the log cannot be read: reconnect with Last-Event-ID",
                    ),
                };
                let text = json!({"error": {"code": code, "message": message}}).to_string();
                let _ = send(out, (*last, text)).await;
                return Err(());
            }
        };
        if batch.is_empty() {
            return Ok(());
        }
        for (seq, text) in batch {
            send(out, (seq, text)).await?;
            *last = seq;
        }
    }
}

/// Passes an event to the reader's connection; `Err` when the reader has
/// gone, or has taken nothing for [`SLOW_READER`] (then it is dropped:
/// nothing is buffered for it beyond [`OUT_DEPTH`] events).
async fn send(out: &mpsc::Sender<(i64, String)>, item: (i64, String)) -> Result<(), ()> {
    match tokio::time::timeout(SLOW_READER, out.send(item)).await {
        Ok(Ok(())) => Ok(()),
        _ => Err(()),
    }
}

/// An event as `member` may see it, as one line of the log: the canonical
/// JSON of [`view`].
pub fn line(event: &Event, member: &Member) -> String {
    crate::fair::canonical(&view(event, member))
}

/// Whether `member` may see the body of `event`.
pub fn may_see(event: &Event, member: &Member) -> bool {
    member.role == Role::Gm || !event.secret || event.shown
}

/// An event as `member` may see it: a line of the log and the data of a
/// server-sent event. A secret roll that is not shown keeps its number, its
/// hashes (`body_hash` is its commitment); `body` is `null` (only the GM
/// rolls in secret, so nothing else is hidden). Every field but `hidden` is
/// covered by the event's hash, and `hidden` must agree with `body`.
///
/// ```text
/// {"at_ms":…,"body":null,"body_hash":"…","epoch":0,"hash":"…","hidden":true,
///  "kind":"roll","prev":"…","room":"…","secret":true,"seq":4}
/// ```
pub fn view(event: &Event, member: &Member) -> Value {
    let visible = may_see(event, member);
    json!({
        "room": event.room,
        "seq": event.seq,
        "kind": event.kind,
        "epoch": event.epoch,
        "at_ms": event.at_ms,
        "secret": event.secret,
        "hidden": !visible,
        "body": if visible { event.body.clone() } else { Value::Null },
        "body_hash": event.body_hash,
        "prev": event.prev,
        "hash": event.hash,
    })
}
