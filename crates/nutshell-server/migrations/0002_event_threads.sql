-- Events that continue an earlier one (a fight's steps continue the fight, a
-- sheet's advances continue the sheet) name it here: the `seq` of the thread's
-- first event. An index for finding a thread's latest event inside the write
-- transaction that appends to it; the hash chain does not cover it (the body
-- names the same number, and the body is covered).
ALTER TABLE events ADD COLUMN thread BIGINT;
CREATE INDEX events_thread ON events (room, thread);
