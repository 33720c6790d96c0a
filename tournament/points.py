"""A game's tournament points, from the game's own ranking."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

__all__ = ["game_points"]


def game_points(places: Sequence[int]) -> tuple[Fraction, ...]:
    """Each seat's points: (opponents it finished ahead of + ½ per tie) ÷ (table size − 1).

    ``places``: the game's places per seat (1 = winner; equal places share, as
    ``data.results.entries_from_game`` gives them from R16–R20 and their tie-breaks). At a
    table of 3 that is 1, ½ and 0 (two sharing a win get ¾ each); at a table of 2 it is 1 or 0
    (½ each for a shared win). Exact fractions. Raises ValueError for fewer than 2 seats.
    """
    n = len(places)
    if n < 2:
        raise ValueError(f"a game has at least 2 seats, got {n}")
    out = []
    for i, mine in enumerate(places):
        ahead = sum(1 for j, other in enumerate(places) if j != i and other > mine)
        tied = sum(1 for j, other in enumerate(places) if j != i and other == mine)
        out.append(Fraction(2 * ahead + tied, 2 * (n - 1)))
    return tuple(out)
