"""Turn timers, reminders, away players, removing a player, lobby expiry.

Turn timer (lobby setting ``turn_timer`` in seconds, None = off; default
``settings.turn_timer``): when a human seat gets the move (a turn starts, or a partner swap
offer waits for them, R10–R11) two stored deadlines are set for the game: ``reminder`` at half
the time (it sends nothing any more: the hand DM counts the time down, issue 36.2) and ``turn``
at the end. At the deadline the normal AI finishes that turn for
the absent player (steps stored with actor ``auto``, marked 💤 on the table) and the seat's
``auto_turns`` goes up; after :data:`AWAY_AFTER` auto-played turns in a row the seat is marked
away and the AI keeps playing it without waiting. Any move of that player takes the seat back
(as does ``/hats back``). The lobby's host sets its timer with ``/hats new timer:`` or the
lobby's timer select (:class:`TimerSelect`). The host can ``/hats kick`` a player: an AI
takes the seat for good.
Deadlines live in the store (service.runner, run by cogs.scheduler), so they survive restarts.

Lobby expiry: a lobby nobody starts closes ``settings.lobby_expiry`` seconds after its last
change (stored deadline ``expire``), and its message says so.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import HatsFeature
from cogs.clock import now
from cogs.custom_ids import ID, fields
from cogs.errors import GuardedItem
from cogs.mentions import NOBODY
from cogs.replies import send_private
from cogs.scope import require_host
from data import LobbyRow, StoreError, TimerRow
from service import GameSession, ServiceError, lobby_requests
from service.deadlines import REMINDER, TURN, turn_timer
from service.due import due_deadline, still_due, take_once
from texts import TURN_TIMER
from texts.lobby import lobby_expired_text
from texts.timers import (
    away_dm_text,
    away_text,
    back_answer_text,
    back_text,
    removed_answer_text,
    removed_text,
    timer_option_label,
)

if TYPE_CHECKING:
    from bot import HatsBot
    from texts.i18n import Tr

__all__ = ["AWAY_AFTER", "KICKED", "TimersCog"]

log = logging.getLogger("hats.timers")

EXPIRE = "expire"
AWAY_AFTER = 3
"""Auto-played turns in a row after which a player is marked away."""
AWAY_LEVEL = "normal"
"""The AI level that plays for an absent, away or removed player."""
KICKED = "kicked"
"""Game settings key: ``{"<seat>": user_id}`` of the players the host removed."""
TIMER_CHOICES = (0, 30, 60, 120, 300, 600, 1800, 3600)
"""The lobby timer select's values in seconds (0: no timer); a lobby's other value is added."""


class TimerSelect(
    GuardedItem, discord.ui.DynamicItem[discord.ui.Select], template=rf"hats:lt:(?P<lobby>{ID})"
):
    """The lobby's turn timer select (custom_id ``hats:lt:<lobby id>``), host only."""

    def __init__(self, lobby: int, select: discord.ui.Select | None = None) -> None:
        super().__init__(
            select
            or discord.ui.Select(
                custom_id=f"hats:lt:{lobby}",
                options=[discord.SelectOption(label=str(v), value=str(v)) for v in TIMER_CHOICES],
            )
        )
        self.lobby = lobby

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any
    ) -> TimerSelect:
        """Rebuild the select from its custom_id."""
        return cls(fields(match)["lobby"], item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen seconds to TimersCog."""
        cog: Any = interaction.client.get_cog("TimersCog")  # type: ignore[attr-defined]
        values = self.item.values
        await cog.on_timer_selected(interaction, self.lobby, int(values[0]) if values else 0)


class TimersCog(HatsFeature, name="TimersCog"):
    """Turn timers and reminders, away players, ``/hats kick``, the lobby timer select, expiry."""

    # ------------------------------------------------------------------ helpers
    def _scheduler(self) -> Any:
        return self.bot.get_cog("SchedulerCog")

    def _ai(self) -> Any:
        return self.bot.get_cog("AiCog")

    def turn_timer(self, session: GameSession) -> float | None:
        """The game's turn time in seconds, or None when it has no turn timer."""
        return turn_timer(session)

    async def _dm(self, user_id: int, text: str) -> None:
        try:
            user = await self.bot.create_dm(discord.Object(id=user_id))  # cached, no GET /users
            await user.send(text)
        except discord.HTTPException as exc:  # closed DMs: the table says it anyway
            log.info("could not DM user %d: %s", user_id, exc)

    async def _say(self, session: GameSession, text: str) -> None:
        channel = self.bot.get_partial_messageable(session.channel_id)
        try:
            await channel.send(text, allowed_mentions=NOBODY)
        except discord.HTTPException as exc:
            log.warning("could not post in the channel of game %d: %s", session.id, exc)

    async def _refresh_table(self, session: GameSession) -> None:
        table = self.bot.get_cog("TableCog")
        if table is not None:
            await table.refresh_table(session)  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ turn timer
    async def remind(self, session: GameSession, row: TimerRow) -> None:
        """Half the turn time is gone: nothing is sent (issue 36.2).

        The player's hand DM (or its one line for slash-command players) shows when the time
        runs out as a Discord timestamp that the client counts down (cogs.play
        ``turn_deadline``), so no message of its own is needed, and none is left behind as
        the newest DM once the turn ended. The deadline is still taken once
        (:func:`service.due.take_once`) so that a repeat stays idle.
        """
        if still_due(session, row) is not None:
            await take_once(self.bot.games, row)

    async def auto_turn(self, session: GameSession, seat: int) -> None:
        """The deadline passed: the normal AI finishes ``seat``'s turn (actor ``auto``).

        Counts one auto-played turn; after :data:`AWAY_AFTER` in a row the seat is marked away
        and the AI keeps it (``ai_level`` normal) until the player acts again.
        """
        ai = self._ai()
        for _ in range(16):  # a turn has at most a handful of steps
            if session.game.is_over or session.game.to_move != seat:
                break
            if session.seats[seat].ai_level is not None:
                return  # the AI cog plays it already
            event = await ai.play_for(session, seat, AWAY_LEVEL, actor="auto")
            if event is not None and (event.turn_ended or event.game_over):
                break
        if await self.bot.games.session(session.id) is None or session.game.is_over:
            return
        row = session.seats[seat]
        count = row.auto_turns + 1
        if count >= AWAY_AFTER and not row.away:
            await self.bot.games.update_seat(
                session, seat, auto_turns=count, away=True, ai_level=AWAY_LEVEL
            )
            tr = self.public_tr(session.row.guild_id)
            await self._say(session, away_text(f"<@{row.user_id}>", tr))
            if row.user_id is not None:
                tr = self.tr_for(row.user_id, session.row.guild_id)
                await self._dm(row.user_id, away_dm_text(count, session.id, tr))
            await self._refresh_table(session)
            self.bot.dispatch("hats_seat_changed", session, seat)
        else:
            await self.bot.games.update_seat(session, seat, auto_turns=count)

    async def come_back(self, session: GameSession, seat: int) -> bool:
        """``seat``'s player acted: take the seat back from the AI; True if it was away.

        The channel is told (no DM: the player's hand DM stays their latest message).
        """
        row = session.seats[seat]
        if row.user_id is None or str(seat) in session.row.settings.get(KICKED, {}):
            return False
        if not row.away and row.auto_turns == 0 and row.ai_level is None:
            return False
        was_away = row.away
        await self.bot.games.update_seat(session, seat, away=False, ai_level=None, auto_turns=0)
        if was_away:
            tr = self.public_tr(session.row.guild_id)
            await self._say(session, back_text(f"<@{row.user_id}>", tr))
            await self._refresh_table(session)
            self.bot.dispatch("hats_seat_changed", session, seat)
        return was_away

    # ------------------------------------------------------------------ events
    @commands.Cog.listener()
    async def on_hats_game_started(self, session: GameSession) -> None:
        """The first turn's deadline, once the game is shown (written by the service)."""
        try:
            await self.bot.games.arm(session)
        except StoreError as exc:  # the sweep (service.sweep) arms it later
            log.warning("game %d: its first deadline is not stored: %s", session.id, exc)

    @commands.Cog.listener()
    async def on_hats_step(self, session: GameSession, event: Any, actor: str, origin: Any) -> None:
        """A player's own move takes their seat back (the step wrote its deadlines itself)."""
        if actor == "player":
            await self.come_back(session, event.seat)

    @commands.Cog.listener()
    async def on_hats_lobby_updated(self, row: LobbyRow) -> None:
        """A lobby opened or changed: it expires ``lobby_expiry`` seconds after that."""
        await self._scheduler().set(EXPIRE, self.bot.settings.lobby_expiry, lobby_id=row.id)

    @commands.Cog.listener()
    async def on_hats_timer(self, row: TimerRow) -> None:
        """A deadline fell due: reminder, turn deadline or lobby expiry."""
        try:
            if row.kind == EXPIRE and row.lobby_id is not None:
                await self.expire_lobby(row.lobby_id)
                return
            if row.game_id is None or row.kind not in (TURN, REMINDER):
                return
            due = await due_deadline(self.bot.games, row)  # judged on the stored game
            if due is None:
                return
            session, seat = due
            if row.kind == REMINDER:
                await self.remind(session, row)
            else:
                await self.auto_turn(session, seat)
        except StoreError as exc:  # nothing was saved: the same deadline fires again later
            log.warning("timer %s of game %s not done, retried: %s", row.kind, row.game_id, exc)
            await self._scheduler().again(row)
        except Exception:
            log.exception("timer %s failed", row)

    async def expire_lobby(self, lobby_id: int) -> None:
        """Close a lobby nobody started in time (or wait longer if it changed since)."""
        if not self.bot.is_ready():
            await self.bot.wait_until_ready()
        row = await self.bot.games.lobby(lobby_id)
        if row is None:
            return
        left = row.updated_at + self.bot.settings.lobby_expiry - now()
        if left > 1:
            await self._scheduler().set(EXPIRE, left, lobby_id=lobby_id)
            return
        closed = await self.bot.games.close_lobby(lobby_id)
        if closed is None:
            return
        lobby_cog: Any = self.bot.get_cog("LobbyCog")
        tr = self.public_tr(closed.guild_id)
        await lobby_cog.redraw(
            None,
            closed,
            from_button=False,
            closed=True,
            status=lobby_expired_text(tr),
        )

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start: every open lobby has an expiry.

        Nothing is done per live game: games keep their deadlines in the store.
        """
        scheduler = self._scheduler()
        for lobby in await self.bot.games.lobbies():
            if await scheduler.pending(EXPIRE, lobby_id=lobby.id) is None:
                left = lobby.updated_at + self.bot.settings.lobby_expiry - now()
                await scheduler.set(EXPIRE, max(left, 0.0), lobby_id=lobby.id)

    # ------------------------------------------------------------------ commands
    # ------------------------------------------------------------------ the lobby's timer
    def lobby_items(self, row: LobbyRow, tr: Tr) -> list[discord.ui.Item]:
        """Lobby hook: the turn timer select (common values; the current one chosen)."""
        current = row.settings.get(TURN_TIMER)
        current = int(current) if isinstance(current, int | float) and current > 0 else 0
        values = sorted({*TIMER_CHOICES, current})
        select = TimerSelect(row.id)
        select.item.options = [
            discord.SelectOption(
                # short: a phone shows about 22 characters of an option
                label=timer_option_label(v, tr),
                value=str(v),
                default=v == current,
            )
            for v in values
        ]
        return [select]

    async def on_timer_selected(
        self, interaction: discord.Interaction, lobby_id: int, seconds: int
    ) -> None:
        """The lobby's timer select: set the turn timer (host or a server manager).

        Like Start and Cancel, it acts only in its lobby's server and channel
        (:meth:`cogs.base.HatsFeature.lobby_for_control`).
        """

        async def work() -> None:
            # closed, or used away from its lobby's server and channel (issue 29.4): refused
            lobby = await self.lobby_for_control(interaction, lobby_id)
            require_host(interaction, lobby.host_id, lobby.guild_id)
            row = await lobby_requests.set_timer(self.bot.games, lobby.id, seconds)
            lobby_cog: Any = self.bot.get_cog("LobbyCog")
            await lobby_cog.redraw(interaction, row, from_button=True)
            self.bot.dispatch("hats_lobby_updated", row)

        await self.guarded(interaction, work)

    @app_commands.command(name="kick", description="Hand a player's seat to the AI (host only)")
    @app_commands.describe(player="The player whose seat the AI takes over")
    async def kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        """``/hats kick player``: an AI plays that seat for the rest of the game.

        The host of a game is its first human seat; a user with Manage Server may kick too.
        """

        async def work() -> None:
            session = None
            if interaction.guild is not None:
                session = await self.bot.games.session_in_channel(interaction.channel_id or 0)
            if session is None:
                raise ServiceError("There is no game in this channel. Open a lobby with /hats new.")
            humans = [s.user_id for s in session.seats if s.user_id is not None]
            host = humans[0] if humans else None
            require_host(interaction, host, session.row.guild_id)
            seat = session.seat_of(player.id)
            if seat is None:
                raise ServiceError("{player} is not playing in this game.", player=player.mention)
            if player.id == interaction.user.id:
                raise ServiceError("You cannot remove yourself; an AI plays for you if you stop.")
            await self.remove_player(session, seat)
            tr = self.tr(interaction)
            await send_private(
                interaction,
                removed_answer_text(player.mention, tr),
            )

        await self.guarded(interaction, work)

    async def remove_player(self, session: GameSession, seat: int) -> None:
        """An AI takes ``seat`` for the rest of the game; the removed user id is kept in settings.

        The seat's ``user_id`` is cleared so the removed player's controls no longer act.
        """
        user_id = session.seats[seat].user_id
        kicked = {**session.row.settings.get(KICKED, {}), str(seat): user_id}
        session.row = await self.bot.store.games.set_settings(
            session.id, {**session.row.settings, KICKED: kicked}, at=now()
        )
        await self.bot.games.update_seat(
            session, seat, user_id=None, ai_level=AWAY_LEVEL, away=False, auto_turns=0
        )
        tr = self.public_tr(session.row.guild_id)
        await self._say(session, removed_text(f"<@{user_id}>", session.id, tr))
        await self._refresh_table(session)
        self.bot.dispatch("hats_seat_changed", session, seat)

    @app_commands.command(name="back", description="Take your seat back from the AI")
    async def back(self, interaction: discord.Interaction) -> None:
        """``/hats back``: an away player plays their own seat again."""

        async def work() -> None:
            session = None
            if interaction.guild is not None:
                session = await self.bot.games.session_in_channel(interaction.channel_id or 0)
            else:
                mine = await self.bot.games.sessions_of_user(interaction.user.id)
                session = mine[0] if len(mine) == 1 else None
            seat = session.seat_of(interaction.user.id) if session else None
            if session is None or seat is None:
                raise ServiceError(
                    "You are not playing in this game. You can follow it on the table; join the "
                    "next lobby to play."
                )
            tr = self.tr(interaction)
            was_away = await self.come_back(session, seat)
            await send_private(interaction, back_answer_text(tr, was_away=was_away))

        await self.guarded(interaction, work)


async def setup(bot: HatsBot) -> None:
    """Load the cog and register the lobby timer select."""
    bot.add_dynamic_items(TimerSelect)
    await bot.add_cog(TimersCog(bot))
