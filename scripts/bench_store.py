"""Store benchmark: appends with a commit each, restoring 10,000 live games, bytes per game.

Usage: python scripts/bench_store.py [--appends N] [--games N] [--finished N] [--seed N]

Prints three figures (BENCHMARKS.md, "Store"):
1. appends: ``append_step`` one at a time, each its own committed transaction (fsynced,
   synchronous=FULL): appends per second, median and p99 milliseconds per append.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from data import (
    GameImport,
    SeatSpec,
    entries_from_game,
    open_store,
    restore,
)
from data.rows import GameRow
from data.store import Store
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


async def bench_appends(folder: Path, count: int, rng: random.Random) -> None:
    times: list[float] = []
    async with await open_store(folder / "appends.sqlite3") as store:
        channel = 0
        row, game = await new_game(store, rng, channel)
        while len(times) < count:
            if game.is_over:
                await store.games.abandon_game(row.id)
                channel += 1
                row, game = await new_game(store, rng, channel)
            seq = len(game.steps)
            move(game, rng)
            step = game.steps[-1].to_dict()
            started = time.perf_counter()
            await store.steps.append_step(row.id, seq, step, at=time.time())
            times.append(time.perf_counter() - started)
    times.sort()
    print(
        f"appends: {count} steps, one commit each: {count / sum(times):,.0f} appends/s; "
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


async def bench_restore(folder: Path, games: int, rng: random.Random) -> None:
    path = folder / "restore.sqlite3"
    started = time.perf_counter()
    imports = [partial_game(rng, channel) for channel in range(games)]
    steps = sum(len(g.steps) for g in imports)
    async with await open_store(path) as store:
        for i in range(0, games, 1000):
            await store.games.import_games(imports[i : i + 1000])
    del imports  # a bot starts with an empty heap: do not measure the generator's objects
    gc.collect()
    print(
        f"restore: stored {games:,} live games, {steps:,} steps ({steps / games:.1f} per game), "
        f"{path.stat().st_size / 1e6:.1f} MB, in {time.perf_counter() - started:.1f} s"
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
        f"(quick_check + migrations), load_live {loaded:.2f} s, replay {replayed:.2f} s"
    )


async def bench_bytes(folder: Path, finished: int, rng: random.Random) -> None:
    path = folder / "finished.sqlite3"
    async with await open_store(path):
        pass
    empty = path.stat().st_size
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
    size = path.stat().st_size  # the last close checkpoints the WAL into the file
    print(
        f"bytes: {finished} finished games ({steps / finished:.0f} steps each): "
        f"{(size - empty) / finished:,.0f} bytes of database per finished game "
        f"(file {size / 1e6:.2f} MB; the record JSON alone ~{record_bytes / finished:,.0f} B)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--finished", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared: figures vary with it)")
    with tempfile.TemporaryDirectory(prefix="bench_store_") as tmp:
        folder = Path(tmp)
        await bench_appends(folder, args.appends, rng)
        await bench_restore(folder, args.games, rng)
        await bench_bytes(folder, args.finished, rng)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
