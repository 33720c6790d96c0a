-- Version 6 (PostgreSQL): per-server settings, e.g. the language of the bot's public messages
-- (``/hats language``). NULL language: follow the server's own preferred locale.

CREATE TABLE guild_settings (
    guild_id   BIGINT PRIMARY KEY,
    language   TEXT,
    updated_at DOUBLE PRECISION NOT NULL
);
