"""The practice game's deal: one whose first rounds show the rules at work.

A lesson is a 3-seat game (R3: all 42 cards, six slots, a draw deck, so discards exist) in
which the learner sits at seat 0 and starts. A good deal is found by searching seeds with the
engine, not written by hand: a seed qualifies when the learner's opening hand allows both kinds
of exchange (R7: same type, and a higher value of another type), and when a game played from
it by the normal AI in every seat shows, within its first :data:`LESSON_ROUNDS` rounds, an
exchange of each kind (R7), a black hat (R8), a discard (R9) and the cookie passing from one
player to another (R13). The learner may play anything: the deal only makes these moments
likely. :data:`LESSON_SEEDS` holds the first qualifying seeds, checked by the tests.
"""

from __future__ import annotations

import enum

from engine import ActionKind, Exchange, Game, GameConfig
from engine.ai import AiLevel, make_ai

__all__ = [
    "LEARNER",
    "LESSON_ROUNDS",
    "LESSON_SEATS",
    "LESSON_SEEDS",
    "Moment",
    "find_lesson_seeds",
    "lesson_config",
    "lesson_moments",
]

LESSON_SEATS = 3
"""Seats in a practice game: the learner and two AI players."""
LEARNER = 0
"""The learner's seat; they start (R6's starting player is set, not drawn)."""
LESSON_ROUNDS = 3
"""Rounds within which the deal must show every :class:`Moment`."""


class Moment(enum.StrEnum):
    """A rule at work that a lesson's first rounds should show."""

    OPENING_SAME_TYPE = "opening_same_type"  # the learner can exchange same type at once (R7)
    OPENING_HIGHER = "opening_higher"  # ... and on a higher value of another type (R7)
    SAME_TYPE = "same_type"  # someone exchanges same type (R7)
    HIGHER = "higher"  # someone exchanges on a higher value, other type (R7)
    BLACK_HAT = "black_hat"  # someone plays a black hat (R8)
    DISCARD = "discard"  # someone discards and draws (R9)
    COOKIE_PASSES = "cookie_passes"  # the cookie goes from one player to another (R13)


def lesson_config(seed: int) -> GameConfig:
    """The practice game's config for ``seed``: 3 seats, the learner (seat 0) starts."""
    return GameConfig(LESSON_SEATS, seed, start_seat=LEARNER)


def _opening(game: Game) -> set[Moment]:
    found = set()
    for action in game.legal_actions(LEARNER):
        if isinstance(action, Exchange):
            taken = game.observation(LEARNER).board[action.slot - 1]
            same = action.card.type is taken.type
            found.add(Moment.OPENING_SAME_TYPE if same else Moment.OPENING_HIGHER)
    return found


def lesson_moments(seed: int, rounds: int = LESSON_ROUNDS) -> frozenset[Moment]:
    """The moments that ``seed``'s lesson shows in its first ``rounds`` rounds.

    Every seat is played by the normal AI (seeded ``seed + seat``), the learner included, as
    a stand-in for a newcomer's sensible play. Pure: the same seed gives the same answer.
    """
    game = Game.new(lesson_config(seed))
    found = _opening(game)
    players = [make_ai(AiLevel.NORMAL, seed + seat) for seat in range(LESSON_SEATS)]
    holder: int | None = None
    while not game.is_over and game.round <= rounds:
        seat = game.to_move
        assert seat is not None
        action = players[seat].choose(game.observation(seat), game.legal_actions(seat))
        event = game.apply(seat, action)
        if event.kind is ActionKind.EXCHANGE:
            assert event.card is not None and event.took is not None
            same = event.card.type is event.took.type
            found.add(Moment.SAME_TYPE if same else Moment.HIGHER)
        elif event.kind is ActionKind.BLACK_HAT:
            found.add(Moment.BLACK_HAT)
        elif event.kind is ActionKind.DISCARD:
            found.add(Moment.DISCARD)
        if holder is not None and event.cookie is not None and event.cookie != holder:
            found.add(Moment.COOKIE_PASSES)
        holder = event.cookie if event.cookie is not None else holder
    return frozenset(found)


def find_lesson_seeds(count: int, start: int = 0, limit: int = 10_000) -> tuple[int, ...]:
    """The first ``count`` seeds from ``start`` whose lesson shows every :class:`Moment`.

    Raises LookupError when fewer than ``count`` qualify among the ``limit`` seeds tried.
    """
    every = frozenset(Moment)
    found: list[int] = []
    for seed in range(start, start + limit):
        if lesson_moments(seed) == every:
            found.append(seed)
            if len(found) == count:
                return tuple(found)
    raise LookupError(f"only {len(found)} lesson seeds among {limit} from {start}")


LESSON_SEEDS: tuple[int, ...] = (260, 304, 477, 545, 583, 626, 704, 884)
"""Qualifying seeds (``find_lesson_seeds(8)``), one picked per learner and lesson."""
