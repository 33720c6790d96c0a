"""Team mode with 4 players (R5, R10, R20): team picks, swap lapses, private team chat.

- Lobby (LobbyCog hooks): Team A / Team B buttons for each player's own pick and the host's
  Shuffle teams. With 4 seats team A sits at seats 0 and 2, team B at 1 and 3 (R5); players
  without a pick fill the free places in lobby order.
- Partner swap (R10): when an offer is made a ``swap`` deadline is stored (the lobby's
  ``swap_timeout`` seconds). While the offer waits the offerer may only withdraw it; the
  partner answers with a card or declines; when the deadline passes the offer is declined for
  the partner (``actor="timer"``) and both partners are told by DM. So the turn never stalls.
  After an accepted swap the offerer gets a DM saying what they gave and received; the
  answering partner sees it in their own reply; the table only says that a swap happened.
- Team chat: at the start one private thread per team (both partners added, a reminder of
  the table-talk rule). Where private threads cannot be made, ``/hats team message`` relays
  the text to the partner by DM. Every ``/hats team message`` passes the table-talk guard
  (texts.table_talk). Threads are archived and locked at the end.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import HatsFeature
from cogs.controls import LobbyButton, LobbyOp
from cogs.mentions import NOBODY, only
from cogs.replies import send_private
from cogs.scope import require_host
from data import LobbyRow, LobbySeat, StoreError, TimerRow
from data.game_flags import is_activity_only
from engine import ActionKind, DeclineSwap, Event, IllegalMove
from service import GameSession, OutOfDate, ServiceError
from service.lobby_requests import pick_team, seat_order, shuffle_teams, team_positions
from texts import SWAP_TIMEOUT
from texts.common import duration_text, seat_mention
from texts.replies import labels_for, seat_labels
from texts.table_talk import check_table_talk
from texts.teams import (
    not_sent_text,
    partner_is_ai_text,
    partner_no_dms_text,
    relay_notice,
    relayed_text,
    sent_to_partner_text,
    sent_to_thread_text,
    shuffle_teams_label,
    swap_lapsed_text,
    team_button_label,
    team_thread_intro,
    team_thread_name,
    thread_post_text,
)
from texts.user_text import with_user_text

if TYPE_CHECKING:
    from bot import HatsBot
    from texts.i18n import Tr

log = logging.getLogger("hats.teams")

TEAM_SEATS = 4
"""Teams exist only with 4 seats (R5)."""
SWAP_TIMER = "swap"
"""SchedulerCog kind of the swap-offer deadline (payload: partner seat, version after offer)."""
THREAD_ROLE = "team_thread"
"""Stored message role of a team's private thread (seat = team index, 0 = Team A)."""
RELAY_ROLE = "team_relay"
"""Stored message role of the channel notice that team chat goes through the DM relay."""
DM_BLOCKED_ROLE = "dm_blocked"
"""PlayCog's role for seats that get no DMs (see cogs.play)."""

__all__ = ["TeamsCog", "seat_order", "team_positions"]


def _short(name: str, most: int = 12) -> str:
    """A display name's first word, at most ``most`` characters (a button label's room)."""
    word = (name.split() or ["?"])[0]
    return word if len(word) <= most else word[: most - 1] + "…"


class TeamsCog(HatsFeature, name="TeamsCog"):
    """Team picks in lobbies, swap-offer lapses and team chat for 4-player games."""

    LOBBY_OPS = (LobbyOp.TEAM_A, LobbyOp.TEAM_B, LobbyOp.SHUFFLE)

    team = app_commands.Group(name="team", description="Team chat with your partner (4 players)")

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)
        self._rng = random.Random(secrets.randbits(64))

    # ------------------------------------------------------------------ lobby hooks
    def lobby_items(self, row: LobbyRow, tr: Tr) -> list[discord.ui.Item]:
        """Lobby hook: Team A, Team B (pick your own team) and the host's Shuffle teams.

        Only once 4 players have joined (R5): with 2 or 3 there are no teams. Each team button
        names the players who picked that team themselves ("Team A: Marianne"; issue 29),
        while the lobby's text lists the teams as they stand (picks and the places filled).
        """
        if len(row.seats) != TEAM_SEATS:
            return []
        labels = seat_labels(row.seats, self.bot.names, tr)
        items: list[discord.ui.Item] = []
        for op, team in ((LobbyOp.TEAM_A, 0), (LobbyOp.TEAM_B, 1), (LobbyOp.SHUFFLE, None)):
            button = LobbyButton(row.id, op)
            if team is None:
                button.item.label = shuffle_teams_label(tr)
            else:
                picks = [
                    _short(label.plain_name)
                    for seat, label in zip(row.seats, labels, strict=True)
                    if seat.team == team
                ]
                button.item.label = team_button_label(team, picks, tr)[:80]
            button.item.style = discord.ButtonStyle.secondary
            items.append(button)
        return items

    def lobby_teams(self, row: LobbyRow) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """Lobby hook: the two teams (lobby positions) with 4 seats (R5), else None."""
        if len(row.seats) != TEAM_SEATS:
            return None
        return team_positions(row.seats)

    def lobby_start_check(self, row: LobbyRow) -> None:
        """Lobby hook: refuse a 4-player start whose team picks cannot be balanced (R5)."""
        if len(row.seats) == TEAM_SEATS and seat_order(row.seats) is None:
            raise ServiceError(
                "The teams are unbalanced: each team needs exactly 2 players. Press Team A or "
                "Team B to change your team, or let the host press Shuffle teams."
            )

    def lobby_seat_order(self, row: LobbyRow) -> list[LobbySeat] | None:
        """Lobby hook: with 4 seats, team A at seats 0 and 2, team B at 1 and 3 (R5)."""
        return seat_order(row.seats) if len(row.seats) == TEAM_SEATS else None

    async def on_lobby_op(
        self, interaction: discord.Interaction, lobby_id: int, op: LobbyOp
    ) -> None:
        """Team A / Team B: the presser's own pick; Shuffle teams: the host deals new teams.

        Raises ServiceError (answered privately by LobbyCog) when the presser is not seated,
        the chosen team already has 2 picks, or a non-host shuffles.
        """
        user_id = interaction.user.id
        if op is LobbyOp.SHUFFLE:
            row = await self.bot.games.lobby(lobby_id)
            if row is None:
                raise ServiceError("This lobby is closed.")
            require_host(interaction, row.host_id, row.guild_id)
            row = await shuffle_teams(self.bot.games, lobby_id, self._rng)
        else:
            wanted = 0 if op is LobbyOp.TEAM_A else 1
            row = await pick_team(self.bot.games, lobby_id, user_id, wanted)
        lobby: Any = self.bot.get_cog("LobbyCog")
        await lobby.redraw(interaction, row, from_button=True)

    # ------------------------------------------------------------------ swap lapses (R10)
    def swap_timeout(self, session: GameSession) -> float | None:
        """Seconds a partner has to answer an offer: the lobby's setting, else the bot's."""
        value = session.row.settings.get(SWAP_TIMEOUT, self.bot.settings.swap_timeout)
        return float(value) if isinstance(value, int | float) and value > 0 else None

    @commands.Cog.listener()
    async def on_hats_step(
        self, session: GameSession, event: Event, actor: str, origin: int | None
    ) -> None:
        """Start the lapse deadline on an offer; stop it when the offer is settled (R10)."""
        scheduler: Any = self.bot.get_cog("SchedulerCog")
        if scheduler is None or session.game.seats != TEAM_SEATS:
            return
        if event.kind is ActionKind.OFFER_SWAP:
            delay = self.swap_timeout(session)
            if delay is not None:
                await scheduler.set(
                    SWAP_TIMER,
                    delay,
                    game_id=session.id,
                    seat=event.partner,
                    payload={"partner": event.partner, "version": event.number + 1},
                )
        elif event.kind in (
            ActionKind.ANSWER_SWAP,
            ActionKind.DECLINE_SWAP,
            ActionKind.WITHDRAW_SWAP,
        ):
            # the offerer learns the answer from cogs.play (its hand DM, or one line): once
            await scheduler.clear(SWAP_TIMER, game_id=session.id)

    @commands.Cog.listener()
    async def on_hats_timer(self, row: TimerRow) -> None:
        """A swap offer lapsed: it counts as declined (R10); both partners are told by DM."""
        if row.kind != SWAP_TIMER or row.game_id is None:
            return
        try:  # judged on the stored game: a copy behind other processes' steps drops nothing
            session = await self.bot.games.fresh_session(row.game_id)
        except StoreError as exc:
            log.warning("swap lapse of game %d not checked, retried: %s", row.game_id, exc)
            await self.bot.get_cog("SchedulerCog").again(row)  # type: ignore[union-attr]
            return
        if session is None or session.game.is_over or session.game.pending_offer is None:
            return
        partner = int(row.payload.get("partner", -1))
        version = row.payload.get("version")
        offerer = session.game.active
        try:
            await self.bot.games.play(
                session, partner, DeclineSwap(), version=version, actor="timer"
            )
        except (OutOfDate, IllegalMove):
            return  # answered or withdrawn meanwhile
        except StoreError as exc:  # not saved: the offer lapses on the next try
            log.warning("swap lapse of game %d not saved, retried: %s", session.id, exc)
            await self.bot.get_cog("SchedulerCog").again(row)  # type: ignore[union-attr]
            return
        for seat, other in ((offerer, partner), (partner, offerer)):
            user_id = session.seats[seat].user_id
            if user_id is None or session.message(DM_BLOCKED_ROLE, seat) is not None:
                continue
            tr = self.tr_for(user_id, session.row.guild_id)
            labels = labels_for(session, self.bot.names, tr, plain=True)  # a DM: names
            who = seat_mention(labels, other, tr)
            time = duration_text(self.swap_timeout(session) or 0, tr)
            await self._dm(user_id, swap_lapsed_text(who, time, tr, offerer=seat == offerer))

    # ------------------------------------------------------------------ team threads
    @commands.Cog.listener()
    async def on_hats_game_started(self, session: GameSession) -> None:
        """Open one private thread per team with both partners, or fall back to the relay.

        Not for a DM or group DM Activity's game: its team chat is the Activity's.
        """
        if session.game.seats != TEAM_SEATS or is_activity_only(session.row.settings):
            return
        if session.message(THREAD_ROLE, 0) or session.message(RELAY_ROLE):
            return  # announced before a restart
        tr = self.public_tr(session.row.guild_id)
        channel = self.bot.get_channel(session.channel_id)
        made = 0
        if isinstance(channel, discord.TextChannel) and self._may_make_threads(channel):
            for index, team in enumerate(session.game.teams or ()):
                try:
                    await self._open_thread(session, channel, index, team, tr)
                    made += 1
                except discord.HTTPException as exc:
                    log.info("no private team thread in game %d: %s", session.id, exc)
                    break
        if made == 2:
            return
        await self._archive_threads(session)
        notice = relay_notice(tr)
        target = self.bot.get_partial_messageable(session.channel_id)
        try:
            message = await target.send(notice)
        except discord.HTTPException as exc:
            log.warning("could not announce the team relay in game %d: %s", session.id, exc)
            return
        await self.bot.games.remember_message(session, RELAY_ROLE, session.channel_id, message.id)

    @staticmethod
    def _may_make_threads(channel: discord.TextChannel) -> bool:
        perms = channel.permissions_for(channel.guild.me)
        return perms.create_private_threads and perms.send_messages_in_threads

    async def _open_thread(
        self,
        session: GameSession,
        channel: discord.TextChannel,
        index: int,
        team: Sequence[int],
        tr: Tr,
    ) -> None:
        thread = await channel.create_thread(
            name=team_thread_name(session.id, index, tr),
            type=discord.ChannelType.private_thread,
            invitable=False,
        )
        await self.bot.games.remember_message(session, THREAD_ROLE, thread.id, None, seat=index)
        humans = [session.seats[s].user_id for s in team if session.seats[s].user_id]
        for user_id in humans:
            await thread.add_user(discord.Object(user_id))
        await thread.send(
            team_thread_intro([f"<@{u}>" for u in humans], index, tr),
            allowed_mentions=only(humans),
        )

    async def _thread(self, channel_id: int) -> discord.Thread | None:
        thread = self.bot.get_channel(channel_id)
        if thread is None:
            try:
                thread = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return thread if isinstance(thread, discord.Thread) else None

    async def _archive_threads(self, session: GameSession) -> None:
        for index in (0, 1):
            stored = session.message(THREAD_ROLE, index)
            if stored is None:
                continue
            thread = await self._thread(stored.channel_id)
            if thread is None:
                continue
            try:
                await thread.edit(archived=True, locked=True)
            except discord.HTTPException as exc:
                log.info("could not archive thread %d: %s", thread.id, exc)

    @commands.Cog.listener()
    async def on_hats_game_over(self, session: GameSession) -> None:
        """Archive and lock the team threads (R20's result is on the table's final embed)."""
        if session.game.seats == TEAM_SEATS:
            await self._archive_threads(session)

    # ------------------------------------------------------------------ /hats team message
    async def _team_session(
        self, interaction: discord.Interaction, game: int | None
    ) -> tuple[GameSession, int]:
        games = self.bot.games
        user_id = interaction.user.id
        session = None
        if game is not None:
            session = await games.session(game)
        else:
            here = interaction.channel_id
            for s in await games.sessions_of_user(user_id):
                if any(m.role == THREAD_ROLE and m.channel_id == here for m in s.messages.values()):
                    session = s
            if session is None and interaction.guild is not None:
                session = await games.session_in_channel(here or 0)
            if session is None and interaction.guild is None:
                mine = [
                    s for s in await games.sessions_of_user(user_id) if s.game.seats == TEAM_SEATS
                ]
                if len(mine) > 1:
                    raise ServiceError(
                        "You sit in several games ({games}). Add the game option to say which one.",
                        games=", ".join(f"#{s.id}" for s in mine),
                    )
                session = mine[0] if mine else None
        if session is None or session.game.is_over:
            raise ServiceError("There is no live 4-player game here for team chat.")
        if session.game.seats != TEAM_SEATS:
            raise ServiceError("Team chat is for 4-player games, where partners play as a team.")
        seat = session.seat_of(user_id)
        if seat is None:
            raise ServiceError("Only the players of this game have a partner to talk to.")
        return session, seat

    @team.command(name="message", description="Send a message to your partner (table talk)")
    @app_commands.describe(text="What to tell your partner", game="Which game")
    async def message(
        self,
        interaction: discord.Interaction,
        text: app_commands.Range[str, 1, 1500],
        game: int | None = None,
    ) -> None:
        """``/hats team message text``: pass the guard (R10), then reach the partner."""
        tr = self.tr(interaction)
        try:
            session, seat = await self._team_session(interaction, game)
        except ServiceError as exc:
            await send_private(interaction, tr(exc.msgid, **exc.params))
            return
        verdict = check_table_talk(text)
        if not verdict.allowed:
            await send_private(interaction, not_sent_text(verdict.hits, tr))
            return
        partner = session.game.partner(seat)
        assert partner is not None
        partner_id = session.seats[partner].user_id
        if partner_id is None:
            await send_private(interaction, partner_is_ai_text(tr))
            return
        labels = labels_for(session, self.bot.names, tr)
        sender = seat_mention(labels, seat, tr)
        if await self._post_in_thread(session, session.game.teams, seat, sender, text):
            await send_private(interaction, sent_to_thread_text(tr))
            return
        delivered = await self._dm(partner_id, self._relayed(session, seat, partner_id, text))
        if delivered:
            await send_private(
                interaction,
                sent_to_partner_text(seat_mention(labels, partner, tr), tr),
            )
        else:
            await send_private(
                interaction,
                partner_no_dms_text(tr),
            )

    def _relayed(self, session: GameSession, seat: int, partner_id: int, text: str) -> str:
        """The DM that passes ``seat``'s team chat ``text`` on, in the partner's language."""
        tr = self.tr_for(partner_id, session.row.guild_id)
        return with_user_text(
            lambda quoted: relayed_text(
                seat_mention(labels_for(session, self.bot.names, tr), seat, tr),
                session.id,
                quoted,
                tr,
            ),
            text,
        )

    async def _post_in_thread(self, session, teams, seat: int, sender: str, text: str) -> bool:
        index = next((i for i, t in enumerate(teams or ()) if seat in t), None)
        stored = session.message(THREAD_ROLE, index) if index is not None else None
        if stored is None or session.message(RELAY_ROLE) is not None:
            return False
        thread = await self._thread(stored.channel_id)
        if thread is None:
            return False
        tr = self.public_tr(session.row.guild_id)
        try:
            await thread.send(
                with_user_text(
                    lambda quoted: thread_post_text(sender, quoted, tr),
                    text,
                ),
                allowed_mentions=NOBODY,
            )
        except discord.HTTPException:
            return False
        return True

    @commands.Cog.listener()
    async def on_hats_team_chat(self, session: GameSession, seat: int, text: str) -> None:
        """A team message sent in the Activity (already guarded, R10): relay it.

        Fired only when the partner does not watch the game live; by the team thread, else by DM.
        """
        partner = session.game.partner(seat)
        partner_id = session.seats[partner].user_id if partner is not None else None
        if partner_id is None:
            return
        tr = self.public_tr(session.row.guild_id)
        sender = seat_mention(labels_for(session, self.bot.names, tr), seat, tr)
        if await self._post_in_thread(session, session.game.teams, seat, sender, text):
            return
        await self._dm(partner_id, self._relayed(session, seat, partner_id, text))

    # ------------------------------------------------------------------ helpers
    async def _dm(self, user_id: int, text: str) -> bool:
        """Send ``text`` to a user by DM; False when it cannot be delivered (closed DMs)."""
        try:
            user = await self.bot.create_dm(discord.Object(id=user_id))  # cached, no GET /users
            await user.send(text, allowed_mentions=NOBODY)
        except discord.HTTPException as exc:
            log.info("could not DM user %d: %s", user_id, exc)
            return False
        return True


async def setup(bot: HatsBot) -> None:
    """Load the cog."""
    await bot.add_cog(TeamsCog(bot))
