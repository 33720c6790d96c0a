"""What the coach can say: kinds of note and the facts each carries (no wording here).

The coach (:mod:`coach.explain`) decides *which* notes a move deserves; the Discord layer turns
each :class:`Note` into a sentence of the player's language. Keeping the facts apart from the
words lets every language say them naturally, and lets the tests check the facts.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine import Card

__all__ = ["TEACHING", "Note", "NoteKind"]


class NoteKind(enum.StrEnum):
    """One thing worth telling a learner after a move (the rule it explains in brackets)."""

    EXCHANGE_SAME_TYPE = "exchange_same_type"  # R7: same type, any values
    EXCHANGE_HIGHER = "exchange_higher"  # R7: a strictly higher value, any types
    SLOTS_FORBIDDEN = "slots_forbidden"  # R7: the slots the played card could not take
    SCORE = "score"  # R16, R18: the provisional score moved
    SLOT_WORTH = "slot_worth"  # R16: a collection card scores its type's board slot
    WORTH_NOTHING = "worth_nothing"  # R16: the taken card scores 0: its type is not face up
    WORTH_CHANGED = "worth_changed"  # R15, R16: a type's slot moved, so its cards score anew
    BLACK_HAT = "black_hat"  # R8: hidden, 1 point, all black hats one type for the cookie
    DISCARD = "discard"  # R9: the optional action; the discard pile comes back as a deck
    COOKIE_GAINED = "cookie_gained"  # R13: most distinct types
    COOKIE_GAINED_TIE = "cookie_gained_tie"  # R13: tied on types, the lowest values decide
    COOKIE_LOST = "cookie_lost"  # R13: another collection now has more types
    COOKIE_LOST_TIE = "cookie_lost_tie"  # R13: as many types, lower values
    SCORE_BY_OTHERS = "score_by_others"  # R16, R18: others' moves since your turn moved it
    LAST_TURN = "last_turn"  # R14, R17: the card you keep becomes your favourite hat
    FAVOURITE = "favourite"  # R14, R17: the last hand card at the end
    TURNED_DOWN = "turned_down"  # R15: duplicate types on the board are turned down
    FINAL = "final"  # R19: the final total and the place


TEACHING = frozenset(
    {
        NoteKind.EXCHANGE_SAME_TYPE,
        NoteKind.EXCHANGE_HIGHER,
        NoteKind.SLOTS_FORBIDDEN,
        NoteKind.SLOT_WORTH,
        NoteKind.BLACK_HAT,
        NoteKind.DISCARD,
    }
)
"""Notes that explain a rule: said the first time (or the first few turns), then left out."""


@dataclass(frozen=True, slots=True)
class Note:
    """One coach note: its kind and the facts that fill its sentence.

    ``card``/``took``: the card played and the card taken (or drawn, for DISCARD);
    ``slot``: a board slot 1–6; ``slots``: several slots (the forbidden or the turned-down ones);
    ``value``: a number whose meaning depends on the kind (the score change for SCORE and
    SCORE_BY_OTHERS, a slot's worth for SLOT_WORTH, a card's new worth for WORTH_CHANGED, the
    favourite's points for FAVOURITE, the total for FINAL, the favourite's points keeping
    ``card`` for LAST_TURN); ``total``: the provisional score after the move (SCORE,
    SCORE_BY_OTHERS), the place (FINAL, 1-based), a card's former worth (WORTH_CHANGED), the
    favourite's points keeping ``took`` (LAST_TURN); ``seat``: another player (who took the
    cookie for COOKIE_LOST, whose move it was for SCORE_BY_OTHERS; None there: several
    players' moves); ``count``: how many collection cards WORTH_CHANGED is about.
    """

    kind: NoteKind
    card: Card | None = None
    took: Card | None = None
    slot: int | None = None
    slots: tuple[int, ...] = field(default=())
    value: int | None = None
    total: int | None = None
    seat: int | None = None
    count: int | None = None
