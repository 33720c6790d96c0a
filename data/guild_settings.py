"""Per-server settings (``/hats settings``): the public language, pictures on/off, the turn timer.

One row per server that changed a setting (migrations 0006, 0010 and 0011's time zone). A NULL
column means "the default": the server's own language, pictures on, the bot's default turn
timer, UTC.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from data.db import Database

__all__ = ["GuildOptions", "GuildSettings"]


@dataclass(frozen=True, slots=True)
class GuildOptions:
    """A server's display and lobby settings besides the language.

    ``pictures``: False shows the compact text layout instead of the pictures.
    ``turn_timer``: seconds per turn for the server's new lobbies; 0 for no timer; None for
    the bot's default (``Settings.turn_timer``).
    """

    pictures: bool = True
    turn_timer: float | None = None


class GuildSettings:
    """Repository of ``guild_settings``: one row per server that changed a setting."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def language(self, guild_id: int) -> str | None:
        """The language set for ``guild_id`` (``"de"``, ``"fr"``...), or None (server default)."""
        row = await self._db.fetch_one(
            "SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return row[0] if row else None

    async def languages(self) -> dict[int, str]:
        """Every server's set language (guild id -> language), servers without one left out."""
        rows = await self._db.fetch_all(
            "SELECT guild_id, language FROM guild_settings WHERE language IS NOT NULL"
        )
        return {int(r[0]): str(r[1]) for r in rows}

    async def set_language(
        self, guild_id: int, language: str | None, *, at: float | None = None
    ) -> None:
        """Store ``language`` for ``guild_id``; None goes back to the server's own locale."""
        await self._set(guild_id, "language", language, at)

    async def options(self) -> dict[int, GuildOptions]:
        """Every server's :class:`GuildOptions` that differ from the defaults, by guild id."""
        rows = await self._db.fetch_all(
            "SELECT guild_id, pictures, turn_timer FROM guild_settings"
            " WHERE pictures IS NOT NULL OR turn_timer IS NOT NULL"
        )
        return {
            int(r[0]): GuildOptions(
                pictures=r[1] is None or bool(r[1]),
                turn_timer=None if r[2] is None else float(r[2]),
            )
            for r in rows
        }

    async def set_pictures(self, guild_id: int, on: bool, *, at: float | None = None) -> None:
        """Pictures on (the default) or off (the compact text layout) for ``guild_id``."""
        await self._set(guild_id, "pictures", None if on else 0, at)

    async def set_turn_timer(
        self, guild_id: int, seconds: float | None, *, at: float | None = None
    ) -> None:
        """``guild_id``'s new lobbies' turn timer: seconds, 0 for none, None for the default."""
        await self._set(guild_id, "turn_timer", seconds, at)

    async def timezone(self, guild_id: int) -> str | None:
        """The IANA time zone set for ``guild_id`` (``"Europe/Berlin"``), or None (UTC)."""
        row = await self._db.fetch_one(
            "SELECT timezone FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return row[0] if row else None

    async def set_timezone(
        self, guild_id: int, zone: str | None, *, at: float | None = None
    ) -> None:
        """Store ``guild_id``'s time zone (an IANA name, checked by the caller); None: UTC."""
        await self._set(guild_id, "timezone", zone, at)

    async def _set(self, guild_id: int, column: str, value: object, at: float | None) -> None:
        """Upsert one column (``column`` is one of this class's own names, never user input)."""
        await self._db.fetch_all(
            f"INSERT INTO guild_settings (guild_id, {column}, updated_at) VALUES (?, ?, ?)"
            f" ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column},"
            " updated_at = excluded.updated_at",
            (guild_id, value, time.time() if at is None else at),
        )
