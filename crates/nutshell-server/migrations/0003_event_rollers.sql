-- The member whose action drew an event's dice (NULL for an event that draws
-- none, and for events of earlier servers). A roll's dice are keyed by the
-- roller's own count of such events (see `fair::DiceInput`), read inside the
-- write transaction that appends it; the index makes that count a range of it.
-- The hash chain does not cover this column: the body names the roller and
-- the count, and the body is covered.
ALTER TABLE events ADD COLUMN roller BIGINT;
CREATE INDEX events_roller ON events (room, roller);
