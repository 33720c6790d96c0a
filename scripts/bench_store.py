"""Store benchmark: appends with a commit each, restoring 10,000 live games, bytes per game.

Usage: python scripts/bench_store.py [--appends N] [--games N] [--finished N] [--seed N]
                                    [--postgres | --url postgresql://...]

Backends: SQLite files in a temporary directory (default); ``--postgres``: a throwaway
PostgreSQL server started from Debian's binaries with its default durability (fsync on,
synchronous_commit on; tests/pgserver.py), one new database per figure; ``--url URL``: an
existing PostgreSQL database, one new schema per figure (dropped at the end).

Prints three figures (BENCHMARKS.md, "Store"):
1. appends: ``append_step`` one at a time, each its own committed transaction (fsynced,
   synchronous=FULL): appends per second, median and p99 milliseconds per append; then the
   same with a turn deadline written in each step's transaction (``timers=``), then that
   deadline judged on the seats read in the step's transaction (``append_judged``).
2. restore: ``--games`` live games with random partial step counts (uniform between no step and
   a whole game) are stored, the store closed, then timed: open_store (quick_check, migrations)
   + restore (load every row, rebuild every game by replay). Median of three runs.
3. bytes per finished game: ``--finished`` whole games played through the normal API (create,
   an append per step, finish_game with results and the hats-record/1 JSON), then the file size
   growth divided by the number of games.
All work happens in a temporary directory that is removed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from data import (
    GameImport,
    SeatSpec,
    TimerChange,
    entries_from_game,
    open_store,
    restore,
)
from data.rows import GameRow
from data.store import Store
from data.timers import StepDeadlines
from engine import Game, GameConfig, to_record


def seats_for(n: int) -> list[SeatSpec]:
    return [
        SeatSpec(user_id=10**17 + s) if s % 2 == 0 else SeatSpec(ai_level="easy") for s in range(n)
    ]


def move(game: Game, rng: random.Random) -> None:
    seat = game.to_move
    assert seat is not None
    game.apply(seat, rng.choice(game.legal_actions(seat)))


async def new_game(store: Store, rng: random.Random, channel: int) -> tuple[GameRow, Game]:
    config = GameConfig(rng.choice((2, 3, 4)), rng.getrandbits(63))
    row = await store.games.create_game(1, channel, config.to_dict(), seats_for(config.seats))
    return row, Game.new(config)


Target = Path | str


def sqlite_places(folder: Path) -> Callable[[str], object]:
    @asynccontextmanager
    async def place(name: str) -> AsyncIterator[Target]:
        yield folder / f"{name}.sqlite3"

    return place


def server_places(server: object) -> Callable[[str], object]:
    @asynccontextmanager
    async def place(name: str) -> AsyncIterator[Target]:
        url = await asyncio.to_thread(server.create_database, name)
        yield url

    return place


def schema_places(url: str) -> Callable[[str], object]:
    import asyncpg

    @asynccontextmanager
    async def place(name: str) -> AsyncIterator[Target]:
        schema = f"bench_{name}_{os.getpid()}"
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f'CREATE SCHEMA "{schema}"')
            sep = "&" if "?" in url else "?"
            yield f"{url}{sep}search_path={schema}"
        finally:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            await conn.close()

    return place


async def size_of(store: Store) -> int:
    """Bytes the store takes: the SQLite file, or PostgreSQL's tables with indexes and TOAST."""
    if store.backend == "sqlite":
        return Path(store.path).stat().st_size
    row = await store._db.fetch_one(
        "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = current_schema() AND c.relkind = 'r'"
    )
    return int(row[0])


async def bench_appends(
    target: Target, count: int, rng: random.Random, *, timer: bool, judged: bool = False
) -> None:
    """``count`` appends, each its own commit; with ``timer`` each also sets a turn deadline
    (``append_step(timers=[TimerChange("turn", ...)])``: one transaction, step and timer);
    with ``judged`` that deadline is judged on the seats read in the step's transaction, as
    the service writes it (``append_judged``, issue 36.1: one read more per step)."""
    times: list[float] = []
    async with await open_store(target) as store:
        channel = 0
        row, game = await new_game(store, rng, channel)
        seats = tuple(await store.games.seats(row.id))
        while len(times) < count:
            if game.is_over:
                await store.games.abandon_game(row.id)
                channel += 1
                row, game = await new_game(store, rng, channel)
                seats = tuple(await store.games.seats(row.id))
            seq = len(game.steps)
            move(game, rng)
            step = game.steps[-1].to_dict()
            now = time.time()
            timers = [TimerChange("turn", now + 120, seat=game.to_move)] if timer else ()
            started = time.perf_counter()
            if judged:
                deadlines = StepDeadlines(seats, tuple(timers), lambda _, t=timers: lambda _: t)
                await store.steps.append_judged(row.id, seq, step, at=now, deadlines=deadlines)
            else:
                await store.steps.append_step(row.id, seq, step, at=now, timers=timers)
            times.append(time.perf_counter() - started)
    times.sort()
    what = "appends with a timer" if timer else "appends"
    what += " judged on the stored seats" if judged else ""
    print(
        f"{what}: {count} steps, one commit each: {count / sum(times):,.0f} appends/s; "
        f"median {statistics.median(times) * 1000:.3f} ms, "
        f"p99 {times[int(len(times) * 0.99)] * 1000:.3f} ms per append"
    )


def partial_game(rng: random.Random, channel: int) -> GameImport:
    config = GameConfig(rng.choice((2, 3, 4)), rng.getrandbits(63))
    game = Game.new(config)
    full = game.copy()
    while not full.is_over:
        move(full, rng)
    for step in full.steps[: rng.randint(0, len(full.steps) - 1)]:
        game.apply(step.seat, step.action)
    return GameImport(
        1,
        channel,
        config.to_dict(),
        seats_for(config.seats),
        [s.to_dict() for s in game.steps],
        {"turn_seconds": 120},
        time.time(),
    )


async def bench_restore(path: Target, games: int, rng: random.Random) -> None:
    started = time.perf_counter()
    imports = [partial_game(rng, channel) for channel in range(games)]
    steps = sum(len(g.steps) for g in imports)
    async with await open_store(path) as store:
        for i in range(0, games, 1000):
            await store.games.import_games(imports[i : i + 1000])
        size = await size_of(store)
    del imports  # a bot starts with an empty heap: do not measure the generator's objects
    gc.collect()
    print(
        f"restore: stored {games:,} live games, {steps:,} steps ({steps / games:.1f} per game), "
        f"{size / 1e6:.1f} MB, in {time.perf_counter() - started:.1f} s"
    )
    runs = []
    for _ in range(3):
        t0 = time.perf_counter()
        store = await open_store(path)
        t1 = time.perf_counter()
        restored = await restore(store)
        t2 = time.perf_counter()
        await store.close()
        assert len(restored.games) == games and not restored.failed
        load = restored.load_seconds
        runs.append((t2 - t0, t1 - t0, load, t2 - t1 - load))
        del restored
        gc.collect()
    total, opened, loaded, replayed = sorted(runs)[1]
    print(
        f"restore: {games:,} live games in {total:.2f} s (median of 3): open_store {opened:.2f} s "
        f"(connect/quick_check + migrations), load_live {loaded:.2f} s, replay {replayed:.2f} s"
    )


async def bench_bytes(path: Target, finished: int, rng: random.Random) -> None:
    async with await open_store(path) as store:
        empty = await size_of(store)
    steps = record_bytes = 0
    async with await open_store(path) as store:
        for channel in range(finished):
            row, game = await new_game(store, rng, channel)
            while not game.is_over:
                seq = len(game.steps)
                move(game, rng)
                await store.steps.append_step(row.id, seq, game.steps[-1].to_dict(), at=time.time())
            entries = entries_from_game(game, await store.games.seats(row.id))
            record = to_record(game)
            await store.results.finish_game(row.id, entries, record)
            steps += len(game.steps)
            record_bytes += len(json.dumps(record, separators=(",", ":")))
        if store.backend == "postgres":
            size = await size_of(store)
    if isinstance(path, Path):
        size = path.stat().st_size  # the last close checkpoints the WAL into the file
    print(
        f"bytes: {finished} finished games ({steps / finished:.0f} steps each): "
        f"{(size - empty) / finished:,.0f} bytes of database per finished game "
        f"(database {size / 1e6:.2f} MB; the record JSON alone ~{record_bytes / finished:,.0f} B)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--finished", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    backend = parser.add_mutually_exclusive_group()
    backend.add_argument(
        "--postgres", action="store_true", help="a throwaway PostgreSQL server (Debian's binaries)"
    )
    backend.add_argument("--url", help="an existing PostgreSQL database (new schema per figure)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared: figures vary with it)")
    server = None
    with tempfile.TemporaryDirectory(prefix="bench_store_") as tmp:
        if args.postgres:
            from tests.pgserver import PgServer

            server = PgServer.start(durable=True)
            place = server_places(server)
            print(f"backend: PostgreSQL (throwaway server, fsync on) at port {server.port}")
        elif args.url:
            place = schema_places(args.url)
            print("backend: PostgreSQL (--url)")
        else:
            place = sqlite_places(Path(tmp))
            print("backend: SQLite (synchronous=FULL)")
        try:
            async with place("appends") as target:
                await bench_appends(target, args.appends, rng, timer=False)
            async with place("timed") as target:
                await bench_appends(target, args.appends, rng, timer=True)
            async with place("judged") as target:
                await bench_appends(target, args.appends, rng, timer=True, judged=True)
            async with place("restore") as target:
                await bench_restore(target, args.games, rng)
            async with place("finished") as target:
                await bench_bytes(target, args.finished, rng)
        finally:
            if server is not None:
                server.stop()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
