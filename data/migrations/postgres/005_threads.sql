-- PostgreSQL's form of ../005_threads.sql: BIGINT for INTEGER.
ALTER TABLE guild_settings ADD COLUMN threads BIGINT NOT NULL DEFAULT 0;
