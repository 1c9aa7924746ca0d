-- PostgreSQL's form of ../006_languages.sql: BIGINT for INTEGER, text compared as SQLite does.
ALTER TABLE guild_settings ADD COLUMN language TEXT COLLATE "C";

CREATE TABLE member_languages (
    user_id    BIGINT PRIMARY KEY,
    locale     TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL
);
