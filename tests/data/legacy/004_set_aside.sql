-- A running match whose stored row cannot be read is set aside (status 'set_aside', with a
-- note saying why) instead of stopping the bot: its state and moves stay for an operator.
-- `board_stale` marks a board message that shows an older turn than the match (its redraw
-- failed): the bot redraws it, also after a restart.
-- SQLite cannot alter a CHECK constraint, so the table is rebuilt the documented way
-- (sqlite.org/lang_altertable.html, "other kinds of table schema changes"): the migration
-- runner turns foreign keys off around this transaction and checks them before it commits.
CREATE TABLE new_matches (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game            TEXT    NOT NULL,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    host_id         INTEGER NOT NULL,
    status          TEXT    NOT NULL
        CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'abandoned', 'set_aside')),
    seed            INTEGER NOT NULL,
    options         TEXT    NOT NULL DEFAULT '{}',
    state           TEXT,
    turn            INTEGER NOT NULL DEFAULT 0,
    ping_message_id INTEGER,
    created_at      TEXT    NOT NULL,
    started_at      TEXT,
    updated_at      TEXT    NOT NULL,
    finished_at     TEXT,
    clock_s         INTEGER,
    deadline        TEXT,
    reminded        INTEGER NOT NULL DEFAULT 0,
    timeouts        TEXT    NOT NULL DEFAULT '{}',
    invited         TEXT,
    note            TEXT,
    board_stale     INTEGER NOT NULL DEFAULT 0
);
INSERT INTO new_matches (
    id, game, guild_id, channel_id, message_id, host_id, status, seed, options, state, turn,
    ping_message_id, created_at, started_at, updated_at, finished_at, clock_s, deadline, reminded,
    timeouts, invited
)
SELECT
    id, game, guild_id, channel_id, message_id, host_id, status, seed, options, state, turn,
    ping_message_id, created_at, started_at, updated_at, finished_at, clock_s, deadline, reminded,
    timeouts, invited
FROM matches;
-- Keep the AUTOINCREMENT counter as it was: a match id is never given twice (buttons carry it).
DELETE FROM sqlite_sequence WHERE name = 'new_matches';
UPDATE sqlite_sequence SET name = 'new_matches' WHERE name = 'matches';
DROP TABLE matches;
ALTER TABLE new_matches RENAME TO matches;
-- The one index of matches (migration 003 dropped the others).
CREATE INDEX matches_by_status ON matches (status);
