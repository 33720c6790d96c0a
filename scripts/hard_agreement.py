"""How predictable the hard AI is: how often other players choose its exact main decision.

Usage:
    python scripts/hard_agreement.py [--seats 3] [--games 25]

Hard AIs play whole games against each other (deal seeds 88,000,000 + i). At every first
decision of a turn (a main action, or a discard before it, R7–R9) the script asks three
other players what they would do with the same observation and legal actions, and counts
how often each picks the very action the hard AI picked:

- a hard AI with another seed (the same policy, different samples: the best a model of the
  hard AI can do without its seed);
- a cheaper hard AI (3 determinizations, 2-round rollouts);
- the normal AI (greedy, the playout policy of the hard and expert searches).

A diagnostic for issue 20 (why the expert's model of its opponents matters); prints one line.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, GameConfig
from engine.ai import AiLevel, HardBudget, make_ai
from engine.ai.normal import normal_choice


def main() -> None:
    """Play the games and print the agreement rates."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--games", type=int, default=25)
    args = parser.parse_args()
    cheap_budget = HardBudget(determinizations=3, depth_rounds=2)
    agree: Counter[str] = Counter()
    decisions = 0
    for i in range(args.games):
        game = Game.new(GameConfig(args.seats, 88_000_000 + i))
        seats = range(args.seats)
        players = [make_ai(AiLevel.HARD, i * 10 + s) for s in seats]
        reseeded = [make_ai(AiLevel.HARD, 555 + i * 10 + s) for s in seats]
        cheap = [make_ai(AiLevel.HARD, 777 + i * 10 + s, budget=cheap_budget) for s in seats]
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            obs = game.observation(seat)
            legal = game.legal_actions(seat)
            action = players[seat].choose(obs, legal)
            if not obs.main_done and obs.pending_swap is None:
                decisions += 1
                agree["hard, other seed"] += reseeded[seat].choose(obs, legal) == action
                agree["cheaper hard"] += cheap[seat].choose(obs, legal) == action
                agree["normal"] += normal_choice(obs, legal, random.Random(0)) == action
            game.apply(seat, action)
    rates = ", ".join(f"{name} {count / decisions:.1%}" for name, count in agree.items())
    print(f"{args.seats} seats, {args.games} games, {decisions} decisions: {rates}")


if __name__ == "__main__":
    main()
