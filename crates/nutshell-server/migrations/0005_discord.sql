-- Discord (`nutshell serve --discord-public-key`): which room a Discord
-- channel plays in, and which member of a room each Discord user is.
CREATE TABLE discord_channels (
    channel TEXT PRIMARY KEY,
    room TEXT NOT NULL REFERENCES rooms (id),
    linked_ms BIGINT NOT NULL
);

-- A Discord user's seat in a room: the member, and the member's key, kept so
-- that `/verify` can hand it to that user alone (ephemerally) for the log
-- and the web table. A GM who ties a channel to their room (`/table link`)
-- is seated as the room's GM with the key they gave.
CREATE TABLE discord_members (
    room TEXT NOT NULL REFERENCES rooms (id),
    user_id TEXT NOT NULL,
    member BIGINT NOT NULL,
    member_key TEXT NOT NULL,
    PRIMARY KEY (room, user_id)
);
