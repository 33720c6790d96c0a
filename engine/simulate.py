"""``python -m engine simulate``: random legal games written as ``hats-record/1`` JSON lines.

Each game ``i`` gets its own ``random.Random`` seeded from ``(seed, i)``; from it come the
game's seed (all of the game's chance, R3–R6, R9) and the policy's seed, so the same arguments
always give the same bytes. Moves come from :class:`~engine.policies.RandomPolicy`.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.config import GameConfig
from engine.game import Game
from engine.policies import RandomPolicy, play_out
from engine.record import to_record

__all__ = ["add_arguments", "game_seeds", "run", "simulate_games", "simulate_records"]


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """The (game seed, policy seed) of game ``index`` of a simulation seeded ``seed``."""
    rng = random.Random(f"hats-simulate:{seed}:{index}")
    return rng.getrandbits(32), rng.getrandbits(64)


def simulate_games(seats: int, games: int, seed: int) -> Iterator[Game]:
    """Play ``games`` random games with ``seats`` seats (2–4); yields each finished game.

    Raises ValueError when ``seats`` is not 2–4.
    """
    for index in range(games):
        game_seed, policy_seed = game_seeds(seed, index)
        yield play_out(Game.new(GameConfig(seats, game_seed)), RandomPolicy(policy_seed))


def simulate_records(seats: int, games: int, seed: int) -> Iterator[dict[str, Any]]:
    """The ``hats-record/1`` records of :func:`simulate_games`, in order."""
    for game in simulate_games(seats, games, seed):
        yield to_record(game)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``simulate`` options to ``parser``."""
    parser.add_argument("--seats", type=int, choices=(2, 3, 4), required=True)
    parser.add_argument("--games", type=int, required=True, help="number of games to play")
    parser.add_argument("--seed", type=int, default=0, help="simulation seed (default 0)")
    parser.add_argument("--out", type=Path, required=True, help="JSON lines file to write")


def run(args: argparse.Namespace) -> int:
    """Write the records, one JSON object per line; returns the exit status (0)."""
    if args.games < 0:
        raise SystemExit("--games must be 0 or more")
    with args.out.open("w", encoding="utf-8", newline="\n") as out:
        for record in simulate_records(args.seats, args.games, args.seed):
            out.write(json.dumps(record))
            out.write("\n")
    print(f"wrote {args.games} games ({args.seats} seats) to {args.out}")
    return 0
