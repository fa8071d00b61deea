//! Live events: a broadcast channel per room, what each member may see of an
//! event, and the stream a member reads: back-filled from the log after the
//! last sequence number they saw, then live, in order, without gaps or
//! duplicates.
//!
//! Publishing happens while the room's append lock is held, so the broadcast
//! order is the sequence order. A reader subscribes before it back-fills, skips
//! what it already sent, and fills any gap (a slow reader that lagged behind
//! the channel) from the log again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};

use crate::store::{Event, Member, Role, Store};

/// How many events a room's channel holds for a slow reader before it must
/// re-read the log.
const CHANNEL_DEPTH: usize = 256;

/// How many events one back-fill query reads.
const BACKFILL_BATCH: i64 = 500;

/// The rooms' channels and append locks.
#[derive(Default)]
pub struct Hub {
    channels: Mutex<HashMap<String, broadcast::Sender<Arc<Event>>>>,
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl Hub {
    fn channel(&self, room: &str) -> broadcast::Sender<Arc<Event>> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels
            .entry(room.to_string())
            .or_insert_with(|| broadcast::channel(CHANNEL_DEPTH).0)
            .clone()
    }

    /// The lock that serializes appends to `room` in this process (the
    /// database's primary key guards across processes).
    pub fn room_lock(&self, room: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        locks.entry(room.to_string()).or_default().clone()
    }

    /// Sends a committed event to the room's readers.
    pub fn publish(&self, event: Event) {
        // No reader is not an error.
        let _ = self.channel(&event.room.clone()).send(Arc::new(event));
    }

    /// Streams the events of `member`'s room after `after`, as `member` may
    /// see them, into a channel the caller turns into server-sent events.
    pub fn stream(
        self: &Arc<Self>,
        store: Store,
        member: Member,
        after: i64,
    ) -> mpsc::Receiver<(i64, Value)> {
        let (out, receiver) = mpsc::channel(64);
        let mut live = self.channel(&member.room).subscribe();
        tokio::spawn(async move {
            let mut last = after;
            if backfill(&store, &member, &mut last, &out).await.is_err() {
                return;
            }
            loop {
                match live.recv().await {
                    Ok(event) => {
                        if event.seq <= last {
                            continue;
                        }
                        if event.seq > last + 1
                            && backfill(&store, &member, &mut last, &out).await.is_err()
                        {
                            return;
                        }
                        if event.seq == last + 1 {
                            if out.send((event.seq, view(&event, &member))).await.is_err() {
                                return;
                            }
                            last = event.seq;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        if backfill(&store, &member, &mut last, &out).await.is_err() {
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

/// Sends every stored event after `last`; `Err` when the reader has gone.
async fn backfill(
    store: &Store,
    member: &Member,
    last: &mut i64,
    out: &mpsc::Sender<(i64, Value)>,
) -> Result<(), ()> {
    loop {
        let batch = match store
            .events_after(&member.room, *last, BACKFILL_BATCH)
            .await
        {
            Ok(batch) => batch,
            Err(error) => {
                let _ = out
                    .send((
                        *last,
                        json!({"error": {"code": "store", "message": error.to_string()}}),
                    ))
                    .await;
                return Err(());
            }
        };
        if batch.is_empty() {
            return Ok(());
        }
        for event in batch {
            out.send((event.seq, view(&event, member)))
                .await
                .map_err(|_| ())?;
            *last = event.seq;
        }
    }
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
