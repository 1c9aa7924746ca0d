-- `/settings threads on`: each new lobby of the server gets its own thread.
ALTER TABLE guild_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 0;
