-- Version 7 (PostgreSQL): players' history (issue 12), as ../0007_history.sql: finished games
-- as the ratings saw them, favourite hat types, rating changes per game, current ratings per
-- scope. Scopes: guild_id 0 = every server together; seats 0 = every seat count together.

CREATE TABLE history_games (
    game_id     BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL UNIQUE,
    guild_id    BIGINT  NOT NULL,
    seats       INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 4),
    finished_at DOUBLE PRECISION NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1))
);
CREATE INDEX history_games_guild ON history_games (guild_id, finished_at DESC, game_id DESC);

CREATE TABLE history_favourites (
    game_id     BIGINT  NOT NULL REFERENCES history_games (game_id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    hat_type    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- Column order as SQLite's: data/history.py inserts without a column list.
CREATE TABLE rating_changes (
    game_id      BIGINT  NOT NULL REFERENCES history_games (game_id) ON DELETE CASCADE,
    guild_id     BIGINT  NOT NULL,
    seats        INTEGER NOT NULL,
    user_id      BIGINT  NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    at           DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, guild_id, seats, user_id)
);
CREATE INDEX rating_changes_user ON rating_changes (user_id, guild_id, seats, at);

CREATE TABLE ratings (
    guild_id    BIGINT  NOT NULL,
    seats       INTEGER NOT NULL,
    user_id     BIGINT  NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    ordinal     DOUBLE PRECISION NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    kth_at      DOUBLE PRECISION,
    PRIMARY KEY (guild_id, seats, user_id)
);
CREATE INDEX ratings_board
    ON ratings (guild_id, seats, ordinal DESC, user_id, kth_at, games, wins);

CREATE INDEX games_finished_order ON games (finished_at, id) WHERE status = 'finished';
