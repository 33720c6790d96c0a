"""AI players for empty seats: easy, normal, hard and expert.

An AI sees only its seat's observation (``game.observation(seat)``) and the seat's legal
actions, never the game itself ("Who may see what"). Usage, for the seat that must act::

    ai = make_ai(AiLevel.HARD, seed=1234)
    action = ai.choose(game.observation(seat), game.legal_actions(seat))
    game.apply(seat, action)

:func:`decide` does the same from the observation alone (its legal actions included), for a
process pool: its arguments and result pickle.

This covers swap answers too: while a partner swap offer waits (R10), ``game.to_move`` is the
partner and its legal actions are the answers and the decline. A choice is a function of
(level, seed, observation): the same on a fresh AI or a long-lived one.
"""

from __future__ import annotations

import enum

from engine.actions import Action
from engine.ai.base import Player
from engine.ai.easy import EasyAi
from engine.ai.expert import ExpertAi, ExpertBudget
from engine.ai.hard import HardAi, HardBudget
from engine.ai.normal import NormalAi
from engine.observation import Observation

__all__ = [
    "AiLevel",
    "EasyAi",
    "ExpertAi",
    "ExpertBudget",
    "HardAi",
    "HardBudget",
    "NormalAi",
    "Player",
    "decide",
    "make_ai",
]


class AiLevel(enum.StrEnum):
    """How strong an AI plays."""

    EASY = "easy"  # random among sensible moves
    NORMAL = "normal"  # greedy on the immediate change of its expected score
    HARD = "hard"  # determinized Monte Carlo rollouts
    EXPERT = "expert"  # weighted determinized search with sequential halving, whole games


def make_ai(
    level: AiLevel | str,
    seed: int,
    *,
    budget: HardBudget | ExpertBudget | None = None,
) -> Player:
    """A new AI of ``level`` whose random choices all come from ``seed``.

    ``budget`` tunes a searching level: a HardBudget the hard level, an ExpertBudget the
    expert; the other levels, and a level handed the other kind of budget, ignore it (so one
    call can build every seat of a game). Raises ValueError for an unknown level.
    """
    level = AiLevel(level)
    if level is AiLevel.EASY:
        return EasyAi(seed)
    if level is AiLevel.NORMAL:
        return NormalAi(seed)
    if level is AiLevel.HARD:
        return HardAi(seed, budget if isinstance(budget, HardBudget) else None)
    return ExpertAi(seed, budget if isinstance(budget, ExpertBudget) else None)


def decide(
    level: AiLevel | str,
    seed: int,
    observation: Observation,
    budget: HardBudget | ExpertBudget | None = None,
) -> Action:
    """The choice of a fresh AI (:func:`make_ai` of the same arguments) for ``observation``.

    ``observation`` is ``game.observation(seat)`` of the seat that must act; the legal
    actions are read from it (:meth:`Observation.legal_actions`). A pure function of its
    arguments, all picklable, so a process pool can run it. Raises ValueError for an unknown
    level or when the seat cannot act.
    """
    return make_ai(level, seed, budget=budget).choose(observation, observation.legal_actions())
