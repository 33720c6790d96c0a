"""Illegal moves in words: what is wrong and what would be right (engine/errors.py codes)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import CardParseError, IllegalMove
from engine.cards import card_from_code
from texts.common import SeatLabel, card_short, seat_mention, type_name
from texts.i18n import Tr

__all__ = ["illegal_move_text"]


def _card(code: object) -> str:
    """A card code from ``params`` as ``🟥5``; unknown codes are shown as they are."""
    try:
        return card_short(card_from_code(str(code)))
    except CardParseError:
        return str(code)


def illegal_move_text(error: IllegalMove, tr: Tr, seats: Sequence[SeatLabel]) -> str:
    """One or two sentences explaining ``error`` from its ``code`` and ``params``.

    Covers every IllegalMove of engine/errors.py: game_over (R14), unknown_seat,
    not_your_turn (names whom the game waits for), card_not_in_hand, invalid_slot (R2, R3),
    illegal_exchange (R7: equal values of different types, or neither same type nor higher),
    main_action_done, main_action_needed (R11), optional_action_used, not_in_this_mode (R9,
    R10), swap_pending and no_pending_swap (R10). An unknown code gets a generic sentence.
    """
    code = error.code
    p = error.params
    if code == "game_over":
        return tr("This game is over: no more moves can be played.")
    if code == "unknown_seat":
        return tr("You don't have a seat in this game.")
    if code == "not_your_turn":
        return tr(
            "It isn't your move: the game is waiting for {who}.",
            who=seat_mention(seats, p.get("waiting_for"), tr),
        )
    if code == "card_not_in_hand":
        return tr(
            "{card} is not in your hand: choose one of your own cards.", card=_card(p.get("card"))
        )
    if code == "invalid_slot":
        return tr(
            "There is no slot {slot}: choose a slot from 1 to {slots}.",
            slot=p.get("slot"),
            slots=p.get("slots"),
        )
    if code == "illegal_exchange":
        return _exchange_text(p, tr)
    if code == "main_action_done":
        return tr(
            "You already took your main action this turn: you can still use your optional "
            "action, or end your turn."
        )
    if code == "main_action_needed":
        return tr(
            "Take your main action before ending your turn: exchange a card with a slot, or "
            "play one face down as a black hat."
        )
    if code == "optional_action_used":
        return tr("You already used your optional action this turn.")
    if code == "not_in_this_mode":
        if p.get("kind") == "discard":
            return tr(
                "Discarding is only for games of 2 or 3 players; with 4, offer your partner a "
                "card swap instead."
            )
        return tr.plural(
            "Partner swaps are only for games of 4 players; with {n} player, you may discard "
            "a card and draw one instead.",
            "Partner swaps are only for games of 4 players; with {n} players, you may discard "
            "a card and draw one instead.",
            int(p.get("seats", 0)),
        )
    if code == "swap_pending":
        return tr(
            "Your swap offer is waiting for {who}'s answer; withdraw it to do anything else.",
            who=seat_mention(seats, p.get("partner"), tr),
        )
    if code == "no_pending_swap":
        return tr("There is no swap offer waiting for an answer.")
    return tr("That move is not allowed.")


def _exchange_text(p: dict, tr: Tr) -> str:
    try:
        card = card_from_code(str(p.get("card")))
        taken = card_from_code(str(p.get("taken")))
    except CardParseError:
        return tr("That exchange is not allowed.")
    if p.get("reason") == "equal_value" or card.value == taken.value:
        return tr(
            "{card} cannot take {taken} from slot {slot}: cards of different colours with the "
            "same number never exchange. Play a {type} card, or one numbered higher than "
            "{value}.",
            card=card_short(card),
            taken=card_short(taken),
            slot=p.get("slot"),
            type=type_name(taken.type, tr),
            value=taken.value,
        )
    return tr(
        "{card} cannot take {taken} from slot {slot}: play a card of the same colour ({type}) "
        "or one numbered higher than {value}.",
        card=card_short(card),
        taken=card_short(taken),
        slot=p.get("slot"),
        type=type_name(taken.type, tr),
        value=taken.value,
    )
