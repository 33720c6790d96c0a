"""The last layer of error handling: the command tree's ``on_error`` and the controls' fallback.

Layers: each cog answers the errors it expects (a refused move, a wrong card) privately; what
escapes reaches :class:`HatsTree.on_error` (slash commands) or :class:`GuardedItem` (buttons and
selects: discord.py's ``DynamicItem`` callbacks have no ``View.on_error``), which answer the
user privately through :func:`answer_failure`. A store failure (StoreError) is logged in one
WARNING line with its cause; anything unexpected at ERROR with its traceback. Nothing is
changed by a failed request (steps commit atomically).
"""

from __future__ import annotations

import functools
import logging
from typing import Any

import discord
from discord import app_commands

from cogs.monitoring import mark_failed
from cogs.replies import error_text, log_fault, send_private
from data import StoreError

log = logging.getLogger("hats.errors")

__all__ = ["GuardedItem", "HatsTree", "answer_failure"]


async def answer_failure(interaction: discord.Interaction, error: Exception, where: str) -> None:
    """Answer a failed interaction privately (Discord: every interaction must be answered).

    ``where`` names the command or control in the log line. Expected errors get their own
    words; a StoreError one WARNING line; anything else an ERROR with its traceback and "Something
    went wrong on my side; nothing was changed".
    """
    bot: Any = interaction.client
    mark_failed(interaction)  # hats_interactions_total{outcome="error"}
    tr = bot.translator.for_locale(interaction.locale)
    text = error_text(error, tr)
    if isinstance(error, StoreError):
        log_fault(error, where)
    if text is None:
        if isinstance(error, app_commands.CheckFailure):
            text = tr("You cannot use this command here.")
        elif isinstance(error, app_commands.TransformerError):
            text = tr("That value is not valid for this option: {value}.", value=error.value)
        else:
            log.error("%s failed", where, exc_info=error)
            text = tr("Something went wrong on my side; nothing was changed. Please try again.")
    try:
        await send_private(interaction, text)
    except discord.HTTPException as exc:
        log.warning("could not answer a failed interaction (%s): %s", where, exc)


class GuardedItem:
    """Mixin for persistent controls: a failing ``callback`` still gets a private answer.

    Put it first in the bases: ``class HandButton(GuardedItem, discord.ui.DynamicItem[...],
    template=...)``. discord.py only logs an exception of a ``DynamicItem`` callback, which
    leaves the player with "This interaction failed".
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        inner = cls.__dict__.get("callback")
        if inner is None:
            return

        @functools.wraps(inner)
        async def callback(self: Any, interaction: discord.Interaction) -> None:
            try:
                await inner(self, interaction)
            except Exception as exc:
                custom_id = getattr(getattr(self, "item", None), "custom_id", None)
                await answer_failure(interaction, exc, f"control {custom_id or cls.__name__}")

        cls.callback = callback  # type: ignore[attr-defined]


class HatsTree(app_commands.CommandTree):
    """The bot's command tree with a private, translated answer for every failure."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Answer privately (:func:`answer_failure`); Discord: interaction must be answered."""
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
            original = error
        name = interaction.command.qualified_name if interaction.command else "?"
        await answer_failure(interaction, original, f"/{name}")
