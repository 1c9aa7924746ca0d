-- Languages: the one a server's managers chose for its public messages (`/settings
-- language`; NULL: the server's own), and the Discord locale each member last used with the
-- bot, which their DMs speak.
ALTER TABLE guild_settings ADD COLUMN language TEXT;

CREATE TABLE member_languages (
    user_id    INTEGER PRIMARY KEY,
    locale     TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
);
