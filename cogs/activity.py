"""Launching the Activity (the live table, ``web/``): ``/hats play``, Open the table, Launch.

Three ways open the Activity in the channel where a player is (issue 28, part 2):

- ``/hats play``;
- the **Open the table** button under the lobby message and the table message (it rides on
  messages the bot edits anyway: no REST call of its own);
- the app's Entry Point command (Discord's "Launch" in the App Launcher, command type 4
  ``PRIMARY_ENTRY_POINT`` with ``handler`` 2 ``DISCORD_LAUNCH_ACTIVITY``: Discord opens the
  Activity itself, the bot never sees that interaction).

The first two answer the interaction with ``LAUNCH_ACTIVITY`` (interaction callback type 12,
discord.py's :meth:`discord.InteractionResponse.launch_activity`), a free interaction response.
They are offered only when this bot runs the Activity: ``HATS_WEB_PORT`` and
``DISCORD_CLIENT_SECRET`` set (sign-in needs the secret), not in ``--local`` mode. In a DM the
Activity has no channel table, so the bot says so instead (docs/players.md, "The Activity").

The Entry Point command is not a discord.py command: :func:`entry_point_payload` builds its
payload (translated from ``commands.po`` like every command) for the bot's global sync,
which must carry it (Discord's bulk overwrite replaces every global command, so a payload
without it would remove or refuse to remove it: ``HatsBot.sync_commands``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import HatsFeature
from cogs.command_i18n import COMMAND_LOCALES, CommandString, CommandTranslator
from cogs.errors import GuardedItem
from cogs.replies import send_private
from texts.controls import open_table_label
from texts.replies import activity_not_offered_text

if TYPE_CHECKING:
    from bot import HatsBot
    from data import LobbyRow
    from texts.i18n import Tr

__all__ = [
    "ENTRY_POINT_DESCRIPTION",
    "ENTRY_POINT_NAME",
    "ENTRY_POINT_TYPE",
    "LAUNCH_BY_DISCORD",
    "ActivityButton",
    "ActivityCog",
    "entry_point_payload",
    "entry_point_strings",
]

OPEN_ID = "hats:open"
"""The custom_id of the Open the table button (the channel is the interaction's)."""
ENTRY_POINT_TYPE = 4
"""Discord's application command type ``PRIMARY_ENTRY_POINT``."""
LAUNCH_BY_DISCORD = 2
"""Discord's entry point handler ``DISCORD_LAUNCH_ACTIVITY``: Discord opens the Activity."""
ENTRY_POINT_NAME = "launch"
"""The Entry Point command's name (Discord's default one is called "Launch" too)."""
ENTRY_POINT_DESCRIPTION = "Open the live table of Hats in this channel"


class ActivityButton(GuardedItem, discord.ui.DynamicItem[discord.ui.Button], template=OPEN_ID):
    """Open the table: launches the Activity in the message's channel (LAUNCH_ACTIVITY)."""

    def __init__(self, button: discord.ui.Button | None = None) -> None:
        super().__init__(button or discord.ui.Button(custom_id=OPEN_ID))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> ActivityButton:
        """Rebuild the button from its custom_id (it carries nothing else)."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to ActivityCog."""
        cog: Any = interaction.client.get_cog("ActivityCog")  # type: ignore[attr-defined]
        await cog.launch(interaction)


class ActivityCog(HatsFeature, name="ActivityCog"):
    """``/hats play`` and the Open the table button: the Activity in this channel."""

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)

    @property
    def offered(self) -> bool:
        """Whether this bot runs the Activity (web server and Discord sign-in configured)."""
        settings = self.bot.settings
        return settings.web_port is not None and bool(settings.client_secret) and not settings.local

    @app_commands.command(
        name="play", description="Open the live table: the game and your hand on one screen"
    )
    async def play(self, interaction: discord.Interaction) -> None:
        """``/hats play``: launch the Activity here (LAUNCH_ACTIVITY)."""
        await self.launch(interaction)

    async def launch(self, interaction: discord.Interaction) -> None:
        """Answer ``interaction`` with LAUNCH_ACTIVITY (callback type 12), or say why not.

        Not offered by this bot: a private answer that says what to do instead. In a DM or
        group DM the Activity plays alone (issue 34.2, docs/activity-places.md).
        """
        tr = self.tr(interaction)
        if not self.offered:
            await send_private(interaction, activity_not_offered_text(tr))
            return
        await interaction.response.launch_activity()

    def open_button(self, tr: Tr) -> ActivityButton | None:
        """The Open the table button (None when the Activity is not offered)."""
        if not self.offered:
            return None
        button = ActivityButton()
        button.item.label = open_table_label(tr)
        button.item.style = discord.ButtonStyle.secondary
        button.item.emoji = "📱"
        return button

    def entry_point(self, translator: CommandTranslator | None) -> dict[str, Any] | None:
        """The Entry Point command where the Activity is offered, else None.

        For the global sync (``HatsBot.command_payload``).
        """
        return entry_point_payload(translator) if self.offered else None

    def lobby_items(self, row: LobbyRow, tr: Tr) -> list[discord.ui.Item]:
        """LobbyCog hook: Open the table under the lobby."""
        button = self.open_button(tr)
        return [button] if button is not None else []


def entry_point_strings() -> dict[CommandString, set[str]]:
    """The Entry Point command's translatable strings (``scripts/extract_commands.py``)."""
    return {
        CommandString("command name", ENTRY_POINT_NAME): {"(entry point)"},
        CommandString("command description", ENTRY_POINT_DESCRIPTION): {"(entry point)"},
    }


def entry_point_payload(
    translator: CommandTranslator | None, existing: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The Entry Point command as Discord's bulk overwrite wants it (global commands only).

    ``existing``: the app's entry point as Discord has it (its name is kept: the owner may
    have renamed it in the Developer Portal, and an app has only one). Names and descriptions
    are localized from ``commands.po`` (Discord: Localization).
    """
    name = str(existing.get("name")) if existing and existing.get("name") else ENTRY_POINT_NAME
    payload: dict[str, Any] = {
        "name": name,
        "description": ENTRY_POINT_DESCRIPTION,
        "type": ENTRY_POINT_TYPE,
        "handler": LAUNCH_BY_DISCORD,
        # servers, DMs with the bot, DMs and group DMs (issue 34.2: the Activity plays there
        # alone); installed to a server or to a user (User Install, docs/activity-places.md)
        "contexts": [0, 1, 2],
        "integration_types": [0, 1],
    }
    if translator is not None:
        names: dict[str, str] = {}
        descriptions: dict[str, str] = {}
        for locale in COMMAND_LOCALES:
            if name == ENTRY_POINT_NAME:
                local_name = translator.lookup(
                    locale, CommandString("command name", ENTRY_POINT_NAME), None
                )
                if local_name:
                    names[locale.value] = local_name
            text = translator.lookup(
                locale, CommandString("command description", ENTRY_POINT_DESCRIPTION), None
            )
            if text:
                descriptions[locale.value] = text
        if names:
            payload["name_localizations"] = names
        if descriptions:
            payload["description_localizations"] = descriptions
    return payload


async def setup(bot: commands.Bot) -> None:
    """Load the cog (discord.py extension entry point) and register the persistent button."""
    bot.add_dynamic_items(ActivityButton)
    await bot.add_cog(ActivityCog(bot))  # type: ignore[arg-type]
