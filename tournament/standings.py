"""Standings: points, then Buchholz, then the sum of game scores, then earlier sign-up."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournament.points import game_points

__all__ = ["Entrant", "Standing", "TableResult", "opponents_met", "standings"]


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of the tournament: ``player`` (a user id), ``signup`` (0 = first to join).

    ``dropped``: left or removed; they keep their games and their place in the standings but
    are not seated in later rounds.
    """

    player: int
    signup: int
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class TableResult:
    """One finished game of a round.

    ``players``: user ids by seat; ``places``: 1 = winner, R19/R20 ties share a place;
    ``scores``: each seat's total (R16–R19).
    """

    round: int
    table: int
    players: tuple[int, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]

    def points(self) -> tuple[Fraction, ...]:
        """Each seat's tournament points (:func:`tournament.game_points`)."""
        return game_points(self.places)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings: ``rank`` (1 = leader), the player and the four keys.

    ``points``: tournament points; ``buchholz``: the sum of the points of every opponent met
    (once per game); ``score_sum``: the sum of the player's game totals; ``games``: games
    played; ``signup`` and ``dropped`` as in :class:`Entrant`.
    """

    rank: int
    player: int
    points: Fraction
    buchholz: Fraction
    score_sum: int
    games: int
    signup: int
    dropped: bool


def opponents_met(results: Iterable[TableResult]) -> frozenset[frozenset[int]]:
    """Every pair of players who shared a table (as 2-element frozensets)."""
    return frozenset(
        frozenset((a, b))
        for r in results
        for i, a in enumerate(r.players)
        for b in r.players[i + 1 :]
    )


def standings(entrants: Sequence[Entrant], results: Sequence[TableResult]) -> list[Standing]:
    """The standings, leader first: points, Buchholz, sum of game scores, earlier sign-up.

    Every entrant appears (dropped ones too); results naming an unknown player raise
    ValueError. Ranks are 1..n without ties (the sign-up order decides last).
    """
    known = {e.player: e for e in entrants}
    points = dict.fromkeys(known, Fraction(0))
    scores = dict.fromkeys(known, 0)
    games = dict.fromkeys(known, 0)
    met: dict[int, list[int]] = {p: [] for p in known}
    for r in results:
        for seat, (player, got) in enumerate(zip(r.players, r.points(), strict=True)):
            if player not in known:
                raise ValueError(f"round {r.round} table {r.table}: unknown player {player}")
            points[player] += got
            scores[player] += r.scores[seat]
            games[player] += 1
            met[player].extend(p for p in r.players if p != player)
    buchholz = {p: sum((points[o] for o in met[p]), Fraction(0)) for p in known}
    order = sorted(
        known.values(),
        key=lambda e: (-points[e.player], -buchholz[e.player], -scores[e.player], e.signup),
    )
    return [
        Standing(
            rank=i + 1,
            player=e.player,
            points=points[e.player],
            buchholz=buchholz[e.player],
            score_sum=scores[e.player],
            games=games[e.player],
            signup=e.signup,
            dropped=e.dropped,
        )
        for i, e in enumerate(order)
    ]
