"""Answering interactions: private replies, error wording, seat labels.

Shared by the feature cogs so that every bad input gets the same kind of answer: a private
(ephemeral) message that says what is wrong and what would be right, and changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from cogs.i18n import Tr
from cogs.render import SeatLabel, illegal_move_text
from data import FaultKind, GameNotFound, GameNotLive, LobbyNotFound, StoreError, StoreFault
from engine import CardParseError, IllegalMove
from service import ServiceError

if TYPE_CHECKING:
    from service import GameSession

__all__ = [
    "error_text",
    "fault_text",
    "labels_for",
    "log_fault",
    "seat_name",
    "send_private",
]

log = logging.getLogger("hats.replies")


async def send_private(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    embeds: list[discord.Embed] | None = None,
    view: discord.ui.View | discord.ui.LayoutView | None = None,
    files: list[discord.File] | None = None,
) -> None:
    """Answer ``interaction`` privately (ephemeral): the response, or a followup if answered.

    ``files``: attachments, e.g. the hand picture its embed shows (cogs.pictures).
    """
    kwargs: dict[str, Any] = {"ephemeral": True}
    if files:
        kwargs["files"] = files
    if content is not None:
        kwargs["content"] = content
    if embed is not None:
        kwargs["embed"] = embed
    if embeds is not None:
        kwargs["embeds"] = embeds
    if view is not None:
        controls = [item for item in view.walk_children() if item.is_dispatchable()]
        if all(isinstance(item, discord.ui.DynamicItem) for item in controls):
            # Persistent controls dispatch by custom id; a stored copy is not needed, and
            # discord.py would keep each ephemeral view with a 15-minute timeout task.
            view.stop()
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


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


def log_fault(exc: StoreError, where: str) -> None:
    """The one WARNING line a store failure leaves per interaction (no traceback)."""
    log.warning("%s not saved: %s", where, exc)


def error_text(exc: Exception, tr: Tr, labels: list[SeatLabel] | None = None) -> str | None:
    """Words for an expected error (a refused request, a store fault), or None otherwise."""
    if isinstance(exc, GameNotLive | GameNotFound):
        return tr("This game is over or no longer exists.")
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
            text=repr(exc.text)[:60],
        )
    return None


def seat_name(user_id: int | None, seat: int, names: Mapping[int, str], tr: Tr) -> str:
    """A display name for a seat: the user's name if seen, else "Player 2" / "AI 2" (1-based)."""
    if user_id is None:
        return tr("AI {n}", n=seat + 1)
    return names.get(user_id) or tr("Player {n}", n=seat + 1)


def labels_for(
    session: GameSession, names: Mapping[int, str], tr: Tr | None = None, *, plain: bool = False
) -> list[SeatLabel]:
    """Seat labels of a game for the renderers; ``names`` maps user ids to display names.

    ``plain``: players are named, not mentioned (texts for DMs, see ``SeatLabel.plain``).
    """
    tr = tr or Tr.english()
    return [
        SeatLabel(
            s.seat,
            s.user_id,
            s.ai_level,
            seat_name(s.user_id, s.seat, names, tr),
            s.away,
            plain,
        )
        for s in session.seats
    ]
