"""Lobbies: ``/hats new``, join, leave, start, cancel, and their buttons; rematches.

A lobby is one Components V2 message in the channel with Join, Leave, Start and Cancel
buttons (persistent ``DynamicItem``s), the other cogs' controls (teams, AI seats, the turn
timer menu); once over it shrinks to one line. 2 to 4 players (R3); the host starts. One
lobby or game per channel.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import HatsFeature
from cogs.controls import LobbyButton, LobbyOp
from cogs.replies import send_private
from cogs.scope import require_host
from cogs.settings import check_timer
from cogs.style import COLOUR
from data import LobbyRow, LobbySeat
from data.game_flags import HINTS
from service import ServiceError, lobby_requests
from texts import SWAP_TIMEOUT, TURN_TIMER, LobbyInfo
from texts.i18n import N_
from texts.lobby import (
    LobbyAnswer,
    lobby_answer_text,
    lobby_button_labels,
    lobby_cancelled_text,
    lobby_started_text,
    lobby_texts,
)
from texts.replies import seat_labels

if TYPE_CHECKING:
    from bot import HatsBot
    from texts.i18n import Tr

log = logging.getLogger("hats.lobby")

MAX_SEATS = 4
MIN_SEATS = 2
REQUIRED_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("embed_links", N_("Embed Links")),
    ("attach_files", N_("Attach Files")),
    ("read_message_history", N_("Read Message History")),
)
"""Channel permissions the bot needs to run a game (Discord's permission names, translated
when shown, as Discord's own settings show them)."""


class LobbyCog(HatsFeature, name="LobbyCog"):
    """Opening, filling, starting and cancelling lobbies."""

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)

    def hooks(self, name: str) -> list[Any]:
        """Lobby extension hooks named ``name`` of the other loaded cogs.

        Feature cogs extend lobbies without editing this one by defining any of:
        ``lobby_items(row, tr) -> list[discord.ui.Item]`` (extra controls),
        ``lobby_teams(row) -> teams | None`` (team display, R5),
        ``lobby_start_check(row)`` (raise ServiceError to refuse the start),
        ``lobby_seat_order(row) -> seats | None`` (seating at the start), and
        ``LOBBY_OPS`` + ``on_lobby_op(interaction, lobby_id, op)`` for their LobbyOp buttons.
        """
        return [
            getattr(cog, name)
            for cog in self.bot.cogs.values()
            if cog is not self and hasattr(cog, name)
        ]

    # ------------------------------------------------------------------ rendering
    def lobby_info(
        self, row: LobbyRow, tr: Tr, status: str | None = None, *, closed: bool = False
    ) -> LobbyInfo:
        """The lobby as the renderer wants it."""
        labels = tuple(seat_labels(row.seats, self.bot.names, tr))
        teams = next((t for hook in self.hooks("lobby_teams") if (t := hook(row))), None)
        return LobbyInfo(
            host_id=row.host_id,
            seats=labels,
            settings=row.settings,
            teams=teams,
            status=status,
            lobby_id=row.id,
            closed=closed,
        )

    def lobby_view(self, row: LobbyRow, tr: Tr, status: str | None = None) -> discord.ui.LayoutView:
        """The open lobby as a Components V2 layout: its texts, then its controls.

        Join / Leave / Start / Cancel in one row, the other cogs' buttons (teams, Remove AI)
        in rows of at most five, and each select (Add AI, turn timer) in a row of its own.
        Only usable controls are shown, in full colour (issue 18): Join only while a place is
        open, Start only with at least 2 players; the texts' status line ("Waiting for 1 more
        player to start.", "The table is full.") says why one is missing. The other cogs'
        hooks leave out their own unusable controls the same way.
        """
        container = discord.ui.Container(accent_colour=COLOUR)
        for block in lobby_texts(self.lobby_info(row, tr, status), tr):
            container.add_item(discord.ui.TextDisplay(block))
        main = discord.ui.ActionRow()
        labels = lobby_button_labels(tr)
        for op, label, style in (
            (LobbyOp.JOIN, labels["join"], discord.ButtonStyle.success),
            (LobbyOp.LEAVE, labels["leave"], discord.ButtonStyle.secondary),
            (LobbyOp.START, labels["start"], discord.ButtonStyle.primary),
            (LobbyOp.CANCEL, labels["cancel"], discord.ButtonStyle.danger),
        ):
            if not self.usable(op, row):
                continue  # the status line says why (full, waiting for players): no grey rows
            button = LobbyButton(row.id, op)
            button.item.label = label
            button.item.style = style
            main.add_item(button)
        container.add_item(main)
        buttons: list[discord.ui.Item] = []
        selects: list[discord.ui.Item] = []
        for hook in self.hooks("lobby_items"):
            for item in hook(row, tr):
                inner = getattr(item, "item", item)
                (selects if isinstance(inner, discord.ui.Select) else buttons).append(item)
        for start in range(0, len(buttons), 5):
            container.add_item(discord.ui.ActionRow(*buttons[start : start + 5]))
        for select in selects:
            container.add_item(discord.ui.ActionRow(select))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(container)
        return view

    @staticmethod
    def usable(op: LobbyOp, row: LobbyRow) -> bool:
        """Whether the lobby's ``op`` button can do something now (R3: 2 to 4 players)."""
        if op is LobbyOp.JOIN:
            return len(row.seats) < MAX_SEATS
        if op is LobbyOp.START:
            return len(row.seats) >= MIN_SEATS
        return True

    @staticmethod
    def closed_view(text: str) -> discord.ui.LayoutView:
        """A lobby that is over: its one line (a V2 message stays V2), nothing that goes stale."""
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.TextDisplay(text))
        return view

    async def redraw(
        self,
        interaction: discord.Interaction | None,
        row: LobbyRow,
        *,
        from_button: bool,
        status: str | None = None,
        closed: bool = False,
    ) -> None:
        """Show the lobby's new state: edit the pressed message, or the stored one.

        Public: drawn in the server's language (``public_tr``), whoever pressed. A ``closed``
        lobby shrinks to its one ``status`` line (started: where the game goes on).
        """
        self.bot.dispatch("hats_lobby_shown", row.channel_id)  # the Activity's viewers too
        tr = self.public_tr(row.guild_id)
        if closed:  # one line, nothing that goes stale (issue 18): no players, no buttons
            view = self.closed_view(status or lobby_answer_text(tr, LobbyAnswer.CLOSED))
        else:
            view = self.lobby_view(row, tr, status)
        edit: dict[str, Any] = {"view": view}
        if from_button and interaction is not None:
            await interaction.response.edit_message(**edit)
            return
        if row.message_id is None:
            return
        channel = self.bot.get_partial_messageable(row.channel_id)
        try:
            await channel.get_partial_message(row.message_id).edit(**edit)
        except discord.HTTPException as exc:
            log.warning("could not edit lobby %d: %s", row.id, exc)

    # ------------------------------------------------------------------ the Activity
    @commands.Cog.listener()
    async def on_hats_lobby_changed(
        self, row: LobbyRow, status: str | None, closed: bool, game_id: int | None = None
    ) -> None:
        """A lobby changed in the Activity (web/): redraw its message in the channel.

        ``status``: the English sentence of a closed lobby (translated here); ``game_id``: the
        game it became.
        """
        tr = self.public_tr(row.guild_id)
        if game_id is not None:
            text: str | None = lobby_started_text(tr, game_id)
        else:
            text = tr(status) if status else None
        await self.redraw(None, row, from_button=False, status=text, closed=closed)
        if not closed:
            self.bot.dispatch("hats_lobby_updated", row)

    @commands.Cog.listener()
    async def on_hats_lobby_opened(self, row: LobbyRow) -> None:
        """A lobby was opened in the Activity (web/): post its message in the channel."""
        tr = self.public_tr(row.guild_id)
        channel = self.bot.get_partial_messageable(row.channel_id)
        try:
            message = await channel.send(view=self.lobby_view(row, tr))
        except discord.HTTPException as exc:
            log.warning("lobby %d: its message could not be posted: %s", row.id, exc)
        else:
            await self.bot.games.set_lobby_message(row.id, message.id)
        self.bot.dispatch("hats_lobby_updated", row)

    # ------------------------------------------------------------------ limits
    async def check_limits(self, user_id: int) -> None:
        """Raise ServiceError when ``user_id`` may not sit in one more lobby (issue 19.4).

        ``HATS_MAX_LOBBIES``: open lobbies they sit in (hosting or joined);
        ``HATS_MAX_GAMES``: live games they play.
        """
        settings, store = self.bot.settings, self.bot.store
        if settings.max_lobbies is not None:
            lobbies = await store.lobbies.lobbies_of_user(user_id)
            if len(lobbies) >= settings.max_lobbies:
                raise ServiceError(
                    "You already sit in as many open lobbies as one player may ({n}): "
                    "{where}. Leave one or start it, then open or join another.",
                    n=len(lobbies),
                    where=", ".join(f"<#{r.channel_id}>" for r in lobbies),
                )
        await self.check_games(user_id, you=True)

    async def check_games(self, user_id: int, *, you: bool) -> None:
        """Raise ServiceError when ``user_id`` already plays ``HATS_MAX_GAMES`` live games."""
        limit = self.bot.settings.max_games
        if limit is None:
            return
        games = await self.bot.store.games.live_ids_of_user(user_id, practice=False)
        if len(games) < limit:
            return
        if you:
            raise ServiceError(
                "You already play as many games at once as one player may ({n}). Finish "
                "one, then join another.",
                n=len(games),
            )
        raise ServiceError(
            "{player} already plays as many games at once as one player may ({n}). The game "
            "can start once they finish one, or without them if they leave this lobby.",
            player=f"<@{user_id}>",
            n=len(games),
        )

    # ------------------------------------------------------------------ operations
    async def join(self, interaction: discord.Interaction, lobby_id: int) -> LobbyRow:
        """Seat the user; ServiceError when already seated, full, or over a limit."""
        user_id = interaction.user.id
        row = await self.bot.games.lobby(lobby_id)
        if row is not None and not any(s.user_id == user_id for s in row.seats):
            await self.check_limits(user_id)

        return await lobby_requests.join(self.bot.games, lobby_id, user_id)

    async def leave(
        self, interaction: discord.Interaction, lobby: LobbyRow, *, from_button: bool
    ) -> None:
        """Unseat the user and redraw the lobby; the host role passes on; an empty lobby closes."""
        user_id = interaction.user.id

        row, closed = await lobby_requests.leave(self.bot.games, lobby.id, user_id)
        if closed:
            tr = self.public_tr(lobby.guild_id)
            await self.redraw(
                interaction,
                lobby,
                from_button=from_button,
                closed=True,
                status=lobby_answer_text(tr, LobbyAnswer.EVERYONE_LEFT),
            )
            return
        await self.redraw(interaction, row, from_button=from_button)

    async def start(self, interaction: discord.Interaction, lobby_id: int) -> None:
        """Start the game: the lobby becomes a game; table and DMs follow (events)."""
        row = await self.bot.games.lobby(lobby_id)
        if row is None:
            raise ServiceError("This lobby is closed.")
        require_host(interaction, row.host_id, row.guild_id)
        if len(row.seats) < MIN_SEATS:
            raise ServiceError("A game needs at least 2 players; wait for someone to join.")
        for check in self.hooks("lobby_start_check"):
            check(row)
        for seat in row.seats:
            if seat.user_id is not None:
                await self.check_games(seat.user_id, you=False)
        order = next((o for hook in self.hooks("lobby_seat_order") if (o := hook(row))), None)
        session = await self.bot.games.start_game(lobby_id, order)
        tr = self.public_tr(row.guild_id)
        status = lobby_started_text(tr, session.id)
        try:
            await self.redraw(
                interaction,
                row,
                from_button=self._is_button(interaction),
                status=status,
                closed=True,
            )
        finally:  # the table and the hands are owed by the outbox item stored with the game
            self.bot.dispatch("hats_outbox", session.id)

    @staticmethod
    def _is_button(interaction: discord.Interaction) -> bool:
        return interaction.type is discord.InteractionType.component

    def missing_permissions(self, interaction: discord.Interaction) -> list[str]:
        """Names of the channel permissions the bot lacks here, in the caller's language."""
        perms = interaction.app_permissions
        tr = self.tr(interaction)
        return [tr(label) for name, label in REQUIRED_PERMISSIONS if not getattr(perms, name)]

    # ------------------------------------------------------------------ slash commands
    @app_commands.command(name="new", description="Open a lobby for a game of Hats here")
    @app_commands.describe(timer="Seconds per turn (at least 10), or 0 for no timer")
    async def new(
        self,
        interaction: discord.Interaction,
        timer: app_commands.Range[int, 0, 86400] | None = None,
    ) -> None:
        """``/hats new [timer]``: open a lobby here with the caller seated as host.

        ``timer``: the lobby's turn timer in seconds (0: none); default: the server's
        (``/hats settings timer``), else the bot's.
        """

        async def work() -> None:
            chosen = None if timer is None else (check_timer(timer) or 0.0)
            await self.open_lobby(interaction, turn_timer=chosen)

        await self.guarded(interaction, work)

    def default_timer(self, guild_id: int) -> float | None:
        """The turn timer of a new lobby in ``guild_id``: the server's setting, else the bot's."""
        return self.bot.servers.lobby_timer(guild_id)

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        seats: Sequence[LobbySeat] = (),
        *,
        turn_timer: float | None = None,
        hints: bool = False,
    ) -> None:
        """Open a lobby here (``seats``: extra seats after the host, for a rematch).

        ``turn_timer``: seconds, 0.0 for none, None for :meth:`default_timer`. ``hints``:
        ``/hats hint`` allowed (the lobby's Hints toggle, :data:`data.game_flags.HINTS`).
        """
        if interaction.guild is None:
            raise ServiceError("Lobbies live in server channels: use this command in one.")
        missing = self.missing_permissions(interaction)
        if missing:
            raise ServiceError(
                "I am missing these permissions in this channel: {missing}. Ask a server admin "
                "to grant them, then try again.",
                missing=", ".join(missing),
            )
        await self.check_limits(interaction.user.id)
        if turn_timer is None:
            turn_timer = self.default_timer(interaction.guild.id)
        settings: dict[str, Any] = {
            TURN_TIMER: turn_timer or None,
            SWAP_TIMEOUT: self.bot.settings.swap_timeout,
        }
        if hints:
            settings[HINTS] = True
        row = await self.bot.games.open_lobby(
            interaction.guild.id, interaction.channel_id or 0, interaction.user.id, settings
        )
        if seats:
            host = interaction.user.id
            extra = [s for s in seats if s.user_id != host][: MAX_SEATS - 1]
            row = await self.bot.games.update_lobby(
                row.id, lambda r: ((*r.seats, *extra), dict(r.settings))
            )
        tr = self.public_tr(row.guild_id)
        await interaction.response.send_message(view=self.lobby_view(row, tr))
        message = await interaction.original_response()
        await self.bot.games.set_lobby_message(row.id, message.id)
        self.bot.dispatch("hats_lobby_updated", row)

    lobby_group = app_commands.Group(
        name="lobby", description="This channel's lobby: join, leave, start or cancel it"
    )
    """``/hats lobby …``: what the lobby message's buttons do, as commands (Discord allows 25
    subcommands and groups under ``/hats``; these four share one place)."""

    @lobby_group.command(name="join", description="Join the lobby in this channel")
    async def join_cmd(self, interaction: discord.Interaction) -> None:
        """``/hats lobby join``."""

        async def work() -> None:
            row = await self.join(interaction, (await self.lobby_here(interaction)).id)
            tr = self.tr(interaction)
            await send_private(interaction, lobby_answer_text(tr, LobbyAnswer.JOINED))
            await self.redraw(interaction, row, from_button=False)

        await self.guarded(interaction, work)

    @lobby_group.command(name="leave", description="Leave the lobby in this channel")
    async def leave_cmd(self, interaction: discord.Interaction) -> None:
        """``/hats lobby leave``."""

        async def work() -> None:
            await self.leave(interaction, (await self.lobby_here(interaction)), from_button=False)
            tr = self.tr(interaction)
            await send_private(interaction, lobby_answer_text(tr, LobbyAnswer.LEFT))

        await self.guarded(interaction, work)

    @lobby_group.command(name="start", description="Start the game (host only)")
    async def start_cmd(self, interaction: discord.Interaction) -> None:
        """``/hats lobby start``."""

        async def work() -> None:
            await self.start(interaction, (await self.lobby_here(interaction)).id)
            tr = self.tr(interaction)
            await send_private(interaction, lobby_answer_text(tr, LobbyAnswer.STARTED))

        await self.guarded(interaction, work)

    @lobby_group.command(name="cancel", description="Cancel the lobby in this channel (host only)")
    async def cancel_cmd(self, interaction: discord.Interaction) -> None:
        """``/hats lobby cancel``."""

        async def work() -> None:
            lobby = await self.lobby_here(interaction)
            await self.cancel(interaction, lobby)
            tr = self.tr(interaction)
            await send_private(interaction, lobby_answer_text(tr, LobbyAnswer.CANCELLED))

        await self.guarded(interaction, work)

    async def cancel(self, interaction: discord.Interaction, row: LobbyRow) -> None:
        """Close the lobby (host or a server manager)."""
        require_host(interaction, row.host_id, row.guild_id)
        await self.bot.games.close_lobby(row.id)
        tr = self.public_tr(row.guild_id)
        await self.redraw(
            interaction,
            row,
            from_button=self._is_button(interaction),
            closed=True,
            status=lobby_cancelled_text(tr),
        )

    # ------------------------------------------------------------------ buttons
    async def on_lobby_button(
        self, interaction: discord.Interaction, lobby_id: int, op: LobbyOp
    ) -> None:
        """A lobby button: join, leave, start, cancel."""

        async def work() -> None:
            row = await self.lobby_for_control(interaction, lobby_id)
            if op is LobbyOp.JOIN:
                await self.redraw(
                    interaction, await self.join(interaction, lobby_id), from_button=True
                )
            elif op is LobbyOp.LEAVE:
                await self.leave(interaction, row, from_button=True)
            elif op is LobbyOp.START:
                await self.start(interaction, lobby_id)
            elif op is LobbyOp.CANCEL:
                await self.cancel(interaction, row)
            else:
                for cog in self.bot.cogs.values():
                    if op in getattr(cog, "LOBBY_OPS", ()):
                        await cog.on_lobby_op(interaction, lobby_id, op)  # type: ignore[attr-defined]
                        break

        await self.guarded(interaction, work)

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """Open a new lobby here with the same players (the presser hosts).

        The lobby keeps the game's turn timer (none stays none) and its Hints setting
        (issue 29.8); an unknown game gets the defaults.
        """

        async def work() -> None:
            entries = await self.bot.store.results.results_for_game(game_id)
            game = await self.bot.store.games.get_game(game_id)
            settings = game.settings if game is not None else {}
            seats = [
                LobbySeat(user_id=e.user_id, ai_level=None if e.user_id else e.ai_level)
                for e in entries
            ]
            if interaction.user.id not in [s.user_id for s in seats]:
                raise ServiceError("Only the players of that game can start a rematch.")
            # the game's timer: seconds, or None stored for "no timer" (0.0 here)
            timer = float(settings[TURN_TIMER] or 0) if TURN_TIMER in settings else None
            await self.open_lobby(
                interaction, seats, turn_timer=timer, hints=settings.get(HINTS) is True
            )

        await self.guarded(interaction, work)


async def setup(bot: HatsBot) -> None:
    """Load the cog and register the lobby buttons."""
    bot.add_dynamic_items(LobbyButton)
    await bot.add_cog(LobbyCog(bot))
