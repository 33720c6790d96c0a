-- Version 11: Swiss tournaments (issue 30, ``/hats tournament``). A tournament lives in one
-- channel (one open or running per channel), its entrants sign up in order, each round's
-- tables are stored before any of their games starts, and each table's game (in its own
-- thread) is created in the same transaction that records it on the table. Timers gain a
-- third owner, the tournament (its timed start and its round starts), so the table is rebuilt
-- with a check of exactly one owner.

CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    host_id      INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    rounds       INTEGER NOT NULL,
    settings     TEXT    NOT NULL DEFAULT '{}',   -- JSON object: turn_timer…
    start_at     REAL,                            -- the timed start; NULL: the host starts it
    status       TEXT    NOT NULL DEFAULT 'open', -- open | running | finished | cancelled
    round        INTEGER NOT NULL DEFAULT 0,      -- the round being played; 0 before the start
    message_id   INTEGER,                         -- the sign-up message
    event_id     INTEGER,                         -- the guild scheduled event
    winner_id    INTEGER,
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    finished_at  REAL
);
CREATE UNIQUE INDEX tournaments_open_channel ON tournaments (channel_id)
    WHERE status IN ('open', 'running');
CREATE INDEX tournaments_guild ON tournaments (guild_id, id);

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    signup        INTEGER NOT NULL,               -- 0 = first to join
    rating        REAL    NOT NULL DEFAULT 0,
    provisional   INTEGER NOT NULL DEFAULT 1,
    dropped       INTEGER NOT NULL DEFAULT 0,
    joined_at     REAL    NOT NULL,
    PRIMARY KEY (tournament_id, user_id),
    UNIQUE (tournament_id, signup)
);
CREATE INDEX tournament_entrants_user ON tournament_entrants (user_id);

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    tab           INTEGER NOT NULL,               -- 1 = the top table
    players       TEXT    NOT NULL,               -- JSON list of user ids, seat order
    thread_id     INTEGER,
    game_id       INTEGER UNIQUE REFERENCES games (id),
    PRIMARY KEY (tournament_id, round, tab)
);

CREATE TABLE timers_v11 (
    id             INTEGER PRIMARY KEY,
    game_id        INTEGER REFERENCES games (id) ON DELETE CASCADE,
    lobby_id       INTEGER REFERENCES lobbies (id) ON DELETE CASCADE,
    kind           TEXT    NOT NULL,
    seat           INTEGER,
    due_at         REAL    NOT NULL,
    payload        TEXT    NOT NULL DEFAULT '{}',   -- JSON object
    claimed_by     TEXT,
    claimed_until  REAL,
    tournament_id  INTEGER REFERENCES tournaments (id) ON DELETE CASCADE,
    CHECK ((game_id IS NOT NULL) + (lobby_id IS NOT NULL) + (tournament_id IS NOT NULL) = 1)
);
INSERT INTO timers_v11 (id, game_id, lobby_id, kind, seat, due_at, payload, claimed_by,
                        claimed_until)
    SELECT id, game_id, lobby_id, kind, seat, due_at, payload, claimed_by, claimed_until
    FROM timers;
DROP TABLE timers;
ALTER TABLE timers_v11 RENAME TO timers;
CREATE UNIQUE INDEX timers_game_kind ON timers (game_id, kind) WHERE game_id IS NOT NULL;
CREATE UNIQUE INDEX timers_lobby_kind ON timers (lobby_id, kind) WHERE lobby_id IS NOT NULL;
CREATE UNIQUE INDEX timers_tournament_kind ON timers (tournament_id, kind)
    WHERE tournament_id IS NOT NULL;
CREATE INDEX timers_due ON timers (due_at);
CREATE INDEX timers_claimed ON timers (claimed_until) WHERE claimed_until IS NOT NULL;

-- ``/hats settings timezone``: the IANA time zone a tournament's start is read in (NULL: UTC).
ALTER TABLE guild_settings ADD COLUMN timezone TEXT;
