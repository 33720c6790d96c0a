"""AI players: AI seats in lobbies (Add AI / Remove AI, ``/hats ai add``) and their moves.

The host fills empty lobby places with AIs of a chosen level (easy, normal, hard). In a game,
whenever the seat to move is played by an AI — an AI seat, or a human seat whose player is
away or was removed (``SeatRow.ai_level`` set) — this cog plays it after a short natural pause
(``settings.ai_delay`` seconds): main action, optional actions, end of turn, swap answers
(R7–R11). Each AI step is an ``ai`` deadline written with the step before it (service.deadlines)
and fired by whichever process claims it first (service.runner), so an AI seat plays on after a
restart or when the process that served the game is gone. The AI is handed only that seat's
observation and legal actions ("Who may see what"). Moves go through
:meth:`GameService.play` with the version the AI saw, so a human who acts first simply wins the
race. Moves made for a human are stored with actor ``auto`` and marked on the table.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import HatsFeature
from cogs.controls import ID, LobbyButton, LobbyOp, bounded_id
from cogs.errors import GuardedItem
from cogs.replies import send_private
from cogs.scope import require_host
from data import LobbyRow, LobbySeat, StoreError, TimerRow
from engine import Action, Game
from engine.ai import AiLevel, make_ai
from service import GameSession, OutOfDate, ServiceError
from service.deadlines import AI
from service.runner import RETRY_SECONDS

if TYPE_CHECKING:
    from bot import HatsBot
    from cogs.i18n import Tr

__all__ = ["AiCog", "AiSelect", "ai_choice", "ai_seed"]

log = logging.getLogger("hats.ai")

MAX_SEATS = 4
AI_RETRY = "ai_retry"
"""Scheduler deadline kind: an AI move the store could not save is tried again."""
LEVELS: tuple[AiLevel, ...] = (AiLevel.EASY, AiLevel.NORMAL, AiLevel.HARD)


def ai_seed(game_seed: int, seat: int, version: int) -> int:
    """The seed of one AI decision: a function of the game seed, the seat and the version.

    Hash-free arithmetic so the same game replays the same AI choices on every run.
    """
    return (game_seed * 1_000_003 + seat * 101 + version) % (1 << 63)


def ai_choice(game: Game, seat: int, level: str, seed: int) -> Action:
    """The action an AI of ``level`` chooses for ``seat``, seeing only that seat's observation.

    Raises ValueError for an unknown level; the result is one of ``game.legal_actions(seat)``.
    """
    return make_ai(level, seed).choose(game.observation(seat), game.legal_actions(seat))


class AiSelect(
    GuardedItem, discord.ui.DynamicItem[discord.ui.Select], template=rf"hats:ai:(?P<lobby>{ID})"
):
    """The lobby's "Add an AI player" select: one option per level (custom_id ``hats:ai:<id>``)."""

    def __init__(self, lobby: int, select: discord.ui.Select | None = None) -> None:
        super().__init__(
            select
            or discord.ui.Select(
                custom_id=f"hats:ai:{lobby}",
                options=[
                    discord.SelectOption(label=level.value, value=level.value) for level in LEVELS
                ],
            )
        )
        self.lobby = lobby

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any
    ) -> AiSelect:
        """Rebuild the select from its custom_id."""
        return cls(bounded_id(match["lobby"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen level to AiCog."""
        cog: Any = interaction.client.get_cog("AiCog")  # type: ignore[attr-defined]
        values = self.item.values
        await cog.on_ai_selected(interaction, self.lobby, values[0] if values else "normal")


class AiCog(HatsFeature, name="AiCog"):
    """AI seats in lobbies and AI moves in games."""

    LOBBY_OPS = (LobbyOp.REMOVE_AI,)

    # ------------------------------------------------------------------ lobby
    def lobby_items(self, row: LobbyRow, tr: Tr) -> list[discord.ui.Item]:
        """Lobby hook: the Add AI select (level) and the Remove AI button."""
        full = len(row.seats) >= MAX_SEATS
        select = AiSelect(row.id)
        select.item.placeholder = tr("Add an AI player (choose its level)")
        select.item.disabled = full
        names = {
            AiLevel.EASY: tr("AI: easy"),
            AiLevel.NORMAL: tr("AI: normal"),
            AiLevel.HARD: tr("AI: hard"),
        }
        for option in select.item.options:
            option.label = names[AiLevel(option.value)]
        remove = LobbyButton(row.id, LobbyOp.REMOVE_AI)
        remove.item.label = tr("Remove AI")
        remove.item.style = discord.ButtonStyle.secondary
        remove.item.disabled = not any(s.ai_level for s in row.seats)
        return [remove, select]

    async def add_ai(self, interaction: discord.Interaction, lobby_id: int, level: str) -> LobbyRow:
        """Seat an AI of ``level`` (host only); ServiceError when full, closed or not the host."""
        row = await self.bot.games.lobby(lobby_id)
        if row is None:
            raise ServiceError("This lobby is closed.")
        require_host(interaction, row.host_id, row.guild_id)
        level = AiLevel(level).value

        def change(row: LobbyRow) -> tuple[Sequence[LobbySeat], dict[str, Any]]:
            if len(row.seats) >= MAX_SEATS:
                raise ServiceError("This lobby is full: a game has at most 4 players.")
            return (*row.seats, LobbySeat(ai_level=level)), dict(row.settings)

        return await self.bot.games.update_lobby(lobby_id, change)

    async def remove_ai(self, interaction: discord.Interaction, lobby_id: int) -> LobbyRow:
        """Unseat the last AI (host only); ServiceError when there is none."""
        row = await self.bot.games.lobby(lobby_id)
        if row is None:
            raise ServiceError("This lobby is closed.")
        require_host(interaction, row.host_id, row.guild_id)

        def change(row: LobbyRow) -> tuple[Sequence[LobbySeat], dict[str, Any]]:
            ai = [i for i, s in enumerate(row.seats) if s.ai_level and s.user_id is None]
            if not ai:
                raise ServiceError("There is no AI player in this lobby.")
            seats = [s for i, s in enumerate(row.seats) if i != ai[-1]]
            return seats, dict(row.settings)

        return await self.bot.games.update_lobby(lobby_id, change)

    async def on_ai_selected(
        self, interaction: discord.Interaction, lobby_id: int, level: str
    ) -> None:
        """The Add AI select: seat an AI of the chosen level and redraw the lobby."""

        async def work() -> None:
            await self.lobby_for_control(interaction, lobby_id)
            row = await self.add_ai(interaction, lobby_id, level)
            await self._lobby_cog().redraw(interaction, row, from_button=True)

        await self.guarded(interaction, work)

    async def on_lobby_op(
        self, interaction: discord.Interaction, lobby_id: int, op: LobbyOp
    ) -> None:
        """LobbyCog hook: the Remove AI button (errors are answered by LobbyCog)."""
        if op is LobbyOp.REMOVE_AI:
            row = await self.remove_ai(interaction, lobby_id)
            await self._lobby_cog().redraw(interaction, row, from_button=True)

    def _lobby_cog(self) -> Any:
        return self.bot.get_cog("LobbyCog")

    ai = app_commands.Group(name="ai", description="AI players in this channel's lobby")

    @ai.command(name="add", description="Add an AI player to the lobby (host only)")
    @app_commands.describe(level="How strong the AI plays")
    @app_commands.choices(
        level=[
            app_commands.Choice(name="easy", value="easy"),
            app_commands.Choice(name="normal", value="normal"),
            app_commands.Choice(name="hard", value="hard"),
        ]
    )
    async def ai_add(self, interaction: discord.Interaction, level: str = "normal") -> None:
        """``/hats ai add level``: seat an AI of that level in this channel's lobby."""

        async def work() -> None:
            row = await self.add_ai(interaction, (await self.lobby_here(interaction)).id, level)
            tr = self.tr(interaction)
            await send_private(interaction, tr("An AI player joined the lobby."))
            await self._lobby_cog().redraw(interaction, row, from_button=False)

        await self.guarded(interaction, work)

    @ai.command(name="remove", description="Remove the last AI player (host only)")
    async def ai_remove(self, interaction: discord.Interaction) -> None:
        """``/hats ai remove``: unseat the lobby's last AI."""

        async def work() -> None:
            row = await self.remove_ai(interaction, (await self.lobby_here(interaction)).id)
            tr = self.tr(interaction)
            await send_private(interaction, tr("The AI player left the lobby."))
            await self._lobby_cog().redraw(interaction, row, from_button=False)

        await self.guarded(interaction, work)

    # ------------------------------------------------------------------ game moves
    def ai_to_move(self, session: GameSession) -> int | None:
        """The seat to move if an AI plays it now (AI seat, away or removed human), else None."""
        game = session.game
        seat = game.to_move
        if game.is_over or seat is None or session.seats[seat].ai_level is None:
            return None
        return seat

    async def move(self, row: TimerRow) -> None:
        """An ``ai`` deadline fell due: the AI makes one step for the seat to move, if still so.

        The step writes the next deadline itself (:mod:`service.deadlines`). A deadline for an
        older version (someone moved since) does nothing: that move wrote its own deadlines.
        """
        assert row.game_id is not None
        session = await self.bot.games.session(row.game_id)
        if session is None:
            return
        seat = self.ai_to_move(session)
        version = row.payload.get("version")
        if seat is None or (row.kind == AI and version not in (None, session.version)):
            return
        try:
            await self.play_for(session, seat, session.seats[seat].ai_level or "normal")
        except StoreError as exc:  # the move was not saved: try again after a while
            log.warning("AI move of game %d not saved, retried: %s", session.id, exc)
            scheduler: Any = self.bot.get_cog("SchedulerCog")
            await scheduler.retry(AI_RETRY, RETRY_SECONDS, game_id=session.id)

    async def play_for(
        self, session: GameSession, seat: int, level: str, *, actor: str | None = None
    ):
        """One AI step for ``seat`` at the current version; returns the Event or None if stale.

        ``actor`` defaults to ``ai`` for an AI seat and ``auto`` for a human's seat.
        """
        version = session.version
        if actor is None:
            actor = "ai" if session.seats[seat].user_id is None else "auto"
        seed = ai_seed(session.row.seed, seat, version)
        action = ai_choice(session.game, seat, level, seed)
        try:
            return await self.bot.games.play(session, seat, action, version=version, actor=actor)
        except OutOfDate:
            return None

    @commands.Cog.listener()
    async def on_hats_timer(self, row: TimerRow) -> None:
        """An AI move is due (``ai``), or the retry after a store failure (``ai_retry``)."""
        if row.kind in (AI, AI_RETRY) and row.game_id is not None:
            await self.move(row)


async def setup(bot: HatsBot) -> None:
    """Load the cog and register the Add AI select."""
    bot.add_dynamic_items(AiSelect)
    await bot.add_cog(AiCog(bot))
