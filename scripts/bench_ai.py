"""AI benchmark: win rates between levels and decision times per level.

Usage:
    python scripts/bench_ai.py [--games N] [--seats 2,3,4]
        [--pairings normal-easy,hard-normal,hard-easy,expert-hard] [--workers 2] [--seed 0]
        [--budget JSON] [--expert-budget JSON] [--first N]
        [--out part.json] [--merge part1.json part2.json ...]

For every pairing "A-B" and seat count, ``--games`` games are played (AI against AI through
the public engine API; each AI only gets ``game.observation(seat)`` and its legal actions).
Placement, on duplicate deals (each deal is played once with A in every position):
  2 seats: A against B; deal ``i // 2``, A sits at seat ``i % 2``.
  3 seats: one A against two B; deal ``i // 3``, A sits at seat ``i % 3``.
  4 seats: team A (partners) against team B (R5); deal ``i // 2``, A holds seats
           ``(i % 2, i % 2 + 2)``.
The start seat comes from the deal's seed (R6). A game counts as a win for A when A is among
the winners (R19, R20); a shared win counts as a win for every winner. Win rates come with a
95% Wilson score interval; the baseline is what A would get if both levels were equal,
ignoring shared wins (1/2, 1/3, 1/2).

Decision times: every ``choose`` call, CPU time of the process (``time.process_time``) and wall
time, median, 95th percentile and maximum per level and seat count, in milliseconds; once over
every decision, once over the decisions that choose a main action (the ones the hard and
expert AIs search hardest; ending a turn or answering a swap is quick at every level).

``--budget`` sets the hard AI's HardBudget, ``--expert-budget`` the expert's ExpertBudget
(JSON of the fields, e.g. ``'{"turns": 3000}'``); each figure's budget is printed with it.
``--first N`` plays games N, N+1, ... only (with ``--games``: how many), to split a run.

``--out`` saves the raw results as JSON; ``--merge`` prints the table of saved parts together
(to run the benchmark in parts).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, GameConfig
from engine.ai import AiLevel, ExpertBudget, HardBudget, make_ai

BASELINE = {2: 1 / 2, 3: 1 / 3, 4: 1 / 2}


def placement(seats: int, index: int) -> tuple[int, tuple[int, ...]]:
    """(deal number, seats of level A) for game ``index`` (see the module docstring)."""
    if seats == 2:
        return index // 2, (index % 2,)
    if seats == 3:
        return index // 3, (index % 3,)
    return index // 2, (index % 2, index % 2 + 2)


def game_seed_of(seats: int, index: int, base_seed: int) -> int:
    """The engine seed of game ``index``'s deal (the same deal for every placement on it)."""
    deal, _a_seats = placement(seats, index)
    return base_seed * 1_000_003 + seats * 100_000 + deal


def turn_place(seats: int, index: int, base_seed: int, start: int | None = None) -> int:
    """Where A first moves in game ``index``: 0 when A (A's team with 4 seats) starts (R6).

    ``start``: the start seat when known; otherwise it is read from the deal's seed.
    """
    _deal, a_seats = placement(seats, index)
    if start is None:
        start = Game.new(GameConfig(seats, game_seed_of(seats, index, base_seed))).active
    return min((s - start) % seats for s in a_seats)


def play_one(job: tuple[str, str, int, int, int, dict | None, dict | None]) -> dict:
    """Play game ``index`` of pairing A-B with ``seats``; returns its result and timings."""
    level_a, level_b, seats, index, base_seed, budget_fields, expert_fields = job
    budgets = {
        "hard": HardBudget(**budget_fields) if budget_fields else None,
        "expert": ExpertBudget(**expert_fields) if expert_fields else None,
    }
    _deal, a_seats = placement(seats, index)
    game_seed = game_seed_of(seats, index, base_seed)
    game = Game.new(GameConfig(seats, game_seed))
    place = turn_place(seats, index, base_seed, start=game.active)
    levels = [level_a if s in a_seats else level_b for s in range(seats)]
    ais = [
        make_ai(
            AiLevel(levels[s]),
            game_seed * 10 + s + 7919 * index,
            budget=budgets.get(levels[s]),
        )
        for s in range(seats)
    ]
    cpu: dict[str, list[float]] = defaultdict(list)
    wall: dict[str, list[float]] = defaultdict(list)
    while not game.is_over:
        seat = game.to_move
        legal = game.legal_actions(seat)
        observation = game.observation(seat)
        c0 = time.process_time()
        w0 = time.perf_counter()
        action = ais[seat].choose(observation, legal)
        w_ms = (time.perf_counter() - w0) * 1000
        c_ms = (time.process_time() - c0) * 1000
        keys = [levels[seat]]
        if not observation.main_done and observation.pending_swap is None:
            keys.append(levels[seat] + "/main")  # a main action to choose (R7, R8)
        for key in keys:
            wall[key].append(w_ms)
            cpu[key].append(c_ms)
        game.apply(seat, action)
    result = game.result
    assert result is not None
    a_won = any(w in a_seats for w in result.winners)
    totals = [s.total for s in result.scores]
    if seats == 4:
        mine = sum(totals[s] for s in a_seats)
        margin = mine - (sum(totals) - mine)
    else:
        margin = totals[a_seats[0]] - max(t for s, t in enumerate(totals) if s not in a_seats)
    shared = result.tie_break.value == "shared"
    return {
        "pairing": f"{level_a}-{level_b}",
        "seats": seats,
        "index": index,
        "a_won": a_won,
        "margin": margin,
        "shared": shared,
        "place": place,
        "cpu": dict(cpu),
        "wall": dict(wall),
    }


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-quantile (0–1) of already sorted values, nearest rank."""
    if not sorted_values:
        return float("nan")
    rank = max(0, math.ceil(q * len(sorted_values)) - 1)
    return sorted_values[rank]


def report(results: list[dict], base_seed: int = 0) -> str:
    """The win-rate tables (overall, by turn place) and the decision-time tables, as Markdown.

    ``base_seed``: the deals' base seed, to place results saved without a ``place``.
    """
    lines = [
        "| pairing (A-B) | seats | games | A wins | A win rate | 95% CI | baseline | shared "
        "| A margin (95% CI) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    groups: dict[tuple[str, int], list[dict]] = defaultdict(list)
    times: dict[tuple[str, int], tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
    for r in results:
        groups[(r["pairing"], r["seats"])].append(r)
        for level, values in r["cpu"].items():
            times[(level, r["seats"])][0].extend(values)
        for level, values in r["wall"].items():
            times[(level, r["seats"])][1].extend(values)
    order = {"normal-easy": 0, "hard-normal": 1, "hard-easy": 2, "expert-hard": 3}
    for (pairing, seats), rs in sorted(
        groups.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0][1])
    ):
        n = len(rs)
        wins = sum(r["a_won"] for r in rs)
        shared = sum(r["shared"] for r in rs)
        lo, hi = wilson(wins, n)
        lines.append(
            f"| {pairing} | {seats} | {n} | {wins} | {wins / n:.1%} | "
            f"{lo:.1%}–{hi:.1%} | {BASELINE[seats]:.1%} | {shared} | {_mean_ci(rs)} |"
        )
    lines += ["", _place_table(groups, order, base_seed)]
    for title, main_only in (("every decision", False), ("main-action decisions", True)):
        lines += ["", _time_table(times, title, main_only)]
    return "\n".join(lines)


def _place_table(
    groups: dict[tuple[str, int], list[dict]], order: dict[str, int], base_seed: int
) -> str:
    """A's win rate by where it moves in the turn order (1st = starts, R6), n games each."""
    lines = [
        "| pairing (A-B) | seats | A moves 1st | 2nd | 3rd |",
        "|---|---|---|---|---|",
    ]
    for (pairing, seats), rs in sorted(
        groups.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0][1])
    ):
        by_place: dict[int, list[bool]] = defaultdict(list)
        for r in rs:
            place = r.get("place")
            if place is None:
                place = turn_place(seats, r["index"], base_seed)
            by_place[place].append(r["a_won"])
        cells = [
            f"{sum(won) / len(won):.1%} (n={len(won)})" if (won := by_place.get(p)) else "–"
            for p in range(3)
        ]
        lines.append(f"| {pairing} | {seats} | {' | '.join(cells)} |")
    return "\n".join(lines)


def _mean_ci(results: list[dict]) -> str:
    """Mean score margin of A over the best B (points; team totals with 4 seats), ± 1.96 SE."""
    margins = [r["margin"] for r in results if "margin" in r]
    if len(margins) < 2:
        return "–"
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    return f"{mean:+.1f} ({mean - half:+.1f}…{mean + half:+.1f})"


def _time_table(
    times: dict[tuple[str, int], tuple[list[float], list[float]]], title: str, main_only: bool
) -> str:
    """Decision times per level and seat count; ``main_only``: the ``level/main`` keys."""
    lines = [
        f"| level ({title}) | seats | decisions | CPU median ms | CPU p95 ms | wall median ms "
        "| wall p95 ms | wall max ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    level_order = {"easy": 0, "normal": 1, "hard": 2, "expert": 3}
    by_level: dict[str, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
    rows = [
        (key.split("/")[0], seats, cpu, wall)
        for (key, seats), (cpu, wall) in times.items()
        if ("/" in key) == main_only
    ]
    for level, seats, cpu, wall in sorted(rows, key=lambda r: (level_order[r[0]], r[1])):
        by_level[level][0].extend(cpu)
        by_level[level][1].extend(wall)
        lines.append(_time_row(level, str(seats), cpu, wall))
    for level, (cpu, wall) in sorted(by_level.items(), key=lambda kv: level_order[kv[0]]):
        lines.append(_time_row(level, "all", cpu, wall))
    return "\n".join(lines)


def _time_row(level: str, seats: str, cpu: list[float], wall: list[float]) -> str:
    cpu = sorted(cpu)
    wall = sorted(wall)
    return (
        f"| {level} | {seats} | {len(cpu)} | {statistics.median(cpu):.2f} | "
        f"{percentile(cpu, 0.95):.2f} | {statistics.median(wall):.2f} | "
        f"{percentile(wall, 0.95):.2f} | {wall[-1]:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000, help="games per pairing and seat count")
    parser.add_argument("--seats", default="2,3,4", help="seat counts, comma separated")
    parser.add_argument("--pairings", default="normal-easy,hard-normal,hard-easy")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="base seed of the deals")
    parser.add_argument("--out", help="save raw results to this JSON file")
    parser.add_argument("--merge", nargs="+", help="print the table of saved JSON parts")
    parser.add_argument(
        "--budget",
        help="hard AI budget as JSON, e.g. '{\"determinizations\": 8}' (default: HardBudget())",
    )
    parser.add_argument(
        "--expert-budget",
        help="expert AI budget as JSON, e.g. '{\"turns\": 3000}' (default: ExpertBudget())",
    )
    parser.add_argument("--first", type=int, default=0, help="index of the first game to play")
    args = parser.parse_args()
    if args.merge:
        results = []
        for path in args.merge:
            results.extend(json.loads(Path(path).read_text()))
        print(report(results, args.seed))
        return
    budget = json.loads(args.budget) if args.budget else None
    expert = json.loads(args.expert_budget) if args.expert_budget else None
    # fail early on a bad field; print the budgets the figures use
    print(f"hard: {HardBudget(**(budget or {}))}")
    print(f"expert: {ExpertBudget(**(expert or {}))}")
    jobs = []
    for pairing in args.pairings.split(","):
        level_a, level_b = pairing.split("-")
        AiLevel(level_a), AiLevel(level_b)
        for seats in (int(s) for s in args.seats.split(",")):
            jobs += [
                (level_a, level_b, seats, i, args.seed, budget, expert)
                for i in range(args.first, args.first + args.games)
            ]
    results = []
    start = time.perf_counter()
    with Pool(args.workers) as pool:
        for done, result in enumerate(pool.imap_unordered(play_one, jobs, chunksize=4), 1):
            results.append(result)
            if done % 100 == 0 or done == len(jobs):
                elapsed = time.perf_counter() - start
                print(
                    f"{done}/{len(jobs)} games, {elapsed:.0f} s, "
                    f"~{elapsed / done * (len(jobs) - done):.0f} s left",
                    file=sys.stderr,
                    flush=True,
                )
    if args.out:
        Path(args.out).write_text(json.dumps(results))
    print(f"games: {len(jobs)}, workers: {args.workers}, {time.perf_counter() - start:.0f} s")
    print(report(results, args.seed))


if __name__ == "__main__":
    main()
