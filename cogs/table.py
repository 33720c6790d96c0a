"""The public table: one embed in the game's channel, edited after every step; the final scores.

Only the public observation is ever rendered here ("Who may see what"), so no hand card, black
hat face or swapped card can reach the channel. Edits are coalesced per game: while one edit
is in flight or the channel is over Discord's edit budget (cogs.edits), further steps only
replace the waiting edit, and a state the message already shows is never sent again.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import HatsFeature
from cogs.controls import TableButton, TableOp
from cogs.pictures import edit_kwargs, send_kwargs
from cogs.render import end_embed, fit_embed, rules_embeds, table_embed
from cogs.replies import labels_for, send_private
from engine import Event, to_record
from service import GameSession, ServiceError

if TYPE_CHECKING:
    from bot import HatsBot
    from cogs.i18n import Tr

log = logging.getLogger("hats.table")

TABLE_ROLE = "table"
END_ROLE = "end"


def record_file(record: dict, game_id: int) -> discord.File:
    """The ``hats-record/1`` JSON of a game as an attachment ``hats-game-<id>.json``."""
    data = json.dumps(record, ensure_ascii=False, indent=1).encode()
    return discord.File(io.BytesIO(data), filename=f"hats-game-{game_id}.json")


def drawn_state(session: GameSession, language: str) -> tuple:
    """What the table shows: the steps applied, the seats (AI, away, kicked), the language.

    ``language`` is the public language (``/hats language`` or the server's).
    """
    seats = tuple((s.user_id, s.ai_level, s.away) for s in session.seats)
    return (session.version, seats, language)


class TableCog(HatsFeature, name="TableCog"):
    """Posts and keeps up to date the public table, and posts the final scores."""

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)
        self._shown: dict[int, tuple] = {}  # game id -> drawn_state the table shows

    def table_view(self, session: GameSession) -> discord.ui.View | None:
        """Show my hand / Rules buttons (none once the game is over)."""
        if session.game.is_over:
            return None
        tr = self.public_tr(session.row.guild_id)
        view = discord.ui.View(timeout=None)
        hand = TableButton(session.id, TableOp.HAND)
        hand.item.label = tr("Show my hand")
        hand.item.style = discord.ButtonStyle.primary
        hand.item.emoji = "🎩"
        rules = TableButton(session.id, TableOp.RULES)
        rules.item.label = tr("Rules")
        rules.item.style = discord.ButtonStyle.secondary
        view.add_item(hand)
        view.add_item(rules)
        return view

    def table_embed(self, session: GameSession) -> discord.Embed:
        """The public table of a game (public observation only)."""
        tr = self.public_tr(session.row.guild_id)
        return table_embed(
            session.game.public_view(),
            labels_for(session, self.bot.names, tr),
            tr,
            game_id=session.id,
            auto_played=session.auto_played,
        )

    def _drawn(self, session: GameSession) -> tuple:
        """The :func:`drawn_state` of ``session`` in its table's (public) language."""
        return drawn_state(session, self.public_tr(session.row.guild_id).locale)

    async def table_picture(self, session: GameSession, embed: discord.Embed) -> list[discord.File]:
        """The table picture for ``embed`` (its image set), or [] if it could not be drawn."""
        tr = self.public_tr(session.row.guild_id)  # the table's language, as its embed
        return await self.bot.pictures.table(session, self.bot.names, tr, embed)

    async def post_table(self, session: GameSession) -> discord.Message:
        """Post the table as a new message in the game's channel and keep that one updated."""
        channel = self.bot.get_partial_messageable(session.channel_id)
        state = self._drawn(session)
        embed = self.table_embed(session)
        files = await self.table_picture(session, embed)
        message = await channel.send(
            embed=embed, view=self.table_view(session), **send_kwargs(files)
        )
        self._shown[session.id] = state
        old = session.message(TABLE_ROLE)
        await self.bot.games.remember_message(session, TABLE_ROLE, session.channel_id, message.id)
        if old is not None and old.message_id is not None:
            with contextlib.suppress(discord.HTTPException):  # the old one may be gone
                await channel.get_partial_message(old.message_id).edit(view=None)
        return message

    async def refresh_table(self, session: GameSession) -> None:
        """Edit the table message to the current state, coalesced per game.

        Nothing is sent when the message already shows this state (several steps committed
        together, e.g. a main action and the automatic end of the turn). Edits go through
        ``bot.edit_gate`` (at most 5 per 5 s per channel; when over, the latest state wins).
        """
        if self._shown.get(session.id) == self._drawn(session):
            return
        await self.bot.edit_gate.submit(
            session.channel_id, (TABLE_ROLE, session.id), lambda: self._edit_table(session)
        )

    async def _edit_table(self, session: GameSession) -> None:
        drawable = await self.bot.games.drawable(session)
        if drawable is None:
            return  # another process committed a later step: it edits the table
        session = drawable
        state = self._drawn(session)
        if self._shown.get(session.id) == state:
            return
        self._shown[session.id] = state
        current = session.message(TABLE_ROLE)
        if current is None or current.message_id is None:
            await self.post_table(session)
            return
        channel = self.bot.get_partial_messageable(session.channel_id)
        embed = self.table_embed(session)
        files = await self.table_picture(session, embed)
        try:
            await channel.get_partial_message(current.message_id).edit(
                embed=embed, view=self.table_view(session), **edit_kwargs(files)
            )
        except discord.NotFound:
            await self.post_table(session)
        except discord.HTTPException as exc:
            self._shown.pop(session.id, None)
            log.warning("could not edit the table of game %d: %s", session.id, exc)

    # ------------------------------------------------------------------ events
    async def announce_start(self, session: GameSession) -> None:
        """Outbox ``start``: post the first table (unless this game's table is posted)."""
        if session.message(TABLE_ROLE) is None:
            await self.post_table(session)

    @commands.Cog.listener()
    async def on_hats_step(
        self, session: GameSession, event: Event, actor: str, origin: int | None
    ) -> None:
        """Redraw the table after every committed step."""
        await self.refresh_table(session)

    async def announce_end(self, session: GameSession) -> None:
        """Outbox ``end``: post the final scores, the record attached, a Rematch button (once)."""
        if session.message(END_ROLE) is not None:
            return
        tr = self.public_tr(session.row.guild_id)
        embed = end_embed(
            session.game.public_view(),
            labels_for(session, self.bot.names, tr),
            tr,
            game_id=session.id,
        )
        await self._add_rating_changes(session, embed, tr)
        view = discord.ui.View(timeout=None)
        rematch = TableButton(session.id, TableOp.REMATCH)
        rematch.item.label = tr("Rematch")
        rematch.item.style = discord.ButtonStyle.success
        rematch.item.emoji = "🔁"
        view.add_item(rematch)
        channel = self.bot.get_partial_messageable(session.channel_id)
        files = [record_file(to_record(session.game), session.id)]
        files += await self.bot.pictures.end(session, self.bot.names, tr, embed)
        message = await channel.send(embed=embed, view=view, files=files)
        await self.bot.games.remember_message(session, END_ROLE, session.channel_id, message.id)

    async def _add_rating_changes(self, session: GameSession, embed: discord.Embed, tr: Tr) -> None:
        """Rate the game (HistoryCog) and add its humans' rating changes to the final scores."""
        history: Any = self.bot.get_cog("HistoryCog")
        if history is None:
            return
        try:
            field = history.end_screen_field(await history.after_game(session), tr)
        except Exception:  # the final scores must go out even if the ratings fail
            log.exception("could not rate game %d", session.id)
            return
        if field is not None:
            embed.add_field(name=field[0], value=field[1], inline=False)
            fit_embed(embed)

    # ------------------------------------------------------------------ commands and buttons
    @app_commands.command(name="table", description="Post the public table again, below")
    async def table(self, interaction: discord.Interaction) -> None:
        """``/hats table``: repost the table; the new message is the one kept up to date."""
        tr = self.tr(interaction)
        session = None
        if interaction.guild is not None:
            session = await self.bot.games.session_in_channel(interaction.channel_id or 0)
        if session is None:
            await send_private(
                interaction, tr("There is no game in this channel. Open a lobby with /hats new.")
            )
            return
        await interaction.response.send_message(tr("Here is the table."), ephemeral=True)
        await self.post_table(session)

    async def on_table_button(
        self, interaction: discord.Interaction, game_id: int, op: TableOp
    ) -> None:
        """Show my hand (ephemeral controls), Rules (ephemeral), Rematch (new lobby)."""
        tr = self.tr(interaction)
        if op is TableOp.RULES:
            await send_private(interaction, embeds=rules_embeds(tr))
            return
        if op is TableOp.REMATCH:
            lobby_cog = self.bot.get_cog("LobbyCog")
            await lobby_cog.rematch(interaction, game_id)  # type: ignore[union-attr]
            return
        session = await self.bot.games.session(game_id)
        if session is None or session.game.is_over:
            await send_private(interaction, tr("This game is over."))
            return
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            await send_private(
                interaction,
                tr("You are not playing in this game. You can follow it here on the table."),
            )
            return
        play: Any = self.bot.get_cog("PlayCog")
        await play.show_hand(interaction, session, seat)


async def setup(bot: HatsBot) -> None:
    """Load the cog and register the table buttons."""
    bot.add_dynamic_items(TableButton)
    await bot.add_cog(TableCog(bot))


__all__ = ["ServiceError", "TableCog", "record_file", "setup"]
