"""Render time of the table and hand pictures (issue 11): median and p99 over real states.

Renders the public table and the mover's hand after every step of random 2-, 3- and 4-seat
games (long accented names), each state once (no cache: every render is a fresh layout,
paint and PNG encode; card tiles and fonts are warm, as in a running bot). Prints the median
and p99 in milliseconds, wall clock and CPU time of the rendering thread (the CPU figure is
what the render costs when other processes share the cores), and the PNG sizes. Goal: median
≤ 20 ms (issue 11).

    .venv/bin/python scripts/bench_render.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import Game, GameConfig
from pictures import render_hand, render_table
from texts.i18n import Translator

NAMES = ("Zoë Ångström-Müller", "Björn Þórsson", "Ñandú de la Peña y Güemes", "Łukasz Čapek")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def states(games: int):
    for seats in (2, 3, 4):
        for seed in range(games):
            rng = random.Random(seed)
            game = Game.new(GameConfig(seats, seed))
            while not game.is_over:
                yield game
                seat = game.to_move
                game.apply(seat, rng.choice(game.legal_actions(seat)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per seat count")
    args = parser.parse_args()
    tr = Translator.load().for_locale("fr")
    timings: dict[str, list[float]] = {"table": [], "hand": []}
    cpu: dict[str, list[float]] = {"table": [], "hand": []}
    sizes: dict[str, list[int]] = {"table": [], "hand": []}
    for game in states(args.games):
        names = NAMES[: game.seats]
        for kind in ("table", "hand"):
            start, start_cpu = time.perf_counter(), time.thread_time()
            if kind == "table":
                png = render_table(game.public_view(), names, tr)
            else:
                png = render_hand(game.observation(game.to_move), names, tr)
            timings[kind].append((time.perf_counter() - start) * 1000)
            cpu[kind].append((time.thread_time() - start_cpu) * 1000)
            sizes[kind].append(len(png))
    for kind, values in timings.items():
        print(
            f"{kind:5}: {len(values)} renders, median {statistics.median(values):.1f} ms, "
            f"p99 {percentile(values, 0.99):.1f} ms (CPU median "
            f"{statistics.median(cpu[kind]):.1f} ms, p99 {percentile(cpu[kind], 0.99):.1f} ms), "
            f"PNG median {statistics.median(sizes[kind]) / 1024:.0f} KiB"
        )


if __name__ == "__main__":
    main()
