-- Matches, their seats, the move log and the results of finished matches.
CREATE TABLE matches (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game            TEXT    NOT NULL,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    host_id         INTEGER NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'abandoned')),
    seed            INTEGER NOT NULL,
    options         TEXT    NOT NULL DEFAULT '{}',
    state           TEXT,
    turn            INTEGER NOT NULL DEFAULT 0,
    ping_message_id INTEGER,
    created_at      TEXT    NOT NULL,
    started_at      TEXT,
    updated_at      TEXT    NOT NULL,
    finished_at     TEXT
);
CREATE INDEX matches_by_status ON matches (status);
CREATE INDEX matches_by_guild ON matches (guild_id, game, status);

CREATE TABLE seats (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, user_id)
);
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE moves (
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    user_id    INTEGER,
    move       TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (match_id, turn)
);

CREATE TABLE results (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    game        TEXT    NOT NULL,
    guild_id    INTEGER NOT NULL,
    draw        INTEGER NOT NULL,
    abandoned   INTEGER NOT NULL DEFAULT 0,
    duration_s  REAL    NOT NULL,
    options     TEXT    NOT NULL,
    tiebreak    TEXT,
    finished_at TEXT    NOT NULL
);
CREATE INDEX results_by_guild ON results (guild_id, game, finished_at);

CREATE TABLE result_seats (
    match_id INTEGER NOT NULL REFERENCES results (match_id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    team     INTEGER NOT NULL,
    score    INTEGER NOT NULL,
    winner   INTEGER NOT NULL,
    resigned INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX result_seats_by_user ON result_seats (user_id);

-- Small key/value facts about the bot itself (e.g. the hash of the last synced command tree).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
