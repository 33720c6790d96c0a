"""What monitoring costs (issue 21): a scrape's store query and exposition, and the counters.

    .venv/bin/python scripts/bench_metrics.py [--games 10000] [--runs 200]

Seeds ``--games`` live games with their deadlines into a fresh SQLite file (``live_seed.py``),
then prints medians of:

  gauges query  - ``Store.gauges.read`` (live games, open lobbies, overdue deadlines), ms;
  exposition    - ``prometheus_client.generate_latest`` of the whole registry, ms;
  per step      - what the instrumentation adds to one committed step (a step counter and
                  one timed store statement), µs;
  gc callback   - what the ``hats_gc_pause_seconds`` callback adds to one young collection, µs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from live_seed import make_pool, make_rows, seed
from prometheus_client import REGISTRY, generate_latest

from data import open_store
from telemetry.metrics import count_step, install_gc_pauses, observe_store


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def per_call_us(fn, n: int = 100_000) -> float:
    started = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - started) / n * 1e6


def young_collection_us(n: int = 20_000) -> float:
    started = time.perf_counter()
    for _ in range(n):
        gc.collect(0)
    return (time.perf_counter() - started) / n * 1e6


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(21)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hats.sqlite3"
        await seed(path, make_rows(make_pool(50, rng), args.games, rng))
        store = await open_store(path, check=False)
        try:
            times, counts = [], None
            for _ in range(args.runs):
                started = time.perf_counter()
                counts = await store.gauges.read(time.time() - 60)
                times.append(time.perf_counter() - started)
        finally:
            await store.close()
    print(f"live games {counts.live_games}, open lobbies {counts.open_lobbies}")
    print(f"gauges query  {median_ms(times):.3f} ms (median of {args.runs})")
    times = []
    for _ in range(args.runs):
        started = time.perf_counter()
        generate_latest(REGISTRY)
        times.append(time.perf_counter() - started)
    print(f"exposition    {median_ms(times):.3f} ms (median of {args.runs})")

    def one_step() -> None:
        count_step("player")
        observe_store("query", time.perf_counter())

    print(f"per step      {per_call_us(one_step):.2f} µs")
    bare = young_collection_us()
    install_gc_pauses()
    timed = young_collection_us()
    print(f"gc callback   {timed - bare:.2f} µs per young collection ({bare:.1f} µs without)")


if __name__ == "__main__":
    asyncio.run(main())
