//! Threads of events: an event that continues an earlier one (a fight's step
//! continues the fight, a sheet's advance continues the sheet) names the
//! thread's first event in the `thread` column. Appending to a thread reads
//! the thread's latest event (its head) inside the write transaction, so two
//! requests that built on the same head cannot both append: the second sees
//! the first's event and its builder refuses (on PostgreSQL the room's
//! advisory lock orders the writers of every process).

use super::{AppendError, Draft, Event, Room, Slot, Store, StoreError, event_from, insert_event};
use super::{Within, last_in, rolls_of, room_in};

/// A thread's events (its first event `id` and every event naming it), in
/// order: two look-ups, each in an index (the primary key, and the index
/// of events that name a thread). As one `seq = $2 OR thread = $2`, SQLite
/// (without statistics) read every event of the room instead, a cost that
/// grew with the room's log.
const THREAD: &str = concat!(
    select_event!(),
    " WHERE room = $1 AND seq = $2 UNION ALL ",
    select_event!(),
    " WHERE room = $1 AND thread = $2 ORDER BY seq"
);

/// A thread's latest event: the last that names it, or the first event
/// itself while none does (one look-up at the end of the thread's range of
/// its index, then one by the primary key).
const HEAD: &str = concat!(
    select_event!(),
    " WHERE room = $1 AND seq = COALESCE((SELECT MAX(seq) FROM events WHERE room = $1 AND thread = $2), $2)"
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

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::Row;

    /// SQLite's plan for each of a thread's statements, one line a step.
    async fn plan(store: &Store, statement: &str) -> Vec<String> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "EXPLAIN QUERY PLAN {statement}"
        )))
        .bind("a room")
        .bind(7_i64)
        .fetch_all(&store.pool)
        .await
        .unwrap();
        rows.iter()
            .map(|row| row.try_get::<String, _>(3).unwrap())
            .collect()
    }

    /// A thread is read by index look-ups, never by reading every event of
    /// its room: on a database without statistics (as every server's is),
    /// where `seq = $2 OR thread = $2` read the whole room.
    #[tokio::test]
    async fn a_thread_is_read_by_look_ups_not_by_reading_its_room() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("t.db").display());
        let store = Store::connect(&url).await.unwrap();
        for statement in [THREAD, HEAD] {
            let steps = plan(&store, statement).await;
            let searches: Vec<&String> = steps.iter().filter(|s| s.contains("events")).collect();
            assert!(!searches.is_empty(), "{steps:?}");
            for step in searches {
                assert!(
                    step.contains("room=? AND seq=?") || step.contains("room=? AND thread=?"),
                    "{statement}: a step reads more than a look-up: {step} (plan {steps:?})"
                );
            }
        }
    }
}
