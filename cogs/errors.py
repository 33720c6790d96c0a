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
import re
from typing import Any

import discord
from discord import app_commands

from cogs.custom_ids import check_template
from cogs.monitoring import mark_failed
from cogs.replies import log_fault, send_private
from data import StoreError
from texts.replies import (
    activity_only_text,
    error_text,
    invalid_value_text,
    not_here_text,
    unexpected_error_text,
    unknown_control_text,
)

log = logging.getLogger("hats.errors")

__all__ = ["GuardedItem", "HatsTree", "answer_failure", "answer_unknown_control"]

CONTROL_PREFIX = "hats:"
"""Every custom_id of the bot's controls starts with this."""
_templates: list[re.Pattern[str]] = []
"""The templates of every GuardedItem control (filled as their classes are defined)."""


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
            text = not_here_text(tr)
        elif isinstance(error, app_commands.TransformerError):
            text = invalid_value_text(str(error.value), tr)
        else:
            log.error("%s failed", where, exc_info=error)
            text = unexpected_error_text(tr)
    try:
        await send_private(interaction, text)
    except discord.HTTPException as exc:
        log.warning("could not answer a failed interaction (%s): %s", where, exc)


class GuardedItem:
    """Mixin for persistent controls: a failing ``callback`` still gets a private answer.

    Put it first in the bases: ``class HandButton(GuardedItem, discord.ui.DynamicItem[...],
    template=...)``. discord.py only logs an exception of a ``DynamicItem`` callback, which
    leaves the player with "This interaction failed". The template is checked when the class
    is defined (:func:`cogs.custom_ids.check_template`: ids bounded, TypeError otherwise);
    ``from_custom_id`` reads the match with :func:`cogs.custom_ids.fields`.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        template = getattr(cls, "__discord_ui_compiled_template__", None)
        if template is not None:
            check_template(template.pattern)  # ids bounded (issue 29.3): else TypeError here
            if template not in _templates:
                _templates.append(template)
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


async def answer_unknown_control(interaction: discord.Interaction) -> None:
    """Answer a press on a ``hats:`` control that no template reads (issue 19.3).

    A listener of ``on_interaction``. Such a custom_id was never drawn by this bot (a forged one,
    an id too long for the store's int64): it is answered privately like any stale control,
    without a log line. Every other interaction is left to its handler.
    """
    if interaction.type is not discord.InteractionType.component:
        return
    custom_id = (interaction.data or {}).get("custom_id", "")
    if not isinstance(custom_id, str) or not custom_id.startswith(CONTROL_PREFIX):
        return
    if any(template.fullmatch(custom_id) for template in _templates):
        return
    bot: Any = interaction.client
    tr = bot.translator.for_locale(interaction.locale)
    try:
        await send_private(interaction, unknown_control_text(tr))
    except discord.HTTPException as exc:
        log.warning("could not answer an unknown control: %s", exc)


OFFERED_EVERYWHERE = frozenset({"hats play"})
"""Commands a user install may run where the bot cannot act (a DM or group DM between users,
a server without the bot): they open the Activity, which plays there alone (issue 34.2)."""


def bot_can_act(interaction: discord.Interaction) -> bool:
    """Whether the bot can post where ``interaction`` came from.

    A server the bot is in, or the bot's own DMs; not a DM or group DM between users
    (context ``PRIVATE_CHANNEL``), nor a server without the bot (a User Install's command).
    """
    context = getattr(interaction, "context", None)
    if context is not None and context.private_channel:
        return False
    if interaction.guild_id is not None:
        return interaction.client.get_guild(interaction.guild_id) is not None
    return True


class HatsTree(app_commands.CommandTree):
    """The bot's command tree with a private, translated answer for every failure."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Hold ``/hats`` subcommands to where the bot can act (:func:`bot_can_act`).

        :data:`OFFERED_EVERYWHERE` runs anywhere; elsewhere a private answer says what works.
        """
        command = interaction.command
        if command is None or command.qualified_name in OFFERED_EVERYWHERE:
            return True
        if bot_can_act(interaction):
            return True
        bot: Any = interaction.client
        tr = bot.translator.for_locale(interaction.locale)
        await send_private(interaction, activity_only_text(tr))
        return False

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Answer privately (:func:`answer_failure`); Discord: interaction must be answered."""
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
            original = error
        name = interaction.command.qualified_name if interaction.command else "?"
        await answer_failure(interaction, original, f"/{name}")
