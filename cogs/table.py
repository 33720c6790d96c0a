"""The public table: one Components V2 message per game, edited after every step.

When the game ends the same message becomes the final result.

The message is a ``discord.ui.LayoutView``: a container with whose turn, the table picture at
full message width (a media gallery; its alt text describes the whole picture), what just
happened (at most 3 lines) and the Show my hand / Rules buttons. With pictures off for the
server (``/hats settings pictures``) a compact text layout replaces the picture. Only the
public observation is ever rendered here ("Who may see what"), so no hand card, black
hat face or swapped card can reach the channel. Edits are coalesced per game: while one edit
is in flight or the channel is over Discord's edit budget (cogs.edits), further steps only
replace the waiting edit, and a state the message already shows is never sent again.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import HatsFeature
from cogs.controls import TableButton, TableOp
from cogs.learn import posts_table
from cogs.pictures import END_FILE, TABLE_FILE, edit_kwargs, send_kwargs
from cogs.replies import send_private
from cogs.rules_layout import rules_views
from cogs.scope import ELSEWHERE, in_id_range, used_where_it_lives
from cogs.style import COLOUR
from engine import ActionKind, Event, to_record
from service import GameSession, ServiceError
from texts.coach import hints_line
from texts.controls import table_button_labels, table_refusal_text
from texts.end import end_alt_text, end_texts
from texts.replies import labels_for
from texts.table import table_alt_text, table_texts

if TYPE_CHECKING:
    from bot import HatsBot
    from texts.i18n import Tr

log = logging.getLogger("hats.table")

TABLE_ROLE = "table"
END_ROLE = "end"
TURN_END_HOLD = 1.5
"""Seconds the table's edit for the end of a turn waits for the next move (issues 29, 36.7).

An end of turn changes whose turn it is; when the next move comes within this time, one edit
shows both (a move is never held). Everyone else, spectators included, reads the table, so the
change of turn is on it within 2 s: this hold plus one tick of the edit gate
(:data:`cogs.edits.TICK`). A longer hold (it was 10 s) saved little at a realistic pace."""


def record_file(record: dict, game_id: int) -> discord.File:
    """The ``hats-record/1`` JSON of a game as an attachment ``hats-game-<id>.json``."""
    data = json.dumps(record, ensure_ascii=False, indent=1).encode()
    return discord.File(io.BytesIO(data), filename=f"hats-game-{game_id}.json")


def drawn_state(session: GameSession, language: str, pictures: bool = True) -> tuple:
    """What the table shows: the steps applied, the seats (AI, away, kicked), the language.

    ``language`` is the public language (``/hats settings language`` or the server's);
    ``pictures``: the server shows pictures (``/hats settings pictures``).
    """
    seats = tuple((s.user_id, s.ai_level, s.away) for s in session.seats)
    return (session.version, seats, language, pictures)


def _headed(head: str, picture: str | None, alt: str) -> discord.ui.Container:
    """A V2 container with ``head`` and the attached ``picture`` at full message width.

    ``picture``: a file name (None: no picture), shown in a media gallery with its ``alt``.
    """
    container = discord.ui.Container(accent_colour=COLOUR)
    container.add_item(discord.ui.TextDisplay(head))
    if picture is not None:
        item = discord.MediaGalleryItem(f"attachment://{picture}", description=alt)
        container.add_item(discord.ui.MediaGallery(item))
    return container


class TableCog(HatsFeature, name="TableCog"):
    """Posts and keeps up to date the public table, and posts the final scores."""

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)
        self._shown: dict[int, tuple] = {}  # game id -> drawn_state the table shows

    def _buttons(self, session: GameSession, tr: Tr) -> discord.ui.ActionRow:
        """Show my hand / Rules, and Open the table where the bot runs the Activity.

        Persistent DynamicItems (``cogs.activity`` for the last one).
        """
        hand = TableButton(session.id, TableOp.HAND)
        hand.item.label = table_button_labels(tr)["hand"]
        hand.item.style = discord.ButtonStyle.primary
        hand.item.emoji = "🎩"
        rules = TableButton(session.id, TableOp.RULES)
        rules.item.label = table_button_labels(tr)["rules"]
        rules.item.style = discord.ButtonStyle.secondary
        row = discord.ui.ActionRow(hand, rules)
        activity: Any = self.bot.get_cog("ActivityCog")
        opener = activity.open_button(tr) if activity is not None else None
        if opener is not None:
            row.add_item(opener)
        return row

    async def table_message(
        self, session: GameSession
    ) -> tuple[discord.ui.LayoutView, list[discord.File]]:
        """The public table (public observation only): its V2 layout and its picture file.

        Without a picture (pictures off, or drawing failed) the compact text layout shows
        the board and the players instead.
        """
        tr = self.public_tr(session.row.guild_id)
        seats = labels_for(session, self.bot.names, tr)
        obs = session.game.public_view()
        files: list[discord.File] = []
        if self.pictures_on(session.row.guild_id):
            alt = table_alt_text(obs, seats, tr)  # the picture's words, not all the texts
            files = await self.bot.pictures.table(session, self.bot.names, tr, description=alt)
        texts = table_texts(
            obs,
            seats,
            tr,
            game_id=session.id,
            pictures=bool(files),
            auto_played=session.auto_played,
        )
        container = _headed(texts.head, TABLE_FILE if files else None, texts.alt)
        if texts.state:
            container.add_item(discord.ui.TextDisplay(texts.state))
        if texts.recent:
            container.add_item(discord.ui.TextDisplay(texts.recent))
        hints = hints_line(session.row.settings, tr)
        if hints is not None:  # one short line at the foot of the table
            container.add_item(discord.ui.TextDisplay(f"-# {hints}"))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(container)
        view.add_item(self._buttons(session, tr))  # the message's full width: one row
        return view, files

    def _drawn(self, session: GameSession) -> tuple:
        """The :func:`drawn_state` of ``session`` in its table's (public) language."""
        guild_id = session.row.guild_id
        return drawn_state(session, self.public_tr(guild_id).locale, self.pictures_on(guild_id))

    async def post_table(self, session: GameSession) -> discord.Message:
        """Post the table as a new message in the game's channel and keep that one updated."""
        channel = self.bot.get_partial_messageable(session.channel_id)
        state = self._drawn(session)
        view, files = await self.table_message(session)
        message = await channel.send(view=view, **send_kwargs(files))
        self._shown[session.id] = state
        old = session.message(TABLE_ROLE)
        await self.bot.games.remember_message(session, TABLE_ROLE, session.channel_id, message.id)
        if old is not None and old.message_id is not None:
            with contextlib.suppress(discord.HTTPException):  # the old one may be gone
                await channel.get_partial_message(old.message_id).delete()
        return message

    async def refresh_table(self, session: GameSession, *, hold: float = 0.0) -> None:
        """Edit the table message to the current state, coalesced per game.

        ``hold`` (seconds): let a newer step within that time replace this edit (the end of
        a turn, :data:`TURN_END_HOLD`); a step without a hold sends at once.

        Nothing is sent when the message already shows this state (several steps committed
        together, e.g. a main action and the automatic end of the turn), nor once the game
        is over (:meth:`announce_end` turns the table into the final result). Edits go
        through ``bot.edit_gate`` (at most 5 per 5 s per channel; when over, the latest
        state wins). A practice game in DMs has no table (:func:`cogs.learn.posts_table`).
        """
        if (
            not posts_table(session)
            or session.game.is_over
            or self._shown.get(session.id) == self._drawn(session)
        ):
            return
        await self.bot.edit_gate.submit(
            session.channel_id,
            (TABLE_ROLE, session.id),
            lambda: self._edit_table(session),
            hold=hold,
        )

    async def _edit_table(self, session: GameSession) -> None:
        drawable = await self.bot.games.drawable(session)
        if drawable is None:
            return  # another process committed a later step: it edits the table
        session = drawable
        if session.game.is_over:
            return  # the end screen replaces the table (announce_end)
        state = self._drawn(session)
        if self._shown.get(session.id) == state:
            return
        self._shown[session.id] = state
        current = session.message(TABLE_ROLE)
        if current is None or current.message_id is None:
            await self.post_table(session)
            return
        channel = self.bot.get_partial_messageable(session.channel_id)
        view, files = await self.table_message(session)
        try:
            await channel.get_partial_message(current.message_id).edit(
                view=view, **edit_kwargs(files)
            )
        except discord.NotFound:
            await self.post_table(session)
        except discord.HTTPException as exc:
            self._shown.pop(session.id, None)
            log.warning("could not edit the table of game %d: %s", session.id, exc)

    # ------------------------------------------------------------------ events
    async def announce_start(self, session: GameSession) -> None:
        """Outbox ``start``: post the first table (unless this game's table is posted).

        A practice game in DMs has none (:func:`cogs.learn.posts_table`).
        """
        if session.message(TABLE_ROLE) is None and posts_table(session):
            await self.post_table(session)

    @commands.Cog.listener()
    async def on_hats_step(
        self, session: GameSession, event: Event, actor: str, origin: int | None
    ) -> None:
        """Redraw the table after every committed step.

        The end of a turn waits for the next move a little (:data:`TURN_END_HOLD`); a move is
        shown at once.
        """
        hold = TURN_END_HOLD if event.kind is ActionKind.END_TURN else 0.0
        await self.refresh_table(session, hold=hold)

    async def announce_end(self, session: GameSession) -> None:
        """Outbox ``end``: the table message becomes the final result (once).

        The final result: who won, the end picture (or the compact results), the rating
        changes or why the game is not rated, the record attached and a Rematch button. It
        replaces the table in place (one edit, no provisional scores left above it); a new
        message only when the table is gone. A practice game's end is LearnCog's (the coach's
        end notes, no rating, no rematch).
        """
        if session.message(END_ROLE) is not None or session.practice:
            return
        view, files = await self.end_message(session)
        channel = self.bot.get_partial_messageable(session.channel_id)
        table = session.message(TABLE_ROLE)
        message_id = None
        # an edit of the channel like the table's, within its edit budget (cogs.edits)
        has_table = table is not None and table.message_id is not None
        if has_table and self.bot.edit_gate.take(session.channel_id):
            try:
                await channel.get_partial_message(table.message_id).edit(
                    view=view, attachments=files
                )
                message_id = table.message_id
            except discord.HTTPException as exc:
                log.info("the table of game %d cannot become its result: %s", session.id, exc)
                for file in files:
                    file.reset()
        if message_id is None:
            message_id = (await channel.send(view=view, files=files)).id
            if has_table:  # no stale table above the result
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(table.message_id).delete()
        self._shown.pop(session.id, None)
        await self.bot.games.remember_message(session, END_ROLE, session.channel_id, message_id)

    async def end_message(
        self, session: GameSession
    ) -> tuple[discord.ui.LayoutView, list[discord.File]]:
        """The final result as a V2 layout and its files (the end picture, the record)."""
        return await self.end_layout(session, self.public_tr(session.row.guild_id))

    async def end_layout(
        self,
        session: GameSession,
        tr: Tr,
        *,
        coach: Callable[[bool], str] | None = None,
    ) -> tuple[discord.ui.LayoutView, list[discord.File]]:
        """A finished game's result as a V2 layout in ``tr``'s language, and its files.

        One container: who won and what decided, the end picture at full width (its alt text,
        :func:`end_alt_text`, built once) or the compact results, then the rating changes or
        why the game is not rated, the record attached, and a Rematch button below. With
        ``coach`` (a practice game's end, :class:`cogs.learn.LearnCog`): the coach's end notes,
        ``coach(results_shown)`` (True when the compact results are shown: pictures off or not
        drawn), in a text display of their own instead of ratings, record and Rematch
        (practice games are never rated nor kept).
        """
        seats = labels_for(session, self.bot.names, tr)
        obs = session.game.public_view()
        humans = sum(1 for s in session.seats if s.user_id is not None)
        alt = end_alt_text(obs, seats, tr, game_id=session.id)
        files: list[discord.File] = []
        if self.pictures_on(session.row.guild_id):
            files = await self.bot.pictures.end(session, self.bot.names, tr, description=alt)
        texts = end_texts(
            obs, seats, tr, game_id=session.id, pictures=bool(files), humans=humans, alt=alt
        )
        container = _headed(texts.head, END_FILE if files else None, texts.alt)
        if texts.results:
            container.add_item(discord.ui.TextDisplay(texts.results))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(container)
        if coach is not None:
            container.add_item(discord.ui.TextDisplay(coach(texts.results is not None)))
            return view, files
        ratings = await self._rating_changes(session, tr)
        if texts.unrated:
            container.add_item(discord.ui.TextDisplay(f"-# {texts.unrated}"))
        elif ratings:
            container.add_item(discord.ui.TextDisplay(ratings))
        record = record_file(to_record(session.game), session.id)
        container.add_item(discord.ui.File(f"attachment://{record.filename}"))
        rematch = TableButton(session.id, TableOp.REMATCH)
        rematch.item.label = table_button_labels(tr)["rematch"]
        rematch.item.style = discord.ButtonStyle.success
        rematch.item.emoji = "🔁"
        view.add_item(discord.ui.ActionRow(rematch))
        return view, [record, *files]

    async def _rating_changes(self, session: GameSession, tr: Tr) -> str | None:
        """Rate the game (HistoryCog): its humans' rating changes as text, or None."""
        history: Any = self.bot.get_cog("HistoryCog")
        if history is None:
            return None
        try:
            field = history.end_screen_field(await history.after_game(session), tr)
        except Exception:  # the final result must go out even if the ratings fail
            log.exception("could not rate game %d", session.id)
            return None
        if field is None:
            return None
        return f"**{field[0]}**\n{field[1]}"

    # ------------------------------------------------------------------ commands and buttons
    @app_commands.command(name="table", description="Post the public table again, below")
    async def table(self, interaction: discord.Interaction) -> None:
        """``/hats table``: repost the table; the new message is the one kept up to date."""
        tr = self.tr(interaction)
        session = None
        if interaction.guild is not None:
            session = await self.bot.games.session_in_channel(interaction.channel_id or 0)
        if session is None:
            await send_private(interaction, table_refusal_text(tr, "no_game"))
            return
        if not await self.may_post_publicly(interaction):
            return
        await interaction.response.send_message(table_refusal_text(tr, "posted"), ephemeral=True)
        await self.post_table(session)

    async def on_table_button(
        self, interaction: discord.Interaction, game_id: int, op: TableOp
    ) -> None:
        """Show my hand (ephemeral controls), Rules (ephemeral), Rematch (new lobby)."""
        tr = self.tr(interaction)
        if op is TableOp.RULES:
            for view in rules_views(tr):
                await send_private(interaction, view=view)
            return
        if op is TableOp.REMATCH:
            row = await self.bot.store.games.get_game(game_id) if in_id_range(game_id) else None
            here = row is None or used_where_it_lives(interaction, row.guild_id, row.channel_id)
            if not here:
                await send_private(interaction, tr(ELSEWHERE))
                return
            lobby_cog = self.bot.get_cog("LobbyCog")
            await lobby_cog.rematch(interaction, game_id)  # type: ignore[union-attr]
            return
        session = await self.bot.games.session(game_id)
        if session is None or session.game.is_over:
            await send_private(interaction, table_refusal_text(tr, "over"))
            return
        if not used_where_it_lives(interaction, session.row.guild_id, session.channel_id):
            await send_private(interaction, tr(ELSEWHERE))
            return
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            await send_private(
                interaction,
                table_refusal_text(tr, "not_playing"),
            )
            return
        play: Any = self.bot.get_cog("PlayCog")
        await play.show_hand(interaction, session, seat)


async def setup(bot: HatsBot) -> None:
    """Load the cog and register the table buttons."""
    bot.add_dynamic_items(TableButton)
    await bot.add_cog(TableCog(bot))


__all__ = ["ServiceError", "TableCog", "record_file", "setup"]
