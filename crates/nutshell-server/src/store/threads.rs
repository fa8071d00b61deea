//! Threads of events: an event that continues an earlier one (a fight's step
//! continues the fight, a sheet's advance continues the sheet) names the
//! thread's first event in the `thread` column. Appending to a thread reads
//! the thread's latest event (its head) inside the write transaction, so two
//! requests that built on the same head cannot both append: the second sees
//! the first's event and its builder refuses (on PostgreSQL the room's
//! advisory lock orders the writers of every process).

use super::{AppendError, Draft, Event, Room, Slot, Store, StoreError, event_from, insert_event};
use super::{Within, last_in, rolls_of, room_in};

/// A thread's events (its first event `id` and every event naming it), in order.
const THREAD: &str = concat!(
    select_event!(),
    " WHERE room = $1 AND (seq = $2 OR thread = $2) ORDER BY seq"
);

/// A thread's latest event.
const HEAD: &str = concat!(
    select_event!(),
    " WHERE room = $1 AND (seq = $2 OR thread = $2) ORDER BY seq DESC LIMIT 1"
);

impl Store {
    /// The events of thread `id` of `room` (its first event, then every event
    /// that continues it), in order; empty when there is no event `id`.
    pub async fn thread(&self, room: &str, id: i64) -> Result<Vec<Event>, StoreError> {
        let rows = sqlx::query(THREAD)
            .bind(room)
            .bind(id)
            .fetch_all(&self.pool)
            .within(self.timeout())
            .await?;
        rows.iter().map(event_from).collect()
    }

    /// The latest event of thread `id` of `room` (the first event itself
    /// while nothing continues it).
    pub async fn thread_head(&self, room: &str, id: i64) -> Result<Option<Event>, StoreError> {
        let row = sqlx::query(HEAD)
            .bind(room)
            .bind(id)
            .fetch_optional(&self.pool)
            .within(self.timeout())
            .await?;
        row.map(|row| event_from(&row)).transpose()
    }

    /// Appends the event `build` makes to thread `id`, drawing `roller`'s
    /// dice: `build` gets the room as it is inside the write transaction,
    /// the new event's [`Slot`] and the thread's head as that transaction sees it (none when
    /// there is no event `id`), and refuses when the head is not the one the
    /// caller built on; then nothing is written. The event is stored as
    /// continuing `id`, and committed before this returns. An event that
    /// draws no dice (a fight's change of control) has no `roller`: its
    /// slot's count is 0 and nobody's count moves.
    pub async fn append_to_thread<E: Send, T: Send>(
        &self,
        room: &str,
        id: i64,
        roller: Option<i64>,
        build: impl FnOnce(&Room, Slot, Option<&Event>) -> Result<(Draft, T), E> + Send,
    ) -> Result<(Event, T), AppendError<E>> {
        let timeout = self.timeout();
        let appended = self.append_to_thread_now(room, id, roller, build);
        match tokio::time::timeout(timeout, appended).await {
            Ok(done) => done,
            Err(_) => Err(AppendError::Store(StoreError::TimedOut(timeout))),
        }
    }

    /// What an append by `roller` will be given, read ahead of it without
    /// the write lock: the room (its epoch and seed) and `roller`'s next
    /// count. Work computed from them outside the write transaction (a
    /// fight's engine run) is written only if the transaction finds the
    /// same ([`Store::append_to_thread`]'s `build` compares), so the dice
    /// are exactly those the count and epoch give.
    pub async fn slot_ahead(
        &self,
        room: &str,
        roller: Option<i64>,
    ) -> Result<(Room, i64), StoreError> {
        let read = async {
            let mut tx = self.pool.begin().await?;
            let state = room_in(&mut tx, room).await?;
            let count = match roller {
                Some(roller) => rolls_of(&mut tx, room, roller, self.backend).await? + 1,
                None => 0,
            };
            tx.rollback().await?;
            Ok::<_, StoreError>((state, count))
        };
        read.within(self.timeout()).await
    }

    async fn append_to_thread_now<E, T>(
        &self,
        room: &str,
        id: i64,
        roller: Option<i64>,
        build: impl FnOnce(&Room, Slot, Option<&Event>) -> Result<(Draft, T), E>,
    ) -> Result<(Event, T), AppendError<E>> {
        let mut tx = self.begin_write(room).await?;
        let state = room_in(&mut tx, room).await?;
        let head = sqlx::query(HEAD)
            .bind(room)
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
            .map(|row| event_from(&row))
            .transpose()?;
        let (seq, prev) = last_in(&mut tx, room).await?;
        self.check_room_events(seq)?;
        let count = match roller {
            Some(roller) => rolls_of(&mut tx, room, roller, self.backend).await? + 1,
            None => 0,
        };
        let (mut draft, output) =
            build(&state, Slot { seq, count }, head.as_ref()).map_err(AppendError::Refused)?;
        draft.thread = Some(id);
        draft.roller = roller.map(|roller| (roller, count));
        self.check_event_size(&draft)?;
        let event = insert_event(&mut tx, room, seq, prev, draft, self.backend).await?;
        tx.commit().await?;
        Ok((event, output))
    }
}
