-- The language of a match's public messages (lobby, board, pings, notes), fixed when its lobby
-- opens; matches stored before it speak English.
ALTER TABLE matches ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
