"""How often AI players take each kind of action: the mix of a level's play.

Usage:
    python scripts/ai_action_mix.py [--level hard] [--seats 4] [--games 20] [--seed 1000]

Plays ``--games`` games of ``--seats`` AIs of one level (deals ``seed``, ``seed + 1``, ...)
through the public engine API and prints how many actions of each kind (ActionKind) they
chose, and the turns played. Used to see how much of real play the rollouts leave out, e.g.
partner swaps (R10) with 4 seats or discards (R9) with 2 or 3.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, GameConfig
from engine.ai import AiLevel, make_ai


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard", choices=[level.value for level in AiLevel])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    kinds: Counter[str] = Counter()
    turns = 0
    for g in range(args.games):
        game = Game.new(GameConfig(args.seats, args.seed + g))
        ais = [make_ai(AiLevel(args.level), g * 10 + s) for s in range(args.seats)]
        while not game.is_over:
            seat = game.to_move
            action = ais[seat].choose(game.observation(seat), game.legal_actions(seat))
            kinds[action.kind.value] += 1
            game.apply(seat, action)
        turns += sum(game.observation(0).turns_taken)
    print(f"{args.games} games, {args.seats} seats, level {args.level}: {turns} turns")
    for kind, n in kinds.most_common():
        print(f"  {kind}: {n} ({n / turns:.0%} of turns)")


if __name__ == "__main__":
    main()
