"""A learned end-total model for 3-seat positions, and how well it predicts (issue 20).

Diagnostic for the expert AI (BENCHMARKS.md, "issue 20, fifth round"): can a model learned from
hard-AI games evaluate a position better than the expert's greedy whole-game rollouts?

Usage:
    python scripts/value_model.py data --first 0 --games 1000 --out d0.json
    python scripts/value_model.py fit d0.json d1.json --out model.json [--rollouts 800]

``data`` plays games of three hard AIs (deal seeds 5,000,000 + index, apart from bench_ai's)
and stores, at the start of every turn, the whole position (every hand: the model is for
sampled deals, which are whole positions) with each seat's final total (R19).

``fit`` fits, per number of turns a seat has left (0–8), a ridge regression of the seat's
final total on :func:`seat_features` (80% of the games; the other 20% test it) and prints the
test correlation of the prediction with the real final total. With ``--rollouts N`` it also
plays a greedy whole-game rollout (the expert's playout policy, :func:`rollout_value`'s moves)
from the true positions of N games (the test games first; N above the test games lets the
rest fit the model and rollout together) and prints the correlation of the rollout's
totals with the real ones, of the model and rollout together, and of the rollout's margin
over the best other seat with the real margin. Needs numpy (``pip install numpy``; the bot
does not). The model is JSON: ``{turns left: [weight per feature]}``, read by
``expert_variants.py --variant learned``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, GameConfig
from engine.ai import AiLevel, make_ai
from engine.ai.evaluate import Evaluator, favourite_estimate
from engine.ai.rollout import rollout_value
from engine.ai.sim import NUM_TYPES, VALUE_OF, SimState, worth_of
from engine.config import TURNS_PER_SEAT
from tests.ai.ai_support import sim_from_game

FEATURES = (
    "collection points now (R16) and black hats",
    "favourite estimate (R17)",
    "holds the cookie (R13)",
    "black hats",
    "distinct types minus the most of another seat (R13)",
    "turns left",
    "best greedy gain now (spite 0.5)",
    "sum of the 3 best exchange powers in hand",
    "mean hand value",
    "hand cards of value 5 or 6",
    "face-up collection cards",
    "turns left / 8 x best gain",
    "turns left / 8 x exchange powers",
    "turns left / 8 x mean hand value",
    "turns left / 8 x favourite",
    "turns left / 8 x collection points",
    "collection cards of types worth 4 or more",
    "moves next",
    "constant",
)
_LEFT = FEATURES.index("turns left")
SEED_BASE = 5_000_000
_FIELDS = ("board", "hands", "counts", "sums", "values", "blacks", "distinct", "cookie")


def turns_left(state: SimState, seat: int) -> int:
    """Turns ``seat`` still plays from ``state``, the active seat's current turn included."""
    remaining = state.seats * TURNS_PER_SEAT - state.turns_done
    return len(range((seat - state.active) % state.seats, remaining, state.seats))


def seat_features(state: SimState, seat: int, worth: Sequence[int]) -> list[float]:
    """The :data:`FEATURES` of ``seat`` at the start of a turn (``worth``: :func:`worth_of`)."""
    counts = state.counts[seat]
    hand = state.hands[seat]
    collection = state.collection_points(seat, worth)
    favourite = favourite_estimate(hand, state.sums[seat])
    lead = state.distinct[seat] - max(d for s, d in enumerate(state.distinct) if s != seat)
    left = turns_left(state, seat)
    gain = powers = 0.0
    if hand and left:
        ev = Evaluator(state, seat, 0.5)
        gain = max(g for g, _card, _slot in ev.main_gains())
        powers = sum(sorted((ev.exchange_power(c) for c in hand), reverse=True)[:3])
    mean = sum(VALUE_OF[c] for c in hand) / len(hand) if hand else 0.0
    f = left / TURNS_PER_SEAT
    return [
        collection,
        favourite,
        1.0 if state.cookie == seat else 0.0,
        state.blacks[seat],
        lead,
        left,
        gain,
        powers,
        mean,
        sum(1 for c in hand if VALUE_OF[c] >= 5),
        sum(counts),
        f * gain,
        f * powers,
        f * mean,
        f * favourite,
        f * collection,
        sum(counts[t] for t in range(NUM_TYPES) if worth[t] >= 4),
        1.0 if state.active == seat else 0.0,
        1.0,
    ]


def predict_totals(state: SimState, model: dict[int, Sequence[float]]) -> list[float]:
    """Every seat's predicted final total from ``state`` (a turn's start), by ``model``."""
    worth = worth_of(state.board)
    out = []
    for seat in range(state.seats):
        features = seat_features(state, seat, worth)
        weights = model[int(features[_LEFT])]
        out.append(sum(a * b for a, b in zip(features, weights, strict=True)))
    return out


def load_model(path: str) -> dict[int, list[float]]:
    """A model written by ``fit``: weights per number of turns left."""
    return {int(k): v for k, v in json.loads(Path(path).read_text()).items()}


def _position(state: SimState) -> dict:
    row = {name: getattr(state, name) for name in _FIELDS}
    row.update(active=state.active, turns_done=state.turns_done)
    return row


def _state(row: dict) -> SimState:
    """A stored position (no deck: greedy play never draws)."""
    state = SimState.__new__(SimState)
    state.seats = len(row["hands"])
    for name in _FIELDS:
        setattr(state, name, row[name])
    state.active, state.turns_done = row["active"], row["turns_done"]
    state.main_done = state.optional_used = False
    state.deck, state.discard, state.rng = [], [], random.Random(0)
    return state


def data(first: int, games: int, out: str) -> None:
    """Play ``games`` hard-AI games and store their turn-start positions and final totals."""
    rows = []
    for index in range(first, first + games):
        seed = SEED_BASE + index
        game = Game.new(GameConfig(3, seed))
        ais = [make_ai(AiLevel.HARD, seed * 10 + s) for s in range(3)]
        positions = []
        while not game.is_over:
            done = sum(game.turns_taken)
            if not game.main_done and (not positions or positions[-1]["turns_done"] != done):
                positions.append(_position(sim_from_game(game)))
            seat = game.to_move
            game.apply(seat, ais[seat].choose(game.observation(seat), game.legal_actions(seat)))
        result = game.result
        assert result is not None
        rows.append({"positions": positions, "totals": [s.total for s in result.scores]})
    Path(out).write_text(json.dumps(rows))


def _greedy_totals(state: SimState) -> list[int]:
    """The end totals after every seat plays on as in the expert's rollouts (spite 0.5)."""
    sim = state.copy()
    rollout_value(sim, sim.active, 0.5, None, 0.0)
    return sim.totals()


def _margins(totals: Sequence[float]) -> list[float]:
    return [t - max(o for s, o in enumerate(totals) if s != seat) for seat, t in enumerate(totals)]


def fit(files: Sequence[str], out: str, rollouts: int) -> None:
    """Fit the model, print its test correlations (and the rollouts'), save it to ``out``."""
    import numpy as np

    games = [g for f in files for g in json.loads(Path(f).read_text())]
    random.Random(1).shuffle(games)
    tests = len(games) // 5
    x, y, left, test, roll, margin, real_margin = [], [], [], [], [], [], []
    for g, game in enumerate(games):
        real = _margins(game["totals"])
        for row in game["positions"]:
            if row["turns_done"] == 0:
                continue
            state = _state(row)
            worth = worth_of(state.board)
            greedy = _greedy_totals(state) if g < rollouts else None
            greedy_margins = _margins(greedy) if greedy else None
            for seat in range(3):
                features = seat_features(state, seat, worth)
                x.append(features)
                y.append(game["totals"][seat])
                left.append(int(features[_LEFT]))
                test.append(g < tests)
                roll.append(greedy[seat] if greedy else np.nan)
                margin.append(greedy_margins[seat] if greedy_margins else np.nan)
                real_margin.append(real[seat])
    xa, ya, la, ta = np.array(x), np.array(y, float), np.array(left), np.array(test)
    ra, ma, rma = np.array(roll), np.array(margin), np.array(real_margin, float)
    model: dict[str, list[float]] = {}
    pred = np.zeros(len(ya))

    def solve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.linalg.solve(a.T @ a + np.eye(a.shape[1]), a.T @ b)

    def corr(a: np.ndarray, b: np.ndarray) -> float:
        return float(np.corrcoef(a, b)[0, 1])

    print(f"{len(games)} games, {tests} for testing, {len(ya)} seat positions")
    print("| turns left | test rows | model | greedy rollout | model + rollout | rollout margin |")
    print("|---|---|---|---|---|---|")
    for n in range(TURNS_PER_SEAT + 1):
        sel = la == n
        weights = solve(xa[sel & ~ta], ya[sel & ~ta])
        model[str(n)] = weights.tolist()
        pred[sel] = xa[sel] @ weights
        te = sel & ta
        cells = [f"{corr(pred[te], ya[te]):.2f}"]
        done = te & ~np.isnan(ra)
        train = sel & ~ta & ~np.isnan(ra)  # rolled-out training games fit the combination
        if done.any() and train.any():
            both = np.column_stack([xa, ra])
            combined = both[done] @ solve(both[train], ya[train])
            cells += [
                f"{corr(ra[done], ya[done]):.2f}",
                f"{corr(combined, ya[done]):.2f}",
                f"{corr(ma[done], rma[done]):.2f}",
            ]
        print(f"| {n} | {int(te.sum())} | " + " | ".join(cells) + " |")
    Path(out).write_text(json.dumps(model))


def main() -> None:
    """The ``data`` and ``fit`` commands (see the module docstring)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("data")
    d.add_argument("--first", type=int, default=0)
    d.add_argument("--games", type=int, default=100)
    d.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--out", required=True)
    f.add_argument("--rollouts", type=int, default=0, help="games to roll out greedily")
    args = parser.parse_args()
    if args.command == "data":
        data(args.first, args.games, args.out)
    else:
        fit(args.files, args.out, args.rollouts)


if __name__ == "__main__":
    main()
