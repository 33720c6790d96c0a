-- Version 4: small key/value facts about the bot itself (e.g. the hash of the last synced
-- slash command tree, so commands are synced only when they changed).

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
