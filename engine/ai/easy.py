"""The easy AI: random among sensible legal moves.

Sensible means: a main action (R7, R8) that does not lose points at once when one exists
(exchanges far more often than black hats); the optional action (R9, R10) only now and then,
with a random card; never withdrawing an offer unless that is the only move; a swap offer
answered with a random card most of the time, declined otherwise (R10).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, ActionKind
from engine.ai.base import check_inputs, decision_rng, offer_refused_this_turn
from engine.ai.determinize import public_state
from engine.ai.evaluate import BLACK_HAT_SLOT, Evaluator
from engine.observation import Observation

__all__ = ["EasyAi"]

OPTIONAL_FIRST = 0.08
"""Chance of using the optional action before the main action."""
OPTIONAL_AFTER = 0.12
"""Chance of using the optional action after the main action instead of ending the turn."""
BLACK_HAT_SHARE = 0.15
"""Chance of picking a black hat rather than an exchange when both are sensible."""
ANSWER_SHARE = 0.75
"""Chance of answering a swap offer rather than declining."""


class EasyAi:
    """The easy level (see the module docstring); ``seed`` drives every random pick."""

    level = "easy"

    def __init__(self, seed: int) -> None:
        """An AI whose choices depend only on ``seed`` and the observation."""
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """Pick an action of ``legal`` (see :class:`engine.ai.base.Player`)."""
        viewer = check_inputs(observation, legal)
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self._rng, self.seed, observation)
        by_kind: dict[ActionKind, list[Action]] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        answers = by_kind.get(ActionKind.ANSWER_SWAP)
        if ActionKind.DECLINE_SWAP in by_kind:
            if answers and rng.random() < ANSWER_SHARE:
                return rng.choice(answers)
            return by_kind[ActionKind.DECLINE_SWAP][0]
        optional = by_kind.get(ActionKind.DISCARD)
        if not optional and not offer_refused_this_turn(observation):
            optional = by_kind.get(ActionKind.OFFER_SWAP)
        if not observation.main_done:
            if optional and rng.random() < OPTIONAL_FIRST:
                return rng.choice(optional)
            return self._main(observation, viewer, legal, rng)
        if optional and rng.random() < OPTIONAL_AFTER:
            return rng.choice(optional)
        return by_kind.get(ActionKind.END_TURN, legal)[0]

    @staticmethod
    def _main(
        observation: Observation, viewer: int, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        gains = Evaluator(public_state(observation), viewer).main_gains()
        fine = {(card, slot) for gain, card, slot in gains if gain >= 0}
        exchanges = []
        black_hats = []
        for action in legal:
            if action.kind is ActionKind.EXCHANGE:
                if (action.card.id, action.slot) in fine:
                    exchanges.append(action)
            elif action.kind is ActionKind.BLACK_HAT and (action.card.id, BLACK_HAT_SLOT) in fine:
                black_hats.append(action)
        if exchanges and (not black_hats or rng.random() >= BLACK_HAT_SHARE):
            return rng.choice(exchanges)
        if black_hats:
            return rng.choice(black_hats)
        mains = [a for a in legal if a.kind.is_main]
        return rng.choice(mains or list(legal))
