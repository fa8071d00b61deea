-- The index of (room, roller) is the first part of events_roll_count's
-- (room, roller, roll_count), which serves every look-up it served: kept, it
-- was one more index written with every event.
DROP INDEX IF EXISTS events_roller;
