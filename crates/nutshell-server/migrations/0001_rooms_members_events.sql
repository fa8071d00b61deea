-- The schema of nutshell serve, portable between SQLite and PostgreSQL (the
-- same file runs on both through sqlx's Any driver: TEXT, BIGINT, no booleans).
CREATE TABLE rooms (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    invite_hash TEXT NOT NULL,
    -- The current epoch and its secret seed (hex). Earlier epochs' seeds are
    -- public: they are in the log's reveal events.
    epoch BIGINT NOT NULL,
    seed TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

CREATE TABLE members (
    room TEXT NOT NULL REFERENCES rooms (id),
    id BIGINT NOT NULL,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    -- SHA-256 of the member's key: the key itself is shown once and never stored.
    key_hash TEXT NOT NULL UNIQUE,
    PRIMARY KEY (room, id)
);

CREATE TABLE events (
    room TEXT NOT NULL REFERENCES rooms (id),
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    -- 1 when players may not see the body (a secret roll) ...
    secret BIGINT NOT NULL,
    -- ... until it is shown (1): by the GM, or when its epoch's seed is revealed.
    shown BIGINT NOT NULL,
    body TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    prev TEXT NOT NULL,
    hash TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (room, seq)
);
