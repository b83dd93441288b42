-- Online games: each game's seats and tokens, and its events in order. A game's state is its
-- events replayed; nothing else is kept.
CREATE TABLE games (
    id           TEXT PRIMARY KEY,
    created_at   INTEGER NOT NULL,        -- milliseconds since 1970
    sheep_token  TEXT,                    -- 32 hex digits; NULL where the server plays the side
    tigers_token TEXT,
    finished     INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE events (
    game    TEXT NOT NULL REFERENCES games (id),
    version INTEGER NOT NULL,             -- 1, 2, ... without gaps
    body    TEXT NOT NULL,                -- the event as the stream sends it (JSON)
    PRIMARY KEY (game, version)
) WITHOUT ROWID;

CREATE INDEX games_unfinished ON games (finished) WHERE finished = 0;

-- The server's last sign of life, written every second: a restarted server charges the clocks
-- up to it, not for the time it was down.
CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at INTEGER NOT NULL
);
