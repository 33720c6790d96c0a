"""The bot's deadlines: turn timers, reminders, AI moves and expiries that survive restarts.

The runner that claims and fires them lives in the service (:class:`service.runner.DeadlineRunner`,
no Discord); this cog runs it on discord.py's clock (simcord's ``advance_time`` moves it in
tests), fires ``on_hats_timer`` for each deadline, and lets the cogs set, clear and look up
deadlines. A deadline set here wakes the runner at once (:meth:`DeadlineRunner.nudge`, from
:meth:`SchedulerCog.set` and the ``hats_deadline`` event of a step), and runs the re-arm sweep
(``service.sweep``) every ``service.runner.SWEEP_SECONDS``. A deadline fires at least once:
each handler judges it on the stored game (or lobby) first, so a repeat does nothing a user
would notice. When the store cannot
write a deadline (a full disk, say), it is kept in memory only and one WARNING line says so: it
still fires in this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from discord.ext import commands

from cogs.clock import now
from data import StoreError, TimerRow
from service.runner import (
    POLL_SECONDS,
    RETRY_SECONDS,
    DeadlineRunner,
    deadline_key,
    row_key,
)
from service.sweep import DeadlineSweep

if TYPE_CHECKING:
    from bot import HatsBot

__all__ = ["RETRY_SECONDS", "SchedulerCog"]

log = logging.getLogger("hats.scheduler")


class _BotRunner(DeadlineRunner):
    """The runner of the bot: sleeps in ``Client.wait_for`` (simcord's clock drives it)."""

    def __init__(self, bot: HatsBot, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bot = bot

    def wake(self) -> None:
        self.bot.dispatch("hats_wake")

    async def sleep(self, delay: float | None) -> None:
        with contextlib.suppress(TimeoutError):
            await self.bot.wait_for("hats_wake", timeout=delay)


class SchedulerCog(commands.Cog, name="SchedulerCog"):
    """Stores deadlines and fires ``on_hats_timer`` (every listener awaited) when they fall due."""

    def __init__(self, bot: HatsBot) -> None:
        self.bot = bot
        store = bot.store
        assert store is not None
        self.runner = _BotRunner(
            bot,
            store,
            self._fire,
            claimer=store.origin,
            poll=POLL_SECONDS if store.shared else None,
            clock=now,
            sweep=DeadlineSweep(bot.games).run,
        )

    async def cog_load(self) -> None:
        """Start claiming deadlines (those stored before a restart fire when due)."""
        self.runner.start()

    async def cog_unload(self) -> None:
        """Stop the runner (the deadlines stay stored)."""
        await self.runner.stop()

    async def _fire(self, row: TimerRow) -> None:
        """Run every ``on_hats_timer`` listener to its end (then the row is completed).

        A listener that raises StoreError (the store failed: nothing done) makes this raise it
        too, so the runner fires the deadline again later instead of completing it.
        """
        if not self.bot.is_ready():
            await self.bot.wait_until_ready()
        listeners = list(self.bot.extra_events.get("on_hats_timer", []))
        results = await asyncio.gather(*(f(row) for f in listeners), return_exceptions=True)
        failed = None
        for result in results:
            if isinstance(result, StoreError):
                failed = result
            elif isinstance(result, Exception):
                log.error("a deadline handler failed", exc_info=result)
        if failed is not None:
            raise failed

    @commands.Cog.listener()
    async def on_hats_deadline(self, due_at: float) -> None:
        """A step wrote a deadline due at ``due_at``: wake the runner if it sleeps past it."""
        self.runner.nudge(due_at)

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
        """Store a deadline ``delay`` seconds from now (replaces the same owner and kind).

        Without an owner (``game_id``/``lobby_id``), or when the store fails (logged), the
        deadline is kept in memory only.
        """
        return await self._set_at(
            kind, now() + delay, game_id=game_id, lobby_id=lobby_id, seat=seat, payload=payload
        )

    async def _set_at(
        self,
        kind: str,
        due: float,
        *,
        game_id: int | None = None,
        lobby_id: int | None = None,
        seat: int | None = None,
        payload: Mapping[str, Any] | None = None,
    ) -> TimerRow:
        """:meth:`set` for a deadline at ``due`` (unix seconds)."""
        if game_id is not None or lobby_id is not None:
            try:
                row = await self.bot.store.timers.set_timer(
                    kind, due, game_id=game_id, lobby_id=lobby_id, seat=seat, payload=payload
                )
            except StoreError as exc:
                log.warning("%s deadline kept in memory only: %s", kind, exc)
            else:
                self.runner.memory.pop(row_key(row), None)
                self.runner.nudge(due)
                return row
        row = TimerRow(-1, game_id, lobby_id, kind, seat, due, dict(payload or {}))
        self.runner.memory[row_key(row)] = row
        self.runner.nudge(due)
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
        pending = await self.pending(kind, game_id=game_id)
        if pending is not None:
            return pending
        return await self.set(kind, delay, game_id=game_id)

    async def clear(
        self, kind: str, *, game_id: int | None = None, lobby_id: int | None = None
    ) -> None:
        """Remove a deadline (stored and in memory); nothing happens if there is none."""
        self.runner.memory.pop(deadline_key(kind, game_id, lobby_id), None)
        try:
            await self.bot.store.timers.clear_timer(kind, game_id=game_id, lobby_id=lobby_id)
        except StoreError as exc:  # it may fire later; listeners check it
            log.warning("%s deadline not cleared in the store: %s", kind, exc)

    async def pending(
        self, kind: str, *, game_id: int | None = None, lobby_id: int | None = None
    ) -> TimerRow | None:
        """The deadline of that owner and kind (stored or in memory), or None."""
        row = self.runner.memory.get(deadline_key(kind, game_id, lobby_id))
        if row is not None:
            return row
        if game_id is None and lobby_id is None:
            return None
        try:
            return await self.bot.store.timers.get_timer(kind, game_id=game_id, lobby_id=lobby_id)
        except StoreError:
            return None


async def setup(bot: HatsBot) -> None:
    """Load the scheduler."""
    await bot.add_cog(SchedulerCog(bot))
