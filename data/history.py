"""Players' history: ratings, rating changes, leaderboards and recent games (all the SQL).

Practice games (:func:`data.game_flags.is_practice`) never enter it; games with hints allowed
enter it unrated.

Finished games are processed once, in game order (``finished_at``, then id):
:meth:`History.process_pending` reads each new game's results, its favourite hats (from the
record) and its kicked players (game settings), rates it with :mod:`history.ratings` and
stores the game, the changes and the new ratings in one transaction. Recomputing from the
stored results (:meth:`History.outcomes` into :func:`history.recompute`) gives exactly the
stored ratings (tests/history).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from data.db import Database, Transaction
from data.game_flags import is_rated_kind, not_practice_sql
from engine import card_from_code
from history.ratings import (
    MIN_GAMES,
    Change,
    Outcome,
    Rating,
    Scope,
    SeatOutcome,
    apply_outcome,
    is_provisional,
    scopes_of,
)
from history.stats import PlayerGame

__all__ = [
    "KICKED_SETTING",
    "BoardRow",
    "GameSummary",
    "History",
    "RatingDelta",
    "SeatSummary",
    "change_rows",
    "kth_at",
    "rating_row",
]

KICKED_SETTING = "kicked"
"""The game settings key holding ``{seat: user_id}`` of kicked players (``cogs.timers.KICKED``)."""

_PENDING = (
    "SELECT g.id, g.guild_id, g.settings, g.finished_at FROM games g"
    " WHERE g.status = 'finished' AND g.finished_at IS NOT NULL"
    f" AND {not_practice_sql('g')}"  # practice games stay out of history
    " AND NOT EXISTS (SELECT 1 FROM history_games h WHERE h.game_id = g.id)"
    " ORDER BY g.finished_at, g.id LIMIT ?"
)


@dataclass(frozen=True, slots=True)
class RatingDelta:
    """A player's shown rating (ordinal) before and after one game, in one scope."""

    user_id: int
    before: float
    after: float

    @property
    def delta(self) -> float:
        """The change: ``after - before``."""
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One leaderboard line: 1-based ``rank``, the player, their rating, games and wins.

    ``games``/``wins`` count the leaderboard's period (all time or the last days);
    ``rated_games``: all the player's rated games in the scope (None: same as ``games``).
    """

    rank: int
    user_id: int
    ordinal: float
    games: int
    wins: int
    rated_games: int | None = None

    @property
    def provisional(self) -> bool:
        """Fewer than history.ratings.PROVISIONAL_GAMES rated games in the scope."""
        return is_provisional(self.games if self.rated_games is None else self.rated_games)


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat of a finished game in ``/hats history``.

    ``black_hats``: how many it kept; ``cookie``: it held the cookie at the end (R13). With
    ``total`` they rank the seats (:func:`engine.standings`).
    """

    seat: int
    user_id: int | None
    ai_level: str | None
    total: int
    winner: bool
    black_hats: int = 0
    cookie: bool = False


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished game in ``/hats history``: id, finish time (unix seconds), its seats."""

    game_id: int
    finished_at: float
    seats: tuple[SeatSummary, ...]


def change_rows(game_id: int, changes: Sequence[Change], at: float) -> list[tuple]:
    """``rating_changes`` rows (column order of migration 0007) of one game's changes."""
    return [
        (
            game_id,
            c.scope[0],
            c.scope[1],
            c.user_id,
            c.before.mu,
            c.before.sigma,
            c.after.mu,
            c.after.sigma,
            int(c.won),
            at,
        )
        for c in changes
    ]


def rating_row(scope: Scope, user_id: int, r: Rating, kth_at: float | None) -> tuple:
    """A ``ratings`` row (column order of migration 0007); ``kth_at``: see :func:`kth_at`."""
    return (scope[0], scope[1], user_id, r.mu, r.sigma, r.ordinal, r.games, r.wins, kth_at)


def kth_at(previous: Sequence[float], at: float) -> float | None:
    """When the :data:`~history.ratings.MIN_GAMES`-th most recent rated game finished.

    ``previous``: finish times of the player's earlier rated games in the scope, newest first
    (at least MIN_GAMES - 1 of them when there are that many); ``at``: the new game's.
    None while the player has fewer than MIN_GAMES games.
    """
    times = [at, *previous][:MIN_GAMES]
    return times[-1] if len(times) == MIN_GAMES else None


def _kicked(settings: dict[str, Any]) -> dict[int, int]:
    raw = settings.get(KICKED_SETTING) or {}
    return {int(seat): int(user) for seat, user in raw.items() if user is not None}


def _outcome(game_id: int, guild_id: int, rows: Sequence[Any], kicked: dict[int, int]) -> Outcome:
    """rows: (seat, user_id, ai_level, place, team) in seat order."""
    seats = []
    for seat, user_id, ai_level, place, team in rows:
        if user_id is None and seat in kicked:
            seats.append(SeatOutcome(kicked[seat], None, place, team, kicked=True))
        elif user_id is not None:
            seats.append(SeatOutcome(user_id, None, place, team))
        else:
            seats.append(SeatOutcome(None, ai_level, place, team))
    return Outcome(game_id, guild_id, tuple(seats))


class History:
    """Repository of ``history_games``, ``history_favourites``, ``rating_changes``, ``ratings``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # ------------------------------------------------------------------ writing
    async def process_pending(self, *, batch: int = 200) -> list[int]:
        """Process every finished game not processed yet, in game order; returns their ids.

        Each game is one write transaction: its history row (``rated`` 0 with fewer than 2
        humans or hints allowed, :func:`data.game_flags.is_rated_kind`), its favourite hat
        types, and for a rated game the rating changes and new
        ratings of its humans in four scopes (see :mod:`history.ratings`). Safe to call again
        at any time (start-up, after each game); a game is never processed twice.
        """
        done: list[int] = []
        while True:
            pending = await self._db.fetch_all(_PENDING, (batch,))
            if not pending:
                return done
            for game_id, guild_id, settings, finished_at in pending:
                async with self._db.write() as tx:
                    if self._db.dialect.lock_history:  # one history writer at a time
                        await tx.run(self._db.dialect.lock_history)
                    if await tx.one("SELECT 1 FROM history_games WHERE game_id = ?", (game_id,)):
                        continue
                    await self._process(
                        tx, game_id, guild_id, json.loads(settings or "{}"), finished_at
                    )
                done.append(game_id)

    async def _process(
        self,
        tx: Transaction,
        game_id: int,
        guild_id: int,
        settings: dict[str, Any],
        finished_at: float,
    ) -> None:
        rows = await tx.all(
            "SELECT seat, user_id, ai_level, place, team FROM results WHERE game_id = ?"
            " ORDER BY seat",
            (game_id,),
        )
        outcome = _outcome(game_id, guild_id, rows, _kicked(settings))
        book: dict[tuple[Scope, int], Rating] = {}
        for (g, n), user_id in {(s, u) for s in scopes_of(outcome) for u in outcome.humans}:
            row = await tx.one(
                "SELECT mu, sigma, games, wins FROM ratings"
                " WHERE guild_id = ? AND seats = ? AND user_id = ?",
                (g, n, user_id),
            )
            if row is not None:
                book[((g, n), user_id)] = Rating(row[0], row[1], row[2], row[3])
        changes = apply_outcome(book, outcome) if is_rated_kind(settings) else []
        seq_row = await tx.one("SELECT COALESCE(MAX(seq), 0) + 1 FROM history_games")
        await tx.run(
            "INSERT INTO history_games (game_id, seq, guild_id, seats, finished_at, rated)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seq_row[0], guild_id, len(rows), finished_at, int(bool(changes))),
        )
        record = await tx.one("SELECT record FROM records WHERE game_id = ?", (game_id,))
        favourites = _favourite_types(record[0]) if record else []
        await tx.many(
            "INSERT INTO history_favourites (game_id, seat, hat_type) VALUES (?, ?, ?)",
            [(game_id, seat, t) for seat, t in enumerate(favourites)],
        )
        await tx.many(
            f"INSERT INTO rating_changes VALUES ({', '.join('?' * 10)})",
            change_rows(game_id, changes, finished_at),
        )
        kths = []
        for c in changes:
            earlier = await tx.all(
                "SELECT at FROM rating_changes WHERE user_id = ? AND guild_id = ? AND seats = ?"
                " AND game_id != ? ORDER BY at DESC LIMIT ?",
                (c.user_id, c.scope[0], c.scope[1], game_id, MIN_GAMES - 1),
            )
            kths.append(kth_at([r[0] for r in earlier], finished_at))
        await tx.many(
            "INSERT INTO ratings (guild_id, seats, user_id, mu, sigma, ordinal, games, wins,"
            " kth_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, seats, user_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games,"
            " wins = excluded.wins, kth_at = excluded.kth_at",
            [
                rating_row(c.scope, c.user_id, c.after, k)
                for c, k in zip(changes, kths, strict=True)
            ],
        )

    # ------------------------------------------------------------------ reading
    async def changes_for_game(self, game_id: int, guild_id: int) -> list[RatingDelta]:
        """The shown rating changes of a game's humans on its server (all seat counts)."""
        rows = await self._db.fetch_all(
            "SELECT user_id, mu_before - 3 * sigma_before, mu - 3 * sigma FROM rating_changes"
            " WHERE game_id = ? AND guild_id = ? AND seats = 0 ORDER BY user_id",
            (game_id, guild_id),
        )
        return [RatingDelta(r[0], r[1], r[2]) for r in rows]

    async def rating(self, user_id: int, guild_id: int, seats: int = 0) -> Rating | None:
        """A player's current rating in a scope, or None before their first rated game there."""
        row = await self._db.fetch_one(
            "SELECT mu, sigma, games, wins FROM ratings"
            " WHERE guild_id = ? AND seats = ? AND user_id = ?",
            (guild_id, seats, user_id),
        )
        return Rating(row[0], row[1], row[2], row[3]) if row else None

    async def recent_ordinals(
        self, user_id: int, guild_id: int, *, games: int = 5
    ) -> list[tuple[float, float]]:
        """The (before, after) ordinals of a player's last ``games`` rated games, oldest first.

        Scope: ``guild_id`` (0 global), every seat count.
        """
        rows = await self._db.fetch_all(
            "SELECT mu_before - 3 * sigma_before, mu - 3 * sigma FROM rating_changes"
            " WHERE user_id = ? AND guild_id = ? AND seats = 0"
            " ORDER BY at DESC, game_id DESC LIMIT ?",
            (user_id, guild_id, games),
        )
        return [(r[0], r[1]) for r in reversed(rows)]

    async def player_games(self, user_id: int, guild_id: int | None) -> list[PlayerGame]:
        """A player's finished games on one server (``guild_id``) or everywhere (None).

        Every seat with the player's user id counts (also one the AI played while they were
        away at the end); a kicked player's seat has no user id and does not count here. In a
        4-player game the partner (R5: the other seat of the team) gives ``partner`` (their
        user id, None for an AI) and ``team_total`` (R20).
        """
        in_guild = "" if guild_id is None else " AND h.guild_id = :guild"
        rows = await self._db.fetch_all(
            "SELECT r.game_id, h.seats, h.finished_at, r.collection, r.favourite, r.cookie,"
            " r.total, r.black_hats, r.winner, f.hat_type, p.user_id, p.total"
            " FROM results r JOIN history_games h ON h.game_id = r.game_id"
            " LEFT JOIN history_favourites f ON f.game_id = r.game_id AND f.seat = r.seat"
            " LEFT JOIN results p"
            " ON p.game_id = r.game_id AND p.team = r.team AND p.seat <> r.seat"
            f" WHERE r.user_id = :user{in_guild}",
            {"user": user_id} if guild_id is None else {"user": user_id, "guild": guild_id},
        )
        return [
            PlayerGame(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                r[6],
                r[7],
                bool(r[8]),
                r[9],
                partner=r[10],
                team_total=None if r[11] is None else r[6] + r[11],
            )
            for r in rows
        ]

    @staticmethod
    def _board_filter(guild_id: int, seats: int, since: float | None) -> tuple[str, dict]:
        where = "guild_id = :guild AND seats = :seats AND "
        where += "kth_at >= :since" if since is not None else "games >= :min"
        return where, {"guild": guild_id, "seats": seats, "since": since, "min": MIN_GAMES}

    async def leaderboard_size(
        self, guild_id: int, *, seats: int = 0, since: float | None = None
    ) -> int:
        """How many players qualify for :meth:`leaderboard` with the same arguments."""
        where, params = self._board_filter(guild_id, seats, since)
        row = await self._db.fetch_one(f"SELECT COUNT(*) FROM ratings WHERE {where}", params)
        return int(row[0]) if row else 0

    async def leaderboard(
        self,
        guild_id: int,
        *,
        seats: int = 0,
        since: float | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> list[BoardRow]:
        """One page of a server's players by current rating, best first.

        ``seats`` 0: every seat count, else 2/3/4. A player qualifies with at least
        :data:`~history.ratings.MIN_GAMES` rated games in the scope; with ``since`` (unix
        seconds) that many since then, and the games and wins shown count that period.
        Ties on the rating go to the lower user id. :meth:`leaderboard_size` counts them.
        """
        where, params = self._board_filter(guild_id, seats, since)
        rows = await self._db.fetch_all(
            f"SELECT user_id, ordinal, games, wins FROM ratings WHERE {where}"
            " ORDER BY ordinal DESC, user_id LIMIT :limit OFFSET :offset",
            {**params, "limit": limit, "offset": offset},
        )
        if since is not None and rows:
            marks = ",".join("?" * len(rows))
            recent = await self._db.fetch_all(
                "SELECT user_id, COUNT(*), SUM(won) FROM rating_changes"
                f" WHERE user_id IN ({marks}) AND guild_id = ? AND seats = ? AND at >= ?"
                " GROUP BY user_id",
                [*(r[0] for r in rows), guild_id, seats, since],
            )
            period = {r[0]: (r[1], r[2]) for r in recent}
            rows = [(r[0], r[1], *period.get(r[0], (0, 0)), r[2]) for r in rows]
        return [
            BoardRow(offset + i + 1, r[0], r[1], r[2], r[3], r[4] if len(r) > 4 else None)
            for i, r in enumerate(rows)
        ]

    async def recent_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10
    ) -> list[GameSummary]:
        """A server's most recent finished games, newest first (only ``user_id``'s if given)."""
        if user_id is None:
            games = await self._db.fetch_all(
                "SELECT game_id, finished_at FROM history_games WHERE guild_id = ?"
                " ORDER BY finished_at DESC, game_id DESC LIMIT ?",
                (guild_id, limit),
            )
        else:
            games = await self._db.fetch_all(
                "SELECT h.game_id, h.finished_at FROM results r"
                " JOIN history_games h ON h.game_id = r.game_id"
                " WHERE r.user_id = ? AND h.guild_id = ?"
                " ORDER BY h.finished_at DESC, h.game_id DESC LIMIT ?",
                (user_id, guild_id, limit),
            )
        if not games:
            return []
        ids = [g[0] for g in games]
        marks = ",".join("?" * len(ids))
        seats = await self._db.fetch_all(
            f"SELECT game_id, seat, user_id, ai_level, total, winner, black_hats, cookie"
            f" FROM results WHERE game_id IN ({marks}) ORDER BY game_id, seat",
            ids,
        )
        by_game: dict[int, list[SeatSummary]] = {}
        for game_id, seat, user, ai_level, total, winner, blacks, cookie in seats:
            by_game.setdefault(game_id, []).append(
                SeatSummary(seat, user, ai_level, total, bool(winner), blacks, cookie > 0)
            )
        return [GameSummary(g, at, tuple(by_game.get(g, ()))) for g, at in games]

    # ------------------------------------------------------------------ checking
    async def outcomes(self) -> list[Outcome]:
        """Every processed game as an :class:`Outcome`, in game order (for a full recompute)."""
        games = await self._db.fetch_all(
            "SELECT h.game_id, h.guild_id, g.settings FROM history_games h"
            " JOIN games g ON g.id = h.game_id ORDER BY h.seq"
        )
        rows = await self._db.fetch_all(
            "SELECT game_id, seat, user_id, ai_level, place, team FROM results"
            " WHERE game_id IN (SELECT game_id FROM history_games) ORDER BY game_id, seat"
        )
        by_game: dict[int, list[Any]] = {}
        for r in rows:
            by_game.setdefault(r[0], []).append(r[1:])
        return [
            _outcome(g, guild, by_game.get(g, []), _kicked(json.loads(settings or "{}")))
            for g, guild, settings in games
        ]

    async def all_ratings(self) -> dict[tuple[Scope, int], Rating]:
        """Every stored rating: ``((guild_id, seats), user_id) -> Rating``."""
        rows = await self._db.fetch_all(
            "SELECT guild_id, seats, user_id, mu, sigma, games, wins FROM ratings"
        )
        return {((r[0], r[1]), r[2]): Rating(r[3], r[4], r[5], r[6]) for r in rows}


def _favourite_types(record_json: str) -> list[str]:
    """The favourite hat type of each seat from a hats-record/1 ``end.favorites`` (R21)."""
    try:
        codes = json.loads(record_json)["end"]["favorites"]
        return [card_from_code(code).type.value for code in codes]
    except (KeyError, TypeError, ValueError):
        return []
