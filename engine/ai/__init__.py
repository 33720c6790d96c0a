"""AI players for empty seats: easy, normal and hard.

An AI sees only its seat's observation (``game.observation(seat)``) and the seat's legal
actions, never the game itself ("Who may see what"). Usage, for the seat that must act::

    ai = make_ai(AiLevel.HARD, seed=1234)
    action = ai.choose(game.observation(seat), game.legal_actions(seat))
    game.apply(seat, action)

This covers swap answers too: while a partner swap offer waits (R10), ``game.to_move`` is the
partner and its legal actions are the answers and the decline. A choice is a function of
(level, seed, observation): the same on a fresh AI or a long-lived one.
"""

from __future__ import annotations

import enum

from engine.ai.base import Player
from engine.ai.easy import EasyAi
from engine.ai.hard import HardAi, HardBudget
from engine.ai.normal import NormalAi

__all__ = ["AiLevel", "EasyAi", "HardAi", "HardBudget", "NormalAi", "Player", "make_ai"]


class AiLevel(enum.StrEnum):
    """How strong an AI plays."""

    EASY = "easy"  # random among sensible moves
    NORMAL = "normal"  # greedy on the immediate change of its expected score
    HARD = "hard"  # determinized Monte Carlo rollouts


def make_ai(level: AiLevel | str, seed: int, *, budget: HardBudget | None = None) -> Player:
    """A new AI of ``level`` whose random choices all come from ``seed``.

    ``budget`` tunes the hard level's search (ignored by the others). Raises ValueError for an
    unknown level.
    """
    level = AiLevel(level)
    if level is AiLevel.EASY:
        return EasyAi(seed)
    if level is AiLevel.NORMAL:
        return NormalAi(seed)
    return HardAi(seed, budget)
