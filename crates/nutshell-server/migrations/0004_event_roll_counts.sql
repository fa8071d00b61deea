-- A dice-drawing event's count: the roller's number of such events in the
-- room, this one included (NULL for an event that draws none, and for events
-- of earlier servers). The next one is the roller's latest plus one, read
-- inside the write transaction that appends it: with this index one look-up,
-- where counting the roller's events grew with them. The body names the
-- count, and the body is covered by the hash chain.
ALTER TABLE events ADD COLUMN roll_count BIGINT;
CREATE INDEX events_roll_count ON events (room, roller, roll_count);
-- Events written since 0003 (their roller known, not yet their count): each
-- is its roller's number of such events up to it, as the body says.
UPDATE events SET roll_count = (
    SELECT COUNT(*) FROM events AS earlier
    WHERE earlier.room = events.room AND earlier.roller = events.roller AND earlier.seq <= events.seq
) WHERE roller IS NOT NULL;
