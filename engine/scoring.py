"""The end of the game: board clean-up, scores, winners and teams (R14–R20)."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card

__all__ = [
    "COOKIE_POINTS",
    "GameResult",
    "ScoreBreakdown",
    "TieBreak",
    "face_up_slots",
    "favourite_score",
    "provisional_scores",
    "score_game",
    "standings",
]

COOKIE_POINTS = 5
"""What the cookie is worth at the end (R18)."""


class TieBreak(enum.StrEnum):
    """What decided the winner (R19, R20)."""

    SCORE = "score"  # a single highest total
    BLACK_HATS = "black_hats"  # tied totals, most black hats
    COOKIE = "cookie"  # still tied, the cookie holder (or the team holding it)
    SHARED = "shared"  # still tied: a shared win


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """One seat's score (R16–R19): points and the count of black hats."""

    collection: int
    favourite: int
    cookie: int
    total: int
    black_hats: int

    def to_record(self) -> dict[str, int]:
        """The ``hats-record/1`` form (note the record's spelling ``favorite``)."""
        return {
            "collection": self.collection,
            "favorite": self.favourite,
            "cookie": self.cookie,
            "total": self.total,
            "black_hats": self.black_hats,
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    """Everything revealed at the end (R14–R21).

    ``board``: before clean-up, slot 1 first; ``face_up_slots``: 1-based slots left face up
    (R15); ``favourites[s]``: seat s's last hand card (R14); ``collections``/``black_hats``:
    per seat; ``cookie``: holder seat or None; ``scores``: per seat; ``team_totals``: per
    team with 4 seats, else None; ``winners``: ascending seats; ``tie_break``: what decided.
    ``order``: every seat best first and ``places``: each seat's 1-based place, the one
    ranking of the game (:func:`standings`, R19/R20 with all their tie-breaks): every screen,
    text and store that ranks the players uses these. Not part of ``hats-record/1``.
    """

    board: tuple[Card, ...]
    face_up_slots: tuple[int, ...]
    favourites: tuple[Card, ...]
    collections: tuple[tuple[Card, ...], ...]
    black_hats: tuple[tuple[Card, ...], ...]
    cookie: int | None
    scores: tuple[ScoreBreakdown, ...]
    team_totals: tuple[int, ...] | None
    winners: tuple[int, ...]
    tie_break: TieBreak
    order: tuple[int, ...]
    places: tuple[int, ...]

    def to_record(self) -> dict[str, Any]:
        """The ``end`` object of ``hats-record/1``."""
        return {
            "favorites": [c.code for c in self.favourites],
            "board": [c.code for c in self.board],
            "face_up_slots": list(self.face_up_slots),
            "collections": [[c.code for c in cs] for cs in self.collections],
            "black_hats": [[c.code for c in bs] for bs in self.black_hats],
            "cookie": self.cookie,
            "scores": [s.to_record() for s in self.scores],
            "team_totals": list(self.team_totals) if self.team_totals is not None else None,
            "winners": list(self.winners),
        }


def face_up_slots(board: Sequence[Card]) -> tuple[int, ...]:
    """Slots (1-based) still face up after the clean-up: the lowest slot of each type (R15)."""
    seen: set[object] = set()
    up: list[int] = []
    for slot, card in enumerate(board, start=1):
        if card.type not in seen:
            seen.add(card.type)
            up.append(slot)
    return tuple(up)


def collection_score(face_up: Sequence[Card], black_hats: int, board: Sequence[Card]) -> int:
    """Face-up cards score their type's face-up slot number, or 0; black hats 1 each (R16)."""
    worth = {board[slot - 1].type: slot for slot in face_up_slots(board)}
    return sum(worth.get(c.type, 0) for c in face_up) + black_hats


def favourite_score(face_up: Sequence[Card], favourite: Card) -> int:
    """Values of face-up cards of the favourite's type, minus the favourite's value (R17)."""
    return sum(c.value for c in face_up if c.type is favourite.type) - favourite.value


def provisional_scores(
    board: Sequence[Card],
    collections: Sequence[Sequence[Card]],
    black_hat_counts: Sequence[int],
    cookie: int | None,
) -> tuple[int, ...]:
    """Each seat's score if the game ended on this board, from public information only.

    Collection points with R15 and R16 applied to the current ``board`` (black hats 1 each,
    from their public count) plus the cookie (R18); the favourite (R17) is left out, being
    hidden until the end. At the end this equals each total minus its favourite score.
    Shapes: one int per seat, seat order of ``collections``.
    """
    return tuple(
        collection_score(face_up, black_hat_counts[seat], board)
        + (COOKIE_POINTS if cookie == seat else 0)
        for seat, face_up in enumerate(collections)
    )


def standings(
    totals: Sequence[int],
    black_hats: Sequence[int],
    cookie: int | None,
    teams: Sequence[Sequence[int]] | None,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The game's ranking: ``(order, places)`` from each seat's total and black hat count.

    The winning order of R19 extended to every place: a higher total, then more black hats,
    then the cookie holder (R13, R18) ranks first. With ``teams`` (4 seats, R20) the teams
    are ranked so by their summed totals and black hats and who holds the cookie; each seat
    takes its team's place and partners stay together, ordered inside the team by their own
    totals the same way. ``places[s]``: 1 + the entries (seats, or teams) strictly ahead of
    seat s, so the winners (a shared win too) are exactly place 1 and entries the rules cannot
    separate share a place. ``order``: seats best first; entries sharing a place keep seat
    order (teams: Team A first). Shapes: one int per seat; ``totals``/``black_hats`` per seat,
    ``cookie`` the holder's seat or None.
    """

    def key(members: Sequence[int]) -> tuple[int, int, bool]:
        return (
            sum(totals[s] for s in members),
            sum(black_hats[s] for s in members),
            cookie in members,
        )

    groups = [tuple(t) for t in teams] if teams else [(s,) for s in range(len(totals))]
    keys = [key(g) for g in groups]
    group_places = [1 + sum(1 for k in keys if k > mine) for mine in keys]
    places = [0] * len(totals)
    for group, place in zip(groups, group_places, strict=True):
        for s in group:
            places[s] = place
    ranked = sorted(range(len(groups)), key=lambda i: (group_places[i], i))
    order = [
        s
        for i in ranked
        for s in sorted(groups[i], key=lambda s: (-totals[s], -black_hats[s], cookie != s, s))
    ]
    return tuple(order), tuple(places)


def _pick(
    totals: Sequence[int], blacks: Sequence[int], has_cookie: Sequence[bool]
) -> tuple[list[int], TieBreak]:
    """Indexes of the winners among entries and the tie-break that decided (R19, R20)."""
    best = max(totals)
    tied = [i for i, t in enumerate(totals) if t == best]
    if len(tied) == 1:
        return tied, TieBreak.SCORE
    most = max(blacks[i] for i in tied)
    tied = [i for i in tied if blacks[i] == most]
    if len(tied) == 1:
        return tied, TieBreak.BLACK_HATS
    holders = [i for i in tied if has_cookie[i]]
    if holders:
        return holders, TieBreak.COOKIE
    return tied, TieBreak.SHARED


def score_game(
    board: Sequence[Card],
    collections: Sequence[Sequence[Card]],
    black_hats: Sequence[Sequence[Card]],
    favourites: Sequence[Card],
    cookie: int | None,
    teams: Sequence[Sequence[int]] | None,
) -> GameResult:
    """Score a finished game (R15–R20) and reveal everything (R21)."""
    scores = []
    for seat, face_up in enumerate(collections):
        coll = collection_score(face_up, len(black_hats[seat]), board)
        fav = favourite_score(face_up, favourites[seat])
        ck = COOKIE_POINTS if cookie == seat else 0
        scores.append(ScoreBreakdown(coll, fav, ck, coll + fav + ck, len(black_hats[seat])))
    team_totals: tuple[int, ...] | None = None
    if teams is None:
        idx, why = _pick(
            [s.total for s in scores],
            [s.black_hats for s in scores],
            [cookie == i for i in range(len(scores))],
        )
        winners = tuple(sorted(idx))
    else:
        team_totals = tuple(sum(scores[s].total for s in team) for team in teams)
        idx, why = _pick(
            team_totals,
            [sum(scores[s].black_hats for s in team) for team in teams],
            [cookie in team for team in teams],
        )
        winners = tuple(sorted(s for i in idx for s in teams[i]))
    order, places = standings(
        [s.total for s in scores], [s.black_hats for s in scores], cookie, teams
    )
    return GameResult(
        board=tuple(board),
        face_up_slots=face_up_slots(board),
        favourites=tuple(favourites),
        collections=tuple(tuple(c) for c in collections),
        black_hats=tuple(tuple(b) for b in black_hats),
        cookie=cookie,
        scores=tuple(scores),
        team_totals=team_totals,
        winners=winners,
        tie_break=why,
        order=order,
        places=places,
    )
