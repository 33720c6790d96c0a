"""Message edits within Discord's per-channel limit, coalesced: the latest state wins.

Discord lets a bot edit the messages of one channel about 5 times per 5 seconds (per-route
bucket of ``PATCH /channels/{id}/messages/{id}``; Discord docs, Rate Limits). discord.py would
wait out a 429 and then send every queued edit, stale ones included. :class:`EditGate` instead
keeps at most one waiting edit per message: an edit asked for while the channel is over budget
replaces the waiting one and runs once the window frees, rendering the state of that moment.
An edit may also be *held* (``submit(..., hold=seconds)``): it waits that long for a newer edit
of the same message to replace it (issue 29: the end of a turn rides on the next move's edit).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable

from discord.ext import tasks

from cogs.clock import now

__all__ = ["EDITS_PER_WINDOW", "EDIT_WINDOW", "EditGate"]

log = logging.getLogger("hats.edits")

EDITS_PER_WINDOW = 5
"""Edits a channel may take per :data:`EDIT_WINDOW` (Discord's per-channel message bucket)."""
EDIT_WINDOW = 5.0
"""Seconds of the per-channel window."""
TICK = 0.5
"""Seconds between two looks at the waiting edits (only while some wait)."""

Edit = Callable[[], Awaitable[object]]


class EditGate:
    """Runs message edits at most ``limit`` per ``window`` seconds per channel.

    ``submit(channel_id, key, edit)``: ``edit()`` renders and sends the edit (it is called
    later when the channel is over budget, so it must read the state when it runs). ``key``
    names the message: a newer edit of the same key replaces a waiting one. Time comes from
    :func:`cogs.clock.now` (simcord moves it in tests). ``limit`` 0 turns the gate off
    (every edit at once, holds included).
    """

    def __init__(
        self, limit: int = EDITS_PER_WINDOW, window: float = EDIT_WINDOW, tick: float = TICK
    ) -> None:
        self.limit = limit
        self.window = window
        self._sent: dict[int, deque[float]] = {}
        self._waiting: dict[Hashable, tuple[int, Edit, float]] = {}
        # discord.ext.tasks: runs only while edits wait (simcord drives its sleeps virtually)
        self._flusher = tasks.loop(seconds=tick)(self._flush)

    def _wait_for(self, channel_id: int) -> float:
        """Seconds until ``channel_id`` may take one more edit (0: now)."""
        if self.limit <= 0:
            return 0.0
        sent = self._sent.setdefault(channel_id, deque())
        t = now()
        while sent and t - sent[0] >= self.window:
            sent.popleft()
        if len(sent) < self.limit:
            return 0.0
        return sent[0] + self.window - t

    async def submit(
        self, channel_id: int, key: Hashable, edit: Edit, *, hold: float = 0.0
    ) -> None:
        """Edit now if the channel has budget and nothing waits for ``key``; else coalesce.

        ``hold`` (seconds): wait at least that long before sending, so that a newer edit of
        ``key`` submitted meanwhile replaces this one (and, without a hold of its own, goes
        out at once with the channel's budget). An edit without a hold replaces a held one.
        """
        if self.limit <= 0:  # the gate is off: no budget, no holds
            await edit()
            return
        waiting = self._waiting.get(key)
        held = waiting is not None and waiting[2] > now()
        if hold <= 0 and (waiting is None or held) and self._wait_for(channel_id) <= 0:
            self._waiting.pop(key, None)
            self._sent.setdefault(channel_id, deque()).append(now())
            await edit()
            return
        # replaces an older waiting edit of ``key``
        self._waiting[key] = (channel_id, edit, now() + max(0.0, hold))
        if not self._flusher.is_running():
            self._flusher.start()

    def take(self, channel_id: int) -> bool:
        """Spend one edit of ``channel_id``'s budget now if there is one; False when over."""
        if self.limit <= 0:
            return True
        if self._wait_for(channel_id) > 0:
            return False
        self._sent[channel_id].append(now())
        return True

    @property
    def waiting(self) -> int:
        """Edits held back now (one per message at most)."""
        return len(self._waiting)

    async def _flush(self) -> None:
        """Send every waiting edit whose hold is over and whose channel has budget again.

        Stops when none waits.
        """
        for key, entry in list(self._waiting.items()):
            channel_id, edit, not_before = entry
            if (
                not_before > now()
                or self._wait_for(channel_id) > 0
                or self._waiting.get(key) is not entry
            ):
                continue
            del self._waiting[key]
            self._sent.setdefault(channel_id, deque()).append(now())
            try:
                await edit()
            except Exception:  # a failed edit must not stop the others
                log.exception("coalesced edit failed in channel %d", channel_id)
        if not self._waiting:
            self._flusher.stop()
