"""AI players: AI seats in lobbies (Add AI / Remove AI, ``/hats ai add``) and their moves.

The host fills empty lobby places with AIs of a chosen level (easy, normal, hard, expert). In a
game, whenever the seat to move is played by an AI — an AI seat, or a human seat whose player is
away or was removed (``SeatRow.ai_level`` set) — this cog plays it after a short natural pause
(``settings.ai_delay`` seconds): main action, optional actions, end of turn, swap answers
(R7–R11). Each AI step is an ``ai`` deadline written with the step before it (service.deadlines)
and fired by whichever process claims it first (service.runner), so an AI seat plays on after a
restart or when the process that served the game is gone. The AI is handed only that seat's
observation and legal actions ("Who may see what"). The searching levels (hard, expert) think
off the event loop: in the bot's AI process pool (``bot.ai_pool``, created by the entry point
and sized to the machine), which is handed only the observation and the seed (both pickle);
easy and normal choose in well under a millisecond and stay on the loop. Moves go through
:meth:`GameService.play` with the version the AI saw, so a human who acts first simply wins the
race. Moves made for a human are stored with actor ``auto`` and marked on the table.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import HatsFeature
from cogs.controls import LobbyButton, LobbyOp
from cogs.custom_ids import ID, fields
from cogs.errors import GuardedItem
from cogs.replies import send_private
from cogs.scope import require_host
from data import LobbyRow, TimerRow
from engine import Action, Game, Observation
from engine.ai import AiLevel, ExpertBudget, decide, make_ai
from service import GameSession, ServiceError, lobby_requests
from service.deadlines import AI, AI_RETRY
from service.due import ai_choice, ai_seed, ai_step, fire_ai
from texts.lobby import ai_seat_texts

if TYPE_CHECKING:
    from bot import HatsBot
    from texts.i18n import Tr

__all__ = ["AI_RETRY", "POOLED_LEVELS", "AiCog", "AiSelect", "ai_choice", "ai_seed"]

log = logging.getLogger("hats.ai")

MAX_SEATS = 4
LEVELS: tuple[AiLevel, ...] = (AiLevel.EASY, AiLevel.NORMAL, AiLevel.HARD, AiLevel.EXPERT)
POOLED_LEVELS: frozenset[str] = frozenset({AiLevel.HARD.value, AiLevel.EXPERT.value})
"""Levels whose decisions search (tens of milliseconds to a second): run off the event loop."""


def _choose(level: str, seed: int, observation: Observation, budget: ExpertBudget | None) -> Action:
    """:func:`ai_choice` from the observation alone (a worker thread's job)."""
    return make_ai(level, seed, budget=budget).choose(observation, observation.legal_actions())


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
        return cls(fields(match)["lobby"], item)

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
        """Lobby hook: the Add AI select (level) and the Remove AI button, each only when usable.

        Add AI while a place is open, Remove AI while an AI sits (issue 18: no greyed-out
        controls; the lobby's status line says when the table is full).
        """
        items: list[discord.ui.Item] = []
        words = ai_seat_texts(tr)
        if any(s.ai_level for s in row.seats):
            remove = LobbyButton(row.id, LobbyOp.REMOVE_AI)
            remove.item.label = words.remove
            remove.item.style = discord.ButtonStyle.secondary
            items.append(remove)
        if len(row.seats) < MAX_SEATS:
            select = AiSelect(row.id)
            select.item.placeholder = words.add_placeholder
            for option in select.item.options:
                option.label = words.levels[AiLevel(option.value).value]
            items.append(select)
        return items

    async def add_ai(self, interaction: discord.Interaction, lobby_id: int, level: str) -> LobbyRow:
        """Seat an AI of ``level`` (host only); ServiceError when full, closed or not the host."""
        row = await self.bot.games.lobby(lobby_id)
        if row is None:
            raise ServiceError("This lobby is closed.")
        require_host(interaction, row.host_id, row.guild_id)
        return await lobby_requests.add_ai(self.bot.games, lobby_id, AiLevel(level).value)

    async def remove_ai(self, interaction: discord.Interaction, lobby_id: int) -> LobbyRow:
        """Unseat the last AI (host only); ServiceError when there is none."""
        row = await self.bot.games.lobby(lobby_id)
        if row is None:
            raise ServiceError("This lobby is closed.")
        require_host(interaction, row.host_id, row.guild_id)
        return await lobby_requests.remove_ai(self.bot.games, lobby_id)

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
            app_commands.Choice(name="expert", value="expert"),
        ]
    )
    async def ai_add(self, interaction: discord.Interaction, level: str = "normal") -> None:
        """``/hats ai add level``: seat an AI of that level in this channel's lobby."""

        async def work() -> None:
            row = await self.add_ai(interaction, (await self.lobby_here(interaction)).id, level)
            tr = self.tr(interaction)
            await send_private(interaction, ai_seat_texts(tr).joined)
            await self._lobby_cog().redraw(interaction, row, from_button=False)

        await self.guarded(interaction, work)

    @ai.command(name="remove", description="Remove the last AI player (host only)")
    async def ai_remove(self, interaction: discord.Interaction) -> None:
        """``/hats ai remove``: unseat the lobby's last AI."""

        async def work() -> None:
            row = await self.remove_ai(interaction, (await self.lobby_here(interaction)).id)
            tr = self.tr(interaction)
            await send_private(interaction, ai_seat_texts(tr).left)
            await self._lobby_cog().redraw(interaction, row, from_button=False)

        await self.guarded(interaction, work)

    # ------------------------------------------------------------------ game moves
    async def move(self, row: TimerRow) -> None:
        """An ``ai`` deadline fell due: the AI makes one step for the seat to move, if still so.

        Whether it is still due is judged on the stored game (:func:`service.due.fire_ai`), so
        a copy behind other processes' steps never drops it, and a second firing of the same
        deadline does nothing. The step writes the next deadline itself (service.deadlines).
        When the store fails (the step not saved, or its outcome not known yet) the StoreError
        goes up to the runner, which fires the same deadline again after
        ``service.runner.STORE_RETRY_SECONDS`` (or, if the store cannot even note that, when
        its claim's lease runs out); it is judged the same way then.
        """
        await fire_ai(self.bot.games, row, choose=self.think)

    async def play_for(
        self, session: GameSession, seat: int, level: str, *, actor: str | None = None
    ):
        """One AI step for ``seat`` at the current version; returns the Event or None if stale.

        ``actor`` defaults to ``ai`` for an AI seat and ``auto`` for a human's seat
        (:func:`service.due.ai_step`).
        """
        return await ai_step(self.bot.games, session, seat, level, actor=actor, choose=self.think)

    async def think(self, game: Game, seat: int, level: str, seed: int) -> Action:
        """The AI's choice for ``seat`` (as :func:`ai_choice`), searched off the event loop.

        Levels in :data:`POOLED_LEVELS` run through ``bot.run_cpu``: in ``bot.ai_pool`` (a
        process pool, handed the seat's observation, the seed and ``bot.expert_budget`` only)
        or, without one (tests built by ``create_bot``), in the loop's default thread pool.
        """
        if level not in POOLED_LEVELS:
            return ai_choice(game, seat, level, seed)
        observation = game.observation(seat)  # a snapshot: the game may move on meanwhile
        # in a thread, _choose calls this module's make_ai (tests may watch it); a worker
        # process gets the engine's own decide, which imports no Discord code
        fn = decide if self.bot.ai_pool is not None else _choose
        return await self.bot.run_cpu(fn, level, seed, observation, self.bot.expert_budget)

    @commands.Cog.listener()
    async def on_hats_timer(self, row: TimerRow) -> None:
        """An AI move is due (``ai``), or the retry after a store failure (``ai_retry``)."""
        if row.kind in (AI, AI_RETRY) and row.game_id is not None:
            await self.move(row)


async def setup(bot: HatsBot) -> None:
    """Load the cog and register the Add AI select."""
    bot.add_dynamic_items(AiSelect)
    await bot.add_cog(AiCog(bot))
