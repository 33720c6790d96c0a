"""Per-server settings: the language of the bot's public messages (``/hats language``)."""

from __future__ import annotations

import time

from data.db import Database

__all__ = ["GuildSettings"]


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
        await self._db.fetch_all(
            "INSERT INTO guild_settings (guild_id, language, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language,"
            " updated_at = excluded.updated_at",
            (guild_id, language, time.time() if at is None else at),
        )
