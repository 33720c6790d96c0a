"""The brute-force oracle of the tournament tests: every seating of players at tables."""

from __future__ import annotations

from itertools import combinations


def groupings(players, sizes):
    """Every way to seat ``players`` at tables of ``sizes`` (the oracle of avoidable repeats)."""
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for mates in combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for tail in groupings(others, left):
                yield ((first, *mates), *tail)
