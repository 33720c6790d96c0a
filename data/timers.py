"""Deadlines that survive restarts: turn timers, swap offer lapses (R10), lobby expiry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from data import jsoncodec
from data.db import Database
from data.rows import TimerRow

__all__ = ["TIMER_COLUMNS", "Timers", "timer_row"]

TIMER_COLUMNS = "id, game_id, lobby_id, kind, seat, due_at, payload"


def timer_row(r: Sequence[Any]) -> TimerRow:
    """A :class:`TimerRow` from a row selected with :data:`TIMER_COLUMNS`."""
    return TimerRow(r[0], r[1], r[2], r[3], r[4], r[5], jsoncodec.loads_object(r[6]))


def _owner(game_id: int | None, lobby_id: int | None) -> tuple[str, int]:
    if (game_id is None) == (lobby_id is None):
        raise ValueError("give exactly one of game_id and lobby_id")
    return ("game_id", game_id) if game_id is not None else ("lobby_id", lobby_id)  # type: ignore[return-value]


class Timers:
    """Repository of ``timers``: at most one timer per (owner, kind).

    Timers of a lobby vanish with the lobby (cancelled or started); a game's timers are cleared
    when it is finished or abandoned.
    """

    def __init__(self, db: Database) -> None:
        self._db = db

    async def set_timer(
        self,
        kind: str,
        due_at: float,
        *,
        game_id: int | None = None,
        lobby_id: int | None = None,
        seat: int | None = None,
        payload: Mapping[str, Any] | None = None,
    ) -> TimerRow:
        """Create or replace the owner's ``kind`` timer (e.g. ``"turn"``, ``"swap_offer"``).

        ``due_at`` in unix seconds; exactly one owner. Raises ValueError without exactly one
        owner, sqlite3.IntegrityError for an unknown owner (foreign key).
        """
        column, owner = _owner(game_id, lobby_id)
        row = await self._db.fetch_one(
            f"INSERT INTO timers ({column}, kind, seat, due_at, payload) VALUES (?, ?, ?, ?, ?)"
            f" ON CONFLICT ({column}, kind) WHERE {column} IS NOT NULL DO UPDATE SET"
            f" seat = excluded.seat, due_at = excluded.due_at, payload = excluded.payload"
            f" RETURNING {TIMER_COLUMNS}",
            (owner, kind, seat, due_at, jsoncodec.dumps(dict(payload or {}))),
        )
        assert row is not None
        return timer_row(row)

    async def clear_timer(
        self, kind: str, *, game_id: int | None = None, lobby_id: int | None = None
    ) -> bool:
        """Remove the owner's ``kind`` timer; False if there was none."""
        column, owner = _owner(game_id, lobby_id)
        row = await self._db.fetch_one(
            f"DELETE FROM timers WHERE {column} = ? AND kind = ? RETURNING id", (owner, kind)
        )
        return row is not None

    async def get_timer(
        self, kind: str, *, game_id: int | None = None, lobby_id: int | None = None
    ) -> TimerRow | None:
        """The owner's ``kind`` timer, or None."""
        column, owner = _owner(game_id, lobby_id)
        row = await self._db.fetch_one(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE {column} = ? AND kind = ?", (owner, kind)
        )
        return timer_row(row) if row else None

    async def list_due(self, now: float) -> list[TimerRow]:
        """Timers with ``due_at <= now`` (unix seconds), earliest first."""
        rows = await self._db.fetch_all(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE due_at <= ? ORDER BY due_at, id", (now,)
        )
        return [timer_row(r) for r in rows]

    async def list_all(self) -> list[TimerRow]:
        """Every timer, earliest first (re-arm them all after a restart)."""
        rows = await self._db.fetch_all(f"SELECT {TIMER_COLUMNS} FROM timers ORDER BY due_at, id")
        return [timer_row(r) for r in rows]
