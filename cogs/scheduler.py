"""Deadlines that survive restarts and processes: turn timers, reminders, AI moves, expiries.

A deadline is a row of the store's ``timers`` table (one per owner and kind). Each process runs
one :class:`DeadlineRunner`: a single task that claims the deadlines that fell due
(``Timers.claim_due``: a row claim with a lease, ``FOR UPDATE SKIP LOCKED`` on PostgreSQL), fires
them and then deletes them (``Timers.complete``). With several processes on one PostgreSQL a
deadline fires in exactly one of them; when that process dies before it is done, the lease
(:data:`LEASE_SECONDS`) runs out and another process fires it. Handlers therefore check the game
first (a turn deadline whose seat already moved does nothing), so a rare second firing is
harmless.

The runner sleeps until the earliest deadline; a deadline set here wakes it at once
(:meth:`DeadlineRunner.nudge`, from :meth:`SchedulerCog.set` and the ``hats_deadline`` event of a
step), and with a shared store it also looks every :data:`POLL_SECONDS` for deadlines set by
other processes. When the store cannot write a deadline (a full disk, say), it is kept in
memory only and one WARNING line says so: it still fires in this process.
Time is :func:`cogs.service.now` (unix seconds; simcord's ``advance_time`` moves it in tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from discord.ext import commands

from cogs.service import now
from data import Store, StoreError, TimerRow
from data.rows import TimerChange

if TYPE_CHECKING:
    from bot import HatsBot

__all__ = ["LEASE_SECONDS", "POLL_SECONDS", "RETRY_SECONDS", "DeadlineRunner", "SchedulerCog"]

log = logging.getLogger("hats.scheduler")

Owner = tuple[str, int]

RETRY_SECONDS = 60.0
"""Seconds before a deadline whose handler met a store failure fires again."""
LEASE_SECONDS = 60.0
"""How long a claimed deadline belongs to its process; after that another process may fire it."""
POLL_SECONDS = 1.0
"""With a shared store: seconds between two looks for deadlines other processes set."""
BATCH = 100
"""Deadlines claimed per look."""
STORE_RETRY_SECONDS = 5.0
"""Seconds before the next look after the store failed."""


def _key(kind: str, game_id: int | None, lobby_id: int | None) -> tuple[Owner, str]:
    """The in-memory key of a deadline: its owner and kind."""
    owner = ("game", game_id) if game_id is not None else ("lobby", lobby_id or 0)
    return owner, kind


def _row_key(row: TimerRow) -> tuple[Owner, str]:
    return _key(row.kind, row.game_id, row.lobby_id)


class DeadlineRunner:
    """One task per process that claims due deadlines from the store and fires them.

    ``fire(row)`` handles one deadline (exceptions are logged); the row is completed (deleted
    unless it was set again meanwhile) after it returns. ``claimer`` names this process
    (``Store.origin``); ``lease`` (seconds) is how long a claim holds; ``poll`` (seconds, or
    None) bounds each sleep, for deadlines that other processes set. No Discord here: tests run
    two runners over one store.
    """

    def __init__(
        self,
        store: Store,
        fire: Callable[[TimerRow], Awaitable[None]],
        *,
        claimer: str,
        lease: float = LEASE_SECONDS,
        poll: float | None = None,
    ) -> None:
        self.store = store
        self.fire = fire
        self.claimer = claimer
        self.lease = lease
        self.poll = poll
        self.memory: dict[tuple[Owner, str], TimerRow] = {}
        """Deadlines the store could not hold, fired by this process only."""
        self._event = asyncio.Event()
        self._nudged = False
        self._wake_at: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._firing: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Start the task (idempotent)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="deadlines")

    async def stop(self) -> None:
        """Stop the task and the handlers still running (their deadlines stay stored)."""
        tasks = [t for t in (self._task, *self._firing) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None

    def nudge(self, due_at: float) -> None:
        """A deadline at ``due_at`` (unix seconds) was set: wake up earlier if needed."""
        if self._wake_at is None or due_at < self._wake_at:
            self._nudged = True
            self.wake()

    def wake(self) -> None:
        """Interrupt :meth:`sleep` (override together with it)."""
        self._event.set()

    async def sleep(self, delay: float | None) -> None:
        """Wait ``delay`` seconds (None: until woken) or until :meth:`wake`."""
        self._event.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._event.wait(), delay)

    async def _run(self) -> None:
        while True:
            self._nudged = False
            wake = await self._look()
            self._wake_at = wake
            delay = None if wake is None else max(0.0, wake - now())
            if self.poll is not None:
                delay = self.poll if delay is None else min(delay, self.poll)
            if delay == 0.0:
                await asyncio.sleep(0)  # let the handlers just started run first
                continue
            if not self._nudged:  # a nudge while looking: look again at once
                await self.sleep(delay)

    async def _look(self) -> float | None:
        """Fire what is due; return when to look next (unix seconds, None: when nudged)."""
        t = now()
        for key, row in list(self.memory.items()):
            if row.due_at <= t:
                del self.memory[key]
                self._spawn(row, stored=False)
        try:
            rows = await self.store.timers.claim_due(t, self.claimer, self.lease, BATCH)
            for row in rows:
                self._spawn(row, stored=True)
            wake = t if len(rows) == BATCH else await self.store.timers.next_wake()
        except StoreError as exc:
            log.warning("deadlines cannot be read from the store: %s", exc)
            wake = t + STORE_RETRY_SECONDS
        if self.memory:
            soonest = min(r.due_at for r in self.memory.values())
            wake = soonest if wake is None else min(wake, soonest)
        return wake

    def _spawn(self, row: TimerRow, *, stored: bool) -> None:
        task = asyncio.get_running_loop().create_task(self._fire_one(row, stored))
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)

    async def _fire_one(self, row: TimerRow, stored: bool) -> None:
        try:
            await self.fire(row)
        except Exception:
            log.exception("deadline %s failed", row)
        if not stored:
            return
        try:
            await self.store.timers.complete(row, self.claimer)
        except StoreError as exc:  # its lease runs out and it fires again; handlers check
            log.warning("deadline %s of %s not completed in the store: %s", row.kind, row, exc)


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
        )

    async def cog_load(self) -> None:
        """Start claiming deadlines (those stored before a restart fire when due)."""
        self.runner.start()

    async def cog_unload(self) -> None:
        """Stop the runner (the deadlines stay stored)."""
        await self.runner.stop()

    async def _fire(self, row: TimerRow) -> None:
        """Run every ``on_hats_timer`` listener to its end (then the row is completed)."""
        if not self.bot.is_ready():
            await self.bot.wait_until_ready()
        listeners = list(self.bot.extra_events.get("on_hats_timer", []))
        results = await asyncio.gather(*(f(row) for f in listeners), return_exceptions=True)
        for result in results:
            if isinstance(result, Exception):
                log.error("a deadline handler failed", exc_info=result)

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
                self.runner.memory.pop(_row_key(row), None)
                self.runner.nudge(due)
                return row
        row = TimerRow(-1, game_id, lobby_id, kind, seat, due, dict(payload or {}))
        self.runner.memory[_row_key(row)] = row
        self.runner.nudge(due)
        return row

    async def apply(self, game_id: int, changes: Sequence[TimerChange]) -> None:
        """Write a game's deadline changes (:mod:`cogs.deadlines`) outside a step."""
        for change in changes:
            if change.due_at is None:
                await self.clear(change.kind, game_id=game_id)
            else:
                await self._set_at(
                    change.kind,
                    change.due_at,
                    game_id=game_id,
                    seat=change.seat,
                    payload=change.payload,
                )

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
        self.runner.memory.pop(_key(kind, game_id, lobby_id), None)
        try:
            await self.bot.store.timers.clear_timer(kind, game_id=game_id, lobby_id=lobby_id)
        except StoreError as exc:  # it may fire later; listeners check it
            log.warning("%s deadline not cleared in the store: %s", kind, exc)

    async def pending(
        self, kind: str, *, game_id: int | None = None, lobby_id: int | None = None
    ) -> TimerRow | None:
        """The deadline of that owner and kind (stored or in memory), or None."""
        row = self.runner.memory.get(_key(kind, game_id, lobby_id))
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
