"""Who sits at which table: round 1 by rating (snake order), later rounds Swiss.

A round is a tuple of tables, each a tuple of players (user ids), table 1 first. Sizes follow
:func:`tournament.table_sizes`. The Swiss search is a depth-first search over groupings in
standings order with a memo of groupings that cannot be completed; it is exact (a grouping
without repeat opponents is found whenever one exists) within :data:`SEARCH_BUDGET` visited
states, ample for 64 entrants over 7 rounds. CPU work: the service runs it in a pool.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations

from tournament.tables import table_sizes

__all__ = [
    "MAX_ENTRANTS",
    "MIN_ENTRANTS",
    "SEARCH_BUDGET",
    "Round",
    "Seeded",
    "first_round",
    "next_round",
    "repeated_pairs",
]

MIN_ENTRANTS = 3
"""Fewest entrants a tournament starts with."""
MAX_ENTRANTS = 64
"""Most entrants a tournament takes."""
SEARCH_BUDGET = 200_000
"""States the Swiss search may visit per number of allowed repeats before it allows one more."""

Round = tuple[tuple[int, ...], ...]
"""A round's tables, table 1 first; each table's players in standings (or seed) order."""


@dataclass(frozen=True, slots=True)
class Seeded:
    """An entrant as round 1 sees them.

    ``rating``: the server rating (higher is stronger; an ordinal, e.g. ``history.ratings``);
    ``provisional`` when it rests on too few games; ``signup`` (0 = first to join) breaks
    equal ratings.
    """

    player: int
    rating: float
    provisional: bool
    signup: int


def first_round(entrants: Sequence[Seeded]) -> Round:
    """Round 1: entrants by rating (provisional ratings last), dealt to the tables in a snake.

    Seeds 1..k go to tables 1..k, the next k to tables k..1, and so on (a full table is
    skipped), so each table gets a strong, a middle and a weaker player. Raises ValueError
    for fewer than 2 entrants or a player listed twice.
    """
    players = [e.player for e in entrants]
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    order = sorted(entrants, key=lambda e: (e.provisional, -e.rating, e.signup))
    sizes = table_sizes(len(order))
    tables: list[list[int]] = [[] for _ in sizes]
    forward = True
    queue = [e.player for e in order]
    while queue:
        indices = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for t in indices:
            if queue and len(tables[t]) < sizes[t]:
                tables[t].append(queue.pop(0))
        forward = not forward
    return tuple(tuple(t) for t in tables)


def repeated_pairs(tables: Round, met: Collection[frozenset[int]]) -> int:
    """How many pairs of players seated together in ``tables`` already met (``met``)."""
    return sum(1 for t in tables for a, b in combinations(t, 2) if frozenset((a, b)) in met)


def next_round(order: Sequence[int], met: Collection[frozenset[int]]) -> Round:
    """A later round: ``order`` (the players still in, standings order) grouped Swiss-style.

    The leader's table is filled first with the nearest players in the standings (equal
    scores sit together), and so on down; tables of 3 come before the tables of 2 where the
    search allows. No two players who already met (``met``: pairs as frozensets,
    :func:`tournament.opponents_met`) share a table when some grouping allows that; otherwise
    the fewest repeated pairs. Raises ValueError for fewer than 2 players or a player listed
    twice.
    """
    players = list(order)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    sizes = table_sizes(len(players))
    threes = sizes.count(3)
    twos = sizes.count(2)
    # conflict[i]: bitmask of the positions player i already met
    conflict = [0] * len(players)
    for i, a in enumerate(players):
        for j, b in enumerate(players):
            if i != j and frozenset((a, b)) in met:
                conflict[i] |= 1 << j
    worst = len(players)  # more repeats than pairs at any grouping is impossible
    for allowed in range(worst + 1):
        found = _Search(conflict, SEARCH_BUDGET).run(threes, twos, allowed)
        if found is not None:
            return tuple(tuple(players[i] for i in t) for t in found)
    raise AssertionError("a grouping always exists when repeats are allowed")  # pragma: no cover


class _Search:
    """Depth-first search over groupings of positions 0..n-1 with at most ``allowed`` repeats."""

    def __init__(self, conflict: list[int], budget: int) -> None:
        self.conflict = conflict
        self.budget = budget
        self.dead: set[tuple[int, int, int]] = set()

    def run(self, threes: int, twos: int, allowed: int) -> list[tuple[int, ...]] | None:
        left = (1 << len(self.conflict)) - 1
        try:
            return self._place(left, threes, twos, allowed)
        except _OutOfBudget:
            return None

    def _place(
        self, left: int, threes: int, twos: int, allowed: int
    ) -> list[tuple[int, ...]] | None:
        if left == 0:
            return []
        key = (left, threes, allowed)
        if key in self.dead:
            return None
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        first = (left & -left).bit_length() - 1
        rest = [i for i in range(first + 1, len(self.conflict)) if left >> i & 1]
        clash = self.conflict[first]
        if threes:
            # the nearest pair first: by the farther one's position, then the nearer one's
            for j in range(1, len(rest)):
                for i in range(j):
                    a, b = rest[i], rest[j]
                    cost = (clash >> a & 1) + (clash >> b & 1) + (self.conflict[a] >> b & 1)
                    if cost > allowed:
                        continue
                    done = self._place(
                        left & ~(1 << first | 1 << a | 1 << b), threes - 1, twos, allowed - cost
                    )
                    if done is not None:
                        return [(first, a, b), *done]
        if twos:
            for a in rest:
                cost = clash >> a & 1
                if cost > allowed:
                    continue
                done = self._place(left & ~(1 << first | 1 << a), threes, twos - 1, allowed - cost)
                if done is not None:
                    return [(first, a), *done]
        self.dead.add(key)
        return None


class _OutOfBudget(Exception):
    """The search visited :data:`SEARCH_BUDGET` states without an answer."""
