-- PostgreSQL's form of ../010_paused_matches.sql: BIGINT for INTEGER.
ALTER TABLE matches ADD COLUMN resumable BIGINT NOT NULL DEFAULT 0;
