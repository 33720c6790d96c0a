"""Swiss tournaments on Discord: ``/hats tournament``, the sign-up message, rounds in threads.

The rules live in :mod:`tournament` and the stored state in :mod:`service.tournaments`; this
cog is the Discord side:

- ``/hats tournament new [name] [rounds] [start] [timer]`` posts the tournament's own message
  (Components V2, phone first) with **Join** / **Leave** and, for the host, **Start** /
  **Cancel** (persistent ``DynamicItem`` buttons, ``hats:tn:<tournament>:<op>``). With
  ``start`` it also creates a guild scheduled event (external, located at the channel) whose
  status follows the tournament: active at the start, completed at the end, cancelled.
- ``standings [tournament] [share]``, ``drop player``, ``leave``, ``record [tournament]``.
- Each table's game runs in a public thread of the channel named ``Round 2 · Table 1``; a
  restart never makes a second one (the thread is remembered on its table before the game is
  created, and a thread of that name made since the tournament opened is reused).

Every step of a running tournament goes through its one deadline (kind
``service.tournaments.KIND``), which the deadline runner lets one process claim: the timed
start, the tables of a new round (threads, games), the announcements. The host's Start and
the end of a game only bring that deadline forward. Announcements (a round's tables, the
pause, the final standings, the call-off) are each claimed and marked posted in the store
(``tournament_notices``), so a restart or a second process never posts one twice, and one
not yet posted is posted by the next look (or at start-up for an ended tournament).
"""

from __future__ import annotations

import asyncio
import enum
import io
import json
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import HatsFeature
from cogs.clock import now
from cogs.controls import ID, bounded_id, choice
from cogs.errors import GuardedItem
from cogs.replies import send_private
from cogs.scope import in_id_range, used_where_it_lives
from cogs.settings import check_timer
from cogs.style import COLOUR
from data import NoticeKind, StoreError, TimerRow, TournamentRow, TournamentStatus
from service import ServiceError
from service.start_time import DEFAULT_ZONE, parse_start
from service.tournament_record import tournament_record
from service.tournaments import KIND, LOOK_SECONDS, NAME_LIMIT, Step, TournamentService
from texts.tournament import (
    cancelled_text,
    default_name,
    final_texts,
    left_text,
    missing_thread_permissions,
    record_text,
    removed_text,
    round_tables,
    round_texts,
    scheduled_event_text,
    signup_texts,
    standings_texts,
    status_word,
    thread_name,
    tournament_button_labels,
)
from texts.user_text import plain_text

if TYPE_CHECKING:
    from bot import HatsBot
    from service import GameSession
    from service.tournaments import Progress, TournamentView
    from texts.i18n import Tr

__all__ = ["TournamentButton", "TournamentCog", "TournamentOp"]

log = logging.getLogger("hats.tournament")

NOTICE_KIND = "tournament_notice"
"""A deadline kept in memory: post the announcements an ended tournament still owes."""
NOTICE_RETRY = 60.0
"""Seconds before an announcement that Discord refused is tried again."""
NOTICE_LEASE = 30.0
"""Seconds an announcement belongs to the process posting it (``claim_notice``)."""
ROUND_GUESS = 30 * 60.0
"""Seconds a round is expected to take: the scheduled event's end is start + rounds × this."""
QUIET = discord.AllowedMentions.none()
"""The tournament's message and standings name players without pinging them."""
PLAYERS = discord.AllowedMentions(everyone=False, roles=False, users=True)
"""A round's announcement pings the players it seats (it is addressed to them)."""
THREAD_ARCHIVE_MINUTES = 1440
"""A table's thread archives itself after a day without messages (archived at the end anyway)."""


class TournamentOp(enum.StrEnum):
    """The buttons of a tournament's message; the value is the custom_id's ``op``."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    STANDINGS = "stand"


class TournamentButton(
    GuardedItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"hats:tn:(?P<tournament>{ID}):(?P<op>{choice(TournamentOp)})",
):
    """A button of the tournament's message: ``hats:tn:<tournament>:<op>`` (id bounded)."""

    def __init__(
        self, tournament: int, op: TournamentOp, button: discord.ui.Button | None = None
    ) -> None:
        super().__init__(button or discord.ui.Button(custom_id=f"hats:tn:{tournament}:{op.value}"))
        self.tournament = tournament
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any
    ) -> TournamentButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(bounded_id(match["tournament"]), TournamentOp(match["op"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to TournamentCog."""
        cog: Any = interaction.client.get_cog("TournamentCog")  # type: ignore[attr-defined]
        await cog.on_button(interaction, self.tournament, self.op)


def _layout(blocks: list[str], *rows: discord.ui.ActionRow) -> discord.ui.LayoutView:
    """One container of text displays, then the action rows (Components V2)."""
    container = discord.ui.Container(accent_colour=COLOUR)
    for block in blocks:
        container.add_item(discord.ui.TextDisplay(block))
    for row in rows:
        if row.children:
            container.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view


def _is_manager(interaction: discord.Interaction, guild_id: int) -> bool:
    """The user has Manage Server on the tournament's server (read from this interaction)."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return interaction.guild_id == guild_id and perms is not None and perms.manage_guild


class TournamentCog(HatsFeature, name="TournamentCog"):
    """``/hats tournament``: sign-up, rounds in threads, standings, the scheduled event."""

    tournament = app_commands.Group(
        name="tournament", description="Swiss tournaments: a game night of Hats in this channel"
    )

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)
        self.service = TournamentService(
            bot.games, clock=now, max_games=lambda: bot.settings.max_games
        )
        self._locks: dict[int, asyncio.Lock] = {}

    # ------------------------------------------------------------------ finding it
    async def _here(self, interaction: discord.Interaction) -> TournamentRow:
        """The channel's open or running tournament; ServiceError says what to do if none."""
        if interaction.guild_id is None:
            raise ServiceError("Tournaments live in server channels: use this command in one.")
        row = await self.bot.store.tournaments.active_in_channel(interaction.channel_id or 0)
        if row is None:
            raise ServiceError(
                "There is no tournament in this channel. Open one with /hats tournament new."
            )
        return row

    async def _chosen(self, interaction: discord.Interaction, chosen: int | None) -> TournamentRow:
        """The tournament ``chosen`` (an id of this server), else this channel's latest one."""
        if interaction.guild_id is None:
            raise ServiceError("Tournaments live in server channels: use this command in one.")
        store = self.bot.store
        if chosen is None:
            row = await store.tournaments.latest_in_channel(interaction.channel_id or 0)
            if row is None:
                raise ServiceError(
                    "There is no tournament in this channel. Choose one in the tournament "
                    "option, or open one with /hats tournament new."
                )
            return row
        row = await store.tournaments.get(chosen) if in_id_range(chosen) else None
        if row is None or row.guild_id != interaction.guild_id:
            raise ServiceError("There is no tournament #{id} on this server.", id=chosen)
        return row

    async def _of_control(self, interaction: discord.Interaction, tid: int) -> TournamentRow:
        """The tournament of a button, used where it lives; ServiceError otherwise."""
        row = await self.bot.store.tournaments.get(tid) if in_id_range(tid) else None
        if row is None:
            raise ServiceError("This control is out of date: its tournament is over or gone.")
        if not used_where_it_lives(interaction, row.guild_id, row.channel_id):
            raise ServiceError(
                "This control belongs to a tournament in another channel; use the one there."
            )
        return row

    async def tournament_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The server's tournaments, newest first: ``#3 Friday night (finished)``."""
        if interaction.guild_id is None:
            return []
        tr = self.tr(interaction)
        rows = await self.bot.store.tournaments.of_guild(interaction.guild_id)
        states = {status: status_word(status, tr) for status in TournamentStatus}
        needle = current.strip().casefold()
        out = []
        for row in rows:
            name = f"#{row.id} {plain_text(row.name, 60)} ({states[row.status]})"
            if not needle or needle in name.casefold():
                out.append(app_commands.Choice(name=name[:100], value=row.id))
        return out[:25]

    # ------------------------------------------------------------------ the message
    def message_view(
        self, view: TournamentView, tr: Tr, *, next_round_at: float | None = None
    ) -> discord.ui.LayoutView:
        """The tournament's own message in its current state, with the buttons that can act.

        Open: Join, Leave, Start, Cancel. Running: Standings, Leave, Cancel, and Start (the
        next round) during the pause. Finished: Standings. Cancelled: no buttons.
        """
        row = view.tournament
        players = view.active_players
        labels = tournament_button_labels(tr)
        buttons: list[tuple[TournamentOp, str, discord.ButtonStyle]] = []
        if row.status is TournamentStatus.OPEN:
            buttons = [
                (TournamentOp.JOIN, labels.join, discord.ButtonStyle.success),
                (TournamentOp.LEAVE, labels.leave, discord.ButtonStyle.secondary),
                (TournamentOp.START, labels.start, discord.ButtonStyle.primary),
                (TournamentOp.CANCEL, labels.cancel, discord.ButtonStyle.danger),
            ]
        elif row.status is TournamentStatus.RUNNING:
            buttons = [(TournamentOp.STANDINGS, labels.standings, discord.ButtonStyle.primary)]
            if next_round_at is not None and row.round < row.rounds:
                buttons.append((TournamentOp.START, labels.next_round, discord.ButtonStyle.success))
            buttons += [
                (TournamentOp.LEAVE, labels.leave, discord.ButtonStyle.secondary),
                (TournamentOp.CANCEL, labels.cancel, discord.ButtonStyle.danger),
            ]
        elif row.status is TournamentStatus.FINISHED:
            buttons = [(TournamentOp.STANDINGS, labels.standings, discord.ButtonStyle.primary)]
        action = discord.ui.ActionRow()
        for op, label, style in buttons:
            button = TournamentButton(row.id, op)
            button.item.label = label
            button.item.style = style
            action.add_item(button)
        blocks = signup_texts(row, players, tr, next_round_at=next_round_at)
        return _layout(blocks, action)

    async def _edit_message(
        self,
        interaction: discord.Interaction | None,
        tid: int,
        *,
        next_round_at: float | None = None,
    ) -> None:
        """Show the tournament's state on its message: the pressed one (free), else by id."""
        view = await self.service.view(tid)
        if view is None:
            return
        row = view.tournament
        layout = self.message_view(view, self.public_tr(row.guild_id), next_round_at=next_round_at)
        pressed = (
            interaction is not None
            and interaction.type is discord.InteractionType.component
            and interaction.message is not None
            and interaction.message.id == row.message_id
            and not interaction.response.is_done()
        )
        if pressed:
            assert interaction is not None
            await interaction.response.edit_message(view=layout, allowed_mentions=QUIET)
            return
        if row.message_id is None:
            return
        channel = self.bot.get_partial_messageable(row.channel_id)
        try:
            await channel.get_partial_message(row.message_id).edit(
                view=layout, allowed_mentions=QUIET
            )
        except discord.HTTPException as exc:
            log.warning("could not edit the message of tournament %d: %s", tid, exc)

    # ------------------------------------------------------------------ commands
    @tournament.command(name="new", description="Open a Swiss tournament in this channel")
    @app_commands.describe(
        name="The tournament's name (default: Hats night)",
        rounds="Rounds, 1 to 7 (default 3)",
        start="When it starts by itself: 20:00, 2026-12-04 20:00 or in 2h (server's time zone)",
        timer="Seconds per turn in its games (at least 10), or 0 for none; default: server's",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        name: str | None = None,
        rounds: app_commands.Range[int, 1, 7] = 3,
        start: str | None = None,
        timer: app_commands.Range[int, 0, 86400] | None = None,
    ) -> None:
        """``/hats tournament new``: open a tournament here, the caller hosts and plays.

        ``start`` is read in the server's time zone (``/hats settings timezone``); with it a
        guild scheduled event is created and the tournament starts by itself.
        """

        async def work() -> None:
            await self.open(interaction, name, rounds, start, timer)

        await self.guarded(interaction, work)

    async def open(
        self,
        interaction: discord.Interaction,
        name: str | None,
        rounds: int,
        start: str | None,
        timer: int | None,
    ) -> None:
        """Open the tournament, post its message, create its event (see :meth:`new`)."""
        guild = interaction.guild
        if guild is None:
            raise ServiceError("Tournaments live in server channels: use this command in one.")
        if isinstance(interaction.channel, discord.Thread):
            raise ServiceError(
                "A tournament needs a text channel for its tables' threads, not a thread."
            )
        lobby: Any = self.bot.get_cog("LobbyCog")
        missing = lobby.missing_permissions(interaction) if lobby else []
        perms = interaction.app_permissions
        tr = self.tr(interaction)
        missing += missing_thread_permissions(
            tr,
            create_public_threads=perms.create_public_threads,
            send_messages_in_threads=perms.send_messages_in_threads,
        )
        if missing:
            raise ServiceError(
                "I am missing these permissions in this channel: {missing}. Ask a server admin "
                "to grant them, then try again.",
                missing=", ".join(missing),
            )
        zone = await self.bot.store.guild_settings.timezone(guild.id) or DEFAULT_ZONE
        start_at = parse_start(start, now=now(), zone=zone) if start else None
        if timer is None:
            turn_timer = lobby.default_timer(guild.id) if lobby else None
        else:
            turn_timer = check_timer(timer)
        title = plain_text(name, NAME_LIMIT) or default_name(self.public_tr(guild.id))
        row = await self.service.open(
            guild.id,
            interaction.channel_id or 0,
            interaction.user.id,
            title,
            rounds=rounds,
            turn_timer=turn_timer,
            start_at=start_at,
        )
        view = await self.service.view(row.id)
        assert view is not None
        layout = self.message_view(view, self.public_tr(guild.id))
        await interaction.response.send_message(view=layout, allowed_mentions=QUIET)
        message = await interaction.original_response()
        await self.bot.store.tournaments.set_message_id(row.id, message.id)
        if start_at is not None:
            self._nudge(start_at)
            await self._create_event(interaction, row, start_at)

    async def _create_event(
        self, interaction: discord.Interaction, row: TournamentRow, start_at: float
    ) -> None:
        """The guild scheduled event of a timed start (external, at this channel).

        Without the Manage Events permission the host is told privately; the tournament still
        starts at its time.
        """
        guild = interaction.guild
        assert guild is not None
        tr = self.public_tr(guild.id)
        channel = interaction.channel
        location = getattr(channel, "jump_url", None) or f"<#{row.channel_id}>"
        begin = datetime.fromtimestamp(start_at, UTC)
        end = datetime.fromtimestamp(start_at + row.rounds * ROUND_GUESS, UTC)
        try:
            event = await guild.create_scheduled_event(
                name=row.name[:100],
                start_time=begin,
                end_time=end,
                entity_type=discord.EntityType.external,
                privacy_level=discord.PrivacyLevel.guild_only,
                location=location[:100],
                description=scheduled_event_text(row.rounds, tr),
            )
        except discord.HTTPException as exc:
            log.info("tournament %d: no scheduled event (%s)", row.id, exc)
            mine = self.tr(interaction)
            await send_private(
                interaction,
                mine(
                    "I could not create the server event for this tournament (I need the "
                    "Manage Events permission). It still starts by itself at the time shown."
                ),
            )
            return
        await self.bot.store.tournaments.set_event_id(row.id, event.id)

    @tournament.command(
        name="standings", description="A tournament's standings (only you see them)"
    )
    @app_commands.describe(
        tournament="A tournament of this server; default: this channel's latest",
        share="Post them in the channel for everyone (default: only you see them)",
    )
    async def standings(
        self,
        interaction: discord.Interaction,
        tournament: int | None = None,
        share: bool = False,
    ) -> None:
        """``/hats tournament standings [tournament] [share]``: privately unless ``share``."""

        async def work() -> None:
            row = await self._chosen(interaction, tournament)
            await self.show_standings(interaction, row.id, share=share)

        await self.guarded(interaction, work)

    standings.autocomplete("tournament")(tournament_autocomplete)

    async def show_standings(
        self, interaction: discord.Interaction, tid: int, *, share: bool
    ) -> None:
        """Answer with the standings: private in the reader's language, or public."""
        view = await self.service.view(tid)
        if view is None:
            raise ServiceError("There is no tournament #{id} on this server.", id=tid)
        if share and not await self.may_post_publicly(interaction):
            return
        if share:
            tr = self.public_tr(view.tournament.guild_id)
            blocks = standings_texts(view.tournament, view.standings, tr)
            await interaction.response.send_message(view=_layout(blocks), allowed_mentions=QUIET)
            return
        tr = self.tr(interaction)
        blocks = standings_texts(view.tournament, view.standings, tr, viewer=interaction.user.id)
        await send_private(interaction, view=_layout(blocks))

    @tournament.command(name="drop", description="Remove a player from the next rounds (host)")
    @app_commands.describe(player="The player to remove; their games so far still count")
    async def drop(self, interaction: discord.Interaction, player: discord.User) -> None:
        """``/hats tournament drop player``: the host or a server manager."""

        async def work() -> None:
            row = await self._here(interaction)
            done = await self.service.drop(
                row.id,
                interaction.user.id,
                player.id,
                manager=_is_manager(interaction, row.guild_id),
            )
            tr = self.tr(interaction)
            if not done:
                raise ServiceError(
                    "{player} does not play in this tournament (or left it already).",
                    player=player.mention,
                )
            await send_private(
                interaction,
                removed_text(player.mention, tr, running=row.status is TournamentStatus.RUNNING),
            )
            await self._edit_message(None, row.id)

        await self.guarded(interaction, work)

    @tournament.command(name="leave", description="Leave this channel's tournament")
    async def leave_cmd(self, interaction: discord.Interaction) -> None:
        """``/hats tournament leave``: before the start the sign-up goes; after, later rounds."""

        async def work() -> None:
            row = await self._here(interaction)
            await self.leave(interaction, row)
            await self._edit_message(None, row.id)

        await self.guarded(interaction, work)

    async def leave(self, interaction: discord.Interaction, row: TournamentRow) -> None:
        """Leave ``row`` (answered privately); ServiceError when not in it."""
        done = await self.service.leave(row.id, interaction.user.id)
        if not done:
            raise ServiceError("You are not in this tournament.")
        tr = self.tr(interaction)
        text = left_text(tr, running=row.status is not TournamentStatus.OPEN)
        await send_private(interaction, text)

    @tournament.command(name="record", description="Download a tournament as JSON")
    @app_commands.describe(tournament="A tournament of this server; default: this channel's latest")
    async def record(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """``/hats tournament record [tournament]``: ``hats-tournament/1`` as a file, privately."""

        async def work() -> None:
            row = await self._chosen(interaction, tournament)
            view = await self.service.view(row.id)
            assert view is not None
            data = json.dumps(tournament_record(view), ensure_ascii=False, indent=1).encode()
            file = discord.File(io.BytesIO(data), filename=f"hats-tournament-{row.id}.json")
            tr = self.tr(interaction)
            await interaction.response.send_message(
                record_text(row.id, tr), file=file, ephemeral=True
            )

        await self.guarded(interaction, work)

    record.autocomplete("tournament")(tournament_autocomplete)

    # ------------------------------------------------------------------ buttons
    async def on_button(self, interaction: discord.Interaction, tid: int, op: TournamentOp) -> None:
        """A button of the tournament's message."""

        async def work() -> None:
            row = await self._of_control(interaction, tid)
            manager = _is_manager(interaction, row.guild_id)
            user = interaction.user.id
            tr = self.tr(interaction)
            if op is TournamentOp.JOIN:
                if not await self.service.join(tid, user):
                    raise ServiceError("You are already in this tournament.")
                await self._edit_message(interaction, tid)
            elif op is TournamentOp.LEAVE:
                await self.leave(interaction, row)
                await self._edit_message(None, tid)
            elif op is TournamentOp.STANDINGS:
                await self.show_standings(interaction, tid, share=False)
            elif op is TournamentOp.START:
                progress = await self.service.start(tid, user, manager=manager)
                await self._edit_message(interaction, tid)
                await self._follow(progress)
            elif op is TournamentOp.CANCEL:
                await self.service.cancel(tid, user, manager=manager)
                await self._edit_message(interaction, tid)
                await send_private(interaction, cancelled_text(tr))
                await self.notices(tid)

        await self.guarded(interaction, work)

    async def _follow(self, progress: Progress) -> None:
        """The host started: the claimed deadline seats the tables now (one process does)."""
        row = progress.tournament
        if progress.step in (Step.STARTED, Step.TABLES):
            await self.service.look_at(row.id, now())
            self._nudge(now())
        elif progress.step is Step.FINISHED:
            await self.notices(row.id)

    # ------------------------------------------------------------------ the deadline
    def _nudge(self, due_at: float) -> None:
        """Wake the deadline runner for a deadline written by the service."""
        self.bot.dispatch("hats_deadline", due_at)

    def _lock(self, tid: int) -> asyncio.Lock:
        return self._locks.setdefault(tid, asyncio.Lock())

    @commands.Cog.listener()
    async def on_hats_timer(self, row: TimerRow) -> None:
        """The tournament's deadline (claimed by this process): do its next step.

        A StoreError escapes to the runner, which fires the deadline again (nothing half
        done: every step is judged again on the store).
        """
        if row.kind == NOTICE_KIND:
            tid = int(row.payload.get("tournament", 0))
            if in_id_range(tid):
                await self.notices(tid)
            return
        if row.kind != KIND or row.tournament_id is None:
            return
        await self.drive(row.tournament_id)

    async def drive(self, tid: int) -> None:
        """Advance the tournament (:meth:`TournamentService.advance`), then show what it owes.

        New tables get their thread and game; the announcements owed are posted; the
        deadline is looked at again (a table Discord refused is tried again then).
        """
        async with self._lock(tid):
            progress = await self.service.advance(tid)
            row = progress.tournament
            if progress.step in (Step.STARTED, Step.TABLES):
                seated = await self._seat_tables(row, progress.tables)
                retry = now() + (LOOK_SECONDS if seated else NOTICE_RETRY / 4)
                await self.service.look_at(row.id, retry)
            await self.notices(tid)
            timer = await self.bot.store.timers.get_timer(KIND, tournament_id=tid)
            if timer is not None:
                self._nudge(timer.due_at)

    async def _seat_tables(self, row: TournamentRow, tables: Any) -> bool:
        """Give each table its thread and its game; False when Discord refused one."""
        ok = True
        tr = self.public_tr(row.guild_id)
        for table in tables:
            try:
                thread_id = table.thread_id
                if thread_id is None:
                    thread_id = await self._thread(row, thread_name(table.round, table.tab, tr))
                    await self.service.set_thread(table, thread_id)
                session, created = await self.service.start_table(table, thread_id, row.guild_id)
            except discord.HTTPException as exc:
                log.warning(
                    "tournament %d round %d table %d: no thread yet (%s); retried",
                    row.id,
                    table.round,
                    table.tab,
                    exc,
                )
                ok = False
                continue
            except ServiceError:
                return True  # over meanwhile
            if created:
                self.bot.dispatch("hats_outbox", session.id)
        return ok

    async def _thread(self, row: TournamentRow, name: str) -> int:
        """The table's public thread: one made since the tournament opened, else a new one.

        Looked up in the gateway's cache of active threads, or asked from Discord when this
        process does not see the server (another shard), so a restart between creating it and
        remembering it never makes a second one.
        """
        guild = self.bot.get_guild(row.guild_id)
        if guild is not None:
            threads = [(t.id, t.name, t.parent_id) for t in guild.threads]
        else:
            data = await self.bot.http.get_active_threads(row.guild_id)
            threads = [
                (int(t["id"]), t.get("name"), int(t.get("parent_id") or 0))
                for t in data.get("threads", [])
            ]
        since = row.created_at - 1
        for thread_id, thread_name_, parent in threads:
            if (
                parent == row.channel_id
                and thread_name_ == name
                and discord.utils.snowflake_time(thread_id).timestamp() >= since
            ):
                return thread_id
        data = await self.bot.http.start_thread_without_message(
            row.channel_id,
            name=name,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,  # type: ignore[arg-type]
            type=discord.ChannelType.public_thread.value,  # type: ignore[arg-type]
        )
        return int(data["id"])

    @commands.Cog.listener()
    async def on_hats_game_over(self, session: GameSession) -> None:
        """A game ended (its end screen is shown): a tournament table's brings the look forward."""
        tid = await self.service.game_over(session.id)
        if tid is not None:
            self._nudge(now())

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start: post what ended tournaments owe (running ones have a deadline)."""
        try:
            ended = await self.bot.store.tournaments.ended_unannounced()
        except StoreError as exc:
            log.warning("tournament announcements not checked at start-up: %s", exc)
            return
        for row in ended:
            await self.notices(row.id)

    # ------------------------------------------------------------------ announcements
    async def notices(self, tid: int) -> None:
        """Post what the tournament owes now, each announcement once (claimed, then marked).

        Running: the current round's tables once all have their game (the event turns
        active), then the pause once every game of the round is over. Finished: the final
        standings, the threads archived, the event completed. Cancelled: its message and the
        event. A Discord failure leaves the claim to run out: the next look posts it.
        """
        view = await self.service.view(tid)
        if view is None:
            return
        row = view.tournament
        try:
            if row.status is TournamentStatus.RUNNING:
                await self._running_notices(view)
            elif row.status is TournamentStatus.FINISHED:
                if await self._claim(row, NoticeKind.FINAL, 0):
                    await self._event_status(row, discord.EventStatus.completed)
                    message = await self._post(
                        row, final_texts(row, view.standings, self.public_tr(row.guild_id)), QUIET
                    )
                    await self._edit_message(None, tid)
                    await self._archive(view)
                    await self._mark(row, NoticeKind.FINAL, 0, message)
            elif row.status is TournamentStatus.CANCELLED and await self._claim(
                row, NoticeKind.CANCELLED, 0
            ):
                await self._edit_message(None, tid)
                await self._event_status(row, discord.EventStatus.cancelled)
                await self._archive(view)
                await self._mark(row, NoticeKind.CANCELLED, 0, None)
        except discord.HTTPException as exc:
            log.warning("tournament %d: an announcement is not posted yet (%s)", tid, exc)
            if not row.status.active:
                scheduler: Any = self.bot.get_cog("SchedulerCog")
                await scheduler.set(NOTICE_KIND, NOTICE_RETRY, payload={"tournament": tid})

    async def _running_notices(self, view: TournamentView) -> None:
        row = view.tournament
        tables = view.round_tables(row.round)
        if not tables or any(t.game_id is None for t in tables):
            return
        tr = self.public_tr(row.guild_id)
        if await self._claim(row, NoticeKind.ROUND, row.round):
            if row.round == 1:
                await self._event_status(row, discord.EventStatus.active)
            message = await self._post(row, round_texts(row, round_tables(tables), tr), PLAYERS)
            await self._edit_message(None, row.id)
            await self._mark(row, NoticeKind.ROUND, row.round, message)
        if any(t.game_status == "live" for t in tables) or row.round >= row.rounds:
            return
        if await self._claim(row, NoticeKind.PAUSE, row.round):
            timer = await self.bot.store.timers.get_timer(KIND, tournament_id=row.id)
            at = timer.due_at if timer is not None else now()
            await self._edit_message(None, row.id, next_round_at=at)
            await self._mark(row, NoticeKind.PAUSE, row.round, None)

    async def _claim(self, row: TournamentRow, kind: NoticeKind, round: int) -> bool:
        store = self.bot.store
        return await store.tournaments.claim_notice(
            row.id, kind, round, store.origin, now=now(), lease=NOTICE_LEASE
        )

    async def _mark(
        self, row: TournamentRow, kind: NoticeKind, round: int, message: discord.Message | None
    ) -> None:
        await self.bot.store.tournaments.mark_notice(
            row.id, kind, round, message.id if message else None, at=now()
        )

    async def _post(
        self, row: TournamentRow, blocks: list[str], mentions: discord.AllowedMentions
    ) -> discord.Message:
        """A new message in the tournament's channel."""
        channel = self.bot.get_partial_messageable(row.channel_id)
        return await channel.send(view=_layout(blocks), allowed_mentions=mentions)

    async def _archive(self, view: TournamentView) -> None:
        """Archive every table thread of the tournament (one edit each; the games are over)."""
        for table in view.tables:
            if table.thread_id is None or table.game_status == "live":
                continue
            try:
                await self.bot.http.edit_channel(table.thread_id, archived=True)
            except discord.NotFound:
                continue

    async def _event_status(self, row: TournamentRow, want: discord.EventStatus) -> None:
        """Move the scheduled event towards ``want`` (scheduled → active → completed).

        Discord allows scheduled → active or cancelled, active → completed: a scheduled event
        of a finished tournament is started, then completed; a scheduled one of a cancelled
        tournament is cancelled (status 4). An event Discord started by itself at the start
        time of a tournament called off then (round 0, issue 36.8) is deleted, never shown
        "completed"; an active one of a tournament cancelled while it ran is completed. A
        vanished event (deleted by a member) is left alone.
        """
        if row.event_id is None:
            return
        http = self.bot.http
        try:
            data = await http.get_scheduled_event(row.guild_id, row.event_id, False)
        except discord.NotFound:
            return
        status = discord.EventStatus(int(data["status"]))
        steps: list[discord.EventStatus] = []
        if status is discord.EventStatus.scheduled:
            if want is discord.EventStatus.cancelled:
                steps = [discord.EventStatus.cancelled]
            else:
                steps = [discord.EventStatus.active]
                if want is discord.EventStatus.completed:
                    steps.append(discord.EventStatus.completed)
        elif status is discord.EventStatus.active and want is discord.EventStatus.cancelled:
            if row.round == 0:  # Discord started it, the tournament never did: no "completed"
                await http.delete_scheduled_event(row.guild_id, row.event_id)
                return
            steps = [discord.EventStatus.completed]  # it ran: active → completed only
        elif status is discord.EventStatus.active and want is not discord.EventStatus.active:
            steps = [discord.EventStatus.completed]
        for step in steps:
            await http.edit_scheduled_event(row.guild_id, row.event_id, status=step.value)


async def setup(bot: HatsBot) -> None:
    """Load the cog and register the tournament buttons."""
    bot.add_dynamic_items(TournamentButton)
    await bot.add_cog(TournamentCog(bot))
