"""Playing: the secret hand (DM and ``/hats hand``) and every action of a turn (R7–R11).

Slash commands: ``/hats hand``, ``/hats exchange card slot``, ``/hats blackhat card``,
``/hats discard card``, ``/hats swap card``, ``/hats decline``, ``/hats endturn``. The hand
controls (a card select, then that card's legal actions) are persistent ``DynamicItem``s
(cogs.controls). After every committed step each human's DM is edited in place; a new DM
pings a player when their turn comes or a swap offer reaches them. When a DM cannot be
delivered (403 / 50007), the channel is told once and the player uses ``/hats hand``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import HatsFeature
from cogs.card_input import fold, parse_card_text
from cogs.controls import CardSelect, HandButton, HandCommand, HandOp, hand_view
from cogs.pictures import edit_kwargs, send_kwargs
from cogs.render import card_label, describe_event, hand_embed
from cogs.replies import error_text, fault_text, labels_for, log_fault, send_private
from cogs.service import GameSession, OutOfDate, ServiceError
from data import StoreFault
from engine import (
    Action,
    ActionKind,
    AnswerSwap,
    BlackHat,
    DeclineSwap,
    Discard,
    EndTurn,
    Event,
    Exchange,
    OfferSwap,
    WithdrawSwap,
)
from engine.cards import CardParseError

if TYPE_CHECKING:
    from bot import HatsBot
    from cogs.i18n import Tr

log = logging.getLogger("hats.play")

DM_ROLE = "dm"
DM_BLOCKED_ROLE = "dm_blocked"
CLOSED_DMS = 50007
"""Discord error code: cannot send messages to this user (closed DMs)."""


class PlayCog(HatsFeature, name="PlayCog"):
    """The hand and the turn's actions, by slash command, DM controls or ephemeral controls."""

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)

    # ------------------------------------------------------------------ helpers
    def resolve(
        self, interaction: discord.Interaction, game: int | None
    ) -> tuple[GameSession, int]:
        """The game and seat the user means: the channel's game, or theirs in a DM.

        Raises ServiceError with what to do when there is no such game or seat.
        """
        games = self.bot.games
        user_id = interaction.user.id
        if game is not None:
            session = games.session(game)
            if session is None or session.game.is_over:
                raise ServiceError("There is no live game #{game}.", game=game)
        elif interaction.guild is not None:
            session = games.session_in_channel(interaction.channel_id or 0)
            if session is None:
                raise ServiceError(
                    "There is no game in this channel. Open a lobby with /hats new, or play "
                    "from the channel where your game is."
                )
        else:
            mine = games.sessions_of_user(user_id)
            if not mine:
                raise ServiceError(
                    "You are not playing any game right now. Join one with /hats join."
                )
            if len(mine) > 1:
                raise ServiceError(
                    "You sit in several games ({games}). Add the game option to say which one.",
                    games=", ".join(f"#{s.id}" for s in mine),
                )
            session = mine[0]
        seat = session.seat_of(user_id)
        if seat is None:
            raise ServiceError(
                "You are not playing in this game. You can follow it on the table; join the "
                "next lobby to play."
            )
        return session, seat

    def hand_message(
        self,
        session: GameSession,
        seat: int,
        tr: Tr,
        *,
        selected=None,
        notice: str | None = None,
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """The embed and controls of ``seat``'s hand (only what that seat may see)."""
        game = session.game
        obs = game.observation(seat)
        labels = labels_for(session, self.bot.names, tr)
        embed = hand_embed(
            obs,
            labels,
            tr,
            game_id=session.id,
            selected=selected,
            notice=notice,
            auto_played=session.auto_played,
        )
        if game.is_over:
            return embed, None
        legal = game.legal_actions(seat)
        if selected is not None and not any(getattr(a, "card", None) is selected for a in legal):
            selected = None
        view = hand_view(
            session.id,
            session.version,
            obs.hand or (),
            legal,
            obs.board,
            tr,
            selected=selected,
            card_label=lambda c: card_label(c, tr=tr),
        )
        return embed, (view if view.children else None)

    async def hand_picture(
        self, session: GameSession, seat: int, tr: Tr, embed: discord.Embed, *, urgent: bool = True
    ) -> list[discord.File]:
        """``seat``'s hand picture for ``embed`` (its image set), or [] if not drawn.

        ``urgent`` (default): it answers the player's own interaction, so it is drawn first.
        """
        return await self.bot.pictures.hand(session, seat, self.bot.names, tr, embed, urgent=urgent)

    async def answer_with_hand(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        seat: int,
        tr: Tr,
        embed: discord.Embed,
        respond: Callable[[list[discord.File] | None], Awaitable[object]],
    ) -> None:
        """Answer with ``seat``'s hand at once; its picture goes along or follows."""
        await self.bot.pictures.answer_with_hand(
            interaction, session, seat, self.bot.names, tr, embed, respond
        )

    def notice_for(self, session: GameSession, event: Event, seat: int, tr: Tr) -> str:
        """One line describing ``event`` as ``seat`` may see it."""
        labels = labels_for(session, self.bot.names, tr)
        return describe_event(event.seen_by(seat), labels, tr, viewer=seat)

    # ------------------------------------------------------------------ slash commands
    async def _act(
        self,
        interaction: discord.Interaction,
        game: int | None,
        make: Callable[[GameSession, int], Action],
    ) -> None:
        tr = self.tr(interaction)
        session: GameSession | None = None
        try:
            session, seat = self.resolve(interaction, game)
            action = make(session, seat)
            event = await self.bot.games.play(session, seat, action)
        except Exception as exc:
            if isinstance(exc, OutOfDate):
                exc = ServiceError("The game moved on meanwhile; look at your hand and try again.")
            if not await self._answer(interaction, exc, session):
                raise
            return
        embed, view = self.hand_message(
            session, seat, tr, notice=self.notice_for(session, event, seat, tr)
        )
        await self.answer_with_hand(
            interaction,
            session,
            seat,
            tr,
            embed,
            lambda files: send_private(interaction, embed=embed, view=view, files=files),
        )

    async def _answer(
        self, interaction: discord.Interaction, exc: Exception, session: GameSession | None
    ) -> bool:
        tr = self.tr(interaction)
        labels = labels_for(session, self.bot.names, tr) if session is not None else None
        if isinstance(exc, StoreFault):
            log_fault(exc, f"game {session.id if session else '?'} move")
            text: str | None = fault_text(exc, tr, move=True)
        else:
            text = error_text(exc, tr, labels)
        if text is None:
            return False
        await send_private(interaction, text)
        return True

    async def card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Cards of the user's own hand: value ``red5``, name ``🟥 5 · red`` in their language.

        What was typed so far matches the code, the localized name or any language's colour
        word (case and accents ignored: ``grun`` finds ``🟩 3 · grün``).
        """
        try:
            game = getattr(interaction.namespace, "game", None)
            session, seat = self.resolve(interaction, game)
        except ServiceError:
            return []
        tr = self.tr(interaction)
        needle = fold(current.strip())
        typed = None
        with contextlib.suppress(CardParseError):
            typed = parse_card_text(current) if needle else None
        out = []
        for card in session.game.hands[seat]:
            name = card_label(card, tr=tr)
            if not needle or card is typed or needle in card.code or needle in fold(name):
                out.append(app_commands.Choice(name=name, value=card.code))
        return out[:25]

    async def game_autocomplete(
        self, interaction: discord.Interaction, current: int | str
    ) -> list[app_commands.Choice[int]]:
        """The user's live games, for the ``game`` option (DMs, several games)."""
        out = []
        for s in self.bot.games.sessions_of_user(interaction.user.id):
            channel = self.bot.get_channel(s.channel_id)
            where = f"#{getattr(channel, 'name', s.channel_id)}"
            out.append(app_commands.Choice(name=f"#{s.id} · {where}", value=s.id))
        return out[:25]

    @app_commands.command(name="hand", description="Show your hand and your controls, privately")
    @app_commands.describe(game="Which game (only needed when you play several)")
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/hats hand``: the caller's hand with controls, ephemeral."""
        tr = self.tr(interaction)
        try:
            session, seat = self.resolve(interaction, game)
        except ServiceError as exc:
            await self._answer(interaction, exc, None)
            return
        embed, view = self.hand_message(session, seat, tr)
        files = await self.hand_picture(session, seat, tr, embed)
        await send_private(interaction, embed=embed, view=view, files=files)

    @app_commands.command(name="exchange", description="Play a card onto a slot and take its card")
    @app_commands.describe(
        card="A card from your hand", slot="The board slot, 1 (left) to 6", game="Which game"
    )
    async def exchange(
        self,
        interaction: discord.Interaction,
        card: str,
        slot: app_commands.Range[int, 1, 6],
        game: int | None = None,
    ) -> None:
        """``/hats exchange card slot`` (R7)."""
        await self._act(interaction, game, lambda s, seat: Exchange(parse_card_text(card), slot))

    @app_commands.command(name="blackhat", description="Play a card face down as a black hat")
    @app_commands.describe(card="A card from your hand", game="Which game")
    async def blackhat(
        self, interaction: discord.Interaction, card: str, game: int | None = None
    ) -> None:
        """``/hats blackhat card`` (R8)."""
        await self._act(interaction, game, lambda s, seat: BlackHat(parse_card_text(card)))

    @app_commands.command(name="discard", description="Discard a card and draw (2–3 players)")
    @app_commands.describe(card="A card from your hand", game="Which game")
    async def discard(
        self, interaction: discord.Interaction, card: str, game: int | None = None
    ) -> None:
        """``/hats discard card`` (R9)."""
        await self._act(interaction, game, lambda s, seat: Discard(parse_card_text(card)))

    @app_commands.command(
        name="swap", description="Offer a card to your partner, or give one back (4 players)"
    )
    @app_commands.describe(card="A card from your hand", game="Which game")
    async def swap(
        self, interaction: discord.Interaction, card: str, game: int | None = None
    ) -> None:
        """``/hats swap card``: offer (active player) or answer (partner) a swap (R10)."""

        def make(session: GameSession, seat: int) -> Action:
            c = parse_card_text(card)
            if session.game.pending_offer is not None and seat == session.game.to_move:
                return AnswerSwap(c)
            return OfferSwap(c)

        await self._act(interaction, game, make)

    @app_commands.command(
        name="decline", description="Decline your partner's swap offer, or withdraw yours"
    )
    @app_commands.describe(game="Which game")
    async def decline(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/hats decline``: decline (partner) or withdraw (offerer) a pending swap (R10)."""

        def make(session: GameSession, seat: int) -> Action:
            if session.game.pending_offer is not None and seat == session.game.active:
                return WithdrawSwap()
            return DeclineSwap()

        await self._act(interaction, game, make)

    @app_commands.command(name="endturn", description="End your turn after your main action")
    @app_commands.describe(game="Which game")
    async def endturn(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/hats endturn`` (R11)."""
        await self._act(interaction, game, lambda s, seat: EndTurn())

    for _cmd in (exchange, blackhat, discard, swap):
        _cmd.autocomplete("card")(card_autocomplete)
    for _cmd in (hand, exchange, blackhat, discard, swap, decline, endturn):
        _cmd.autocomplete("game")(game_autocomplete)
    del _cmd

    # ------------------------------------------------------------------ controls
    def _control_target(
        self, interaction: discord.Interaction, game_id: int
    ) -> tuple[GameSession, int]:
        session = self.bot.games.session(game_id)
        if session is None:
            raise ServiceError("This game is over or no longer exists.")
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("These controls belong to another player.")
        return session, seat

    async def on_card_selected(
        self, interaction: discord.Interaction, game_id: int, version: int, code: str | None
    ) -> None:
        """A card was chosen in a hand message: show its legal actions (edit in place)."""
        tr = self.tr(interaction)
        try:
            session, seat = self._control_target(interaction, game_id)
        except ServiceError as exc:
            await self._answer(interaction, exc, None)
            return
        notice = None
        selected = None
        if version != session.version or session.game.is_over:
            notice = tr(OutOfDate().msgid)
        elif code:
            try:
                selected = parse_card_text(code)
            except ValueError:
                selected = None
        embed, view = self.hand_message(session, seat, tr, selected=selected, notice=notice)
        await self.answer_with_hand(
            interaction,
            session,
            seat,
            tr,
            embed,
            lambda files: interaction.response.edit_message(
                embed=embed, view=view, **edit_kwargs(files)
            ),
        )

    async def on_hand_command(self, interaction: discord.Interaction, cmd: HandCommand) -> None:
        """A hand button was pressed: apply its action, then redraw the hand in place."""
        tr = self.tr(interaction)
        try:
            session, seat = self._control_target(interaction, cmd.game)
        except ServiceError as exc:
            await self._answer(interaction, exc, None)
            return
        action = cmd.action()
        if cmd.op is HandOp.REFRESH or action is None:
            embed, view = self.hand_message(session, seat, tr)
            await self.answer_with_hand(
                interaction,
                session,
                seat,
                tr,
                embed,
                lambda files: interaction.response.edit_message(
                    embed=embed, view=view, **edit_kwargs(files)
                ),
            )
            return
        origin = interaction.message.id if interaction.message else None
        try:
            event = await self.bot.games.play(
                session, seat, action, version=cmd.version, origin=origin
            )
        except OutOfDate as exc:
            embed, view = self.hand_message(session, seat, tr, notice=tr(exc.msgid))
            await self.answer_with_hand(
                interaction,
                session,
                seat,
                tr,
                embed,
                lambda files: interaction.response.edit_message(
                    embed=embed, view=view, **edit_kwargs(files)
                ),
            )
            return
        except Exception as exc:
            if not await self._answer(interaction, exc, session):
                raise
            return
        embed, view = self.hand_message(
            session, seat, tr, notice=self.notice_for(session, event, seat, tr)
        )
        await self.answer_with_hand(
            interaction,
            session,
            seat,
            tr,
            embed,
            lambda files: interaction.response.edit_message(
                embed=embed, view=view, **edit_kwargs(files)
            ),
        )

    # ------------------------------------------------------------------ DMs
    async def announce_start(self, session: GameSession) -> None:
        """Outbox ``start``: send every human their hand by DM (those who have none yet)."""
        for seat in session.human_seats():
            if session.message(DM_ROLE, seat.seat) is None:
                await self.refresh_dm(session, seat.seat, ping=True, announce=False)

    @commands.Cog.listener()
    async def on_hats_step(
        self, session: GameSession, event: Event, actor: str, origin: int | None
    ) -> None:
        """Edit every human's DM in place; ping whoever must act now."""
        game = session.game
        for seat in session.human_seats():
            s = seat.seat
            turn_came = event.turn_ended and game.to_move == s
            offer_came = event.kind is ActionKind.OFFER_SWAP and game.to_move == s
            current = session.message(DM_ROLE, s)
            if (
                current is not None
                and current.message_id == origin
                and not (turn_came or offer_came)
            ):
                continue  # the interaction already redrew this message
            await self.refresh_dm(session, s, ping=turn_came or offer_came)

    async def refresh_dm(
        self, session: GameSession, seat: int, *, ping: bool, announce: bool = True
    ) -> None:
        """Edit ``seat``'s hand DM, or send a new one (``ping``) and retire the old one.

        The new DM says "your move" when the seat must act now (or ``announce`` is False and
        the game just started: then only the seat to move is told so).
        """
        user_id = session.seats[seat].user_id
        if user_id is None or session.message(DM_BLOCKED_ROLE, seat) is not None:
            return
        tr = self.tr_for(user_id, session.row.guild_id)
        embed, view = self.hand_message(session, seat, tr)
        files = await self.hand_picture(session, seat, tr, embed, urgent=False)
        current = session.message(DM_ROLE, seat)
        if current is not None and current.message_id is not None and not ping:
            partial = self.bot.get_partial_messageable(current.channel_id)
            try:
                await partial.get_partial_message(current.message_id).edit(
                    embed=embed, view=view, **edit_kwargs(files)
                )
                return
            except discord.NotFound:
                pass  # deleted by the user: send a new one
            except discord.HTTPException as exc:
                log.warning("could not edit DM of seat %d in game %d: %s", seat, session.id, exc)
                return
        content = None
        if ping and session.game.to_move == seat:
            channel = self.bot.get_channel(session.channel_id)
            content = tr(
                "Your move in the Hats game in {channel}.",
                channel=getattr(channel, "mention", f"<#{session.channel_id}>"),
            )
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            message = await user.send(content=content, embed=embed, view=view, **send_kwargs(files))
        except discord.Forbidden as exc:
            if exc.code == CLOSED_DMS or exc.status == 403:
                await self.dm_blocked(session, seat, user_id)
                return
            raise
        except discord.HTTPException as exc:
            log.warning("could not DM seat %d in game %d: %s", seat, session.id, exc)
            return
        if current is not None and current.message_id is not None:
            old = self.bot.get_partial_messageable(current.channel_id)
            with contextlib.suppress(discord.HTTPException):
                await old.get_partial_message(current.message_id).edit(view=None)
        await self.bot.games.remember_message(
            session, DM_ROLE, message.channel.id, message.id, seat=seat
        )

    async def dm_blocked(self, session: GameSession, seat: int, user_id: int) -> None:
        """Tell the channel once that ``user_id`` gets no DMs and how to play anyway."""
        await self.bot.games.remember_message(
            session, DM_BLOCKED_ROLE, session.channel_id, None, seat=seat
        )
        channel = self.bot.get_partial_messageable(session.channel_id)
        tr = self.public_tr(session.row.guild_id)  # a channel message: the server's language
        await channel.send(
            tr(
                "{player}, I cannot send you direct messages, so your hand stays here: press "
                "Show my hand under the table or use /hats hand. (To get DMs, allow direct "
                "messages from server members in your privacy settings.)",
                player=f"<@{user_id}>",
            ),
            allowed_mentions=discord.AllowedMentions(users=True),
        )


async def setup(bot: HatsBot) -> None:
    """Load the cog and register its persistent controls."""
    bot.add_dynamic_items(HandButton, CardSelect)
    await bot.add_cog(PlayCog(bot))
