"""What one seat knows about the cards it cannot see, from its observation alone.

Hidden from a seat ("Who may see what"): the other seats' hands and black hats, the draw deck,
the discard pile. Some of those cards' places are still known to it from its own events:
the cards it discarded since the last reshuffle lie in the discard pile (R9), and the cards it
gave its partner in a swap are in the partner's hand or black hats (R10, R12: cards leave a
player only by a swap with the partner). Everything else hidden is equally likely anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import ActionKind
from engine.cards import ALL_CARDS
from engine.observation import Observation

__all__ = ["Knowledge", "knowledge_of"]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden cards of an observation and the known places of some of them.

    ``viewer``: the seat. ``unknown``: card ids (0–41, ascending) the viewer cannot see, all
    in play (R3). ``in_discard``: unknown ids known to lie in the discard pile.
    ``with_partner``: unknown ids known to be in the partner's hand or black hats (4 seats).
    """

    viewer: int
    unknown: tuple[int, ...]
    in_discard: frozenset[int]
    with_partner: frozenset[int]


def knowledge_of(obs: Observation) -> Knowledge:
    """Read the viewer's :class:`Knowledge` from its observation.

    Raises ValueError for the public view (``viewer`` None): there is no seat to know for.
    """
    viewer = obs.viewer
    if viewer is None or obs.hand is None or obs.own_black_hats is None:
        raise ValueError("knowledge needs a seat's observation, not the public view")
    types = set(obs.types)
    visible: set[int] = {c.id for c in obs.board}
    visible.update(c.id for c in obs.hand)
    visible.update(c.id for c in obs.own_black_hats)
    for cards in obs.collections:
        visible.update(c.id for c in cards)
    unknown = tuple(c.id for c in ALL_CARDS if c.type in types and c.id not in visible)
    in_discard: set[int] = set()
    given: set[int] = set()
    for event in obs.events:
        kind = event.kind
        if kind is ActionKind.DISCARD:
            if event.reshuffled:  # the pile, this card included, became the deck (R9)
                in_discard.clear()
            elif event.seat == viewer and event.card is not None:
                in_discard.add(event.card.id)
        elif kind is ActionKind.ANSWER_SWAP:
            if event.seat == viewer and event.card is not None:
                given.add(event.card.id)  # the viewer answered with this card
            elif event.partner == viewer and event.received is not None:
                given.add(event.received.id)  # the viewer offered this card
    hidden = set(unknown)  # a card given and later seen again is no longer hidden
    return Knowledge(
        viewer=viewer,
        unknown=unknown,
        in_discard=frozenset(in_discard & hidden),
        with_partner=frozenset(given & hidden),
    )
