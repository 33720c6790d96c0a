-- Version 7: players' history (issue 12): finished games as the ratings saw them, the
-- favourite hat type of each seat, rating changes per game and current ratings per scope.
-- Scopes: guild_id 0 = every server together; seats 0 = every seat count together.

-- Every finished game once processed, in game order (seq); rated 0: fewer than 2 humans.
CREATE TABLE history_games (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL UNIQUE,
    guild_id    INTEGER NOT NULL,
    seats       INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 4),
    finished_at REAL    NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1))
);
-- /hats history: a server's recent games.
CREATE INDEX history_games_guild ON history_games (guild_id, finished_at DESC, game_id DESC);

-- The favourite hat type revealed at the end (R21), per seat (from the record).
CREATE TABLE history_favourites (
    game_id     INTEGER NOT NULL REFERENCES history_games (game_id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    hat_type    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- One row per game, scope and human player: the rating before and after (ordinal = mu - 3 sigma).
CREATE TABLE rating_changes (
    game_id     INTEGER NOT NULL REFERENCES history_games (game_id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    seats       INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    mu_before   REAL    NOT NULL,
    sigma_before REAL   NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    at          REAL    NOT NULL,
    PRIMARY KEY (game_id, guild_id, seats, user_id)
) WITHOUT ROWID;
-- /hats stats: a player's trend; games and wins in the last 30 days of a leaderboard page.
CREATE INDEX rating_changes_user ON rating_changes (user_id, guild_id, seats, at);

-- Current rating per scope and player.
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    seats       INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    ordinal     REAL    NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    -- when the player's 3rd most recent rated game in this scope finished (history.ratings
    -- MIN_GAMES): "3 games in the last 30 days" is kth_at >= now - 30 days, no aggregation
    kth_at      REAL,
    PRIMARY KEY (guild_id, seats, user_id)
) WITHOUT ROWID;
-- /hats leaderboard: best first within a scope; covers the whole query (no table look-ups).
CREATE INDEX ratings_board
    ON ratings (guild_id, seats, ordinal DESC, user_id, kth_at, games, wins);

-- Finished games in game order: the ones not processed yet are found at each game's end.
CREATE INDEX games_finished_order ON games (finished_at, id) WHERE status = 'finished';
