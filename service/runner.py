"""The deadline runner: claims the deadlines that fell due in the store and fires them.

A deadline is a row of the store's ``timers`` table (one per owner and kind): turn timers,
reminders, AI moves, expiries. Each process runs one :class:`DeadlineRunner`: a single task that
claims the deadlines that fell due (``Timers.claim_due``: a row claim with a lease,
``FOR UPDATE SKIP LOCKED`` on PostgreSQL), fires them and then deletes them
(``Timers.complete``). With several processes on one PostgreSQL a deadline is claimed by one of
them at a time; when that process dies before it is done, the lease (:data:`LEASE_SECONDS`) runs
out and another process fires it: a deadline fires at least once (also twice, when a completion
is lost in a database crash). Handlers therefore judge it on the stored game first
(``service.due``: a turn deadline whose seat already moved does nothing), so a second firing is
harmless. A handler that raises StoreError has not done its work: the deadline fires again
after :data:`STORE_RETRY_SECONDS` (``Timers.postpone``), or when its lease runs out.

The runner sleeps until the earliest deadline; :meth:`DeadlineRunner.nudge` wakes it at once for
a deadline set meanwhile, and with a shared store it also looks every :data:`POLL_SECONDS` for
deadlines set by other processes. Every :data:`SWEEP_SECONDS` it also runs the re-arm sweep it
is handed (``service.sweep``: live games that lost their move deadline get it back).
Deadlines the store could not hold are kept in
:attr:`DeadlineRunner.memory` and fire in this process only. No Discord here: the bot's
scheduler cog (``cogs.scheduler``) subclasses it to sleep on discord.py's clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence

from data import Store, StoreError, TimerRow
from service.clock import Clock, system_clock
from telemetry.logs import log_context
from telemetry.metrics import DEADLINES_FIRED

__all__ = [
    "BATCH",
    "LEASE_SECONDS",
    "POLL_SECONDS",
    "RETRY_SECONDS",
    "STORE_RETRY_SECONDS",
    "SWEEP_SECONDS",
    "DeadlineRunner",
    "deadline_key",
]

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
SWEEP_SECONDS = 30.0
"""Seconds between two re-arm sweeps (``service.sweep``) of one process: a game that lost its
move deadline moves again within two periods (the sweep's grace is one period)."""


def deadline_key(
    kind: str, game_id: int | None, lobby_id: int | None, tournament_id: int | None = None
) -> tuple[Owner, str]:
    """The in-memory key of a deadline: its owner and kind."""
    if game_id is not None:
        owner: Owner = ("game", game_id)
    elif tournament_id is not None:
        owner = ("tournament", tournament_id)
    else:
        owner = ("lobby", lobby_id or 0)
    return owner, kind


def row_key(row: TimerRow) -> tuple[Owner, str]:
    """The in-memory key of a deadline row: its owner and kind."""
    return deadline_key(row.kind, row.game_id, row.lobby_id, row.tournament_id)


class DeadlineRunner:
    """One task per process that claims due deadlines from the store and fires them.

    ``fire(row)`` handles one deadline (exceptions are logged); the row is completed (deleted
    unless it was set again meanwhile) after it returns. ``claimer`` names this process
    (``Store.origin``); ``lease`` (seconds) is how long a claim holds; ``poll`` (seconds, or
    None) bounds each sleep, for deadlines that other processes set; ``clock()``: unix seconds
    (the bot hands in discord.py's clock). ``kinds``: fire only deadlines of these kinds (a
    process that serves AI moves only, say; None: every kind). No Discord here: tests run two
    runners over one store.
    """

    def __init__(
        self,
        store: Store,
        fire: Callable[[TimerRow], Awaitable[None]],
        *,
        claimer: str,
        lease: float = LEASE_SECONDS,
        poll: float | None = None,
        clock: Clock = system_clock,
        sweep: Callable[[], Awaitable[object]] | None = None,
        sweep_every: float = SWEEP_SECONDS,
        store_retry: float = STORE_RETRY_SECONDS,
        kinds: Sequence[str] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.fire = fire
        self.claimer = claimer
        self.lease = lease
        self.poll = poll
        self.sweep = sweep
        self.sweep_every = sweep_every
        self.store_retry = store_retry
        self.kinds = kinds
        self._next_sweep: float | None = None
        self._sweeping: asyncio.Task[None] | None = None
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
        tasks = [t for t in (self._task, self._sweeping, *self._firing) if t is not None]
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
            sweep_at = self._maybe_sweep()
            delay = None if wake is None else max(0.0, wake - self.clock())
            if self.poll is not None:
                delay = self.poll if delay is None else min(delay, self.poll)
            if sweep_at is not None:
                until = max(0.0, sweep_at - self.clock())
                delay = until if delay is None else min(delay, until)
            if delay == 0.0:
                await asyncio.sleep(0)  # let the handlers just started run first
                continue
            if not self._nudged:  # a nudge while looking: look again at once
                await self.sleep(delay)

    def _maybe_sweep(self) -> float | None:
        """Start the sweep when its time came (one at a time); return when the next one is due."""
        if self.sweep is None:
            return None
        t = self.clock()
        if self._next_sweep is None:
            self._next_sweep = t + self.sweep_every
        elif t >= self._next_sweep and (self._sweeping is None or self._sweeping.done()):
            self._next_sweep = t + self.sweep_every
            self._sweeping = asyncio.get_running_loop().create_task(self._sweep_once())
        return self._next_sweep

    async def _sweep_once(self) -> None:
        assert self.sweep is not None
        try:
            await self.sweep()
        except StoreError as exc:
            log.warning("the deadline sweep cannot read the store: %s", exc)
        except Exception:
            log.exception("the deadline sweep failed")

    async def _look(self) -> float | None:
        """Fire what is due; return when to look next (unix seconds, None: when nudged)."""
        t = self.clock()
        for key, row in list(self.memory.items()):
            if row.due_at <= t:
                del self.memory[key]
                self._spawn(row, stored=False)
        try:
            rows = await self.store.timers.claim_due(
                t, self.claimer, self.lease, BATCH, kinds=self.kinds
            )
            for row in rows:
                self._spawn(row, stored=True)
            wake = t if len(rows) == BATCH else await self.store.timers.next_wake(self.kinds)
        except StoreError as exc:
            log.warning("deadlines cannot be read from the store: %s", exc)
            wake = t + self.store_retry
        except Exception:  # never let the one task that fires every deadline die
            log.exception("deadlines: looking for due deadlines failed")
            wake = t + self.store_retry
        if self.memory:
            soonest = min(r.due_at for r in self.memory.values())
            wake = soonest if wake is None else min(wake, soonest)
        return wake

    def _spawn(self, row: TimerRow, *, stored: bool) -> None:
        task = asyncio.get_running_loop().create_task(self._fire_one(row, stored))
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)

    async def _fire_one(self, row: TimerRow, stored: bool) -> None:
        DEADLINES_FIRED.labels(row.kind).inc()
        try:
            with log_context(game_id=row.game_id):
                await self.fire(row)
        except StoreError as exc:  # not done: fires again (never dropped), here or elsewhere
            log.warning("deadline %s of %s not done, retried: %s", row.kind, row, exc)
            await self._postpone(row, stored)
            return
        except Exception:
            log.exception("deadline %s failed", row)
        if not stored:
            return
        try:
            await self.store.timers.complete(row, self.claimer)
        except StoreError as exc:  # its lease runs out and it fires again; handlers check
            log.warning("deadline %s of %s not completed in the store: %s", row.kind, row, exc)

    async def _postpone(self, row: TimerRow, stored: bool) -> None:
        """A handler met a store failure: the deadline fires again in ``store_retry`` seconds."""
        again = self.clock() + self.store_retry
        if not stored:
            self.memory.setdefault(row_key(row), dataclasses.replace(row, due_at=again))
            self.nudge(again)
            return
        try:
            if await self.store.timers.postpone(row, self.claimer, again):
                self.nudge(again)
        except StoreError as exc:  # the claim's lease runs out and it fires again
            log.warning("deadline %s of %s not postponed in the store: %s", row.kind, row, exc)
