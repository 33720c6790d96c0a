"""The bot's real command tree, loaded without connecting (no simcord needed)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from bot import HatsBot, create_bot
from data import open_store


@contextlib.asynccontextmanager
async def loaded_bot(tmp_path: Path) -> AsyncIterator[HatsBot]:
    """A bot with every cog and the command translator loaded (as at start-up), store open."""
    bot = create_bot(tmp_path / "commands.sqlite3")
    bot.store = await open_store(bot.settings.db_path)
    try:
        await bot.load_features()
        yield bot
    finally:
        await bot.store.close()
