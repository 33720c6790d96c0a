"""Games and their seats: creation (from a lobby, atomically), seat changes, abandonment."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from data import jsoncodec
from data.db import Database, Transaction
from data.errors import (
    ChannelBusy,
    ConstraintViolated,
    GameNotFound,
    GameNotLive,
    LobbyNotFound,
    ReplayFailed,
)
from data.game_flags import not_practice_sql
from data.lobbies import is_channel_conflict
from data.messages import MESSAGE_COLUMNS, message_row
from data.outbox import OutboxKind, add_item
from data.rows import (
    SEAT_COLUMNS,
    GameRow,
    GameStatus,
    LiveGame,
    SeatRow,
    SeatSpec,
    TimerChange,
    seat_row,
)
from data.steps import decode_step_rows, step_json
from data.timers import TimerPlan, write_timers_at_step
from engine import GameConfig

__all__ = [
    "GAME_COLUMNS",
    "SEAT_COLUMNS",
    "GameImport",
    "Games",
    "checked_config",
    "game_row",
    "insert_game",
    "require_live",
    "seat_row",
]

GAME_COLUMNS = (
    "id, guild_id, channel_id, config, settings, status, created_at, updated_at, finished_at"
)


def game_row(r: Sequence[Any]) -> GameRow:
    """A :class:`GameRow` from a row selected with :data:`GAME_COLUMNS`."""
    return GameRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        config=jsoncodec.loads_object(r[3]),
        settings=jsoncodec.loads_object(r[4]),
        status=GameStatus(r[5]),
        created_at=r[6],
        updated_at=r[7],
        finished_at=r[8],
    )


async def require_live(tx: Transaction, game_id: int, for_update: str = "") -> None:
    """Raise GameNotFound or GameNotLive unless the game is live (inside a transaction).

    ``for_update``: the dialect's row lock (``db.dialect.for_update``), so that on PostgreSQL
    the game stays live until the transaction ends (concurrent finishes and appends wait).
    """
    row = await tx.one(f"SELECT status FROM games WHERE id = ?{for_update}", (game_id,))
    if row is None:
        raise GameNotFound(game_id)
    if row[0] != GameStatus.LIVE:
        raise GameNotLive(game_id, row[0])


def _checked_config(config: Mapping[str, Any], seats: Sequence[SeatSpec]) -> str:
    """The config as JSON after checking it with the engine (R3–R6); raises ValueError."""
    parsed = GameConfig.from_dict(dict(config))
    if len(seats) != parsed.seats:
        raise ValueError(f"config has {parsed.seats} seats but {len(seats)} were given")
    return jsoncodec.dumps(parsed.to_dict())


@dataclass(frozen=True, slots=True)
class GameImport:
    """A live game to insert whole (benchmarks, imports): its seats and steps so far.

    ``steps`` are ``Step.to_dict()`` dicts in order (seq 0, 1, …); ``at`` in unix seconds
    (None: now) is the creation time and every step's time.
    """

    guild_id: int
    channel_id: int
    config: Mapping[str, Any]
    seats: Sequence[SeatSpec]
    steps: Sequence[Mapping[str, Any]] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)
    at: float | None = None


async def insert_game(
    tx: Transaction,
    guild_id: int,
    channel_id: int,
    config_json: str,
    seats: Sequence[SeatSpec],
    settings: Mapping[str, Any] | None,
    now: float,
) -> GameRow:
    """Insert a live game and its seats inside the caller's write transaction ``tx``.

    ``config_json``: the checked config (:func:`checked_config`); raises ConstraintViolated
    when the channel already holds a live game (:func:`data.lobbies.is_channel_conflict`).
    """
    row = await tx.one(
        f"INSERT INTO games (guild_id, channel_id, config, settings, created_at, updated_at)"
        f" VALUES (?, ?, ?, ?, ?, ?) RETURNING {GAME_COLUMNS}",
        (guild_id, channel_id, config_json, jsoncodec.dumps(dict(settings or {})), now, now),
    )
    assert row is not None
    await tx.many(
        "INSERT INTO game_seats (game_id, seat, user_id, ai_level) VALUES (?, ?, ?, ?)",
        [(row[0], i, s.user_id, s.ai_level) for i, s in enumerate(seats)],
    )
    return game_row(row)


checked_config = _checked_config
"""The public name of the config check (``data.tournaments`` creates games too)."""


class Games:
    """Repository of ``games`` and ``game_seats``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        config: Mapping[str, Any],
        seats: Sequence[SeatSpec],
        settings: Mapping[str, Any] | None = None,
        *,
        from_lobby_id: int | None = None,
        at: float | None = None,
        announce: bool = True,
    ) -> GameRow:
        """Create a live game; with ``from_lobby_id`` that lobby is closed in the same transaction.

        With ``announce`` (default) the outbox item ``start`` (table, hands, first ping) is
        written in the same transaction, so a crash right after the commit still gets the
        game announced by the restarted bot.

        ``config`` is ``GameConfig.to_dict()``; ``seats`` one :class:`SeatSpec` per seat in
        seat order (teams 0&2 / 1&3 with 4 seats, R5). Raises ValueError for a bad config or
        seat count, LobbyNotFound when ``from_lobby_id`` is not an open lobby of this channel,
        ChannelBusy when the channel has a live game or another lobby. Nothing is written then.
        """
        config_json = _checked_config(config, seats)
        now = time.time() if at is None else at
        try:
            async with self._db.write() as tx:
                if from_lobby_id is not None:
                    gone = await tx.one(
                        "DELETE FROM lobbies WHERE id = ? AND channel_id = ? RETURNING id",
                        (from_lobby_id, channel_id),
                    )
                    if gone is None:
                        raise LobbyNotFound(from_lobby_id)
                row = await insert_game(tx, guild_id, channel_id, config_json, seats, settings, now)
                if announce:
                    await add_item(tx, row.id, OutboxKind.START, now)
        except ConstraintViolated as exc:
            if is_channel_conflict(exc):
                raise ChannelBusy(channel_id) from exc
            raise
        return row

    async def import_games(self, games: Iterable[GameImport]) -> list[int]:
        """Insert whole live games with their steps in ONE transaction; return their ids.

        Steps are stored with actor ``"import"``. Raises ChannelBusy (nothing is written) when a
        channel is taken, ValueError for a bad config or a step that does not decode. Steps are
        not replayed here: an illegal sequence shows up at restore as a ReplayFailed game.
        """
        ids: list[int] = []
        now = time.time()
        async with self._db.write() as tx:
            for g in games:
                config_json = _checked_config(g.config, g.seats)
                at = now if g.at is None else g.at
                try:
                    row = await insert_game(
                        tx, g.guild_id, g.channel_id, config_json, g.seats, g.settings, at
                    )
                except ConstraintViolated as exc:
                    if is_channel_conflict(exc):
                        raise ChannelBusy(g.channel_id) from exc
                    raise
                await tx.many(
                    "INSERT INTO steps (game_id, seq, step, actor, at) VALUES (?, ?, ?, ?, ?)",
                    [(row.id, seq, step_json(s), "import", at) for seq, s in enumerate(g.steps)],
                )
                ids.append(row.id)
        return ids

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id (any status), or None."""
        row = await self._db.fetch_one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return game_row(row) if row else None

    async def live_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's live game, or None."""
        row = await self._db.fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status = 'live'",
            (channel_id,),
        )
        return game_row(row) if row else None

    async def list_live(self) -> list[GameRow]:
        """Every live game, oldest first."""
        rows = await self._db.fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'live' ORDER BY id"
        )
        return [game_row(r) for r in rows]

    async def load_live(self, game_id: int) -> LiveGame | None:
        """The live game ``game_id`` as stored, read in ONE read transaction; None otherwise.

        A :class:`~data.rows.LiveGame`: its row, seats (seat order), decoded engine Steps (seq
        order), messages (by role, then seat) and ``auto_seqs`` (steps of actor ``"auto"``);
        equal to the one :func:`data.restore.load_live` gives for it. None for an unknown,
        finished or abandoned game. Raises ReplayFailed (its seq, or None for a damaged
        config) when a step does not decode or a seq is missing, as restore does; replay it
        with :func:`data.restore.rebuild_game`.
        """
        async with self._db.read() as tx:
            game = await tx.one(
                f"SELECT {GAME_COLUMNS} FROM games WHERE id = ? AND status = 'live'", (game_id,)
            )
            if game is None:
                return None
            seats = await tx.all(
                f"SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
            steps = await tx.all(
                "SELECT seq, step, actor FROM steps WHERE game_id = ? ORDER BY seq", (game_id,)
            )
            messages = await tx.all(
                f"SELECT {MESSAGE_COLUMNS} FROM game_messages WHERE game_id = ?"
                " ORDER BY role, seat",
                (game_id,),
            )
        try:
            row = game_row(game)
        except ValueError as exc:  # config or settings JSON damaged
            raise ReplayFailed(game_id, None, str(exc)) from exc
        decoded, auto = decode_step_rows(game_id, steps)
        return LiveGame(
            row,
            tuple(seat_row(r) for r in seats),
            decoded,
            tuple(message_row(r) for r in messages),
            auto,
        )

    async def live_ids_of_user(self, user_id: int, *, practice: bool = True) -> list[int]:
        """Ids of the live games where ``user_id`` holds a seat, oldest first.

        A seat an AI plays for the user (away, kicked) still counts: its ``user_id`` is set.
        ``practice`` False leaves practice games out (:func:`data.game_flags.is_practice`: they
        count toward no limit).
        """
        skip = "" if practice else f" AND {not_practice_sql('g')}"
        rows = await self._db.fetch_all(
            "SELECT DISTINCT g.id FROM game_seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND g.status = 'live'" + skip + " ORDER BY g.id",
            (user_id,),
        )
        return [int(r[0]) for r in rows]

    async def live_ids_in_guild(self, guild_id: int) -> list[int]:
        """Ids of the guild's live games, oldest first (index ``games_live_guild``)."""
        rows = await self._db.fetch_all(
            "SELECT id FROM games WHERE guild_id = ? AND status = 'live' ORDER BY id",
            (guild_id,),
        )
        return [int(r[0]) for r in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The game's seats in seat order (empty for an unknown game)."""
        rows = await self._db.fetch_all(
            f"SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [seat_row(r) for r in rows]

    async def update_seat(
        self,
        seat: SeatRow,
        *,
        at: float | None = None,
        deadlines: tuple[int, TimerPlan] | None = None,
    ) -> list[TimerChange] | None:
        """Store a seat's ``user_id``, ``ai_level``, ``away`` and ``auto_turns``.

        Use ``dataclasses.replace(seat_row, ai_level="normal")`` after a kick, ``away=True`` for
        an away seat. ``deadlines``: ``(steps, plan)``, the game's timer changes that follow
        the change, written in the same transaction if the game still holds ``steps`` steps
        (:func:`~data.timers.write_timers_at_step`; the seat is stored either way). Returns
        the timer changes written, or None (none asked, or the game moved on). Raises
        GameNotFound, GameNotLive, ValueError (no user and no AI, or an unknown seat).
        """
        if seat.user_id is None and seat.ai_level is None:
            raise ValueError("a seat needs a user_id or an ai_level")
        now = time.time() if at is None else at
        async with self._db.write() as tx:
            await require_live(tx, seat.game_id, self._db.dialect.for_update)
            done = await tx.one(
                "UPDATE game_seats SET user_id = ?, ai_level = ?, away = ?, auto_turns = ?"
                " WHERE game_id = ? AND seat = ? RETURNING seat",
                (
                    seat.user_id,
                    seat.ai_level,
                    int(seat.away),
                    seat.auto_turns,
                    seat.game_id,
                    seat.seat,
                ),
            )
            if done is None:
                raise ValueError(f"game {seat.game_id} has no seat {seat.seat}")
            await tx.run("UPDATE games SET updated_at = ? WHERE id = ?", (now, seat.game_id))
            if deadlines is None:
                return None
            steps, plan = deadlines
            return await write_timers_at_step(
                tx, seat.game_id, steps, plan, for_update=self._db.dialect.for_update
            )

    async def set_settings(
        self, game_id: int, settings: Mapping[str, Any], *, at: float | None = None
    ) -> GameRow:
        """Replace a live game's settings object. Raises GameNotFound, GameNotLive."""
        now = time.time() if at is None else at
        async with self._db.write() as tx:
            await require_live(tx, game_id, self._db.dialect.for_update)
            row = await tx.one(
                f"UPDATE games SET settings = ?, updated_at = ? WHERE id = ?"
                f" RETURNING {GAME_COLUMNS}",
                (jsoncodec.dumps(dict(settings)), now, game_id),
            )
        assert row is not None
        return game_row(row)

    async def abandon_game(self, game_id: int, *, at: float | None = None) -> GameRow:
        """Mark a live game abandoned (frees its channel) and clear its timers.

        Its steps stay for inspection; no results are written. Raises GameNotFound, GameNotLive.
        """
        now = time.time() if at is None else at
        async with self._db.write() as tx:
            await require_live(tx, game_id, self._db.dialect.for_update)
            await tx.run("DELETE FROM timers WHERE game_id = ?", (game_id,))
            row = await tx.one(
                f"UPDATE games SET status = 'abandoned', updated_at = ?, finished_at = ?"
                f" WHERE id = ? RETURNING {GAME_COLUMNS}",
                (now, now, game_id),
            )
        assert row is not None
        return game_row(row)
