"""Deadlines that survive restarts: turn timers, reminders, swap offer lapses, lobby expiry.

A deadline is a row of the store's ``timers`` table (one per owner and kind). This cog keeps
one sleeping task per deadline; when it falls due it is removed and the bot event
``hats_timer`` fires with the :class:`data.TimerRow` (listeners check ``row.kind``).
At start-up every stored deadline is scheduled again (past ones fire at once).
Time is :func:`cogs.service.now` (unix seconds; simcord's ``advance_time`` moves it in tests).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from discord.ext import commands

from cogs.service import now
from data import TimerRow

if TYPE_CHECKING:
    from bot import HatsBot

log = logging.getLogger("hats.scheduler")

Owner = tuple[str, int]


def _owner(row: TimerRow) -> Owner:
    return ("game", row.game_id) if row.game_id is not None else ("lobby", row.lobby_id or 0)


class SchedulerCog(commands.Cog, name="SchedulerCog"):
    """Schedules stored deadlines and fires ``on_hats_timer`` when they fall due."""

    def __init__(self, bot: HatsBot) -> None:
        self.bot = bot
        self._tasks: dict[tuple[Owner, str], tuple[TimerRow, asyncio.Task[None]]] = {}

    async def cog_load(self) -> None:
        """Schedule every deadline the store holds (restored after a restart)."""
        for row in await self.bot.store.timers.list_all():
            self._schedule(row)

    async def cog_unload(self) -> None:
        """Stop the sleeping tasks (the deadlines stay stored)."""
        for _, task in self._tasks.values():
            task.cancel()
        self._tasks.clear()

    async def set(
        self,
        kind: str,
        delay: float,
        *,
        game_id: int | None = None,
        lobby_id: int | None = None,
        seat: int | None = None,
        payload: Mapping[str, Any] | None = None,
    ) -> TimerRow:
        """Store and schedule a deadline ``delay`` seconds from now (replaces the same kind)."""
        row = await self.bot.store.timers.set_timer(
            kind, now() + delay, game_id=game_id, lobby_id=lobby_id, seat=seat, payload=payload
        )
        self._schedule(row)
        return row

    async def clear(
        self, kind: str, *, game_id: int | None = None, lobby_id: int | None = None
    ) -> None:
        """Remove a deadline (stored and scheduled); nothing happens if there is none."""
        key = (("game", game_id) if game_id is not None else ("lobby", lobby_id or 0), kind)
        entry = self._tasks.pop(key, None)
        if entry is not None:
            entry[1].cancel()
        await self.bot.store.timers.clear_timer(kind, game_id=game_id, lobby_id=lobby_id)

    def pending(self, kind: str, *, game_id: int | None = None, lobby_id: int | None = None):
        """The scheduled deadline of that owner and kind, or None."""
        key = (("game", game_id) if game_id is not None else ("lobby", lobby_id or 0), kind)
        entry = self._tasks.get(key)
        return entry[0] if entry else None

    def _schedule(self, row: TimerRow) -> None:
        key = (_owner(row), row.kind)
        old = self._tasks.pop(key, None)
        if old is not None:
            old[1].cancel()
        task = asyncio.get_running_loop().create_task(self._fire(row))
        self._tasks[key] = (row, task)

    async def _fire(self, row: TimerRow) -> None:
        delay = row.due_at - now()
        if delay > 0:
            await asyncio.sleep(delay)
        key = (_owner(row), row.kind)
        entry = self._tasks.get(key)
        if entry is None or entry[0] != row:
            return
        del self._tasks[key]
        try:
            if row.game_id is not None:
                await self.bot.store.timers.clear_timer(row.kind, game_id=row.game_id)
            else:
                await self.bot.store.timers.clear_timer(row.kind, lobby_id=row.lobby_id)
        except Exception:  # the owner may be gone already; the event still fires
            log.debug("timer %s already cleared", row)
        self.bot.dispatch("hats_timer", row)


async def setup(bot: HatsBot) -> None:
    """Load the scheduler."""
    await bot.add_cog(SchedulerCog(bot))
