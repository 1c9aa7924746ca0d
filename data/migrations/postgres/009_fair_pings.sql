-- PostgreSQL's form of ../009_fair_pings.sql: BIGINT for INTEGER.
ALTER TABLE matches ADD COLUMN rematch_of BIGINT REFERENCES matches (id) ON DELETE SET NULL;
ALTER TABLE matches ADD COLUMN pinged_turn BIGINT;
CREATE UNIQUE INDEX matches_by_rematch ON matches (rematch_of);
CREATE INDEX lobbies_by_host ON matches (host_id, guild_id) WHERE status = 'lobby';
ALTER TABLE member_languages ADD COLUMN dms_closed BIGINT NOT NULL DEFAULT 0;
