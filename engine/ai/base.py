"""Shared pieces of the AI players: the player protocol, per-decision RNG, action lookup."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from engine.actions import Action, ActionKind
from engine.observation import Observation

__all__ = ["ActionIndex", "Player", "check_inputs", "decision_rng", "offer_refused_this_turn"]


@runtime_checkable
class Player(Protocol):
    """An AI seat: picks one of ``legal`` from what its seat may see.

    ``observation`` is ``game.observation(seat)`` for the seat that must act
    (``game.to_move``); ``legal`` is ``game.legal_actions(seat)``. Returns one element of
    ``legal``. Raises TypeError when ``observation`` is not an Observation, ValueError when
    ``legal`` is empty or the observation is the public view.
    """

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """Pick the action to play."""
        ...


def check_inputs(observation: Observation, legal: Sequence[Action]) -> int:
    """Validate a ``choose`` call; returns the viewer seat.

    Raises TypeError when ``observation`` is not an :class:`Observation` (an AI is never
    handed the game itself), ValueError for the public view or an empty ``legal``.
    """
    if not isinstance(observation, Observation):
        raise TypeError(f"an AI takes its seat's Observation, not {type(observation).__name__}")
    if observation.viewer is None or observation.hand is None:
        raise ValueError("an AI needs its seat's observation, not the public view")
    if not legal:
        raise ValueError("no legal action to choose from")
    return observation.viewer


def decision_rng(rng: random.Random, seed: int, observation: Observation) -> random.Random:
    """Reseed ``rng`` for one decision and return it.

    The stream depends only on ``seed`` and where the observation stands (viewer, number of
    events, seat to move), so a choice is a function of (seed, observation): the same on a
    fresh AI or a long-lived one.
    """
    rng.seed(f"hats-ai/{seed}/{observation.viewer}/{len(observation.events)}/{observation.to_move}")
    return rng


def offer_refused_this_turn(observation: Observation) -> bool:
    """True when a swap offer was declined or withdrawn earlier in the current turn (R10).

    AIs do not offer again then: the partner already said no, and asking again would loop.
    """
    for event in reversed(observation.events):
        if event.turn_ended:
            return False
        if event.kind in (ActionKind.DECLINE_SWAP, ActionKind.WITHDRAW_SWAP):
            return True
    return False


class ActionIndex:
    """The legal actions by (kind, card id, slot), for quick lookup.

    Card id −1 and slot 0 stand in when an action has no card or no slot.
    """

    __slots__ = ("_by_key", "kinds")

    def __init__(self, legal: Sequence[Action]) -> None:
        """Index ``legal``."""
        self._by_key: dict[tuple[ActionKind, int, int], Action] = {}
        self.kinds: set[ActionKind] = set()
        for action in legal:
            card = getattr(action, "card", None)
            slot = getattr(action, "slot", 0)
            self._by_key[(action.kind, card.id if card is not None else -1, slot)] = action
            self.kinds.add(action.kind)

    def get(self, kind: ActionKind, card: int = -1, slot: int = 0) -> Action | None:
        """The legal action of that shape, or None."""
        return self._by_key.get((kind, card, slot))

    def main(self, card: int, slot: int) -> Action | None:
        """The exchange of ``card`` on ``slot`` (1-based), or its black hat when slot is 0."""
        if slot == 0:
            return self._by_key.get((ActionKind.BLACK_HAT, card, 0))
        return self._by_key.get((ActionKind.EXCHANGE, card, slot))
