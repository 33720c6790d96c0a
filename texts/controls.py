"""The words on the chat surface's controls: the hand's select and buttons, the table's buttons.

Labels only (what a control says); where and how a control is laid out is the surface's job.
"""

from __future__ import annotations

from engine import ActionKind
from texts.i18n import Tr

__all__ = [
    "action_label",
    "auto_end_label",
    "card_select_placeholder",
    "open_table_label",
    "table_button_labels",
    "table_refusal_text",
]


def card_select_placeholder(tr: Tr, *, answering_swap: bool) -> str:
    """The hand's card select: choose a card, or (answering a partner's offer) one to give."""
    return tr("Choose a card to give back") if answering_swap else tr("Choose a card")


def action_label(tr: Tr, kind: ActionKind) -> str:
    """A hand button's label for an action that is not an exchange (R7–R12).

    Raises KeyError for :attr:`ActionKind.EXCHANGE`, whose buttons show the slot's card.
    """
    return {
        ActionKind.BLACK_HAT: lambda: tr("Black hat"),
        ActionKind.DISCARD: lambda: tr("Discard and draw"),
        ActionKind.OFFER_SWAP: lambda: tr("Offer to partner"),
        ActionKind.ANSWER_SWAP: lambda: tr("Give this card"),
        ActionKind.END_TURN: lambda: tr("End turn"),
        ActionKind.DECLINE_SWAP: lambda: tr("Decline the swap"),
        ActionKind.WITHDRAW_SWAP: lambda: tr("Withdraw my offer"),
    }[kind]()


def auto_end_label(tr: Tr, on: bool) -> str:
    """The toggle of the "end my turn after my main action" preference, saying its state."""
    return tr("Auto end turn: on") if on else tr("Auto end turn: off")


def open_table_label(tr: Tr) -> str:
    """The button that opens the Activity (the table on a phone) from a message."""
    return tr("Open the table")


def table_button_labels(tr: Tr) -> dict[str, str]:
    """The table's buttons: ``"hand"`` (Show my hand), ``"rules"``, ``"rematch"``."""
    return {"hand": tr("Show my hand"), "rules": tr("Rules"), "rematch": tr("Rematch")}


def table_refusal_text(tr: Tr, why: str) -> str:
    """What the table's commands and buttons answer when there is nothing for this user.

    ``why``: ``"no_game"`` (none in the channel), ``"over"`` (the game ended),
    ``"not_playing"`` (a spectator asked for a hand), ``"posted"`` (``/hats table`` worked).
    Raises KeyError for another ``why``.
    """
    return {
        "no_game": lambda: tr("There is no game in this channel. Open a lobby with /hats new."),
        "over": lambda: tr("This game is over."),
        "not_playing": lambda: tr(
            "You are not playing in this game. You can follow it here on the table."
        ),
        "posted": lambda: tr("Here is the table."),
    }[why]()
