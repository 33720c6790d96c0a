"""Positions an AI may reason about, built from its observation only.

:func:`public_state` is the observation as a :class:`~engine.ai.sim.SimState` with the other
seats' hidden cards left out (enough to evaluate the viewer's own moves). :func:`determinize`
deals every hidden card a place: a uniform sample among the positions that agree with the
observation (sizes of hands, black hats, deck and discard pile) and with what the viewer knows
of some cards' places (:mod:`engine.ai.knowledge`). Searching many such samples is how the hard
AI plays without seeing the hidden cards (determinized Monte Carlo).
"""

from __future__ import annotations

import random

from engine.ai.knowledge import Knowledge, knowledge_of
from engine.ai.sim import NO_SEAT, SimState
from engine.observation import Observation

__all__ = ["deal", "determinize", "public_state"]


def _require_seat(obs: Observation) -> int:
    if obs.viewer is None or obs.hand is None:
        raise ValueError("an AI needs a seat's observation, not the public view")
    return obs.viewer


def public_state(obs: Observation) -> SimState:
    """The observation as a SimState: public cards and the viewer's own hand.

    The other seats' hands, the deck and the discard pile are left empty: use it only to
    evaluate the viewer's own moves. Raises ValueError for the public view.
    """
    viewer = _require_seat(obs)
    hands: list[list[int]] = [[] for _ in range(obs.seats)]
    hands[viewer] = [c.id for c in obs.hand or ()]
    return SimState(
        seats=obs.seats,
        board=[c.id for c in obs.board],
        hands=hands,
        collections=[[c.id for c in cards] for cards in obs.collections],
        blacks=list(obs.black_hat_counts),
        deck=[],
        discard=[],
        cookie=NO_SEAT if obs.cookie is None else obs.cookie,
        active=obs.active_seat,
        turns_done=sum(obs.turns_taken),
        main_done=obs.main_done,
        optional_used=obs.optional_used,
        rng=random.Random(0),
    )


def determinize(
    obs: Observation, rng: random.Random, knowledge: Knowledge | None = None
) -> SimState:
    """A full position consistent with ``obs``, hidden cards placed at random by ``rng``.

    Every other seat gets as many hand cards and black hats as ``obs`` shows (their black hat
    faces are sampled too), the deck and discard pile their sizes; cards known to be in the
    discard pile or with the partner are put there (``knowledge``, read from ``obs`` when
    None). The deck's order is random; the result's own reshuffle RNG is drawn from ``rng``.
    Raises ValueError for the public view or when the counts do not add up.
    """
    return deal(obs, rng, knowledge)[0]


def deal(
    obs: Observation, rng: random.Random, knowledge: Knowledge | None = None
) -> tuple[SimState, list[list[int]]]:
    """:func:`determinize`, and the sampled faces of every seat's black hats (R8).

    The second item has one list per seat (card ids; the viewer's own faces as it knows
    them), in no particular order. Draws from ``rng`` exactly as :func:`determinize`.
    """
    viewer = _require_seat(obs)
    know = knowledge if knowledge is not None else knowledge_of(obs)
    seats = obs.seats
    partner = (viewer + 2) % 4 if seats == 4 else None
    free = [c for c in know.unknown if c not in know.in_discard and c not in know.with_partner]
    rng.shuffle(free)

    def take(count: int) -> list[int]:
        if count > len(free):
            raise ValueError("the observation's counts do not match its hidden cards")
        out = free[len(free) - count :]
        del free[len(free) - count :]
        return out

    discard = sorted(know.in_discard)[: obs.discard_size]
    discard += take(obs.discard_size - len(discard))
    hands: list[list[int]] = [[] for _ in range(seats)]
    hands[viewer] = [c.id for c in obs.hand or ()]
    blacks = list(obs.black_hat_counts)
    faces: list[list[int]] = [[] for _ in range(seats)]
    faces[viewer] = [c.id for c in obs.own_black_hats or ()]
    for seat in range(seats):
        if seat == viewer:
            continue
        size = obs.hand_sizes[seat]
        hidden = size + blacks[seat]
        if seat == partner:
            known = sorted(know.with_partner)[:hidden]
            cards = known + take(hidden - len(known))
            rng.shuffle(cards)
        else:
            cards = take(hidden)
        hands[seat] = cards[:size]
        faces[seat] = cards[size:]  # the rest are this seat's black hats
    deck = take(obs.deck_size)
    if free:
        raise ValueError("the observation's counts do not match its hidden cards")
    state = SimState(
        seats=seats,
        board=[c.id for c in obs.board],
        hands=hands,
        collections=[[c.id for c in cards] for cards in obs.collections],
        blacks=blacks,
        deck=deck,
        discard=discard,
        cookie=NO_SEAT if obs.cookie is None else obs.cookie,
        active=obs.active_seat,
        turns_done=sum(obs.turns_taken),
        main_done=obs.main_done,
        optional_used=obs.optional_used,
        rng=random.Random(rng.getrandbits(64)),
    )
    return state, faces
