"""``python -m engine bench``: engine throughput on one core, in one process.

Prints random full games per second for 2, 3 and 4 seats, with two random policies: uniform
over the legal actions (``random.choice``, the cheapest: it measures the engine) and
:class:`~engine.policies.RandomPolicy` (a kind first, then an action). Then the mean cost of
one ``legal_actions`` + ``apply`` pair in microseconds, replaying recorded random games.
Each figure is the median of ``--repeat`` runs. Time is this process's CPU time
(``time.process_time``), so the figures are per CPU second of one core and hold up better than
wall-clock time on a machine shared with other jobs.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from engine.actions import Step
from engine.config import GameConfig
from engine.game import Game
from engine.policies import RandomPolicy, play_out

__all__ = ["add_arguments", "games_per_second", "run", "step_cost_us"]


def _uniform_game(seats: int, index: int) -> Game:
    rng = random.Random(index)
    game = Game.new(GameConfig(seats, index))
    choice = rng.choice
    apply = game.apply
    legal = game.legal_actions
    while game.result is None:
        seat = game.to_move
        apply(seat, choice(legal(seat)))  # type: ignore[arg-type]
    return game


def _policy_game(seats: int, index: int) -> Game:
    return play_out(Game.new(GameConfig(seats, index)), RandomPolicy(index))


POLICIES: dict[str, Callable[[int, int], Game]] = {
    "uniform": _uniform_game,
    "kinds": _policy_game,
}
"""Random full-game players by name: ``uniform`` (random.choice) and ``kinds`` (RandomPolicy)."""


def games_per_second(seats: int, policy: str, seconds: float) -> float:
    """Play random full games for about ``seconds`` CPU seconds; returns games per CPU second.

    ``policy`` is a key of :data:`POLICIES`; raises KeyError otherwise.
    """
    play = POLICIES[policy]
    start = time.process_time()
    deadline = start + seconds
    games = 0
    while True:
        play(seats, games)
        games += 1
        now = time.process_time()
        if now >= deadline:
            return games / (now - start)


def step_cost_us(seats: int, games: int) -> float:
    """Mean microseconds of one ``legal_actions(seat)`` + ``apply(seat, action)`` pair.

    Replays ``games`` uniform random games (dealt before the clock starts) step by step.
    """
    plays = [(_uniform_game(seats, i).steps, Game.new(GameConfig(seats, i))) for i in range(games)]
    count = sum(len(steps) for steps, _ in plays)
    start = time.process_time()
    for steps, game in plays:
        legal = game.legal_actions
        apply = game.apply
        step: Step
        for step in steps:
            legal(step.seat)
            apply(step.seat, step.action)
    return (time.process_time() - start) / count * 1e6


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``bench`` options to ``parser``."""
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per run (1.0)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, median (3)")
    parser.add_argument("--step-games", type=int, default=300, help="games for the step cost")


def run(args: argparse.Namespace) -> int:
    """Measure and print the figures; returns the exit status (0)."""
    repeat = max(1, args.repeat)
    print(
        f"engine bench: Python {platform.python_version()}, one process, "
        f"median of {repeat} runs of {args.seconds:g} CPU s"
    )
    print("seats  games/s uniform  games/s RandomPolicy  µs per legal_actions+apply (CPU time)")
    for seats in (2, 3, 4):
        rates = {
            name: statistics.median(
                games_per_second(seats, name, args.seconds) for _ in range(repeat)
            )
            for name in POLICIES
        }
        cost = statistics.median(step_cost_us(seats, args.step_games) for _ in range(repeat))
        print(f"{seats:>5}  {rates['uniform']:>15.0f}  {rates['kinds']:>20.0f}  {cost:>26.1f}")
    return 0
