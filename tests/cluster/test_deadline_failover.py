"""A deadline fires exactly once across processes, even when the process that claimed it died.

Issue 13: "a timer set by one process fires exactly once after that process is killed". A
child process (timer_child.py) sets a due deadline and claims it with its DeadlineRunner, whose
handler never returns; the test SIGKILLs it while it holds the claim. Two DeadlineRunners in
this process (each on its own Store) then run on a fake clock handed in (``clock=``): nothing
fires while the dead process's lease runs, and once the clock passes it exactly one of them
fires the deadline, once, and deletes it. No sleeps: the runners' looks, the child's output
and the handlers are awaited with timeouts; the fake clock moves only when the test says so.
"""

from __future__ import annotations

import asyncio
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from contextlib import AsyncExitStack

import asyncpg
import pytest

from data import Store, TimerRow, open_store
from service.runner import LEASE_SECONDS, DeadlineRunner
from tests.cluster.cluster_util import WAIT_S, News, new_games

pytestmark = pytest.mark.postgres

CHILD = __file__.replace("test_deadline_failover.py", "timer_child.py")


class Clock:
    """A fake clock for the runners: unix seconds that move only when told."""

    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class Runner(DeadlineRunner):
    """A DeadlineRunner whose looks can be awaited: each look ends in :meth:`sleep`."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.idle = asyncio.Event()

    async def sleep(self, delay: float | None) -> None:
        self.idle.set()
        await super().sleep(delay)

    async def look_again(self) -> None:
        """Wake the runner (it sleeps) and wait until it has looked once more."""
        self.idle.clear()
        self.wake()
        await asyncio.wait_for(self.idle.wait(), WAIT_S)


class Fired:
    """What the runners' handlers fired, and the completions that followed (wake on each)."""

    def __init__(self) -> None:
        self.fired: list[tuple[str, int]] = []
        self.completed: list[tuple[str, int, bool]] = []
        self.news = News()

    def handler(self, name: str) -> Callable:
        async def fire(row: TimerRow) -> None:
            self.fired.append((name, row.id))
            self.news.tell()

        return fire

    def track_completions(self, name: str, store: Store) -> None:
        complete = store.timers.complete

        async def tracked(row: TimerRow, claimer: str) -> bool:
            done = await complete(row, claimer)
            self.completed.append((name, row.id, done))
            self.news.tell()
            return done

        store.timers.complete = tracked  # type: ignore[method-assign]

    async def wait_until(self, done: Callable[[], bool]) -> None:
        await self.news.until(done)


async def two_runners(
    stack: AsyncExitStack, url: str, fired: Fired, clock: Clock
) -> tuple[list[Store], list[Runner]]:
    stores, runners = [], []
    for name in ("p1", "p2"):
        store = await stack.enter_async_context(await open_store(url))
        fired.track_completions(name, store)
        runner = Runner(
            store, fired.handler(name), claimer=store.origin, lease=LEASE_SECONDS, clock=clock
        )
        stack.push_async_callback(runner.stop)
        stores.append(store)
        runners.append(runner)
    for runner in runners:
        runner.start()
    await asyncio.wait_for(asyncio.gather(*(r.idle.wait() for r in runners)), WAIT_S)
    return stores, runners


async def looks(runners: list[Runner]) -> None:
    """Both runners look at the same time (their claims race)."""
    await asyncio.gather(*(r.look_again() for r in runners))


@pytest.fixture
def clock() -> Clock:
    return Clock(time.time())


async def claims(url: str) -> list[tuple[int, str | None, float | None]]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT id, claimed_by, claimed_until FROM timers ORDER BY id")
    finally:
        await conn.close()
    return [(r[0], r[1], r[2]) for r in rows]


async def kill_after_claim(url: str, game_id: int) -> tuple[int, str]:
    """Run timer_child.py until it claimed its deadline, SIGKILL it; (timer id, its origin)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        CHILD,
        url,
        str(game_id),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        line = await asyncio.wait_for(proc.stdout.readline(), 60)
    finally:
        proc.send_signal(signal.SIGKILL)
        err = await asyncio.wait_for(proc.stderr.read(), WAIT_S)
        await asyncio.wait_for(proc.wait(), WAIT_S)
    assert line.startswith(b"CLAIMED"), err.decode()
    assert proc.returncode == -signal.SIGKILL
    _, timer_id, origin = line.decode().split()
    return int(timer_id), origin


async def test_a_deadline_held_by_a_killed_process_fires_exactly_once_elsewhere(
    pg_url: str, clock: Clock
):
    fired = Fired()
    async with AsyncExitStack() as stack:
        setup = await stack.enter_async_context(await open_store(pg_url))
        (game,) = await new_games(setup, 1, random.Random(3))
        timer_id, child_origin = await kill_after_claim(pg_url, game.id)
        [(row_id, claimed_by, claimed_until)] = await claims(pg_url)
        assert (row_id, claimed_by) == (timer_id, child_origin)
        assert claimed_until > clock.t  # the dead process's lease still runs

        _, runners = await two_runners(stack, pg_url, fired, clock)
        await looks(runners)
        assert fired.fired == []  # nobody fires a deadline another process holds

        clock.t = claimed_until + 0.5  # the lease ran out
        await looks(runners)
        await fired.wait_until(lambda: len(fired.completed) >= 1)
        assert len(fired.fired) == 1 and fired.fired[0][1] == timer_id
        assert [done for *_, done in fired.completed] == [True]
        assert await claims(pg_url) == []  # completed: gone from the table

        for _ in range(3):  # later looks, past further leases: it never fires again
            clock.t += 2 * LEASE_SECONDS
            await looks(runners)
        assert len(fired.fired) == 1


async def test_many_deadlines_two_runners_each_fires_exactly_once(pg_url: str, clock: Clock):
    rng = random.Random(17)
    fired = Fired()
    kinds = ("turn", "reminder", "ai", "swap_offer")
    async with AsyncExitStack() as stack:
        setup = await stack.enter_async_context(await open_store(pg_url))
        games = await new_games(setup, 10, rng)
        base = clock.t
        ids = []
        for game in games:
            for kind in kinds:
                due = base + 5 * rng.randint(1, 8)
                row = await setup.timers.set_timer(kind, due, game_id=game.id, seat=0)
                ids.append(row.id)
        _, runners = await two_runners(stack, pg_url, fired, clock)
        assert fired.fired == []  # nothing due yet
        for step in range(5, 45, 5):  # each round: both runners claim at once
            clock.t = base + step
            due = len(await setup.timers.list_due(clock.t)) + len(fired.completed)
            await looks(runners)
            await fired.wait_until(lambda due=due: len(fired.completed) >= due)
        clock.t += 3 * LEASE_SECONDS
        await looks(runners)
        assert await claims(pg_url) == []
    counts = Counter(timer_id for _, timer_id in fired.fired)
    assert sorted(counts) == sorted(ids)
    assert set(counts.values()) == {1}, "a deadline fired twice"
    assert all(done for *_, done in fired.completed)
