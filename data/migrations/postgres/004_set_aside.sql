-- PostgreSQL's form of ../004_set_aside.sql: PostgreSQL alters the CHECK constraint in place
-- (SQLite rebuilds the table); the new columns come last in the same order, the id sequence
-- and the index matches_by_status stay as they are.
ALTER TABLE matches DROP CONSTRAINT matches_status_check;
ALTER TABLE matches ADD CONSTRAINT matches_status_check
    CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'abandoned', 'set_aside'));
ALTER TABLE matches ADD COLUMN note TEXT COLLATE "C";
ALTER TABLE matches ADD COLUMN board_stale BIGINT NOT NULL DEFAULT 0;
