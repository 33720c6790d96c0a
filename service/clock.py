"""The service's clock: a function that returns the time in unix seconds.

The service imports no Discord, so it cannot read discord.py's clock itself: ``bot.py`` hands
in ``cogs.clock.now`` (discord.py's ``utils.utcnow``, which simcord's ``advance_time`` moves in
tests); scripts and cluster tests hand in :func:`system_clock` or a fake clock of their own.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["Clock", "system_clock"]

Clock = Callable[[], float]
"""A clock: ``clock()`` returns unix seconds (float)."""


def system_clock() -> float:
    """The system's wall-clock time in unix seconds (:func:`time.time`)."""
    return time.time()
