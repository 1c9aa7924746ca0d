-- Fair play on public servers. `rematch_of`: the finished match a lobby was opened as the
-- rematch of; a match has one rematch at most (a unique index, which NULLs do not fill).
-- `pinged_turn`: the last turn whose due players were pinged, so that a turn published again
-- (a redraw, a repost, a restart, a seat handed to a computer) pings nobody twice.
-- `lobbies_by_host`: the open lobbies a member hosts on a server, counted against a limit.
-- `dms_closed`: Discord refused a DM to the member (50007); none is sent until they next use
-- the bot. A member the bot never saw gets a row with an empty locale (an unknown one).
ALTER TABLE matches ADD COLUMN rematch_of INTEGER REFERENCES matches (id) ON DELETE SET NULL;
ALTER TABLE matches ADD COLUMN pinged_turn INTEGER;
CREATE UNIQUE INDEX matches_by_rematch ON matches (rematch_of);
CREATE INDEX lobbies_by_host ON matches (host_id, guild_id) WHERE status = 'lobby';
ALTER TABLE member_languages ADD COLUMN dms_closed INTEGER NOT NULL DEFAULT 0;
