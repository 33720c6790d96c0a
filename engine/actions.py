"""Actions a seat can take (R7–R11) and steps (a seat plus an action).

Every action is a frozen dataclass with a ``kind`` and converts to and from a JSON-ready dict
(``{"kind": "exchange", "card": "red5", "slot": 3}``). A :class:`Step` is what the store keeps:
replaying a game's steps through the engine rebuilds it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.cards import ALL_CARDS, Card, card_from_code

__all__ = [
    "Action",
    "ActionKind",
    "AnswerSwap",
    "BlackHat",
    "DeclineSwap",
    "Discard",
    "EndTurn",
    "Exchange",
    "OfferSwap",
    "Step",
    "WithdrawSwap",
    "action_from_dict",
]


class ActionKind(enum.StrEnum):
    """The kinds of action; the string is the ``kind`` field of a step."""

    EXCHANGE = "exchange"  # main, R7
    BLACK_HAT = "black_hat"  # main, R8
    DISCARD = "discard"  # optional, R9 (2–3 seats)
    OFFER_SWAP = "offer_swap"  # optional, R10 (4 seats): the active seat offers a card
    ANSWER_SWAP = "answer_swap"  # R10: the partner gives a card back, the swap happens
    DECLINE_SWAP = "decline_swap"  # R10: the partner declines; the optional action stays unused
    WITHDRAW_SWAP = "withdraw_swap"  # the offerer takes a pending offer back (counts as declined)
    END_TURN = "end_turn"  # R11

    @property
    def is_main(self) -> bool:
        """True for the main actions of R7 and R8."""
        return self in (ActionKind.EXCHANGE, ActionKind.BLACK_HAT)


@dataclass(frozen=True, slots=True)
class Exchange:
    """Play ``card`` onto board ``slot`` (1-based) and take that slot's card (R7)."""

    card: Card
    slot: int
    kind: ClassVar[ActionKind] = ActionKind.EXCHANGE

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``{"kind": "exchange", "card": "red5", "slot": 3}``."""
        return {"kind": self.kind.value, "card": self.card.code, "slot": self.slot}


@dataclass(frozen=True, slots=True)
class _CardAction:
    card: Card
    kind: ClassVar[ActionKind]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``{"kind": ..., "card": "red5"}``."""
        return {"kind": self.kind.value, "card": self.card.code}


@dataclass(frozen=True, slots=True)
class BlackHat(_CardAction):
    """Play ``card`` face down into the collection as a black hat (R8)."""

    kind: ClassVar[ActionKind] = ActionKind.BLACK_HAT


@dataclass(frozen=True, slots=True)
class Discard(_CardAction):
    """Discard ``card`` face down and draw the top card of the deck (R9)."""

    kind: ClassVar[ActionKind] = ActionKind.DISCARD


@dataclass(frozen=True, slots=True)
class OfferSwap(_CardAction):
    """Offer ``card`` face down to the partner (R10); it waits for the partner's answer."""

    kind: ClassVar[ActionKind] = ActionKind.OFFER_SWAP


@dataclass(frozen=True, slots=True)
class AnswerSwap(_CardAction):
    """The partner gives ``card`` back: both cards change hands at once (R10)."""

    kind: ClassVar[ActionKind] = ActionKind.ANSWER_SWAP


@dataclass(frozen=True, slots=True)
class _PlainAction:
    kind: ClassVar[ActionKind]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``{"kind": ...}``."""
        return {"kind": self.kind.value}


@dataclass(frozen=True, slots=True)
class DeclineSwap(_PlainAction):
    """The partner declines the pending offer; nothing moves (R10)."""

    kind: ClassVar[ActionKind] = ActionKind.DECLINE_SWAP


@dataclass(frozen=True, slots=True)
class WithdrawSwap(_PlainAction):
    """The offerer takes the pending offer back; nothing moves, as for a decline (R10)."""

    kind: ClassVar[ActionKind] = ActionKind.WITHDRAW_SWAP


@dataclass(frozen=True, slots=True)
class EndTurn(_PlainAction):
    """End the turn after the main action without using the optional action (R11)."""

    kind: ClassVar[ActionKind] = ActionKind.END_TURN


Action = (
    Exchange | BlackHat | Discard | OfferSwap | AnswerSwap | DeclineSwap | WithdrawSwap | EndTurn
)
"""Any action a seat can apply."""

# Interned action tables, so listing legal actions allocates nothing (see engine.game).
EXCHANGES: tuple[tuple[Exchange, ...], ...] = tuple(
    tuple(Exchange(c, s) for s in range(0, 7)) for c in ALL_CARDS
)
BLACK_HATS = tuple(BlackHat(c) for c in ALL_CARDS)
DISCARDS = tuple(Discard(c) for c in ALL_CARDS)
OFFERS = tuple(OfferSwap(c) for c in ALL_CARDS)
ANSWERS = tuple(AnswerSwap(c) for c in ALL_CARDS)
DECLINE = DeclineSwap()
WITHDRAW = WithdrawSwap()
END_TURN = EndTurn()

_CARD_ACTIONS: dict[ActionKind, tuple[Action, ...]] = {
    ActionKind.BLACK_HAT: BLACK_HATS,
    ActionKind.DISCARD: DISCARDS,
    ActionKind.OFFER_SWAP: OFFERS,
    ActionKind.ANSWER_SWAP: ANSWERS,
}
_PLAIN: dict[ActionKind, Action] = {
    ActionKind.DECLINE_SWAP: DECLINE,
    ActionKind.WITHDRAW_SWAP: WITHDRAW,
    ActionKind.END_TURN: END_TURN,
}


def action_from_dict(data: dict[str, Any]) -> Action:
    """Rebuild an action from its :meth:`to_dict` form.

    Raises ValueError (or CardParseError, a ValueError) on an unknown kind, card or slot.
    """
    kind = ActionKind(data["kind"])
    if kind is ActionKind.EXCHANGE:
        slot = data["slot"]
        if not isinstance(slot, int) or not 1 <= slot <= 6:
            raise ValueError(f"slot must be 1–6, got {slot!r}")
        return EXCHANGES[card_from_code(data["card"]).id][slot]
    if kind in _CARD_ACTIONS:
        return _CARD_ACTIONS[kind][card_from_code(data["card"]).id]
    return _PLAIN[kind]


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action: ``seat`` (0-based) did ``action``. The unit the store appends."""

    seat: int
    action: Action

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``{"seat": 0, "kind": "exchange", "card": "red5", "slot": 3}``."""
        return {"seat": self.seat, **self.action.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        """Inverse of :meth:`to_dict`; raises ValueError on malformed data."""
        return cls(int(data["seat"]), action_from_dict(data))
