"""``/hats rules`` (the rules in our own words) and ``/hats record`` (a finished game's record)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import HatsFeature
from cogs.replies import send_private
from cogs.rules_layout import rules_views
from cogs.scope import game_visible
from cogs.style import COLOUR
from cogs.table import record_file
from texts.records import (
    no_finished_game_text,
    no_record_text,
    not_your_game_text,
    record_caption,
)
from texts.tournament import rules_section

if TYPE_CHECKING:
    from bot import HatsBot


class InfoCog(HatsFeature, name="InfoCog"):
    """Rules and game records."""

    @app_commands.command(name="rules", description="The rules and the scoring, in short")
    async def rules(self, interaction: discord.Interaction) -> None:
        """``/hats rules``: privately, so the channel stays clean; the tournaments' rules after."""
        tr = self.tr(interaction)
        for view in rules_views(tr):  # one message in every language
            await send_private(interaction, view=view)
        tournament = discord.ui.Container(accent_colour=COLOUR)
        tournament.add_item(discord.ui.TextDisplay(rules_section(tr)))
        extra = discord.ui.LayoutView(timeout=None)
        extra.add_item(tournament)
        await send_private(interaction, view=extra)  # the tournament rules, apart

    @app_commands.command(
        name="record", description="Download the record (hats-record/1 JSON) of a finished game"
    )
    @app_commands.describe(
        game="A game id; default: the last finished game in this channel",
        share="Post the record in the channel for everyone (default: only you see it)",
    )
    async def record(
        self, interaction: discord.Interaction, game: int | None = None, share: bool = False
    ) -> None:
        """``/hats record [game] [share]``: the game record (``docs/GAME_RECORD.md``) as a file.

        Private (ephemeral) unless ``share`` is True, then posted in the channel. The end
        screen attaches the same file publicly on its own. In a server only that server's
        games, in a DM only the user's own (``cogs.scope.game_visible``, like ``/hats replay``).
        """
        tr = self.tr(interaction)
        store = self.bot.store
        if game is None:
            row = await store.results.last_finished_game(interaction.channel_id or 0)
            if row is None:
                await send_private(
                    interaction,
                    no_finished_game_text(tr),
                )
                return
            game = row.id
        guild_id = interaction.guild_id
        if not await game_visible(store, game, guild_id=guild_id, user_id=interaction.user.id):
            await send_private(
                interaction,
                not_your_game_text(tr, game, in_server=guild_id is not None),
            )
            return
        record = await store.results.get_record(game)
        if record is None:
            await send_private(
                interaction,
                no_record_text(tr, game),
            )
            return
        if share and not await self.may_post_publicly(interaction):
            return
        if interaction.guild_id is not None:  # a public answer: the server's language
            tr = self.public_tr(interaction.guild_id)
        await interaction.response.send_message(
            record_caption(tr, game),
            file=record_file(record, game),
            ephemeral=not share,
        )


async def setup(bot: HatsBot) -> None:
    """Load the cog."""
    await bot.add_cog(InfoCog(bot))
