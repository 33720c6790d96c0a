"""Deadlines that survive restarts: turn timers, reminders, swap offer lapses, lobby expiry.

A deadline is a row of the store's ``timers`` table (one per owner and kind). This cog keeps
one sleeping task per deadline; when it falls due it is removed and the bot event
``hats_timer`` fires with the :class:`data.TimerRow` (listeners check ``row.kind``).
At start-up every stored deadline is scheduled again (past ones fire at once). When the store
cannot write a deadline (a full disk, say), it is scheduled in memory only and one WARNING line
says so: it still fires in this process, and a restart re-arms what it needs.
Time is :func:`cogs.service.now` (unix seconds; simcord's ``advance_time`` moves it in tests).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from discord.ext import commands

from cogs.service import now
from data import StoreError, TimerRow

if TYPE_CHECKING:
    from bot import HatsBot

log = logging.getLogger("hats.scheduler")

Owner = tuple[str, int]

RETRY_SECONDS = 60.0
"""Seconds before a deadline whose handler met a store failure fires again."""


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
        """Store and schedule a deadline ``delay`` seconds from now (replaces the same kind).

        Without an owner (``game_id``/``lobby_id``), or when the store fails (logged), the
        deadline is kept in memory only.
        """
        due = now() + delay
        if game_id is not None or lobby_id is not None:
            try:
                row = await self.bot.store.timers.set_timer(
                    kind, due, game_id=game_id, lobby_id=lobby_id, seat=seat, payload=payload
                )
            except StoreError as exc:
                log.warning("%s deadline kept in memory only: %s", kind, exc)
            else:
                self._schedule(row)
                return row
        row = TimerRow(-1, game_id, lobby_id, kind, seat, due, dict(payload or {}))
        self._schedule(row)
        return row

    async def again(self, row: TimerRow, delay: float = RETRY_SECONDS) -> TimerRow:
        """Schedule a fired deadline once more in ``delay`` seconds (same kind, owner, payload).

        For a handler that met a store failure.
        """
        return await self.set(
            row.kind,
            delay,
            game_id=row.game_id,
            lobby_id=row.lobby_id,
            seat=row.seat,
            payload=row.payload,
        )

    async def retry(self, kind: str, delay: float, *, game_id: int | None = None) -> TimerRow:
        """A retry deadline: ``hats_timer`` fires with ``kind`` again in ``delay`` seconds.

        Keeps an earlier pending retry of the same owner and kind (no postponing forever).
        """
        pending = self.pending(kind, game_id=game_id)
        if pending is not None:
            return pending
        return await self.set(kind, delay, game_id=game_id)

    async def clear(
        self, kind: str, *, game_id: int | None = None, lobby_id: int | None = None
    ) -> None:
        """Remove a deadline (stored and scheduled); nothing happens if there is none."""
        key = (("game", game_id) if game_id is not None else ("lobby", lobby_id or 0), kind)
        entry = self._tasks.pop(key, None)
        if entry is not None:
            entry[1].cancel()
        try:
            await self.bot.store.timers.clear_timer(kind, game_id=game_id, lobby_id=lobby_id)
        except StoreError as exc:  # it fires again after a restart; listeners check it
            log.warning("%s deadline not cleared in the store: %s", kind, exc)

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
            elif row.lobby_id is not None:
                await self.bot.store.timers.clear_timer(row.kind, lobby_id=row.lobby_id)
        except StoreError as exc:  # it fires again after a restart; listeners check it
            log.warning("timer %s not cleared in the store: %s", row.kind, exc)
        self.bot.dispatch("hats_timer", row)


async def setup(bot: HatsBot) -> None:
    """Load the scheduler."""
    await bot.add_cog(SchedulerCog(bot))
