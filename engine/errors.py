"""Errors raised when a move breaks the rules. Applying an illegal move changes nothing.

Every error has a stable ``code`` and ``params`` (plain values) so that a front end can word
it in the player's language; ``str(error)`` is a readable English message.
"""

from __future__ import annotations

from typing import Any

from engine.cards import Card

__all__ = [
    "CardNotInHand",
    "GameOver",
    "IllegalExchange",
    "IllegalMove",
    "InvalidSlot",
    "MainActionDone",
    "MainActionNeeded",
    "NoPendingSwap",
    "NotInThisMode",
    "NotYourTurn",
    "OptionalActionUsed",
    "RecordMismatch",
    "SwapPending",
    "UnknownSeat",
]


class IllegalMove(Exception):
    """Base of all rule violations: ``code`` names the violation, ``params`` its details."""

    code = "illegal_move"

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.params = params


class GameOver(IllegalMove):
    """The game has ended (R14); no more moves."""

    code = "game_over"

    def __init__(self) -> None:
        super().__init__("The game is over.")


class UnknownSeat(IllegalMove):
    """The seat number is not in this game."""

    code = "unknown_seat"

    def __init__(self, seat: int, seats: int) -> None:
        super().__init__(f"Seat {seat} is not in this game (seats 0–{seats - 1}).", seat=seat)


class NotYourTurn(IllegalMove):
    """It is another seat's turn, or another seat must answer first (``waiting_for``)."""

    code = "not_your_turn"

    def __init__(self, seat: int, waiting_for: int) -> None:
        super().__init__(
            f"It is not seat {seat}'s move: waiting for seat {waiting_for}.",
            seat=seat,
            waiting_for=waiting_for,
        )


class CardNotInHand(IllegalMove):
    """The card named is not in the seat's hand."""

    code = "card_not_in_hand"

    def __init__(self, card: Card) -> None:
        super().__init__(f"{card.code} is not in your hand.", card=card.code)


class InvalidSlot(IllegalMove):
    """The slot is not one of the board's used slots (R2, R3)."""

    code = "invalid_slot"

    def __init__(self, slot: int, slots: int) -> None:
        super().__init__(f"Slot {slot} does not exist: choose 1–{slots}.", slot=slot, slots=slots)


class IllegalExchange(IllegalMove):
    """The exchange breaks R7. ``reason`` is ``equal_value`` or ``not_higher``."""

    code = "illegal_exchange"

    def __init__(self, card: Card, slot: int, taken: Card) -> None:
        reason = "equal_value" if card.value == taken.value else "not_higher"
        if reason == "equal_value":
            why = "equal values of different types never exchange"
        else:
            why = "it needs the same type or a strictly higher value"
        super().__init__(
            f"{card.code} cannot take {taken.code} from slot {slot}: {why}.",
            card=card.code,
            slot=slot,
            taken=taken.code,
            reason=reason,
        )
        self.reason = reason


class MainActionDone(IllegalMove):
    """The main action of this turn was already taken (R7, R8)."""

    code = "main_action_done"

    def __init__(self) -> None:
        super().__init__("You already took your main action this turn.")


class MainActionNeeded(IllegalMove):
    """The turn cannot end before the main action (R11)."""

    code = "main_action_needed"

    def __init__(self) -> None:
        super().__init__("Take your main action (exchange or black hat) before ending the turn.")


class OptionalActionUsed(IllegalMove):
    """The optional action of this turn was already used (at most one a turn)."""

    code = "optional_action_used"

    def __init__(self) -> None:
        super().__init__("You already used your optional action this turn.")


class NotInThisMode(IllegalMove):
    """Discard is for 2–3 seats (R9), partner swap for 4 seats (R10)."""

    code = "not_in_this_mode"

    def __init__(self, kind: str, seats: int) -> None:
        super().__init__(
            f"{kind.replace('_', ' ')} is not played with {seats} seats.", kind=kind, seats=seats
        )


class SwapPending(IllegalMove):
    """A partner swap offer waits for an answer; only withdrawing it is possible (R10)."""

    code = "swap_pending"

    def __init__(self, partner: int) -> None:
        super().__init__(
            f"Your swap offer waits for seat {partner}'s answer; withdraw it to do something else.",
            partner=partner,
        )


class NoPendingSwap(IllegalMove):
    """There is no partner swap offer to answer, decline or withdraw (R10)."""

    code = "no_pending_swap"

    def __init__(self) -> None:
        super().__init__("There is no swap offer waiting.")


class RecordMismatch(ValueError):
    """A game record does not replay to what it states (``hats-record/1``)."""
