"""What the coach costs per move of a learner: its notes (on the event loop) and a hint (in a pool).

Plays every lesson deal (``coach.LESSON_SEEDS``) to its end with random legal moves and times,
at each of the learner's turns, :func:`coach.suggest` (the ``/hats hint`` answer, run through
``bot.run_cpu``) and, after each of their moves, :func:`coach.latest_notes` (the hand
message's coach lines: a replay of the game's steps, computed once per game version).

    python scripts/bench_coach.py [--rounds N]

Prints the number of calls, the median, p95 and max in milliseconds of each.
"""

from __future__ import annotations

import argparse
import random
import time

from coach import LEARNER, LESSON_SEEDS, latest_notes, lesson_config, suggest
from engine import Game


def _line(name: str, times: list[float]) -> str:
    ordered = sorted(times)

    def at(q: float) -> float:
        return ordered[int(q * (len(ordered) - 1))] * 1000

    return (
        f"{name}: n={len(ordered)} median {at(0.5):.2f} ms p95 {at(0.95):.2f} ms "
        f"max {ordered[-1] * 1000:.2f} ms"
    )


def main() -> None:
    """Time the coach over ``--rounds`` passes of every lesson deal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="passes over the lesson deals")
    args = parser.parse_args()
    notes: list[float] = []
    hints: list[float] = []
    for pass_no in range(args.rounds):
        for seed in LESSON_SEEDS:
            game = Game.new(lesson_config(seed))
            rng = random.Random(seed * 1000 + pass_no)
            while not game.is_over:
                seat = game.to_move
                assert seat is not None
                legal = game.legal_actions(seat)
                if seat == LEARNER:
                    start = time.perf_counter()
                    suggest(game.observation(seat), legal, seed=len(game.steps) * 4)
                    hints.append(time.perf_counter() - start)
                game.apply(seat, rng.choice(legal))
                if seat == LEARNER:
                    start = time.perf_counter()
                    latest_notes(game, LEARNER)
                    notes.append(time.perf_counter() - start)
    print(_line("coach.latest_notes (per learner move)", notes))
    print(_line("coach.suggest (per hint)", hints))


if __name__ == "__main__":
    main()
