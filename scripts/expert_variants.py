"""Diagnostic variants of the expert AI against hard, beyond what ExpertBudget can set.

Usage:
    python scripts/expert_variants.py --variant oracle --seats 3 --first 0 --games 60
        [--expert-budget JSON] --out part.json
    python scripts/bench_ai.py --merge part.json ...

Variants (the expert only; the hard AIs are unchanged):
  oracle:  the expert's sampled deals are the true position: the other seats' real hands and
           black hats, only the draw deck and discard pile shuffled together (an expert that
           cheats, to learn what perfect inference would be worth; never in the product).
  mean:    a rollout scores the expert's total minus the mean of the others' (not the best's).
  mix:     minus half the best other's total and half their mean.
  reply:   in the round after the searched move, each other seat searches its reply: it tries
           its 4 best greedy moves, each followed by one greedy round, and keeps the one that
           leaves it the best estimated margin (a cheap copy of what the hard AI does; the
           rollout then goes on greedily). About 2.3 times the CPU time per decision.
  own:     the expert's own next turn in the rollout is searched the same way (two levels).
  both:    reply and own together.
  discards: in the rollouts every seat may discard before its greedy main action (R9), by the
           normal AI's rule: the card worth least to keep goes when a card drawn from 6 of the
           seat's unseen cards (sampled) is worth 0.5 points more on average.
  model:   not the expert: a ceiling for one-step search over the hard AI. The seat sees the
           true game (every hand and black hat; only the draw deck's order is shuffled), tries
           each of the hard AI's candidate moves and plays the game out once per move with the
           opponents' real AIs (a hard AI's choice is a function of its seed and observation,
           so they reply exactly as they will) and a hard AI for its own later turns; it keeps
           the move of best margin plus 10 for a win. It cheats twice (hidden cards, perfect
           opponent model); about 30 s of CPU per 3-seat game.
  model-own-normal:    the same, with the normal AI (greedy) for its own later turns.
  model-others-normal: the same, with normal AIs for the opponents in the playouts (its own
           later turns by a hard AI again).
  model-others-reseeded: the same, with hard AIs of other seeds for the opponents: they play
           as the real ones would, but their sampling differs, so the model is right in
           distribution without copying their exact choices (which only the seed gives).
  learned: rollouts that stop before the end (set ``depth_rounds``) are valued by the model of
           ``--model`` (``value_model.py fit``): the predicted margin over the best other
           seat plus the win bonus times a normal chance of winning (spread 4 points).

Games, placement and seeds are those of ``bench_ai.py --pairings expert-hard`` (same deals,
same AI seeds), so a variant's JSON compares game by game with a bench_ai run and merges with
``bench_ai.py --merge``. One process; run parts side by side on several cores.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine.ai.expert as expert_module
import engine.ai.rollout as rollout_module
import scripts.bench_ai as bench_module
import scripts.value_model as value_model
from engine import Game
from engine.actions import Action
from engine.ai import AiLevel, Player, make_ai
from engine.ai.base import ActionIndex
from engine.ai.evaluate import Evaluator
from engine.ai.hard import HardAi
from engine.ai.knowledge import knowledge_of
from engine.ai.sim import SimState
from engine.config import TURNS_PER_SEAT
from engine.observation import Observation
from scripts.bench_ai import play_one
from tests.ai.ai_support import sim_from_game

Margin = Callable[[SimState, int, Sequence[float]], float]
_current: list[Game] = []


def _record_games() -> None:
    """Keep the game being played in ``_current`` (for the variants that cheat)."""
    new = Game.new.__func__  # type: ignore[attr-defined]

    def recording_new(cls: type[Game], config: object) -> Game:
        game = new(cls, config)
        _current[:] = [game]
        return game

    Game.new = classmethod(recording_new)  # type: ignore[method-assign,assignment]


def _oracle() -> None:
    """Deal the true position (deck and discard pile reshuffled together) to the expert."""
    _record_games()

    def true_deal(obs: object, rng: random.Random, know: object) -> tuple[SimState, None]:
        state = sim_from_game(_current[0])
        pool = state.deck + state.discard
        rng.shuffle(pool)
        state.deck, state.discard = pool[: len(state.deck)], pool[len(state.deck) :]
        return state, None

    expert_module.deal = true_deal  # type: ignore[assignment]


Move = tuple[int, int]  # (card, slot): see engine.ai.rollout.play_main


def _play(state: SimState, move: Move) -> None:
    rollout_module.play_main(state, *move)
    state.end_turn()


def _greedy(state: SimState, spite: float) -> Move:
    return Evaluator(state, state.active, spite).best_main()


def _rollouts(
    margin: Margin,
    reply: Callable[[SimState, float], Move] | None = None,
    own: Callable[[SimState, float], Move] | None = None,
    discards: bool = False,
    leaf: Callable[[SimState, int, float], float] | None = None,
) -> None:
    """Score the expert's rollouts with ``margin``.

    ``reply``: how the others choose in the round after the searched move; ``own``: how the
    expert chooses at its next turn (greedy when None); ``leaf(state, seat, win_bonus)``
    values a rollout that stops before the end (None: the engine's estimate).
    """

    def rollout_value(
        state: SimState,
        seat: int,
        spite: float,
        depth_rounds: int | None,
        win_bonus: float,
        spread: int = 1,
    ) -> float:
        stop = rollout_module.rollout_stop(state, depth_rounds)
        first_round = state.turns_done + state.seats - 1
        while state.turns_done < stop:
            if discards:
                _greedy_discard(state, spite)
            if state.active != seat and reply is not None and state.turns_done < first_round:
                _play(state, reply(state, spite))
            elif state.active == seat and own is not None and state.turns_done <= first_round:
                _play(state, own(state, spite))
            else:
                _play(state, _greedy(state, spite))
        if leaf is not None and not state.is_over:
            return leaf(state, seat, win_bonus)
        return rollout_module.final_value(state, seat, win_bonus, margin)

    expert_module.rollout_value = rollout_value  # type: ignore[assignment]


def _searched_reply(state: SimState, spite: float, tries: int = 4) -> Move:
    """The active seat's best of its ``tries`` best greedy moves after one greedy round."""
    seat = state.active
    gains = Evaluator(state, seat, spite).main_gains()
    gains.sort(key=lambda g: -g[0])
    best: tuple[float, Move] | None = None
    for _gain, card, slot in gains[:tries]:
        sim = state.copy()
        _play(sim, (card, slot))
        stop = min(sim.seats * TURNS_PER_SEAT, sim.turns_done + sim.seats - 1)
        while sim.turns_done < stop:
            _play(sim, _greedy(sim, spite))
        value = rollout_module.final_value(sim, seat, 0.0)
        if best is None or value > best[0]:
            best = (value, (card, slot))
    assert best is not None, "a seat with a main action to make holds cards"
    return best[1]


def _greedy_discard(state: SimState, spite: float, edge: float = 0.5, sample: int = 6) -> None:
    """Discard the active seat's card worth least to keep when a draw looks better (R9).

    The normal AI's rule (``optional_card``) over ``sample`` cards drawn from the cards the
    seat cannot see (deck, discard pile, the other hands) with ``state.rng``.
    """
    seat = state.active
    if len(state.hands[seat]) < 2 or not (state.deck or state.discard):
        return
    ev = Evaluator(state, seat, spite)
    worst = ev.by_keep()[0]
    unseen = state.deck + state.discard
    for other in range(state.seats):
        if other != seat:
            unseen += state.hands[other]
    pool = [unseen[int(state.rng.random() * len(unseen))] for _ in range(sample)]
    expect = sum(ev.draw_value(card, worst) for card in pool) / len(pool)
    if expect - ev.keep_value(worst) > edge:
        state.do_discard(worst)


class _ModelPlayer:
    """The ``model`` variant's player (see the module docstring); cheats, diagnosis only."""

    level = "expert"

    def __init__(self, seed: int, own: AiLevel, others: AiLevel | None, reseed: int) -> None:
        """``own``: the level of its later turns; ``others``: the opponents' level in the
        playouts (None: their real AIs); ``reseed`` is added to the opponents' seeds."""
        self.seed = seed
        self._reseed = reseed
        self._rng = random.Random(seed)
        self._own = make_ai(own, seed + 1_000_003)
        self._others = others

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """The hard AI's candidate of best played-out value (see the module docstring)."""
        game = _current[0]
        me = observation.viewer
        assert me is not None
        if len(legal) == 1:
            return legal[0]
        plans = HardAi(0)._candidates(
            observation, me, ActionIndex(legal), knowledge_of(observation)
        )
        if len(plans) <= 1:
            return plans[0][1] if plans else legal[0]
        # the opponents' AIs, seeded as bench_ai.play_one seeds them
        players: list[Player] = [
            make_ai(self._others or AiLevel.HARD, self.seed - me + s + self._reseed)
            for s in range(game.seats)
        ]
        players[me] = self._own
        deck_seed = self._rng.getrandbits(32)
        best: tuple[float, Action] | None = None
        for _plan, action in plans:
            sim = game.copy()
            deck = list(sim._deck)  # the deck's order stays unknown to the searcher
            random.Random(deck_seed).shuffle(deck)
            sim._deck = bytearray(deck)
            sim.apply(me, action)
            while not sim.is_over:
                seat = sim.to_move
                assert seat is not None
                sim.apply(
                    seat, players[seat].choose(sim.observation(seat), sim.legal_actions(seat))
                )
            result = sim.result
            assert result is not None
            totals = [score.total for score in result.scores]
            value = totals[me] - max(t for s, t in enumerate(totals) if s != me)
            value += 10.0 if me in result.winners else 0.0
            if best is None or value > best[0]:
                best = (value, action)
        assert best is not None
        return best[1]


def _model(own: AiLevel = AiLevel.HARD, others: AiLevel | None = None, reseed: int = 0) -> None:
    """Play the ``model`` player in the expert's seats (see the module docstring)."""
    _record_games()
    real = bench_module.make_ai

    def patched(level: AiLevel, seed: int, budget: object = None) -> Player:
        if level == AiLevel.EXPERT:
            return _ModelPlayer(seed, own, others, reseed)
        return real(level, seed, budget=budget)  # type: ignore[arg-type]

    bench_module.make_ai = patched  # type: ignore[assignment]


def _learned(path: str, sigma: float = 4.0) -> None:
    """Rollouts that stop early are valued by the learned model at ``path`` (value_model.py).

    The predicted margin over the best other seat, plus the win bonus times the chance of a
    win, taken as normal around that margin with ``sigma`` points of spread (R19).
    """
    model = value_model.load_model(path)

    def leaf(state: SimState, seat: int, win_bonus: float) -> float:
        totals = value_model.predict_totals(state, model)
        lead = totals[seat] - max(_others(totals, seat))
        return lead + win_bonus * 0.5 * (1.0 + math.erf(lead / (sigma * math.sqrt(2.0))))

    _rollouts(rollout_module.margin, leaf=leaf)


def _others(values: Sequence[float], seat: int) -> list[float]:
    return [v for s, v in enumerate(values) if s != seat]


def _mean_margin(state: SimState, seat: int, values: Sequence[float]) -> float:
    if state.seats == 4:
        return rollout_module.margin(state, seat, values)
    others = _others(values, seat)
    return values[seat] - sum(others) / len(others)


def _mix_margin(state: SimState, seat: int, values: Sequence[float]) -> float:
    if state.seats == 4:
        return rollout_module.margin(state, seat, values)
    others = _others(values, seat)
    return values[seat] - 0.5 * max(others) - 0.5 * sum(others) / len(others)


def main() -> None:
    """Run the chosen variant's games and save them as bench_ai JSON."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--variant",
        choices=(
            "oracle",
            "mean",
            "mix",
            "reply",
            "own",
            "both",
            "discards",
            "model",
            "model-own-normal",
            "model-others-normal",
            "model-others-reseeded",
            "learned",
        ),
        required=True,
    )
    parser.add_argument("--model", help="the learned variant's model (value_model.py fit)")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--expert-budget", help="ExpertBudget fields as JSON")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    budget = json.loads(args.expert_budget) if args.expert_budget else None
    if args.variant == "oracle":
        _oracle()
    elif args.variant in ("reply", "own", "both"):
        reply = _searched_reply if args.variant != "own" else None
        own = _searched_reply if args.variant != "reply" else None
        _rollouts(rollout_module.margin, reply, own)
    elif args.variant == "discards":
        _rollouts(rollout_module.margin, discards=True)
    elif args.variant == "model":
        _model()
    elif args.variant == "model-own-normal":
        _model(own=AiLevel.NORMAL)
    elif args.variant == "model-others-normal":
        _model(others=AiLevel.NORMAL)
    elif args.variant == "model-others-reseeded":
        _model(reseed=104_729)
    elif args.variant == "learned":
        if not args.model:
            parser.error("--variant learned needs --model")
        _learned(args.model)
    else:
        _rollouts(_mean_margin if args.variant == "mean" else _mix_margin)
    results = [
        play_one(("expert", "hard", args.seats, i, args.seed, None, budget))
        for i in range(args.first, args.first + args.games)
    ]
    Path(args.out).write_text(json.dumps(results))
    wins = sum(r["a_won"] for r in results)
    print(f"{args.variant}: {wins}/{len(results)} won by the expert")


if __name__ == "__main__":
    main()
