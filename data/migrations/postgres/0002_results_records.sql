-- Version 2 (PostgreSQL): finished games' results (statistics) and their hats-record/1 JSON.

CREATE TABLE results (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id     BIGINT,
    ai_level    TEXT,
    collection  INTEGER NOT NULL,
    favourite   INTEGER NOT NULL,
    cookie      INTEGER NOT NULL,
    total       INTEGER NOT NULL,
    black_hats  INTEGER NOT NULL,
    place       INTEGER NOT NULL CHECK (place >= 1),
    team        INTEGER,
    winner      INTEGER NOT NULL CHECK (winner IN (0, 1)),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_user ON results (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE records (
    game_id     BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    record      TEXT    NOT NULL                 -- compact JSON, format hats-record/1
);
