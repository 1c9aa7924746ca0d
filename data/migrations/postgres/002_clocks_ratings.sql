-- PostgreSQL's form of ../002_clocks_ratings.sql: BIGINT for INTEGER, DOUBLE PRECISION for REAL.
ALTER TABLE matches ADD COLUMN clock_s BIGINT;
ALTER TABLE matches ADD COLUMN deadline TEXT COLLATE "C";
ALTER TABLE matches ADD COLUMN reminded BIGINT NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN timeouts TEXT COLLATE "C" NOT NULL DEFAULT '{}';
ALTER TABLE matches ADD COLUMN invited TEXT COLLATE "C";
CREATE INDEX matches_by_deadline ON matches (status, deadline);

ALTER TABLE result_seats ADD COLUMN rating_before DOUBLE PRECISION;
ALTER TABLE result_seats ADD COLUMN rating_after DOUBLE PRECISION;

CREATE TABLE guild_settings (
    guild_id     BIGINT PRIMARY KEY,
    clock_s      BIGINT,
    max_timeouts BIGINT
);

CREATE TABLE ratings (
    guild_id BIGINT NOT NULL,
    game     TEXT COLLATE "C" NOT NULL,
    user_id  BIGINT NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    games    BIGINT NOT NULL DEFAULT 0,
    wins     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_by_board ON ratings (guild_id, game);
