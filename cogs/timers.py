"""Turn timers, reminders, away players, kicks and lobby expiry (being written)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.base import HatsFeature

if TYPE_CHECKING:
    from bot import HatsBot


class TimersCog(HatsFeature, name="TimersCog"):
    """Turn timers and lobby expiry."""


async def setup(bot: HatsBot) -> None:
    """Load the cog."""
    await bot.add_cog(TimersCog(bot))
