"""Key/value facts about the bot itself (e.g. the hash of the last synced command tree)."""

from __future__ import annotations

from data.db import Database

__all__ = ["Meta"]


class Meta:
    """Repository of ``meta``: text values by text key."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        """The value stored under ``key``, or None."""
        row = await self._db.fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    async def set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` (replacing any earlier value)."""
        await self._db.fetch_all(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
