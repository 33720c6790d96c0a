"""Words for what went wrong and for who sits where: error texts and seat labels.

Shared by both surfaces (the Discord cogs and the Activity's server), so that every refused
request and every store fault is said the same way in every language; plain strings only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from data import FaultKind, GameNotFound, GameNotLive, LobbyNotFound, StoreError, StoreFault
from engine import CardParseError, IllegalMove
from service import ServiceError
from texts import SeatLabel, illegal_move_text
from texts.common import duration_text
from texts.i18n import N_, Tr
from texts.user_text import quoted, seat_names

if TYPE_CHECKING:
    from service import GameSession

__all__ = [
    "ELSEWHERE",
    "activity_not_offered_text",
    "activity_only_text",
    "cooldown_text",
    "error_text",
    "fault_text",
    "game_gone_text",
    "invalid_value_text",
    "labels_for",
    "not_here_text",
    "seat_labels",
    "stale_control_text",
    "unexpected_error_text",
    "unknown_control_text",
]


def fault_text(exc: StoreError, tr: Tr, *, move: bool = False) -> str:
    """What a player is told when the store did not commit their request: nothing changed.

    ``move``: the request was a move (the step was not stored) rather than another change.
    The reason sentence follows ``exc.kind`` (:class:`data.FaultKind`).
    """
    kind = exc.kind if isinstance(exc, StoreFault) else FaultKind.OTHER
    reason = {
        FaultKind.FULL: tr("The bot's disk is full."),
        FaultKind.READ_ONLY: tr("The bot's database cannot be written right now."),
        FaultKind.IO: tr("The bot's disk reported an error."),
        FaultKind.CORRUPT: tr("The bot's database is damaged."),
        FaultKind.BUSY: tr("The bot's database is busy."),
        FaultKind.CANNOT_OPEN: tr("The bot cannot open its database."),
    }.get(kind) or tr("The bot's database failed.")
    if move:
        return tr(
            "Your move was not saved, so nothing changed: {reason} Please try again in a minute.",
            reason=reason,
        )
    return tr(
        "That could not be saved, so nothing changed: {reason} Please try again in a minute.",
        reason=reason,
    )


def stale_control_text(tr: Tr) -> str:
    """The private answer to any hand control drawn for an older state (issue 36.4).

    A double tap, a select or a button of a hand the game has moved past: nothing was done,
    and the message it came from is left as it is (the first tap drew it, or the bot keeps it
    current); ``/hats hand`` shows the game now.
    """
    return tr(
        "That button was out of date, so nothing was done; /hats hand shows the game as it is now."
    )


ELSEWHERE = N_(
    "This control belongs to a game or lobby in another channel; use the one under that "
    "game or lobby."
)
"""The refusal of a control used away from its lobby or game (a msgid, raised as a ServiceError)."""


def activity_not_offered_text(tr: Tr) -> str:
    """The answer to ``/hats play`` where this bot's owner has not set up the Activity."""
    return tr(
        "This bot does not offer the live table: its owner has not set up the Discord Activity. "
        "Play here with the buttons and /hats hand."
    )


def game_gone_text(tr: Tr) -> str:
    """The answer about a game that has ended or was never there."""
    return tr("This game is over or no longer exists.")


def not_here_text(tr: Tr) -> str:
    """The answer to a command whose checks refused it here (Discord's CheckFailure)."""
    return tr("You cannot use this command here.")


def invalid_value_text(value: str, tr: Tr) -> str:
    """The answer to an option ``value`` (the user's raw text, quoted here) Discord refused."""
    return tr("That value is not valid for this option: {value}.", value=quoted(value))


def unexpected_error_text(tr: Tr) -> str:
    """The answer to an unexpected failure (a bug): nothing was changed."""
    return tr("Something went wrong on my side; nothing was changed. Please try again.")


def unknown_control_text(tr: Tr) -> str:
    """The answer to a press on a control the bot no longer knows (its game or lobby is over)."""
    return tr("This control is out of date: its game or lobby is over or closed.")


def activity_only_text(tr: Tr) -> str:
    """The answer to a command where Hats plays only in its Activity (a DM or group DM)."""
    return tr(
        "Here Hats plays in its Activity only: use /hats play to open it. The other "
        "commands work in a server that added Hats and in DMs with the bot."
    )


def cooldown_text(seconds: float, tr: Tr) -> str:
    """The answer when the channel had a public post moments ago; ``seconds``: the wait."""
    return tr(
        "This channel got a public post from a /hats command moments ago. To keep the "
        "channel readable, try again in {time}; commands that answer only you work "
        "meanwhile.",
        time=duration_text(seconds, tr),
    )


def error_text(exc: Exception, tr: Tr, labels: list[SeatLabel] | None = None) -> str | None:
    """Words for an expected error (a refused request, a store fault), or None otherwise."""
    if isinstance(exc, GameNotLive | GameNotFound):
        return game_gone_text(tr)
    if isinstance(exc, LobbyNotFound):
        return tr("This lobby is closed.")
    if isinstance(exc, StoreError):
        return fault_text(exc, tr)
    if isinstance(exc, IllegalMove):
        return illegal_move_text(exc, tr, labels or [])
    if isinstance(exc, ServiceError):
        return tr(exc.msgid, **exc.params)
    if isinstance(exc, CardParseError):
        return tr(
            "{text} is not a card. Write a colour and a value, like red5, Red 5 or 🟥5, "
            "or pick a card from the list.",
            text=quoted(exc.text),
        )
    return None


def seat_labels(
    seats: Sequence[Any], names: Mapping[int, str], tr: Tr | None = None
) -> list[SeatLabel]:
    """Seat labels for the renderers: the one place where users' names enter a message.

    ``seats``: a game's SeatRows, a game's ResultEntries or a lobby's LobbySeats (read:
    ``user_id``, ``ai_level``, and ``seat`` and ``away`` when they have them; a lobby seat's
    number is its index). ``names`` maps user ids to raw display names (``HatsBot.names``).
    Each name is made safe here (``texts.user_text.seat_names``: escaped, bidi-isolated, told
    apart from equal names; "Player 2" when unknown or blank, "AI 2" for an AI seat,
    1-based), so no renderer has to.
    """
    tr = tr or Tr.english()
    numbers = [getattr(s, "seat", index) for index, s in enumerate(seats)]

    def fallback(index: int) -> str:
        if seats[index].user_id is None:
            return tr("AI {n}", n=numbers[index] + 1)
        return tr("Player {n}", n=numbers[index] + 1)

    raw = [names.get(s.user_id) if s.user_id is not None else None for s in seats]
    return [
        SeatLabel(
            number,
            s.user_id,
            s.ai_level,
            name.text,
            bool(getattr(s, "away", False)),
            name.plain,
        )
        for number, s, name in zip(numbers, seats, seat_names(raw, fallback), strict=True)
    ]


def labels_for(
    session: GameSession, names: Mapping[int, str], tr: Tr | None = None, *, plain: bool = False
) -> list[SeatLabel]:
    """Seat labels of a game for the renderers (:func:`seat_labels` of its seats).

    ``plain``: players are named, not mentioned (texts for DMs, see ``SeatLabel.named``).
    """
    labels = seat_labels(session.seats, names, tr)
    return [dataclasses.replace(label, named=True) for label in labels] if plain else labels
