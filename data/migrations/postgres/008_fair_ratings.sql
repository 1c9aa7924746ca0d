-- PostgreSQL's form of ../008_fair_ratings.sql: BIGINT for INTEGER, text compared as SQLite does.
ALTER TABLE matches ADD COLUMN departures TEXT COLLATE "C" NOT NULL DEFAULT '[]';
ALTER TABLE matches ADD COLUMN moved_at TEXT COLLATE "C";
ALTER TABLE results ADD COLUMN unrated TEXT COLLATE "C";
ALTER TABLE result_seats ADD COLUMN left_by TEXT COLLATE "C";
UPDATE results SET unrated = 'computers'
WHERE EXISTS (SELECT 1 FROM result_seats AS s WHERE s.match_id = results.match_id AND s.user_id < 0);
CREATE TABLE rated_opponents (
    guild_id    BIGINT NOT NULL,
    game        TEXT COLLATE "C" NOT NULL,
    user_id     BIGINT NOT NULL,
    opponent_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, game, user_id, opponent_id)
);
INSERT INTO rated_opponents (guild_id, game, user_id, opponent_id)
SELECT DISTINCT r.guild_id, board.game, a.user_id, b.user_id
FROM results AS r
JOIN result_seats AS a ON a.match_id = r.match_id
JOIN result_seats AS b ON b.match_id = r.match_id AND b.team <> a.team AND b.user_id <> a.user_id
JOIN (SELECT DISTINCT game FROM results UNION SELECT '*') AS board ON board.game IN (r.game, '*')
WHERE a.rating_before IS NOT NULL AND b.rating_before IS NOT NULL;
ALTER TABLE ratings ADD COLUMN opponents BIGINT NOT NULL DEFAULT 0;
UPDATE ratings SET opponents = (
    SELECT COUNT(*) FROM rated_opponents AS o
    WHERE o.guild_id = ratings.guild_id AND o.game = ratings.game AND o.user_id = ratings.user_id
);
