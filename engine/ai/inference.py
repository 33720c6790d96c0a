"""Reading the other seats' hands from what they did in public (the expert AI's inference).

Every main action is public ("Who may see what"): an exchange shows the card played, the slot
and the card taken from the tea table (R7); a black hat shows that one was made (R8). A seat
that left a good exchange on the table probably could not make it. :class:`HandReader` turns
that into a weight for a sampled deal (:func:`engine.ai.determinize.deal`): how likely the other
seats' past main actions were had they held the sampled cards, for a player who chooses among
its few best moves by greedy gain (:class:`~engine.ai.evaluate.Evaluator`). The model is a
rank model, not a softmax over the gains: a searching player (the hard AI picks among its top
five greedy moves nearly evenly, BENCHMARKS.md) is badly described by the gains' sizes, but
rarely makes a move far down the list. A move ranked within the ``top`` costs nothing; each
rank below costs ``slope`` in log-likelihood.

A seat's hand at a past main action is read back from a sampled deal as its sampled hand now
plus the cards it played since (exchanges: public; black hats: their sampled faces). Cards it
discarded and drew since (R9) or swapped (R10) are unknown to the viewer and left out: the
hand has the right size, and most of its cards. Only the viewer's observation is read.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from engine.actions import ActionKind
from engine.ai.evaluate import BLACK_HAT_SLOT, Evaluator
from engine.ai.sim import NO_SEAT, SimState
from engine.observation import Observation

__all__ = ["HandReader"]


@dataclass(slots=True)
class _Moment:
    """One past main action of another seat, with the public position just before it."""

    seat: int
    evaluator: Evaluator
    card: int  # the exchanged card, or -1 for a black hat (face hidden)
    slot: int  # BLACK_HAT_SLOT for a black hat
    black_index: int  # for a black hat: which of the seat's black hats (0 = first made)
    played_later: list[int]  # exchange cards the seat played after this one
    blacks_later: int  # black hats the seat made after this one


class HandReader:
    """Weighs sampled deals by the other seats' public main actions (see the module docstring).

    ``obs``: the viewer's observation; ``spite``: the greedy model's weight of the
    opponents' gains (as :class:`~engine.ai.evaluate.Evaluator`); ``top``: how many of its
    best moves a player is taken to choose among; ``slope``: log-likelihood lost per rank
    below those. Raises ValueError for the public view, ``top`` < 1 or a negative slope.
    """

    def __init__(self, obs: Observation, spite: float, top: int, slope: float) -> None:
        """Rebuild the public position before every main action of another seat."""
        if obs.viewer is None:
            raise ValueError("inference needs a seat's observation, not the public view")
        if top < 1 or slope < 0:
            raise ValueError("top must be at least 1 and slope not negative")
        self.viewer = obs.viewer
        self.top = top
        self.slope = slope
        seats = obs.seats
        board = [c.id for c in obs.board]
        collections = [[c.id for c in cards] for cards in obs.collections]
        blacks = list(obs.black_hat_counts)
        events = obs.events
        played_after: list[list[int]] = [[] for _ in range(seats)]
        blacks_after = [0] * seats
        moments: list[_Moment] = []
        rng = random.Random(0)  # unused: these positions never draw
        for i in range(len(events) - 1, -1, -1):  # undo the events, last first
            event = events[i]
            seat = event.seat
            if event.kind is ActionKind.EXCHANGE:
                assert event.slot is not None and event.took is not None and event.card is not None
                board[event.slot - 1] = event.took.id
                collections[seat].remove(event.took.id)
                card, slot = event.card.id, event.slot
            elif event.kind is ActionKind.BLACK_HAT:
                blacks[seat] -= 1
                card, slot = -1, BLACK_HAT_SLOT
            else:
                continue
            if seat != self.viewer:
                before = events[i - 1].cookie if i else None
                state = SimState(
                    seats=seats,
                    board=board[:],
                    hands=[[] for _ in range(seats)],
                    collections=collections,
                    blacks=blacks[:],
                    deck=[],
                    discard=[],
                    cookie=NO_SEAT if before is None else before,
                    active=seat,
                    turns_done=0,
                    main_done=False,
                    optional_used=False,
                    rng=rng,
                )
                moments.append(
                    _Moment(
                        seat=seat,
                        evaluator=Evaluator(state, seat, spite),
                        card=card,
                        slot=slot,
                        black_index=blacks[seat],
                        played_later=played_after[seat][:],
                        blacks_later=blacks_after[seat],
                    )
                )
            if card >= 0:
                played_after[seat].append(card)
            else:
                blacks_after[seat] += 1
        self._moments = moments

    @property
    def moments(self) -> int:
        """How many past main actions of other seats are read."""
        return len(self._moments)

    def log_weight(self, state: SimState, faces: list[list[int]]) -> float:
        """Log-likelihood of the other seats' past main actions in the sampled deal.

        ``state``/``faces``: a deal from :func:`engine.ai.determinize.deal`. Returns a
        number ≤ 0 (0 when nothing was read), −inf when a past action was impossible with the
        sampled cards; only differences between deals matter.
        """
        total = 0.0
        top, slope = self.top, self.slope
        for m in self._moments:
            seat_faces = faces[m.seat]
            played = m.card
            if played < 0:
                if m.black_index >= len(seat_faces):
                    continue
                played = seat_faces[m.black_index]
            hand = state.hands[m.seat] + m.played_later
            hand += seat_faces[len(seat_faces) - m.blacks_later :] if m.blacks_later else []
            hand.append(played)
            ev = m.evaluator
            ev.set_hand(hand)
            gains = ev.main_gains()
            chosen = None
            for gain, card, slot in gains:
                if card == played and slot == m.slot:
                    chosen = gain
                    break
            if chosen is None:  # not a legal move with this hand: the deal is impossible
                return -math.inf
            better = sum(1 for g in gains if g[0] > chosen + 1e-9)
            if better >= top:
                total -= slope * (better - top + 1)
        return total
