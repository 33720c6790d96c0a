"""Heap benchmark: GC-tracked objects per cached live game and the cost of a full collection.

Usage: python scripts/bench_heap.py [--games N [N ...]] [--seats N [N ...]] [--fraction LO HI]
                                    [--distinct N] [--repeat N] [--seed N]

No Discord, one process: the service and the store only, as ``scripts/bench_cluster.py``'s
workers (``GameService`` over a SQLite ``Store``, ``deadlines`` off, events dropped, no idle
eviction). For each ``--games`` value: that many live games (``--seats`` seat counts, drawn
per game, odd seats AI as in ``bench_store.py``; each cut at a uniform share ``--fraction``
of a whole random game; a table message row and one DM message row per seat, as many rows
as a running bot keeps for an all-human game) are written straight into a fresh SQLite file
(``scripts/live_seed.py``), the process collects and freezes its set-up (``gc.collect()`` +
``gc.freeze()``, as the bot after ``setup_hook``), then every game is loaded into the
service's cache (``await svc.session(id)``: read, replayed, cached) and one ``gc.collect()``
runs (it frees the load's garbage and untracks the tuples and dicts that hold only atomic
values, as any collection does).

Printed:
  per game (walk) - GC-tracked objects reachable from one cache entry (``svc.sessions[id]``,
                    the ``GameSession``) through ``gc.get_referents``, not counting objects
                    of the set-up (interned cards, actions, enums, modules;
                    ``tests/heapwalk.py``): mean, max, and the mean per seat count; the most
                    common types;
  per game (delta) - ``len(gc.get_objects())`` after the loads minus before, per game;
  full collection - ``gc.collect()`` wall time (``time.perf_counter``) and CPU time
                    (``time.thread_time``: without the waits for a core on a busy machine),
                    ms, medians of ``--repeat``: over the cached games' own objects
                    (set-up frozen), and over the whole heap (``gc.unfreeze()`` first, as a
                    bot that never froze).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from live_seed import make_pool, make_rows, seed

from tests.heapwalk import existing_ids, own_tracked


def add_messages(path: Path, rows: Any) -> None:
    """A table message and one DM message per seat for every game, as a running bot keeps."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN")
        seats: dict[int, int] = Counter(r[0] for r in rows.seats)
        conn.executemany(
            "INSERT INTO game_messages (game_id, role, seat, channel_id, message_id)"
            " VALUES (?, ?, ?, ?, ?)",
            (
                (game_id, role, seat, 10**17 + game_id * 8 + seat, 10**18 + game_id * 8 + seat)
                for game_id, n in seats.items()
                for role, seat in [("table", -1), *(("dm", s) for s in range(n))]
            ),
        )
        conn.execute("COMMIT")
    finally:
        conn.close()


def time_collect(repeat: int) -> tuple[float, float]:
    """Median wall time and median CPU time (this thread's) of ``gc.collect()``, in ms.

    The CPU time leaves out the time the process waited for a core on a busy machine.
    """
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.thread_time()
        gc.collect()
        cpu.append((time.thread_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    return statistics.median(wall), statistics.median(cpu)


async def measure(path: Path, games: int, repeat: int) -> dict[str, Any]:
    """Load every game of the store at ``path`` into a service's cache; the heap figures."""
    from data import open_store
    from service import GameService

    store = await open_store(path)
    svc = GameService(store, lambda: 0, dispatch=lambda *a: None, cache_idle=None)
    await svc.start()
    await svc.session(1)  # warm: first-use caches of the engine and the store
    svc.sessions.clear()
    gc.collect()
    existing, shared = existing_ids()  # the set-up: not the games' own
    gc.freeze()
    empty_ms = time_collect(repeat)
    before = len(gc.get_objects())
    for game_id in range(1, games + 1):
        await svc.session(game_id)
    gc.collect()
    delta = len(gc.get_objects()) - before
    per_game = []
    by_seats: dict[int, list[int]] = {}
    types: Counter[str] = Counter()
    for session in svc.sessions.values():
        own = own_tracked(session, shared)
        per_game.append(len(own))
        by_seats.setdefault(session.game.seats, []).append(len(own))
        types.update(type(o).__name__ for o in own)
    own_ms = time_collect(repeat)
    gc.unfreeze()
    whole = len(gc.get_objects())
    whole_ms = time_collect(repeat)
    await store.close()
    del existing
    return {
        "cached": len(svc.sessions),
        "walk_mean": statistics.mean(per_game),
        "walk_max": max(per_game),
        "by_seats": {s: statistics.mean(v) for s, v in sorted(by_seats.items())},
        "types": types.most_common(12),
        "delta": delta / games,
        "own_objects": delta,
        "empty_ms": empty_ms,
        "own_ms": own_ms,
        "whole_objects": whole,
        "whole_ms": whole_ms,
    }


def main() -> None:
    """Parse the options; seed, load and measure for each game count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[2000, 10000])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4], choices=(2, 3, 4))
    parser.add_argument("--fraction", type=float, nargs=2, default=[0.0, 1.0])
    parser.add_argument("--distinct", type=int, default=500, help="distinct games played")
    parser.add_argument("--repeat", type=int, default=5, help="collections timed, median")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.ERROR)
    print(
        f"bench_heap: Python {sys.version.split()[0]}, seats {args.seats}, "
        f"played {args.fraction[0]:.0%}–{args.fraction[1]:.0%} of a game, "
        f"gc thresholds {gc.get_threshold()}",
        flush=True,
    )
    rng = random.Random(args.seed)
    pool = make_pool(
        args.distinct, rng, seat_counts=tuple(args.seats), fraction=tuple(args.fraction)
    )
    for games in args.games:
        with tempfile.TemporaryDirectory(prefix="bench_heap_") as tmp:
            path = Path(tmp) / "heap.sqlite3"
            rows = make_rows(pool, games, random.Random(args.seed), with_timers=False)
            asyncio.run(seed(path, rows))
            add_messages(path, rows)
            steps = rows.step_count / games
            r = asyncio.run(measure(path, games, args.repeat))
        by_seats = ", ".join(f"{s} seats {m:.1f}" for s, m in r["by_seats"].items())
        print(
            f"{games:,} cached games ({r['cached']:,} in the cache, {steps:.1f} steps each):\n"
            f"  tracked objects per game: walk mean {r['walk_mean']:.1f}, max {r['walk_max']} "
            f"({by_seats}); delta {r['delta']:.1f}\n"
            f"  most common: {', '.join(f'{t} {n / games:.1f}' for t, n in r['types'])}\n"
            f"  full collection, wall / CPU ms: empty cache (set-up frozen) "
            f"{_ms(r['empty_ms'])}; the games' own {r['own_objects']:,} objects "
            f"{_ms(r['own_ms'])}; whole heap unfrozen ({r['whole_objects']:,} objects) "
            f"{_ms(r['whole_ms'])}",
            flush=True,
        )


def _ms(times: tuple[float, float]) -> str:
    return f"{times[0]:.1f} / {times[1]:.1f}"


if __name__ == "__main__":
    main()
