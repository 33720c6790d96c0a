-- Version 5: the outbox. What the players must be shown after a committed change (the table
-- and the hands after a start, the end screen after the last step) is written in the same
-- transaction as the change; the bot marks an item delivered once it is shown, and a restarted
-- bot delivers every item still undelivered.

CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL,               -- 'start' | 'end'
    created_at    REAL    NOT NULL,
    delivered_at  REAL,                           -- NULL until shown
    UNIQUE (game_id, kind)
);
CREATE INDEX outbox_undelivered ON outbox (id) WHERE delivered_at IS NULL;
