"""A compact, mutable model of one Hats position, for fast AI search (R7–R20).

The engine's :class:`~engine.game.Game` records steps, events and turns for the store; an AI's
search plays thousands of hypothetical continuations and needs none of that. :class:`SimState`
holds one position with cards as ints (``Card.id``, 0–41) and applies main actions, discards,
partner swaps and turn ends by the same rules (R7–R14), and scores the end (R15–R20).
``tests/ai`` plays random games through both and checks they agree step by step.

A SimState is a *determinization*: every card has a place, including cards its owner's
opponents cannot see. AIs only ever build one from their own observation (see
:mod:`engine.ai.determinize`), never from a Game.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence

from engine.cards import ALL_CARDS
from engine.config import TURNS_PER_SEAT
from engine.scoring import COOKIE_POINTS

__all__ = [
    "NO_SEAT",
    "NUM_TYPES",
    "TYPE_OF",
    "VALUE_OF",
    "SimState",
    "cookie_after",
    "worth_of",
]

NUM_TYPES = 7
"""Hat types (R1); type indexes are ``HatType.index``."""
TYPE_OF: tuple[int, ...] = tuple(c.type.index for c in ALL_CARDS)
"""Type index 0–6 of each card id (R1)."""
VALUE_OF: tuple[int, ...] = tuple(c.value for c in ALL_CARDS)
"""Value 1–6 of each card id (R1)."""
NO_SEAT = -1
"""Stands for "nobody" (the cookie on the napkin, R13)."""
_END_MARK = 7  # above every card value: a value list that ends loses the R13 comparison


def worth_of(board: Sequence[int]) -> list[int]:
    """Per type index, the slot (1-based) its R16 points come from after the R15 clean-up.

    That is the lowest slot showing the type, or 0 when the type is not on the board.
    """
    worth = [0] * NUM_TYPES
    for slot, card in enumerate(board, 1):
        t = TYPE_OF[card]
        if not worth[t]:
            worth[t] = slot
    return worth


def cookie_after(
    distinct: Sequence[int],
    values: Sequence[Sequence[int]],
    holder: int,
) -> int:
    """The cookie's holder from the collections (R13), as :func:`engine.cookie.cookie_holder`.

    ``distinct[s]``: distinct types of seat s (black hats together count as one);
    ``values[s]``: seat s's face-up collection values in ascending order; ``holder``: the
    seat holding it before the step, or :data:`NO_SEAT`. Returns a seat or NO_SEAT.

    Ties on types compare the sorted values position by position, the lower value winning
    and a seat that runs out of values losing: that is the order of the value lists with an
    end marker above every value appended.
    """
    best = 0
    tied: list[int] = []
    for seat, n in enumerate(distinct):
        if n == 0 or n < best:
            continue
        if n > best:
            best = n
            tied = [seat]
        else:
            tied.append(seat)
    if len(tied) <= 1:
        return tied[0] if tied else NO_SEAT
    keys = [[*values[s], _END_MARK] for s in tied]
    low = min(keys)
    tied = [s for s, key in zip(tied, keys, strict=True) if key == low]
    if len(tied) == 1:
        return tied[0]
    return holder if holder in tied else NO_SEAT


class SimState:
    """One fully known position; mutated in place by the ``do_*`` methods (R7–R14).

    Fields (cards are ids 0–41, type indexes 0–6, seats 0-based):
    ``seats``; ``board`` (slot 1 first); ``hands`` per seat; ``counts[s][t]`` and
    ``sums[s][t]``: how many face-up collection cards of type t seat s has and their value
    sum; ``values[s]``: seat s's face-up values, ascending; ``blacks[s]``: black hat count;
    ``distinct[s]``: distinct types for R13; ``deck`` with the next card LAST;
    ``discard``; ``cookie`` (a seat or NO_SEAT); ``active``; ``turns_done`` (turns finished
    by all seats together); ``main_done``/``optional_used`` for the current turn; ``rng``
    shuffles the discard pile when a draw finds the deck empty (R9).

    The ``do_*`` methods trust their input (the caller picks legal actions).
    """

    __slots__ = (
        "active",
        "blacks",
        "board",
        "cookie",
        "counts",
        "deck",
        "discard",
        "distinct",
        "hands",
        "main_done",
        "optional_used",
        "rng",
        "seats",
        "sums",
        "turns_done",
        "values",
    )

    def __init__(
        self,
        seats: int,
        board: list[int],
        hands: list[list[int]],
        collections: Sequence[Sequence[int]],
        blacks: list[int],
        deck: list[int],
        discard: list[int],
        cookie: int,
        active: int,
        turns_done: int,
        main_done: bool,
        optional_used: bool,
        rng: random.Random,
    ) -> None:
        """Build from per-seat face-up ``collections`` (card ids); ``deck`` is next card last."""
        self.seats = seats
        self.board = board
        self.hands = hands
        self.counts = [[0] * NUM_TYPES for _ in range(seats)]
        self.sums = [[0] * NUM_TYPES for _ in range(seats)]
        self.values: list[list[int]] = [[] for _ in range(seats)]
        for seat, cards in enumerate(collections):
            for card in cards:
                t = TYPE_OF[card]
                self.counts[seat][t] += 1
                self.sums[seat][t] += VALUE_OF[card]
                self.values[seat].append(VALUE_OF[card])
        for vals in self.values:
            vals.sort()
        self.blacks = blacks
        self.distinct = [
            sum(1 for n in self.counts[s] if n) + (1 if blacks[s] else 0) for s in range(seats)
        ]
        self.deck = deck
        self.discard = discard
        self.cookie = cookie
        self.active = active
        self.turns_done = turns_done
        self.main_done = main_done
        self.optional_used = optional_used
        self.rng = rng

    def copy(self, rng: random.Random | None = None) -> SimState:
        """An independent copy (``rng`` replaces the reshuffle RNG when given)."""
        new = SimState.__new__(SimState)
        new.seats = self.seats
        new.board = self.board[:]
        new.hands = [h[:] for h in self.hands]
        new.counts = [c[:] for c in self.counts]
        new.sums = [c[:] for c in self.sums]
        new.values = [v[:] for v in self.values]
        new.blacks = self.blacks[:]
        new.distinct = self.distinct[:]
        new.deck = self.deck[:]
        new.discard = self.discard[:]
        new.cookie = self.cookie
        new.active = self.active
        new.turns_done = self.turns_done
        new.main_done = self.main_done
        new.optional_used = self.optional_used
        new.rng = rng if rng is not None else self.rng
        return new

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        """True once every seat has taken its 8 turns (R14)."""
        return self.turns_done >= TURNS_PER_SEAT * self.seats

    def team_of(self, seat: int) -> tuple[int, ...]:
        """``seat`` and, with 4 seats, its partner (R5)."""
        return (seat, (seat + 2) % 4) if self.seats == 4 else (seat,)

    # ------------------------------------------------------------------ actions
    def _collect(self, seat: int, card: int) -> None:
        t = TYPE_OF[card]
        counts = self.counts[seat]
        if not counts[t]:
            self.distinct[seat] += 1
        counts[t] += 1
        self.sums[seat][t] += VALUE_OF[card]
        insort(self.values[seat], VALUE_OF[card])
        self.cookie = cookie_after(self.distinct, self.values, self.cookie)

    def do_exchange(self, card: int, slot: int) -> None:
        """The active seat plays ``card`` on ``slot`` (1-based) and takes its card (R7, R13)."""
        seat = self.active
        self.hands[seat].remove(card)
        taken = self.board[slot - 1]
        self.board[slot - 1] = card
        self.main_done = True
        self._collect(seat, taken)

    def do_black_hat(self, card: int) -> None:
        """The active seat plays ``card`` face down as a black hat (R8, R13)."""
        seat = self.active
        self.hands[seat].remove(card)
        if not self.blacks[seat]:
            self.distinct[seat] += 1
        self.blacks[seat] += 1
        self.main_done = True
        self.cookie = cookie_after(self.distinct, self.values, self.cookie)

    def do_discard(self, card: int) -> int:
        """The active seat discards ``card`` and draws (R9, reshuffling first if needed).

        Returns the card drawn.
        """
        hand = self.hands[self.active]
        hand.remove(card)
        self.discard.append(card)
        if not self.deck:
            pile = self.discard
            self.rng.shuffle(pile)
            pile.reverse()  # the deck's next card is last
            self.deck = pile
            self.discard = []
        drew = self.deck.pop()
        hand.append(drew)
        self.optional_used = True
        return drew

    def do_swap(self, given: int, received: int) -> None:
        """The active seat gives ``given`` to its partner and gets ``received`` back (R10)."""
        seat = self.active
        partner = (seat + 2) % 4
        self.hands[seat].remove(given)
        self.hands[partner].remove(received)
        self.hands[seat].append(received)
        self.hands[partner].append(given)
        self.optional_used = True

    def end_turn(self) -> None:
        """Close the active seat's turn and pass to the next seat (R11, R14)."""
        self.turns_done += 1
        self.main_done = False
        self.optional_used = False
        self.active = (self.active + 1) % self.seats

    # ------------------------------------------------------------------ the end
    def collection_points(self, seat: int, worth: Sequence[int]) -> int:
        """``seat``'s hat collection score on a board of ``worth`` (:func:`worth_of`), R16.

        Each face-up collection card scores its type's worth, each black hat 1.
        """
        counts = self.counts[seat]
        return self.blacks[seat] + sum(counts[t] * worth[t] for t in range(NUM_TYPES))

    def totals(self) -> list[int]:
        """Each seat's total (R15–R19) once over: collection + favourite + cookie."""
        worth = worth_of(self.board)
        out = []
        for seat in range(self.seats):
            total = self.collection_points(seat, worth)
            fav = self.hands[seat][0]
            total += self.sums[seat][TYPE_OF[fav]] - VALUE_OF[fav]
            if self.cookie == seat:
                total += COOKIE_POINTS
            out.append(total)
        return out

    def winners(self, totals: Sequence[int]) -> list[int]:
        """The winning seats (R19; teams R20) for the end ``totals``; shared wins list all."""
        if self.seats == 4:
            teams = ((0, 2), (1, 3))
            keys = [sum(totals[s] for s in team) for team in teams]
            blacks = [sum(self.blacks[s] for s in team) for team in teams]
            cookie = [self.cookie in team for team in teams]
        else:
            teams = tuple((s,) for s in range(self.seats))
            keys = list(totals)
            blacks = self.blacks
            cookie = [self.cookie == s for s in range(self.seats)]
        best = max(keys)
        tied = [i for i, k in enumerate(keys) if k == best]
        if len(tied) > 1:
            most = max(blacks[i] for i in tied)
            tied = [i for i in tied if blacks[i] == most]
        if len(tied) > 1:
            holders = [i for i in tied if cookie[i]]
            if holders:
                tied = holders
        return sorted(s for i in tied for s in teams[i])
