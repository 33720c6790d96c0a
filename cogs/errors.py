"""The last layer of error handling: the command tree's ``on_error``.

Layers: each cog answers the errors it expects (a refused move, a wrong card) privately; what
escapes reaches :class:`HatsTree.on_error`, which answers the user privately and logs the
error with its traceback. Nothing is changed by a failed command (steps commit atomically).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.replies import error_text, send_private

if TYPE_CHECKING:
    from bot import HatsBot

log = logging.getLogger("hats.errors")


class HatsTree(app_commands.CommandTree):
    """The bot's command tree with a private, translated answer for every failure."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Answer privately; log unexpected errors (Discord: interaction must be answered)."""
        bot: HatsBot = interaction.client  # type: ignore[assignment]
        tr = bot.translator.for_locale(interaction.locale)
        original = getattr(error, "original", error)
        text = error_text(original, tr)
        if text is None:
            if isinstance(error, app_commands.CheckFailure):
                text = tr("You cannot use this command here.")
            elif isinstance(error, app_commands.TransformerError):
                text = tr("That value is not valid for this option: {value}.", value=error.value)
            else:
                log.error(
                    "command %s failed",
                    interaction.command.qualified_name if interaction.command else "?",
                    exc_info=original,
                )
                text = tr("Something went wrong on my side; nothing was changed. Please try again.")
        try:
            await send_private(interaction, text)
        except discord.HTTPException:
            log.warning("could not answer a failed interaction")
