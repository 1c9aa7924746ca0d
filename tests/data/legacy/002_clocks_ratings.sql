-- Turn clocks, rematch invitations, per-server settings and ratings.
ALTER TABLE matches ADD COLUMN clock_s INTEGER;
ALTER TABLE matches ADD COLUMN deadline TEXT;
ALTER TABLE matches ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN timeouts TEXT NOT NULL DEFAULT '{}';
ALTER TABLE matches ADD COLUMN invited TEXT;
CREATE INDEX matches_by_deadline ON matches (status, deadline);

ALTER TABLE result_seats ADD COLUMN rating_before REAL;
ALTER TABLE result_seats ADD COLUMN rating_after REAL;

CREATE TABLE guild_settings (
    guild_id     INTEGER PRIMARY KEY,
    clock_s      INTEGER,
    max_timeouts INTEGER
);

-- One row per server, game and player; game '*' is the overall rating across games.
CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    games    INTEGER NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_by_board ON ratings (guild_id, game);
