-- Ratings that mean something (see data/ratings.py for the rules).
-- `departures`: the people who left a running match before its end, as JSON (who, seat, at
-- which turn, how: resigned, replaced after time-outs, gone from the server, claimed against),
-- and `moved_at`: when its last move was made, from which the others may claim a match
-- without a clock. Running matches stored before this count from their start.
ALTER TABLE matches ADD COLUMN departures TEXT NOT NULL DEFAULT '[]';
ALTER TABLE matches ADD COLUMN moved_at TEXT;
-- Why a finished match changed no rating ('computers', 'abandoned', 'repeat'; NULL: rated, or
-- stored before this), and how each seat's person left before the end.
ALTER TABLE results ADD COLUMN unrated TEXT;
ALTER TABLE result_seats ADD COLUMN left_by TEXT;
UPDATE results SET unrated = 'computers'
WHERE EXISTS (SELECT 1 FROM result_seats AS s WHERE s.match_id = results.match_id AND s.user_id < 0);
-- Whom each member has played rated matches against (on teams other than theirs), per server
-- and table, and how many of them: a leaderboard lists a member from 3 different opponents on.
CREATE TABLE rated_opponents (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    opponent_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, user_id, opponent_id)
);
INSERT INTO rated_opponents (guild_id, game, user_id, opponent_id)
SELECT DISTINCT r.guild_id, board.game, a.user_id, b.user_id
FROM results AS r
JOIN result_seats AS a ON a.match_id = r.match_id
JOIN result_seats AS b ON b.match_id = r.match_id AND b.team <> a.team AND b.user_id <> a.user_id
JOIN (SELECT DISTINCT game FROM results UNION SELECT '*') AS board ON board.game IN (r.game, '*')
WHERE a.rating_before IS NOT NULL AND b.rating_before IS NOT NULL;
ALTER TABLE ratings ADD COLUMN opponents INTEGER NOT NULL DEFAULT 0;
UPDATE ratings SET opponents = (
    SELECT COUNT(*) FROM rated_opponents AS o
    WHERE o.guild_id = ratings.guild_id AND o.game = ratings.game AND o.user_id = ratings.user_id
);
