"""The shared ``/hats`` command group and the base class of feature cogs.

Every feature cog adds its slash commands under the one ``/hats`` group (discord.py has no
built-in way for several cogs to share a group): :class:`HatsFeature` moves a cog's app
commands into ``bot.hats_group`` when the cog loads and out again when it unloads.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.clock import now
from cogs.replies import log_fault, send_private
from cogs.scope import ELSEWHERE, in_id_range, used_where_it_lives
from data import StoreError
from service import ServiceError
from texts.replies import cooldown_text, error_text

if TYPE_CHECKING:
    from bot import HatsBot
    from data import LobbyRow
    from texts.i18n import Tr

__all__ = ["HatsFeature", "make_hats_group"]


def make_hats_group() -> app_commands.Group:
    """The ``/hats`` group (Discord app contexts and installation types).

    Installed to a server or to a user (User Install), offered in servers, DMs with the bot,
    and DMs and group DMs between users: ``/hats play`` opens the Activity in all of them
    (issue 34.2). Discord sets contexts per top-level command only, so the other subcommands
    are held to where the bot can act by :meth:`cogs.errors.HatsTree.interaction_check`.
    """
    return app_commands.Group(
        name="hats",
        description="Play the card game Hats",
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
    )


class HatsFeature(commands.Cog):
    """A feature cog whose slash commands are subcommands of ``/hats``."""

    def __init__(self, bot: HatsBot) -> None:
        self.bot = bot
        self._hats_names: list[str] = []

    async def cog_load(self) -> None:
        """Move this cog's app commands under ``/hats`` instead of the top level."""
        group = self.bot.hats_group
        self._hats_names = [command.name for command in self.__cog_app_commands__]
        for command in self.__cog_app_commands__:
            group.add_command(command)
        self.__cog_app_commands__ = []

    async def cog_unload(self) -> None:
        """Take this cog's commands and subcommand groups out of ``/hats`` again."""
        group = self.bot.hats_group
        for name in getattr(self, "_hats_names", ()):
            group.remove_command(name)

    def tr(self, interaction: discord.Interaction) -> Tr:
        """The translator for the interaction's locale (see texts.i18n)."""
        return self.bot.translator.for_locale(interaction.locale)

    def tr_for(self, user_id: int, guild_id: int | None = None) -> Tr:
        """The translator for a user's last known locale (DMs have no interaction).

        A user the bot has not seen yet (no interaction since the start) gets the language
        of the server ``guild_id`` (their game's), which is a better guess than English.
        """
        known = self.bot.locales.get(user_id)
        if known is None and guild_id is not None:
            return self.bot.public_tr(guild_id)
        return self.bot.translator.for_locale(known)

    def public_tr(self, guild_id: int | None) -> Tr:
        """The translator for public messages in a server (see ``HatsBot.public_tr``)."""
        return self.bot.public_tr(guild_id)

    def pictures_on(self, guild_id: int | None) -> bool:
        """Whether the server's public messages show pictures (``/hats settings pictures``).

        The table, the end screen and replays; off when the bot draws none at all.
        """
        return self.bot.pictures.enabled and self.bot.servers.option(guild_id).pictures

    async def guarded(
        self, interaction: discord.Interaction, work: Callable[[], Awaitable[object]]
    ) -> None:
        """Run ``work``; a refused request (ServiceError) gets a private answer instead.

        So does a store failure (StoreError: nothing was saved), logged in one WARNING line.
        """
        try:
            await work()
        except ServiceError as exc:
            tr = self.tr(interaction)
            await send_private(interaction, tr(exc.msgid, **exc.params))
        except StoreError as exc:
            log_fault(exc, f"{type(self).__name__} request")
            await send_private(interaction, error_text(exc, self.tr(interaction)))

    async def may_post_publicly(self, interaction: discord.Interaction) -> bool:
        """Take the channel's public post (``cogs.cooldowns``), or answer privately and say no.

        Call it right before a command posts in the channel on request; outside a server
        nothing is public and it always says yes.
        """
        if interaction.guild_id is None:
            return True
        left = self.bot.public_posts.retry_after(interaction.channel_id or 0, now())
        if left is None:
            return True
        tr = self.tr(interaction)
        await send_private(interaction, cooldown_text(max(left, 1.0), tr))
        return False

    async def lobby_for_control(self, interaction: discord.Interaction, lobby_id: int) -> LobbyRow:
        """The lobby of a control (button, select); ServiceError when closed or elsewhere.

        A control acts only in the server and channel where its lobby lives
        (``cogs.scope.used_where_it_lives``, issue 19.3).
        """
        row = await self.bot.games.lobby(lobby_id) if in_id_range(lobby_id) else None
        if row is None:
            raise ServiceError("This lobby is closed.")
        if not used_where_it_lives(interaction, row.guild_id, row.channel_id):
            raise ServiceError(ELSEWHERE)
        return row

    async def lobby_here(self, interaction: discord.Interaction) -> LobbyRow:
        """The open lobby of the interaction's channel; ServiceError says what to do if none."""
        if interaction.guild is None:
            raise ServiceError("Lobbies live in server channels: use this command in one.")
        row = await self.bot.games.lobby_in_channel(interaction.channel_id or 0)
        if row is None:
            raise ServiceError("There is no open lobby in this channel. Open one with /hats new.")
        return row
