"""The bot's clock: discord.py's, so that simcord's ``advance_time`` moves it in tests."""

from __future__ import annotations

import discord

__all__ = ["now"]


def now() -> float:
    """Wall-clock time in unix seconds, from discord.py (``discord.utils.utcnow``)."""
    return discord.utils.utcnow().timestamp()
