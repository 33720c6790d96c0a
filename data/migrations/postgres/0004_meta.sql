-- Version 4 (PostgreSQL): small key/value facts about the bot itself (e.g. the hash of the
-- last synced slash command tree).

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
