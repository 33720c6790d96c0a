"""The Discord messages of a game: the public table, seats' DMs, team threads (upserted)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data.db import Database
from data.rows import GameMessage

__all__ = ["MESSAGE_COLUMNS", "Messages", "message_row"]

_NO_SEAT = -1  # stored instead of NULL so (game_id, role, seat) is a real unique key


def _seat_in(seat: int | None) -> int:
    if seat is not None and seat < 0:
        raise ValueError(f"seat must be >= 0 or None, got {seat}")
    return _NO_SEAT if seat is None else seat


MESSAGE_COLUMNS = "game_id, role, seat, channel_id, message_id"


def message_row(r: Sequence[Any]) -> GameMessage:
    """A :class:`GameMessage` from a row selected with :data:`MESSAGE_COLUMNS`."""
    return GameMessage(r[0], r[1], None if r[2] == _NO_SEAT else r[2], r[3], r[4])


class Messages:
    """Repository of ``game_messages``: one (channel, message) per (game, role, seat)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def set_message(
        self,
        game_id: int,
        role: str,
        channel_id: int,
        message_id: int | None,
        *,
        seat: int | None = None,
    ) -> GameMessage:
        """Insert or replace the message of (game, ``role``, ``seat``).

        ``role``: a MessageRole value (``"table"``, ``"dm"``, ``"team_thread"``) or another
        short string; ``seat``: the seat for DMs, the team index for team threads, None for the
        table. Raises sqlite3.IntegrityError for an unknown game (foreign key).
        """
        row = await self._db.fetch_one(
            "INSERT INTO game_messages (game_id, role, seat, channel_id, message_id)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, role, seat) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id"
            f" RETURNING {MESSAGE_COLUMNS}",
            (game_id, str(role), _seat_in(seat), channel_id, message_id),
        )
        assert row is not None
        return message_row(row)

    async def get_message(
        self, game_id: int, role: str, *, seat: int | None = None
    ) -> GameMessage | None:
        """The message of (game, ``role``, ``seat``), or None."""
        row = await self._db.fetch_one(
            f"SELECT {MESSAGE_COLUMNS} FROM game_messages"
            " WHERE game_id = ? AND role = ? AND seat = ?",
            (game_id, str(role), _seat_in(seat)),
        )
        return message_row(row) if row else None

    async def list_messages(self, game_id: int) -> list[GameMessage]:
        """Every message of the game, by role then seat (None first)."""
        rows = await self._db.fetch_all(
            f"SELECT {MESSAGE_COLUMNS} FROM game_messages WHERE game_id = ? ORDER BY role, seat",
            (game_id,),
        )
        return [message_row(r) for r in rows]

    async def delete_message(self, game_id: int, role: str, *, seat: int | None = None) -> bool:
        """Forget one message; False if it was not stored."""
        row = await self._db.fetch_one(
            "DELETE FROM game_messages WHERE game_id = ? AND role = ? AND seat = ? RETURNING 1",
            (game_id, str(role), _seat_in(seat)),
        )
        return row is not None
