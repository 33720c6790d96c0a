"""A hint for the seat to move: the AI's move for that seat, and the gain it aims for.

The hint sees only the asking seat's observation (the AI never sees the game), so it cannot
leak a hidden card. The move comes from :data:`HINT_LEVEL`'s AI with a seed of the caller's
choice, so the same question gets the same answer; the gain is the change in the seat's
expected score that the greedy evaluator gives that move (collection points by board slot,
R16; the cookie, R13/R18; the favourite hat estimate, R17), rounded to whole points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Action, BlackHat, Exchange, Observation
from engine.ai import AiLevel, make_ai
from engine.ai.determinize import public_state
from engine.ai.evaluate import BLACK_HAT_SLOT, Evaluator

__all__ = ["HINT_LEVEL", "Hint", "suggest"]

HINT_LEVEL = AiLevel.HARD
"""The AI level whose move a hint suggests (the strongest level the engine has)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move for the asking seat.

    ``action``: one of the seat's legal actions; ``gain``: the expected-score change it aims
    for (points, rounded; None for moves without one, such as ending the turn).
    """

    action: Action
    gain: int | None


def _main_gain(obs: Observation, action: Action) -> int | None:
    """The evaluator's gain of a main action (R7, R8) for the observation's seat."""
    if isinstance(action, Exchange):
        key = (action.card.id, action.slot)
    elif isinstance(action, BlackHat):
        key = (action.card.id, BLACK_HAT_SLOT)
    else:
        return None
    assert obs.viewer is not None
    for gain, card, slot in Evaluator(public_state(obs), obs.viewer).main_gains():
        if (card, slot) == key:
            return round(gain)
    return None


def suggest(obs: Observation, legal: Sequence[Action], *, seed: int) -> Hint:
    """The hint for the seat whose observation ``obs`` is, among its ``legal`` actions.

    ``seed`` makes the AI's choice repeatable. Raises ValueError when ``obs`` is the public
    view or ``legal`` is empty (nothing to suggest).
    """
    if obs.viewer is None or not legal:
        raise ValueError("a hint needs a seat that has something to do")
    action = make_ai(HINT_LEVEL, seed).choose(obs, legal)
    return Hint(action, _main_gain(obs, action) if action.kind.is_main else None)
