"""Explicit chance: every random event of a game goes through one chance source (R3, R4, R6, R9).

:class:`SeededChance` draws from one ``random.Random`` built from the game's seed, so a game is
rebuilt exactly from its config, seed and steps. :class:`ScriptedChance` replays reshuffles
written in a game record.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from engine.cards import Card, HatType

__all__ = ["ChanceSource", "ScriptedChance", "SeededChance"]


class ChanceSource(Protocol):
    """Where a game's randomness comes from."""

    def shuffle(self, cards: Sequence[Card]) -> list[Card]:
        """Return ``cards`` in a new random order (next card to draw first)."""
        ...


class SeededChance:
    """All of one game's chance from a single seeded RNG (no global random).

    The order of draws is fixed: removed types (2 seats), the deck shuffle, the start seat
    (always drawn, even when the config picks it), then each reshuffle (R9) as it happens.
    """

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def removed_types(self, count: int) -> list[HatType]:
        """Pick ``count`` hat types to remove (R3)."""
        return self._rng.sample(list(HatType), count)

    def shuffle(self, cards: Sequence[Card]) -> list[Card]:
        """A new list with ``cards`` shuffled (R4, R9)."""
        out = list(cards)
        self._rng.shuffle(out)
        return out

    def order(self, n: int) -> bytes:
        """The order a shuffle of ``n`` cards would take now, as indexes (R9); n ≤ 256.

        Draws what :meth:`shuffle` of ``n`` cards draws: ``[cards[i] for i in order(n)]``
        equals ``shuffle(cards)`` from the same state (the swaps never look at the cards).
        """
        out = list(range(n))
        self._rng.shuffle(out)
        return bytes(out)

    def seat(self, seats: int) -> int:
        """A seat drawn uniformly from ``0..seats-1`` (R6)."""
        return self._rng.randrange(seats)


class ScriptedChance:
    """Replays known reshuffles in order (from a ``hats-record/1`` record).

    Raises ValueError when asked for a shuffle it does not have, or when the scripted order
    is not a permutation of the cards shuffled.
    """

    def __init__(self, orders: Sequence[Sequence[Card]]) -> None:
        self._orders = [list(o) for o in orders]

    def shuffle(self, cards: Sequence[Card]) -> list[Card]:
        """The next scripted order; it must hold exactly ``cards``."""
        if not self._orders:
            raise ValueError("the record has no reshuffle for this discard")
        order = self._orders.pop(0)
        if sorted(c.id for c in order) != sorted(c.id for c in cards):
            raise ValueError("a recorded reshuffle does not hold the discard pile's cards")
        return order
