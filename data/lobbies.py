"""Open lobbies: one per channel, never beside a live game (the channel rule)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from data import jsoncodec
from data.db import Database
from data.errors import ChannelBusy, ConstraintViolated, LobbyNotFound
from data.rows import LobbyRow, LobbySeat

__all__ = ["LOBBY_COLUMNS", "Lobbies", "is_channel_conflict", "lobby_row"]

LOBBY_COLUMNS = (
    "id, guild_id, channel_id, host_id, seats, settings, message_id, created_at, updated_at"
)


def is_channel_conflict(exc: ConstraintViolated) -> bool:
    """True when an insert broke the one-lobby-or-live-game-per-channel rule.

    SQLite names the columns (``lobbies.channel_id``; ``games.channel_id`` for the partial
    unique index on live games), PostgreSQL the indexes; both backends' triggers say
    ``channel_busy``.
    """
    return exc.names(
        "channel_busy",
        "lobbies.channel_id",
        "games.channel_id",
        "lobbies_channel",
        "games_live_channel",
    )


def lobby_row(r: Sequence[Any]) -> LobbyRow:
    """A :class:`LobbyRow` from a row selected with :data:`LOBBY_COLUMNS`."""
    return LobbyRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        host_id=r[3],
        seats=tuple(LobbySeat.from_dict(s) for s in jsoncodec.loads_list(r[4])),
        settings=jsoncodec.loads_object(r[5]),
        message_id=r[6],
        created_at=r[7],
        updated_at=r[8],
    )


def _seats_json(seats: Iterable[LobbySeat]) -> str:
    return jsoncodec.dumps([s.to_dict() for s in seats])


class Lobbies:
    """Repository of the ``lobbies`` table. A lobby row exists only while the lobby is open."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        settings: Mapping[str, Any] | None = None,
        seats: Iterable[LobbySeat] = (),
        *,
        at: float | None = None,
    ) -> LobbyRow:
        """Open a lobby in ``channel_id``; ``at`` (unix seconds) defaults to now.

        Raises ChannelBusy when the channel already has an open lobby or a live game; the
        check and the insert are one statement, so of two racing creators exactly one wins.
        """
        now = time.time() if at is None else at
        try:
            row = await self._db.fetch_one(
                f"INSERT INTO lobbies (guild_id, channel_id, host_id, seats, settings,"
                f" created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING {LOBBY_COLUMNS}",
                (
                    guild_id,
                    channel_id,
                    host_id,
                    _seats_json(seats),
                    jsoncodec.dumps(dict(settings or {})),
                    now,
                    now,
                ),
            )
        except ConstraintViolated as exc:
            if is_channel_conflict(exc):
                raise ChannelBusy(channel_id) from exc
            raise
        assert row is not None
        return lobby_row(row)

    async def get_lobby(self, lobby_id: int) -> LobbyRow | None:
        """The open lobby with this id, or None."""
        row = await self._db.fetch_one(
            f"SELECT {LOBBY_COLUMNS} FROM lobbies WHERE id = ?", (lobby_id,)
        )
        return lobby_row(row) if row else None

    async def lobby_in_channel(self, channel_id: int) -> LobbyRow | None:
        """The channel's open lobby, or None."""
        row = await self._db.fetch_one(
            f"SELECT {LOBBY_COLUMNS} FROM lobbies WHERE channel_id = ?", (channel_id,)
        )
        return lobby_row(row) if row else None

    async def list_open(self) -> list[LobbyRow]:
        """Every open lobby, oldest first."""
        rows = await self._db.fetch_all(f"SELECT {LOBBY_COLUMNS} FROM lobbies ORDER BY id")
        return [lobby_row(r) for r in rows]

    async def lobbies_of_user(self, user_id: int) -> list[LobbyRow]:
        """The open lobbies where ``user_id`` sits (hosting or joined), oldest first.

        Seats are JSON text: the SQL keeps the rows whose text holds the id (a Discord id has
        17–20 digits, so that is nearly exact), the seats decide. A scan of the open lobbies,
        which expire (``HATS_LOBBY_EXPIRY``), so there are few.
        """
        rows = await self._db.fetch_all(
            f"SELECT {LOBBY_COLUMNS} FROM lobbies WHERE host_id = ? OR seats LIKE ? ORDER BY id",
            (user_id, f"%{user_id}%"),
        )
        lobbies = [lobby_row(r) for r in rows]
        return [
            r for r in lobbies if r.host_id == user_id or any(s.user_id == user_id for s in r.seats)
        ]

    async def _update(self, lobby_id: int, column: str, value: Any, at: float | None) -> LobbyRow:
        now = time.time() if at is None else at
        row = await self._db.fetch_one(
            f"UPDATE lobbies SET {column} = ?, updated_at = ? WHERE id = ?"
            f" RETURNING {LOBBY_COLUMNS}",
            (value, now, lobby_id),
        )
        if row is None:
            raise LobbyNotFound(lobby_id)
        return lobby_row(row)

    async def set_seats(
        self, lobby_id: int, seats: Iterable[LobbySeat], *, at: float | None = None
    ) -> LobbyRow:
        """Replace the seat list (seating order); bumps ``updated_at``. Raises LobbyNotFound."""
        return await self._update(lobby_id, "seats", _seats_json(seats), at)

    async def set_host(self, lobby_id: int, host_id: int, *, at: float | None = None) -> LobbyRow:
        """Hand the lobby to another host (the host left); raises LobbyNotFound."""
        return await self._update(lobby_id, "host_id", host_id, at)

    async def set_settings(
        self, lobby_id: int, settings: Mapping[str, Any], *, at: float | None = None
    ) -> LobbyRow:
        """Replace the settings object; bumps ``updated_at``. Raises LobbyNotFound."""
        return await self._update(lobby_id, "settings", jsoncodec.dumps(dict(settings)), at)

    async def set_message_id(
        self, lobby_id: int, message_id: int | None, *, at: float | None = None
    ) -> LobbyRow:
        """Record the lobby's Discord message id (None clears it). Raises LobbyNotFound."""
        return await self._update(lobby_id, "message_id", message_id, at)

    async def delete_lobby(self, lobby_id: int) -> bool:
        """Close a lobby (cancelled or expired) and its timers; False if it was not open.

        A lobby that becomes a game is closed by ``Games.create_game(from_lobby_id=...)``.
        """
        row = await self._db.fetch_one("DELETE FROM lobbies WHERE id = ? RETURNING id", (lobby_id,))
        return row is not None
