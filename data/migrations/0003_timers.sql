-- Version 3: deadlines that survive restarts (turn timers, swap offer lapses, lobby expiry).

CREATE TABLE timers (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER REFERENCES games (id) ON DELETE CASCADE,
    lobby_id    INTEGER REFERENCES lobbies (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    seat        INTEGER,
    due_at      REAL    NOT NULL,
    payload     TEXT    NOT NULL DEFAULT '{}',   -- JSON object
    CHECK ((game_id IS NULL) <> (lobby_id IS NULL))
);
CREATE UNIQUE INDEX timers_game_kind ON timers (game_id, kind) WHERE game_id IS NOT NULL;
CREATE UNIQUE INDEX timers_lobby_kind ON timers (lobby_id, kind) WHERE lobby_id IS NOT NULL;
CREATE INDEX timers_due ON timers (due_at);
