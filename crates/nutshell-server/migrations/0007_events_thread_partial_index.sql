-- Only the events of a thread (a played fight's) name one: a roll's thread is
-- NULL. Indexed in full, every roll still added an entry at its room's end of
-- this index, one more page written with each batch of a busy room; only
-- the events that name a thread are indexed now. Every look-up of a thread
-- names it (`thread = $2`), which tells both databases the index applies.
-- Ordered by seq within a thread, so a thread's latest event is one step.
DROP INDEX IF EXISTS events_thread;
CREATE INDEX events_thread ON events (room, thread, seq) WHERE thread IS NOT NULL;
