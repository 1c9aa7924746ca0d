-- Indexes that match the queries of data/storage.py, one for each query that needs one,
-- and none that no query uses (every index costs each write to its table).

-- No query looks matches up by guild, game and status.
DROP INDEX matches_by_guild;
-- The turn clock keeps deadlines in memory: no query reads matches by deadline, while every
-- move rewrote this index. (matches_by_status serves the lists of running matches and lobbies.)
DROP INDEX matches_by_deadline;
-- A prefix of the ratings primary key (guild_id, game, user_id).
DROP INDEX ratings_by_board;

-- "My matches" and "my results" read the match ids of one player: covering indexes.
DROP INDEX seats_by_user;
CREATE INDEX seats_by_player ON seats (user_id, match_id);
DROP INDEX result_seats_by_user;
CREATE INDEX result_seats_by_player ON result_seats (user_id, match_id);

-- A server's recent results across games, newest first (results_by_guild serves one game's).
CREATE INDEX results_by_guild_time ON results (guild_id, finished_at);

-- A leaderboard page in rank order without sorting the whole table.
CREATE INDEX ratings_by_rank ON ratings (guild_id, game, (mu - 3 * sigma) DESC, wins DESC, user_id);
-- A player's ratings in every game of a server.
CREATE INDEX ratings_by_player ON ratings (guild_id, user_id, game);
