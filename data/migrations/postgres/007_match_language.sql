-- PostgreSQL's form of ../007_match_language.sql: text compared as SQLite does.
ALTER TABLE matches ADD COLUMN language TEXT COLLATE "C" NOT NULL DEFAULT 'en';
