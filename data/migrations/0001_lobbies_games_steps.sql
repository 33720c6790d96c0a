-- Version 1: lobbies, games, their seats, steps and Discord messages.
-- Ids are Discord snowflakes (INTEGER); times are unix seconds (REAL); JSON in TEXT columns.

CREATE TABLE lobbies (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    host_id     INTEGER NOT NULL,
    seats       TEXT    NOT NULL DEFAULT '[]',   -- JSON list of {user_id, ai_level, team}
    settings    TEXT    NOT NULL DEFAULT '{}',   -- JSON object
    message_id  INTEGER,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);
-- A lobby row exists only while the lobby is open: one per channel.
CREATE UNIQUE INDEX lobbies_channel ON lobbies (channel_id);

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    config      TEXT    NOT NULL,                -- JSON GameConfig.to_dict(): seats, seed, start_seat
    settings    TEXT    NOT NULL DEFAULT '{}',   -- JSON object
    status      TEXT    NOT NULL DEFAULT 'live'
                CHECK (status IN ('live', 'finished', 'abandoned')),
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    finished_at REAL
);
-- One live game per channel.
CREATE UNIQUE INDEX games_live_channel ON games (channel_id) WHERE status = 'live';
CREATE INDEX games_finished_channel ON games (channel_id, finished_at) WHERE status = 'finished';

-- A channel holds an open lobby or a live game, never both (checked inside the writing
-- transaction, so two racing writers cannot both get the channel).
CREATE TRIGGER lobbies_need_free_channel BEFORE INSERT ON lobbies
WHEN EXISTS (SELECT 1 FROM games WHERE channel_id = NEW.channel_id AND status = 'live')
BEGIN
    SELECT RAISE(ABORT, 'channel_busy');
END;

CREATE TRIGGER games_need_free_channel BEFORE INSERT ON games
WHEN NEW.status = 'live' AND EXISTS (SELECT 1 FROM lobbies WHERE channel_id = NEW.channel_id)
BEGIN
    SELECT RAISE(ABORT, 'channel_busy');
END;

CREATE TABLE game_seats (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id     INTEGER,
    ai_level    TEXT,
    away        INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1)),
    auto_turns  INTEGER NOT NULL DEFAULT 0 CHECK (auto_turns >= 0),
    PRIMARY KEY (game_id, seat),
    CHECK (user_id IS NOT NULL OR ai_level IS NOT NULL)
) WITHOUT ROWID;
CREATE INDEX game_seats_user ON game_seats (user_id) WHERE user_id IS NOT NULL;

-- The game's steps in order: replaying them through the engine rebuilds the game.
CREATE TABLE steps (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    step        TEXT    NOT NULL,                -- compact JSON Step.to_dict()
    actor       TEXT    NOT NULL DEFAULT 'player',
    at          REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE game_messages (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    role        TEXT    NOT NULL,
    seat        INTEGER NOT NULL DEFAULT -1,     -- -1: none (stored so the key is unique)
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,
    PRIMARY KEY (game_id, role, seat)
) WITHOUT ROWID;
