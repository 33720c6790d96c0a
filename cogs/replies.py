"""Answering interactions privately, and logging what the store did not save.

Shared by the feature cogs so that every bad input gets the same kind of answer: a private
(ephemeral) message that says what is wrong and what would be right, and changes nothing.
The words themselves come from :mod:`texts.replies`.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from data import StoreError

__all__ = ["log_fault", "send_private"]

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


def log_fault(exc: StoreError, where: str) -> None:
    """The one WARNING line a store failure leaves per interaction (no traceback)."""
    log.warning("%s not saved: %s", where, exc)
