"""Players' history: ``/hats stats``, ``/hats leaderboard``, ``/hats history``, ``/hats replay``.

Every answer is a Components V2 layout: one container of text displays (texts.history),
its controls in a row below. A replay shows the point's picture at full width in a media
gallery with its alt text (the table, at the last point the final board and scores), or the
state in compact text when the server has pictures off.

``/hats history`` lists this server's recent finished games, each with the ``/hats replay``
command that replays it (a clickable command mention), and a select that posts the chosen
game's replay, then the server's last tournaments (``/hats tournament``); ``/hats replay``
needs its game. ``/hats stats`` counts the tournaments played and won too.

Ratings are updated after every finished game (:meth:`HistoryCog.after_game`, called by the
table cog before it posts the final scores, whose rating field it fills) and at start-up for
games that finished while the bot was down. The leaderboard pages and replay steps are
persistent ``DynamicItem`` buttons: their custom ids carry everything (scope, page; game,
point), so they work after a restart and for anyone in the channel. A replay only reads the
stored record of a finished game; it never touches a live game.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.base import HatsFeature
from cogs.clock import now
from cogs.custom_ids import ID, bounded_id, fields
from cogs.errors import GuardedItem
from cogs.pictures import END_FILE, TABLE_FILE
from cogs.play import legacy_kwargs
from cogs.replies import send_private
from cogs.scope import game_visible
from cogs.style import COLOUR
from data import Store, StoreError
from data.history import RatingDelta
from history.ratings import GLOBAL
from history.replay import Replay
from history.stats import summarize, trend
from texts.common import SeatLabel
from texts.history import (
    HistoryRefusal,
    ReplayTexts,
    game_option_label,
    history_refusal_text,
    history_texts,
    leaderboard_texts,
    rating_changes_text,
    rating_field_name,
    replay_select_placeholder,
    replay_texts,
    stats_texts,
)
from texts.replies import seat_labels
from texts.tournament import history_block, stats_line

if TYPE_CHECKING:
    from bot import HatsBot
    from service import GameSession
    from texts.i18n import Tr

__all__ = [
    "HistoryCog",
    "HistorySelect",
    "LeaderboardButton",
    "ReplayButton",
    "leaderboard_message",
    "replay_view",
    "setup",
    "stats_message",
    "text_view",
]

log = logging.getLogger("hats.history")

PAGE_SIZE = 10
"""Leaderboard lines per page."""
PERIOD_DAYS = 30
"""The leaderboard's recent period, days."""
TREND_GAMES = 5
"""The trend in ``/hats stats`` covers this many last rated games."""
HISTORY_GAMES = 10
"""Games listed by ``/hats history``."""
HISTORY_TOURNAMENTS = 5
"""Tournaments listed by ``/hats history`` (after the games)."""


class LeaderboardButton(
    GuardedItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"hats:lb:(?P<seats>[0-4]):(?P<days>\d{1,4}):(?P<page>\d{1,6}):(?P<op>[pn])",
):
    """◀ / ▶ under a leaderboard: ``hats:lb:<seats>:<days, 0 = all time>:<page shown>:<p|n>``."""

    def __init__(
        self, seats: int, days: int, page: int, op: str, button: discord.ui.Button | None = None
    ) -> None:
        super().__init__(
            button
            or discord.ui.Button(
                custom_id=f"hats:lb:{seats}:{days}:{page}:{op}",
                emoji="◀️" if op == "p" else "▶️",
                style=discord.ButtonStyle.secondary,
            )
        )
        self.seats, self.days, self.page, self.op = seats, days, page, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any
    ) -> LeaderboardButton:
        """Rebuild the button from its custom_id."""
        f = fields(match)
        return cls(f["seats"], f["days"], f["page"], f["op"], item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page this button leads to."""
        cog: Any = interaction.client.get_cog("HistoryCog")  # type: ignore[attr-defined]
        target = self.page - 1 if self.op == "p" else self.page + 1
        await cog.show_leaderboard(interaction, self.seats, self.days, target, edit=True)


REPLAY_OPS = {"f": "⏮️", "p": "◀️", "n": "▶️", "l": "⏭️"}


class ReplayButton(
    GuardedItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"hats:rp:(?P<game>{ID}):(?P<point>\d{{1,6}}):(?P<op>[fpnl])",
):
    """⏮ ◀ ▶ ⏭ under a replay: ``hats:rp:<game>:<point it shows>:<op>``."""

    def __init__(
        self, game: int, point: int, op: str, button: discord.ui.Button | None = None
    ) -> None:
        super().__init__(
            button
            or discord.ui.Button(
                custom_id=f"hats:rp:{game}:{point}:{op}",
                emoji=REPLAY_OPS[op],
                style=discord.ButtonStyle.secondary,
            )
        )
        self.game, self.point, self.op = game, point, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any
    ) -> ReplayButton:
        """Rebuild the button from its custom_id."""
        f = fields(match)
        return cls(f["game"], f["point"], f["op"], item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Move the replay to the first, previous, next or last point."""
        cog: Any = interaction.client.get_cog("HistoryCog")  # type: ignore[attr-defined]
        target = {"f": 0, "p": self.point - 1, "n": self.point + 1, "l": 1 << 30}[self.op]
        await cog.show_replay(interaction, self.game, target, edit=True)


class HistorySelect(GuardedItem, discord.ui.DynamicItem[discord.ui.Select], template=r"hats:hist"):
    """Under ``/hats history``: choose a listed game to post its replay in the channel.

    custom_id ``hats:hist``; each option's value is a game id, so it works after a restart.
    """

    def __init__(self, select: discord.ui.Select | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id="hats:hist"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any
    ) -> HistorySelect:
        """Rebuild the select from its custom_id."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Post the chosen game's replay (checked like ``/hats replay game``)."""
        cog: Any = interaction.client.get_cog("HistoryCog")  # type: ignore[attr-defined]
        values = self.item.values
        game = bounded_id(values[0]) if values and values[0].isdigit() else 0
        await cog.show_replay(interaction, game, 0, edit=False)


def text_view(blocks: list[str], *rows: discord.ui.ActionRow) -> discord.ui.LayoutView:
    """A V2 layout: one container with a text display per block, then ``rows`` below it."""
    container = discord.ui.Container(accent_colour=COLOUR)
    for block in blocks:
        container.add_item(discord.ui.TextDisplay(block))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    for row in rows:
        view.add_item(row)
    return view


def _history_row(games: list[int], tr: Tr) -> list[discord.ui.ActionRow]:
    """The select that replays one of ``games``, in a row (none without games)."""
    if not games:
        return []
    select = HistorySelect()
    select.item.placeholder = replay_select_placeholder(tr)
    for game in games[:25]:  # Discord: at most 25 options
        select.item.add_option(label=game_option_label(tr, game), value=str(game))
    return [discord.ui.ActionRow(select)]


def _leaderboard_row(seats: int, days: int, page: int, pages: int) -> discord.ui.ActionRow:
    back = LeaderboardButton(seats, days, page, "p")
    back.item.disabled = page <= 0
    forward = LeaderboardButton(seats, days, page, "n")
    forward.item.disabled = page + 1 >= pages
    return discord.ui.ActionRow(back, forward)


def _replay_buttons(game: int, point: int, last: int) -> discord.ui.ActionRow:
    """⏮ ◀ ▶ ⏭ (persistent ReplayButtons), those leading nowhere disabled."""
    row = discord.ui.ActionRow()
    for op in REPLAY_OPS:
        button = ReplayButton(game, point, op)
        button.item.disabled = point <= 0 if op in "fp" else point >= last
        row.add_item(button)
    return row


def replay_view(
    texts: ReplayTexts, game: int, point: int, last: int, *, picture: bool
) -> discord.ui.LayoutView:
    """A replay point as a V2 layout: one container, then ⏮ ◀ ▶ ⏭ in a row.

    The container: the head, the picture in a media gallery with its alt text (or the
    players in text), the turn's events.

    ``picture``: the message carries the point's picture (``end.png`` at the last point,
    else ``table.png``; cogs.pictures); without it the text shows the state.
    """
    container = discord.ui.Container(accent_colour=COLOUR)
    container.add_item(discord.ui.TextDisplay(texts.head))
    if picture:
        name = END_FILE if texts.final else TABLE_FILE
        item = discord.MediaGalleryItem(f"attachment://{name}", description=texts.alt)
        container.add_item(discord.ui.MediaGallery(item))
    if texts.players:
        container.add_item(discord.ui.TextDisplay(texts.players))
    if texts.recent:
        container.add_item(discord.ui.TextDisplay(texts.recent))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    view.add_item(_replay_buttons(game, point, last))
    return view


async def stats_message(
    store: Store, user_id: int, mention: str, guild_id: int | None, tr: Tr, *, own: bool
) -> discord.ui.LayoutView:
    """The ``/hats stats`` V2 layout: a player's games on server ``guild_id`` (None: everywhere).

    Another player's (``own`` False) shows only their games on that server, which their final
    scores there already showed publicly; one's own adds the rating on all servers.
    """
    history = store.history
    scope = guild_id if guild_id is not None else GLOBAL
    summary = summarize(await history.player_games(user_id, guild_id))
    rating = await history.rating(user_id, scope)
    recent = await history.recent_ordinals(user_id, scope, games=TREND_GAMES)
    everywhere = await history.rating(user_id, GLOBAL) if own and guild_id is not None else None
    # a trend that reaches back to the first rated game is the rating itself: said once
    change = trend(recent) if rating is not None and rating.games > len(recent) else None
    blocks = stats_texts(
        mention,
        summary,
        rating,
        change,
        tr,
        everywhere=everywhere,
        server=guild_id is not None,
    )
    played, won = await store.tournaments.user_stats(user_id, guild_id=guild_id)
    if played:
        blocks.append(stats_line(played, won, tr))
    return text_view(blocks)


async def leaderboard_message(
    store: Store,
    guild_id: int,
    seats: int,
    days: int,
    page: int,
    tr: Tr,
    *,
    now: float,
    page_size: int = PAGE_SIZE,
) -> discord.ui.LayoutView:
    """One ``/hats leaderboard`` page (0-based, clamped to the pages there are) with ◀ ▶.

    ``days`` 0: all time, else the last ``days`` days before ``now`` (unix seconds).
    """
    history = store.history
    since = now - days * 86400 if days else None
    total = await history.leaderboard_size(guild_id, seats=seats, since=since)
    pages = max(1, math.ceil(total / page_size))
    page = max(0, min(page, pages - 1))
    rows = await history.leaderboard(
        guild_id, seats=seats, since=since, offset=page * page_size, limit=page_size
    )
    blocks = leaderboard_texts(rows, total, page, pages, tr, seats=seats, days=days or None)
    return text_view(blocks, _leaderboard_row(seats, days, page, pages))


class HistoryCog(HatsFeature, name="HistoryCog"):
    """Ratings after each game; stats, leaderboard, history and replays."""

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)
        self.page_size = PAGE_SIZE
        self._lock = asyncio.Lock()
        self._replays: OrderedDict[int, Replay] = OrderedDict()

    async def cog_load(self) -> None:
        """Join ``/hats`` and rate the games that finished while the bot was down."""
        await super().cog_load()
        try:
            await self.catch_up()
        except StoreError:  # rated at the next game's end or start-up instead
            log.exception("history: could not rate the games finished while the bot was down")

    async def catch_up(self) -> None:
        """Process every finished game not processed yet, in game order (one at a time)."""
        async with self._lock:
            done = await self.bot.store.history.process_pending()
        if done:
            log.info("history: processed %d finished game(s)", len(done))

    async def after_game(self, session: GameSession) -> list[RatingDelta]:
        """Rate the just-finished game (and any missed before it); its humans' changes.

        In the game's one ranking (``GameResult.order``), as the end screen lists the players.
        """
        await self.catch_up()
        deltas = await self.bot.store.history.changes_for_game(session.id, session.row.guild_id)
        result = session.game.result
        if result is not None:
            position = {session.seats[s].user_id: i for i, s in enumerate(result.order)}
            deltas.sort(key=lambda d: position.get(d.user_id, len(position)))
        return deltas

    def end_screen_field(self, deltas: list[RatingDelta], tr: Tr) -> tuple[str, str] | None:
        """(name, value) of the end screen's rating field, or None for an unrated game."""
        if not deltas:
            return None
        return rating_field_name(tr), rating_changes_text(deltas, tr)

    # ------------------------------------------------------------------ /hats stats
    @app_commands.command(name="stats", description="A player's games, scores and rating")
    @app_commands.describe(player="Whose statistics; default: yours")
    async def stats(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        """``/hats stats [player]``, privately.

        On a server: the games played on this server (for another player only these, which
        their finished games showed publicly here); your own add your rating on all servers.
        In a DM: your own games everywhere.
        """
        tr = self.tr(interaction)
        target = player or interaction.user
        own = target.id == interaction.user.id
        if interaction.guild_id is None and not own:
            await send_private(
                interaction, history_refusal_text(tr, HistoryRefusal.STATS_OUTSIDE_SERVER)
            )
            return
        view = await stats_message(
            self.bot.store, target.id, target.mention, interaction.guild_id, tr, own=own
        )
        await send_private(interaction, view=view)

    # ------------------------------------------------------------------ /hats leaderboard
    @app_commands.command(name="leaderboard", description="This server's best players by rating")
    @app_commands.describe(seats="Only games with this many players", period="All time or recent")
    @app_commands.choices(
        seats=[
            app_commands.Choice(name="all", value=0),
            app_commands.Choice(name="2", value=2),
            app_commands.Choice(name="3", value=3),
            app_commands.Choice(name="4", value=4),
        ],
        period=[
            app_commands.Choice(name="all time", value=0),
            app_commands.Choice(name="last 30 days", value=PERIOD_DAYS),
        ],
    )
    async def leaderboard(
        self, interaction: discord.Interaction, seats: int = 0, period: int = 0
    ) -> None:
        """``/hats leaderboard [seats] [period]``: page 1, with ◀ ▶ buttons."""
        await self.show_leaderboard(interaction, seats, period, 0, edit=False)

    async def show_leaderboard(
        self, interaction: discord.Interaction, seats: int, days: int, page: int, *, edit: bool
    ) -> None:
        """Post (or, from a button, edit to) one leaderboard page of the interaction's server."""
        tr = self.tr(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            await send_private(
                interaction, history_refusal_text(tr, HistoryRefusal.LEADERBOARD_OUTSIDE_SERVER)
            )
            return
        if not edit and not await self.may_post_publicly(interaction):
            return
        view = await leaderboard_message(
            self.bot.store,
            guild_id,
            seats,
            days,
            page,
            self.public_tr(guild_id),  # a public message: the server's language
            now=now(),
            page_size=self.page_size,
        )
        if edit:
            await interaction.response.edit_message(view=view, **legacy_kwargs(interaction.message))
        else:
            await interaction.response.send_message(view=view)

    # ------------------------------------------------------------------ /hats history
    @app_commands.command(name="history", description="This server's recent finished games")
    @app_commands.describe(player="List only this player's games")
    async def history(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        """``/hats history [player]``, privately: the server's last finished games.

        Each line: id, date, players with scores, the winner (🏆) and the ``/hats replay
        game:N`` that replays it; a select below posts the chosen game's replay in the
        channel. ``player`` keeps only that player's games.
        """
        tr = self.tr(interaction)
        if interaction.guild_id is None:
            await send_private(
                interaction, history_refusal_text(tr, HistoryRefusal.HISTORY_OUTSIDE_SERVER)
            )
            return
        games = await self.bot.store.history.recent_games(
            interaction.guild_id,
            user_id=player.id if player else None,
            limit=HISTORY_GAMES,
        )
        blocks = history_texts(games, tr, who=player.mention if player else None)
        store = self.bot.store.tournaments
        tournaments = (
            await store.of_user(player.id, guild_id=interaction.guild_id)
            if player
            else await store.of_guild(interaction.guild_id)
        )[:HISTORY_TOURNAMENTS]
        if tournaments:  # the tournaments after the games, before the replay hint
            blocks.insert(len(blocks) - 1 if games else len(blocks), history_block(tournaments, tr))
        view = text_view(blocks, *_history_row([g.game_id for g in games], tr))
        await send_private(interaction, view=view)

    # ------------------------------------------------------------------ /hats replay
    @app_commands.command(name="replay", description="Replay a finished game of this server")
    @app_commands.describe(game="The game's number (see /hats history)")
    async def replay(self, interaction: discord.Interaction, game: int) -> None:
        """``/hats replay game``: the deal, with ⏮ ◀ ▶ ⏭ to move through the turns."""
        await self.show_replay(interaction, game, 0, edit=False)

    async def show_replay(
        self, interaction: discord.Interaction, game_id: int, point: int, *, edit: bool
    ) -> None:
        """Post (or edit to) the replay of ``game_id`` at ``point`` (:func:`replay_view`).

        Every hand is shown (the game is over, R21). Refused privately: outside a server, a
        game of another server, a game that is not finished (a live game's hands stay secret).
        """
        tr = self.tr(interaction)
        loaded = await self._load_replay(interaction, game_id, tr)
        if isinstance(loaded, str):
            await send_private(interaction, loaded)
            return
        if not edit and not await self.may_post_publicly(interaction):
            return
        replay, labels = loaded
        shown = replay.at(point)
        guild_id = interaction.guild_id
        public = self.public_tr(guild_id)  # a public message: the server's language
        pictures = self.pictures_on(guild_id)
        texts = replay_texts(shown, labels, public, game_id=game_id, pictures=pictures)
        files: list[discord.File] = []
        if pictures:
            obs = shown.game.public_view()
            names = [label.plain_name for label in labels]
            files = await self.bot.pictures.replay(
                game_id, shown.index, obs, names, public, description=texts.alt
            )
            if not files:  # drawing failed: the state in text instead
                texts = replay_texts(shown, labels, public, game_id=game_id, pictures=False)
        view = replay_view(texts, game_id, shown.index, shown.last, picture=bool(files))
        if edit:
            await interaction.response.edit_message(
                view=view, attachments=files, **legacy_kwargs(interaction.message)
            )
        else:
            await interaction.response.send_message(view=view, files=files)

    async def _load_replay(
        self, interaction: discord.Interaction, game_id: int, tr: Tr
    ) -> tuple[Replay, list[SeatLabel]] | str:
        """The replay and seat labels, or the refusal's words."""
        store = self.bot.store
        if interaction.guild_id is None:
            return history_refusal_text(tr, HistoryRefusal.REPLAY_OUTSIDE_SERVER)
        user_id = interaction.user.id
        if not await game_visible(store, game_id, guild_id=interaction.guild_id, user_id=user_id):
            return history_refusal_text(tr, HistoryRefusal.NO_SUCH_GAME, game_id)
        record = await store.results.get_record(game_id)
        if record is None:
            return history_refusal_text(tr, HistoryRefusal.NOT_FINISHED, game_id)
        replay = self._replays.get(game_id)
        if replay is None:
            replay = Replay(record)
            self._replays[game_id] = replay
            while len(self._replays) > 32:
                self._replays.popitem(last=False)
        self._replays.move_to_end(game_id)
        public = self.public_tr(interaction.guild_id)
        entries = await store.results.results_for_game(game_id)
        labels = seat_labels(entries, self.bot.names, public)
        return replay, labels


async def setup(bot: HatsBot) -> None:
    """Load the cog and register its persistent buttons."""
    bot.add_dynamic_items(HistorySelect, LeaderboardButton, ReplayButton)
    await bot.add_cog(HistoryCog(bot))
