-- Version 6: per-server settings, e.g. the language of the bot's public messages
-- (``/hats language``). NULL language: follow the server's own preferred locale.

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    language   TEXT,
    updated_at REAL NOT NULL
);
