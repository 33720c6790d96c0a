"""Playing: the secret hand (DM and ``/hats hand``) and every action of a turn (R7–R11).

Slash commands: ``/hats hand``, ``/hats exchange card slot``, ``/hats blackhat card``,
``/hats discard card``, ``/hats swap [card]``, ``/hats endturn``. The hand
controls (a card select, then that card's legal actions) are persistent ``DynamicItem``s
(cogs.controls).

The hand message is one Components V2 layout (cogs.hand_layout, issue 18): whose turn and what
just happened, the hand picture in a full-width media gallery with its full description as alt
text, the own collection and what to do next, then only the legal actions as buttons.

Hand DMs, within Discord's rate limits (issue 11): a player has at most one *live* hand DM per
game, sent as a new message (a ping) when their turn comes or a partner's swap offer reaches
them. It is edited only when something that player must see changes (their hand, an answer to
their offer); a move made with its controls is redrawn by the interaction response (free of the
global rate limit), a move made by slash command is shown by its private answer. When the player
has nothing more to do (their turn ended, the game ended) the live DM collapses to one short
line naming the round and the move (never the same sentence twice), so no stale controls stay
behind and the next turn needs no extra call. DM channels come from
discord.py's cache (``create_dm``), never from ``GET /users``. When a DM cannot be delivered
(403 / 50007), the channel is told once and the player uses ``/hats hand``.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import HatsFeature
from cogs.card_input import fold, parse_card_text
from cogs.clock import now
from cogs.controls import AutoEndButton, CardSelect, HandButton, HandCommand, HandOp, hand_rows
from cogs.hand_layout import HandMessage, collapsed_view
from cogs.learn import coach_section, posts_table
from cogs.mentions import only
from cogs.outcome import answer_unknown_outcome
from cogs.pictures import send_kwargs
from cogs.replies import log_fault, send_private
from cogs.scope import ELSEWHERE, in_id_range, used_where_it_lives
from cogs.teams import SWAP_TIMER
from data import StoreFault
from data.game_flags import is_activity_only
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
from service import GameSession, OutcomeUnknown, OutOfDate, ServiceError
from service.deadlines import TURN, turn_timer
from service.requests import WEB_ORIGIN, AutoEnd, seat_for, switch_auto_end
from service.requests import auto_end as stored_auto_end
from texts import card_label, describe_event
from texts.common import TURNS
from texts.hand import hand_alt_text, hand_texts
from texts.limits import CHOICE_NAME_MAX, truncate
from texts.play import (
    answer_in_line,
    auto_end_next_turn_notice,
    auto_end_notice,
    dm_blocked_text,
    game_over_line,
    last_turn_line,
    next_message_hint,
    slash_offer_text,
    slash_turn_text,
    start_text,
    swap_done_line,
    timed_out_line,
    turn_deadline_line,
    turn_over_line,
)
from texts.replies import error_text, fault_text, labels_for, stale_control_text
from texts.user_text import plain_text

if TYPE_CHECKING:
    from bot import HatsBot
    from texts.i18n import Tr

log = logging.getLogger("hats.play")

DM_ROLE = "dm"
DM_BLOCKED_ROLE = "dm_blocked"
CLOSED_DMS = 50007
"""Discord error code: cannot send messages to this user (closed DMs)."""


LEGACY_CLEARED: dict[str, Any] = {"content": None, "embed": None}
"""Edit arguments that clear what a Components V2 message may not have (discord.py: "set
content and embeds to None" when a message becomes a LayoutView)."""


def legacy_kwargs(message: discord.Message | None) -> dict[str, Any]:
    """What an edit to Components V2 must clear on a message sent before (content, embeds).

    Hand DMs sent by an older version carry an embed and a line of content; a V2 layout may
    have neither. Nothing for a message that is V2 already (or unknown).
    """
    if message is None or message.flags.components_v2:
        return {}
    return dict(LEGACY_CLEARED)


class PlayCog(HatsFeature, name="PlayCog"):
    """The hand and the turn's actions, by slash command, DM controls or ephemeral controls."""

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)
        self._shown: dict[tuple[int, int], tuple] = {}  # (game, seat) -> situation drawn
        self._by_slash: set[int] = set()  # users whose last move (any game) was a slash command
        self._by_controls: set[int] = set()  # users whose last move was by controls (DM, hand)
        # game -> {user: their latest move in it was a slash command} (see plays_by_slash)
        self._styles: dict[int, dict[int, bool]] = {}
        # (game, seat) -> (turn, (channel, message) or None): the DM of the turn's first swap
        # offer to that partner; later offers in the same turn redraw it (no new DM)
        self._offer_dms: dict[tuple[int, int], tuple[tuple, tuple[int, int | None] | None]] = {}

    # ------------------------------------------------------------------ helpers
    async def resolve(
        self, interaction: discord.Interaction, game: int | None
    ) -> tuple[GameSession, int]:
        """The game and seat the user means: the channel's game, or theirs in a DM.

        Raises ServiceError with what to do when there is no such game or seat.
        """
        games = self.bot.games
        user_id = interaction.user.id
        if game is not None:
            session = await games.session(game) if in_id_range(game) else None
            if session is None or session.game.is_over:
                raise ServiceError("There is no live game #{game}.", game=game)
        elif interaction.guild is not None:
            session = await games.session_in_channel(interaction.channel_id or 0)
            if session is None:  # a practice game is played from anywhere (cogs.learn)
                mine = await games.sessions_of_user(user_id)
                session = next((s for s in mine if s.practice), None)
            if session is None:
                raise ServiceError(
                    "There is no game in this channel. Open a lobby with /hats new, or play "
                    "from the channel where your game is."
                )
        else:
            mine = await games.sessions_of_user(user_id)
            if not mine:
                raise ServiceError(
                    "You are not playing any game right now. Join one with /hats lobby join."
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
        deadline: float | None = None,
        turn_deadline: float | None = None,
    ) -> HandMessage:
        """The V2 hand message of ``seat`` (only what that seat may see): texts, alt, controls.

        ``deadline``: unix seconds by which a partner must answer a swap offer (R10), shown as
        a Discord timestamp; see :meth:`swap_deadline`. ``turn_deadline``: unix seconds at
        which the AI plays the seat's turn (the turn timer), shown as a countdown; see
        :meth:`turn_deadline`. :meth:`deadlines` gives both.
        """
        game = session.game
        obs = game.observation(seat)
        labels = labels_for(session, self.bot.names, tr, plain=True)
        coach_lines, coach_item = self.coach_section(session, seat, tr)
        legal = game.legal_actions(seat) if not game.is_over else []
        if selected is not None and not any(getattr(a, "card", None) is selected for a in legal):
            selected = None
        texts = hand_texts(
            obs,
            labels,
            tr,
            game_id=session.id,
            channel=self.channel_link(session),
            selected=selected,
            notice=notice,
            deadline=deadline,
            turn_deadline=turn_deadline,
            auto_played=session.auto_played,
            coach=coach_lines,
        )
        rows = hand_rows(
            session.id,
            session.version,
            obs.hand or (),
            legal,
            obs.board,
            tr,
            selected=selected,
            card_label=lambda c: card_label(c, tr=tr),
            auto_end=(
                self.auto_end(session, seat)
                if selected is None and self.offers_auto_end(session, seat)
                else None
            ),
        )
        if coach_item is not None:  # the coach's "What should I do?" (cogs.learn)
            rows = [*rows, discord.ui.ActionRow(coach_item)]
        return HandMessage(texts, hand_alt_text(obs, tr), rows)

    def channel_link(self, session: GameSession) -> str | None:
        """The game's channel for a DM: ``[#name](jump link)``, else its ``<#id>`` mention.

        A link reads the same in every client; a channel mention in a DM may not resolve.
        None for a practice game kept in the learner's DMs or private answers: its channel
        is the DM itself, so there is nowhere else to point to (issue 29.9).
        """
        if not posts_table(session):
            return None
        channel = self.bot.get_channel(session.channel_id)
        name = getattr(channel, "name", None)
        guild = session.row.guild_id
        if not name or guild is None:
            return session.channel_mention
        name = re.sub(r"[\[\]()<>`*_~|\\]", "", name)[:40] or str(session.channel_id)
        return f"[#{name}](https://discord.com/channels/{guild}/{session.channel_id})"

    def offers_auto_end(self, session: GameSession, seat: int) -> bool:
        """True when the "Auto end turn" toggle belongs on ``seat``'s hand: its own turn only.

        Never on a partner's swap-answer message (issue 18); nor while a card is chosen (its
        actions come first).
        """
        game = session.game
        return not game.is_over and game.active == seat and game.to_move == seat

    async def swap_deadline(self, session: GameSession, seat: int) -> float | None:
        """Unix seconds by which ``seat`` must answer the pending swap offer (R10), or None.

        The stored lapse deadline (cogs.teams), or the offer's timeout from now when it is not
        stored yet (the ping goes out in the same step).
        """
        game = session.game
        if game.pending_offer is None or game.to_move != seat or game.active == seat:
            return None
        teams: Any = self.bot.get_cog("TeamsCog")
        scheduler: Any = self.bot.get_cog("SchedulerCog")
        if teams is None:
            return None
        if scheduler is not None:
            row = await scheduler.pending(SWAP_TIMER, game_id=session.id)
            if row is not None and row.seat == seat:
                return row.due_at
        timeout = teams.swap_timeout(session)
        return now() + timeout if timeout is not None else None

    async def turn_deadline(self, session: GameSession, seat: int) -> float | None:
        """Unix seconds at which the AI plays ``seat``'s turn for it (turn timer), or None.

        While a human ``seat`` has the move in its own turn (a partner answering an offer
        has the swap's deadline instead): the stored ``turn`` deadline of that seat, or the
        turn time from now when it is not stored yet. The hand DM shows it as a countdown,
        so no reminder message of its own is needed (issue 36.2).
        """
        game = session.game
        if game.is_over or game.to_move != seat or game.active != seat:
            return None
        if session.seats[seat].ai_level is not None:
            return None
        limit = turn_timer(session)
        if limit is None:
            return None
        scheduler: Any = self.bot.get_cog("SchedulerCog")
        if scheduler is not None:
            row = await scheduler.pending(TURN, game_id=session.id)
            if row is not None and row.seat == seat:
                return row.due_at
        return now() + limit

    async def deadlines(self, session: GameSession, seat: int) -> dict[str, float | None]:
        """:meth:`hand_message`'s deadlines for ``seat``: the swap answer's and the turn's."""
        return {
            "deadline": await self.swap_deadline(session, seat),
            "turn_deadline": await self.turn_deadline(session, seat),
        }

    def coach_section(
        self, session: GameSession, seat: int, tr: Tr
    ) -> tuple[list[str], discord.ui.Item | None]:
        """The coach's lines and hint button for ``seat``'s hand (cogs.learn), if any."""
        return coach_section(session, seat, tr, self.bot.names)

    def auto_end(self, session: GameSession, seat: int) -> bool:
        """The seat's "end my turn after the main action" preference (stored, default off)."""
        return stored_auto_end(session, seat)

    def is_live(self, session: GameSession, seat: int) -> bool:
        """True while ``seat`` has something to do: its turn, an offer to answer or to wait on."""
        game = session.game
        if game.is_over:
            return False
        return game.to_move == seat or (game.pending_offer is not None and game.active == seat)

    def situation(self, session: GameSession, seat: int) -> tuple:
        """What a live hand DM shows that matters to its player (an edit is due when it changes)."""
        game = session.game
        obs = game.observation(seat)
        return (obs.hand, obs.to_move, obs.pending_swap, obs.main_done, obs.optional_used)

    def collapsed_text(
        self,
        session: GameSession,
        seat: int,
        tr: Tr,
        notice: str | None,
        *,
        answered: bool = False,
    ) -> str:
        """The one short line a hand DM becomes once its player has nothing more to do for now.

        ``answered``: the seat just answered (or declined) its partner's swap offer (R10);
        otherwise its turn is over (issue 19 point 6: not decided by ``game.active``, which is
        another seat after any ended turn). The line names the round and what the seat did,
        so it is never the same sentence turn after turn; the hint about ``/hats hand`` comes
        only with the first turn. After the seat's last turn (R14) the line says so and where
        the final scores will be: every human learns of the end from a message the bot edits
        anyway (issue 29 point 12), so no end DM is sent (one rate-limited call per human, for
        what the table already shows); the last mover's line says the end once.
        """
        game = session.game
        where = session.channel_mention
        said = ""  # the seat's move as the line says it (a notice saying it again is left out)
        played_for = [] if answered else self.played_for(session, seat)
        if played_for and not game.is_over:
            # the turn timed out (issue 29.7): say so, then every move made for them in order
            labels = labels_for(session, self.bot.names, tr, plain=True)
            line = timed_out_line(self.turn_round(session, seat), tr)
            moves = [
                describe_event(ev.seen_by(seat), labels, tr, viewer=seat, auto=True)
                for ev in played_for
            ]
            return "\n".join([line, *moves])
        if game.is_over:
            line = game_over_line(where, tr, practice=session.practice)
        elif answered:
            line, said = self.answer_summary(session, seat, tr)
        elif game.turns_taken[seat] >= TURNS:  # the end comes (R14); told now (issue 29)
            line = last_turn_line(where, tr, practice=session.practice)
        else:
            line = turn_over_line(self.turn_round(session, seat), tr)
        summary = "" if answered else self.turn_summary(session, seat, tr)
        said = said or summary
        text = f"{line} {summary}" if summary else line
        if notice and notice != said:
            text += f"\n{notice}"  # what ended it, when not the seat's own main action
        if not game.is_over and self.turn_round(session, seat) <= 1 and not answered:
            text += "\n-# " + next_message_hint(tr)
        coach = self.coach_section(session, seat, tr)[0]  # the coach on the move just made
        if coach:
            text += "\n" + "\n".join(coach)
        return text

    @staticmethod
    def played_for(session: GameSession, seat: int) -> list[Event]:
        """The moves an AI made for ``seat`` in its latest ended turn (its time ran out).

        Oldest first; [] when that turn was not ended by the AI (``session.auto_played``).
        """
        mine: list[Event] = []
        for ev in reversed(session.game.events):
            if ev.seat != seat or ev.kind in (ActionKind.ANSWER_SWAP, ActionKind.DECLINE_SWAP):
                continue
            if ev.turn_ended and mine:
                break  # the turn before
            mine.append(ev)
        if not mine or not mine[0].turn_ended or mine[0].number not in session.auto_played:
            return []
        return [ev for ev in reversed(mine) if ev.number in session.auto_played]

    @staticmethod
    def turn_round(session: GameSession, seat: int) -> int:
        """The round of ``seat``'s latest ended turn (R14): its ended turns so far, at least 1.

        Counted by the engine per seat (``turns_taken``), not from who made the event that
        ended a turn: a partner's answer to a swap offer ends the offerer's turn (R10, R11).
        """
        return max(1, session.game.turns_taken[seat])

    def answer_summary(self, session: GameSession, seat: int, tr: Tr) -> tuple[str, str]:
        """The collapsed line after ``seat`` answered its partner's swap offer (R10), and the move.

        A swap: "Swap done: You gave 🟥2 to … and received 🟦5."; a decline: the decline in
        words. Returns (line, the move's own sentence).
        """
        labels = labels_for(session, self.bot.names, tr, plain=True)
        for ev in reversed(session.game.events):
            if ev.seat == seat and ev.kind in (ActionKind.ANSWER_SWAP, ActionKind.DECLINE_SWAP):
                move = describe_event(ev.seen_by(seat), labels, tr, viewer=seat, say_over=False)
                if ev.kind is ActionKind.ANSWER_SWAP:
                    return swap_done_line(move, tr), move
                return move, move
        return answer_in_line(tr), ""

    def turn_summary(self, session: GameSession, seat: int, tr: Tr) -> str:
        """``seat``'s main action of its latest turn in words (its own view), or ""."""
        labels = labels_for(session, self.bot.names, tr, plain=True)
        for ev in reversed(session.game.events):
            if ev.seat == seat and ev.kind in (ActionKind.EXCHANGE, ActionKind.BLACK_HAT):
                return describe_event(ev.seen_by(seat), labels, tr, viewer=seat, say_over=False)
        return ""

    async def hand_picture(
        self, session: GameSession, seat: int, tr: Tr, message: HandMessage, *, urgent: bool = True
    ) -> list[discord.File]:
        """``seat``'s hand picture for ``message`` (with its alt text), or [] if not drawn.

        ``urgent`` (default): it answers the player's own interaction, so it is drawn first.
        """
        return await self.bot.pictures.hand(
            session, seat, self.bot.names, tr, alt=message.alt, urgent=urgent
        )

    async def answer_with_hand(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        seat: int,
        tr: Tr,
        message: HandMessage,
        respond: Callable[
            [discord.ui.LayoutView, list[discord.File | discord.Attachment]], Awaitable[object]
        ],
        *,
        in_place: bool = False,
    ) -> None:
        """Answer with ``seat``'s hand at once; its picture goes along or follows.

        ``in_place``: the answer edits the clicked message (see ``Pictures.answer_with_hand``).
        """
        await self.bot.pictures.answer_with_hand(
            interaction, session, seat, self.bot.names, tr, message, respond, in_place=in_place
        )

    async def redraw_in_place(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        seat: int,
        tr: Tr,
        message: HandMessage,
    ) -> None:
        """Answer a click by editing its own message (the interaction response: free).

        The new picture replaces the old attachment; the gallery points at it.
        """

        async def respond(
            view: discord.ui.LayoutView, attachments: list[discord.File | discord.Attachment]
        ) -> None:
            await interaction.response.edit_message(
                view=view, attachments=attachments, **legacy_kwargs(interaction.message)
            )

        if self.collapsed_here(interaction, session, seat):
            # a tap on a hand DM that has collapsed meanwhile (a double tap): the line stays,
            # the current hand comes privately
            await self.answer_with_hand(
                interaction,
                session,
                seat,
                tr,
                message,
                lambda view, files: send_private(interaction, view=view, files=files or None),
            )
            return
        await self.answer_with_hand(interaction, session, seat, tr, message, respond, in_place=True)

    def collapsed_here(
        self, interaction: discord.Interaction, session: GameSession, seat: int
    ) -> bool:
        """True when ``interaction`` comes from ``seat``'s hand DM that is no longer live.

        The bot collapsed it to one line (the turn ended) after the click was made: Discord
        delivers the click with the message as it was, controls and picture included, so it
        is not redrawn from that copy (issue 29.5).
        """
        clicked = interaction.message
        if interaction.guild_id is not None or clicked is None or clicked.flags.ephemeral:
            return False
        current = session.message(DM_ROLE, seat)
        return current is None or current.message_id != clicked.id

    def notice_for(self, session: GameSession, event: Event, seat: int, tr: Tr) -> str:
        """One line describing ``event`` as ``seat`` may see it.

        Never "The game is over." (the hand's head, or its collapsed line, says the end once).
        """
        labels = labels_for(session, self.bot.names, tr, plain=True)
        return describe_event(event.seen_by(seat), labels, tr, viewer=seat, say_over=False)

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
            session, seat = await self.resolve(interaction, game)
            action = make(session, seat)
            event = await self.bot.games.play(
                session, seat, action, end_turn_after=self.auto_end(session, seat)
            )
        except Exception as exc:
            if isinstance(exc, OutOfDate):
                exc = ServiceError("The game moved on meanwhile; look at your hand and try again.")
            if not await self._answer(interaction, exc, session):
                raise
            return
        message = self.hand_message(
            session,
            seat,
            tr,
            notice=self.notice_for(session, event, seat, tr),
            **await self.deadlines(session, seat),
        )
        await self.answer_with_hand(
            interaction,
            session,
            seat,
            tr,
            message,
            lambda view, files: send_private(interaction, view=view, files=files or None),
        )

    async def _answer(
        self, interaction: discord.Interaction, exc: Exception, session: GameSession | None
    ) -> bool:
        tr = self.tr(interaction)
        labels = labels_for(session, self.bot.names, tr) if session is not None else None
        if isinstance(exc, OutcomeUnknown):  # never "not saved" for a move that may be stored
            await answer_unknown_outcome(interaction, exc, tr)
            return True
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
            session, seat = await self.resolve(interaction, game)
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
                out.append(
                    app_commands.Choice(name=truncate(name, CHOICE_NAME_MAX), value=card.code)
                )
        return out[:25]

    async def game_autocomplete(
        self, interaction: discord.Interaction, current: int | str
    ) -> list[app_commands.Choice[int]]:
        """The user's live games, for the ``game`` option (DMs, several games)."""
        out = []
        for s in await self.bot.games.sessions_of_user(interaction.user.id):
            channel = self.bot.get_channel(s.channel_id)
            where = plain_text(getattr(channel, "name", None), CHOICE_NAME_MAX) or s.channel_id
            name = truncate(f"#{s.id} · #{where}", CHOICE_NAME_MAX)  # Discord: 100 at most
            out.append(app_commands.Choice(name=name, value=s.id))
        return out[:25]

    @app_commands.command(name="hand", description="Show your hand and your controls, privately")
    @app_commands.describe(game="Which game (only needed when you play several)")
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/hats hand``: the caller's hand with controls, ephemeral."""
        try:
            session, seat = await self.resolve(interaction, game)
        except ServiceError as exc:
            await self._answer(interaction, exc, None)
            return
        await self.show_hand(interaction, session, seat)

    async def show_hand(
        self, interaction: discord.Interaction, session: GameSession, seat: int
    ) -> None:
        """Answer privately with ``seat``'s hand and controls (``/hats hand``, Show my hand)."""
        tr = self.tr(interaction)
        message = self.hand_message(session, seat, tr, **await self.deadlines(session, seat))
        files = await self.hand_picture(session, seat, tr, message)
        await send_private(interaction, view=message.view(picture=bool(files)), files=files)

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
        name="swap",
        description="Swap with your partner: offer or give back a card; no card: decline",
    )
    @app_commands.describe(
        card="A card from your hand; leave it out to decline or withdraw the swap",
        game="Which game",
    )
    async def swap(
        self, interaction: discord.Interaction, card: str | None = None, game: int | None = None
    ) -> None:
        """``/hats swap [card]`` (R10): offer or answer a swap; without a card, end the swap.

        With a card: offer (active player) or answer (partner). Without one: decline (partner)
        or withdraw (offerer) the pending swap, as the former ``/hats decline`` did.
        """

        def make(session: GameSession, seat: int) -> Action:
            pending = session.game.pending_offer is not None
            if card is None:
                return WithdrawSwap() if pending and seat == session.game.active else DeclineSwap()
            c = parse_card_text(card)
            if pending and seat == session.game.to_move:
                return AnswerSwap(c)
            return OfferSwap(c)

        await self._act(interaction, game, make)

    @app_commands.command(name="endturn", description="End your turn after your main action")
    @app_commands.describe(game="Which game")
    async def endturn(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/hats endturn`` (R11)."""
        await self._act(interaction, game, lambda s, seat: EndTurn())

    for _cmd in (exchange, blackhat, discard, swap):
        _cmd.autocomplete("card")(card_autocomplete)
    for _cmd in (hand, exchange, blackhat, discard, swap, endturn):
        _cmd.autocomplete("game")(game_autocomplete)
    del _cmd

    # ------------------------------------------------------------------ controls
    async def _control_target(
        self, interaction: discord.Interaction, game_id: int
    ) -> tuple[GameSession, int]:
        session = await self.bot.games.session(game_id)
        if session is None:
            raise ServiceError("This game is over or no longer exists.")
        # a practice game's hand may be an ephemeral answer in any channel (cogs.learn); the
        # seat check below still says whose controls they are
        if not session.practice and not used_where_it_lives(
            interaction, session.row.guild_id, session.channel_id, dm_ok=True
        ):
            raise ServiceError(ELSEWHERE)
        return session, seat_for(session, interaction.user.id)

    async def _target(
        self, interaction: discord.Interaction, game_id: int
    ) -> tuple[GameSession, int] | None:
        """The game and seat of a hand control, or None after a private answer saying why."""
        try:
            return await self._control_target(interaction, game_id)
        except ServiceError as exc:
            await self._answer(interaction, exc, None)
            return None

    async def on_card_selected(
        self, interaction: discord.Interaction, game_id: int, version: int, code: str | None
    ) -> None:
        """A card was chosen in a hand message: show its legal actions (edit in place)."""
        tr = self.tr(interaction)
        target = await self._target(interaction, game_id)
        if target is None:
            return
        session, seat = target
        if version != session.version or session.game.is_over:
            # a stale control, whatever its kind: one private line, the message stays
            await send_private(interaction, stale_control_text(tr))
            return
        selected = None
        if code:
            try:
                selected = parse_card_text(code)
            except ValueError:
                selected = None
        message = self.hand_message(
            session,
            seat,
            tr,
            selected=selected,
            **await self.deadlines(session, seat),
        )
        await self.redraw_in_place(interaction, session, seat, tr, message)

    async def on_hand_command(self, interaction: discord.Interaction, cmd: HandCommand) -> None:
        """A hand button was pressed: apply its action, then redraw the hand in place."""
        tr = self.tr(interaction)
        target = await self._target(interaction, cmd.game)
        if target is None:
            return
        session, seat = target
        action = cmd.action()
        if cmd.op is HandOp.REFRESH or action is None:
            message = self.hand_message(session, seat, tr, **await self.deadlines(session, seat))
            await self.redraw_in_place(interaction, session, seat, tr, message)
            return
        origin = interaction.message.id if interaction.message else None
        try:
            event = await self.bot.games.play(
                session,
                seat,
                action,
                version=cmd.version,
                origin=origin,
                end_turn_after=self.auto_end(session, seat),
            )
        except OutOfDate:
            # a double tap or a stale control (issue 36.4): the first tap's answer stays
            await send_private(interaction, stale_control_text(tr))
            return
        except Exception as exc:
            if not await self._answer(interaction, exc, session):
                raise
            return
        notice = self.notice_for(session, event, seat, tr)
        answered = event.kind in (ActionKind.ANSWER_SWAP, ActionKind.DECLINE_SWAP)
        if event.turn_ended and event.kind is ActionKind.END_TURN:
            notice = None  # "You ended your turn": the collapsed line says what the turn did
        await self._redraw(interaction, session, seat, tr, notice, answered=answered)

    async def _redraw(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        seat: int,
        tr: Tr,
        notice: str | None = None,
        *,
        answered: bool = False,
    ) -> None:
        """Redraw the message of ``interaction`` (the response: no rate-limited call).

        The live hand DM collapses to one short line when its player has nothing more to do
        (``answered``: they just answered their partner's swap offer).
        """
        current = session.message(DM_ROLE, seat)
        is_dm = (
            current is not None
            and interaction.message is not None
            and current.message_id == interaction.message.id
        )
        if is_dm and not self.is_live(session, seat):
            text = self.collapsed_text(session, seat, tr, notice, answered=answered)
            await interaction.response.edit_message(
                view=collapsed_view(text),
                attachments=[],  # the picture goes too
                **legacy_kwargs(interaction.message),
            )
            await self._mark_collapsed(session, seat)
            return
        message = self.hand_message(
            session, seat, tr, notice=notice, **await self.deadlines(session, seat)
        )
        await self.redraw_in_place(interaction, session, seat, tr, message)
        if is_dm:
            self._shown[(session.id, seat)] = self.situation(session, seat)

    async def on_auto_end(self, interaction: discord.Interaction, game_id: int, on: bool) -> None:
        """Set the "end my turn after the main action" preference; redraw the hand in place."""
        tr = self.tr(interaction)
        target = await self._target(interaction, game_id)
        if target is None:
            return
        session, seat = target
        notice = auto_end_notice(tr, on=on)
        try:
            done = await switch_auto_end(
                self.bot.games,
                session,
                seat,
                on,
                origin=interaction.message.id if interaction.message else None,
            )
        except Exception as exc:
            if not await self._answer(interaction, exc, session):
                raise
            return
        if done.outcome is AutoEnd.NEXT_TURN:
            # switched on after the main action with the optional one still open: this turn
            # is not ended behind the player's back (issue 18); End turn stays a button
            notice = auto_end_next_turn_notice(tr)
        elif done.event is not None:
            notice = f"{notice}\n{self.notice_for(session, done.event, seat, tr)}"
        await self._redraw(interaction, session, seat, tr, notice)

    # ------------------------------------------------------------------ DMs
    async def announce_start(self, session: GameSession) -> None:
        """Outbox ``start``: the player to move gets their live hand DM; the others one line.

        Idempotent (a retry or a restart calls it again): seats that have a DM already are
        skipped, and so are players who follow the channel live in the Activity.
        """
        game = session.game
        for seat in session.human_seats():
            s = seat.seat
            if session.message(DM_ROLE, s) is not None:
                continue
            if self.bot.watching_live(session.id, seat.user_id or 0, session.row.channel_id):
                continue  # the Activity on this channel shows them the start live
            if game.to_move == s:
                await self.send_hand_dm(session, s)
                continue
            tr = self.tr_for(seat.user_id or 0, session.row.guild_id)
            labels = labels_for(session, self.bot.names, tr, plain=True)
            text = start_text(
                session.channel_mention,
                labels[game.to_move].name if game.to_move is not None else "?",
                game.hands[s],
                tr,
            )
            await self.send_dm(session, s, text, live=False)

    @commands.Cog.listener()
    async def on_hats_step(
        self, session: GameSession, event: Event, actor: str, origin: int | None
    ) -> None:
        """Ping whoever must act now with a new DM; edit or collapse a live DM only when due.

        Nothing for a DM or group DM Activity's game: it lives in the Activity alone.
        """
        if is_activity_only(session.row.settings):
            return
        game = session.game
        if game.is_over:
            for seat in range(game.seats):
                self._offer_dms.pop((session.id, seat), None)
        mover = session.seats[event.seat].user_id
        from_web = origin == WEB_ORIGIN  # the Activity: says nothing of how they play here
        if actor == "player" and mover is not None and not from_web:  # slash or controls
            by_slash = origin is None
            (self._by_slash.add if by_slash else self._by_slash.discard)(mover)
            (self._by_controls.discard if by_slash else self._by_controls.add)(mover)
            self._styles.setdefault(session.id, {})[mover] = by_slash
        if game.is_over:
            self._styles.pop(session.id, None)
        for seat in session.human_seats():
            s = seat.seat
            if session.message(DM_BLOCKED_ROLE, s) is not None:
                continue
            pinged = game.to_move == s and (event.turn_ended or event.kind is ActionKind.OFFER_SWAP)
            if pinged and not game.is_over and self.bot.watching_live(session.id, seat.user_id):
                continue  # they follow this game live in the Activity: no turn-ping DM
            if pinged and not game.is_over:
                if event.kind is not ActionKind.OFFER_SWAP:
                    await self.send_hand_dm(session, s)
                elif not await self._offer_dm_again(session, s):
                    await self.send_hand_dm(session, s)
                    self._note_offer_dm(session, s)
                continue
            current = session.message(DM_ROLE, s)
            if current is None or current.message_id is None:
                if self._answer_for_offerer(event, actor, s):  # no live DM to say it
                    await self.tell_offerer(session, event, s)
                continue  # no live DM
            if current.message_id == origin:
                continue  # the interaction response already redrew it
            if not self.is_live(session, s):
                tr = self.tr_for(seat.user_id or 0, session.row.guild_id)
                # someone else's step collapsed it (an answer to the offer, the AI after a
                # timeout): say what happened
                mine = actor == "player" and event.seat == s
                notice = None if mine else self.notice_for(session, event, s, tr)
                answered = event.seat == s and event.kind in (
                    ActionKind.ANSWER_SWAP,
                    ActionKind.DECLINE_SWAP,
                )
                await self.edit_dm(session, s, collapse=True, notice=notice, answered=answered)
            elif actor == "player" and event.seat == s and (origin is None or from_web):
                continue  # a slash command's answer, or the Activity, shows the new hand
            elif self._shown.get((session.id, s)) != self.situation(session, s):
                tr = self.tr_for(seat.user_id or 0, session.row.guild_id)
                notice = self.notice_for(session, event, s, tr) if event.seat != s else None
                await self.edit_dm(session, s, notice=notice)

    @staticmethod
    def _answer_for_offerer(event: Event, actor: str, seat: int) -> bool:
        """True when ``event`` answers ``seat``'s own swap offer (R10) and a player made it.

        A lapse (actor ``timer``) is told by cogs.teams; a withdrawal is the offerer's own.
        """
        return (
            event.partner == seat
            and actor != "timer"
            and event.kind in (ActionKind.ANSWER_SWAP, ActionKind.DECLINE_SWAP)
        )

    async def tell_offerer(self, session: GameSession, event: Event, seat: int) -> None:
        """DM the offerer ``seat`` how their swap offer ended, when no live hand DM shows it.

        One line, players named (a DM shows names, not mention pills); not when the offerer
        follows the game live in the Activity. The live hand DM, when there is one, says the
        result in its own edit (:meth:`on_hats_step`): the offerer learns it once (issue 36.6).
        """
        user_id = session.seats[seat].user_id
        if user_id is None or self.bot.watching_live(session.id, user_id):
            return
        tr = self.tr_for(user_id, session.row.guild_id)
        await self.send_dm(session, seat, self.notice_for(session, event, seat, tr), live=False)

    def _turn(self, session: GameSession) -> tuple[int, int | None]:
        """The turn in progress: (round, active seat)."""
        return session.game.round, session.game.active

    def _note_offer_dm(self, session: GameSession, seat: int) -> None:
        """Remember the DM a swap offer sent ``seat`` this turn (in memory: lost on restart)."""
        current = session.message(DM_ROLE, seat)
        message = (current.channel_id, current.message_id) if current is not None else None
        self._offer_dms[(session.id, seat)] = (self._turn(session), message)

    async def _offer_dm_again(self, session: GameSession, seat: int) -> bool:
        """A later swap offer in the same turn: no new DM to the partner (issue 19.4).

        The DM of the turn's first offer becomes the live hand DM again and is redrawn (one
        edit, no ping); a player who plays by slash commands already has the one-line notice.
        False when this is the turn's first offer (send a new DM).
        """
        noted = self._offer_dms.get((session.id, seat))
        if noted is None or noted[0] != self._turn(session):
            return False
        message = noted[1]
        if message is not None and message[1] is not None:
            await self.bot.games.remember_message(
                session, DM_ROLE, message[0], message[1], seat=seat
            )
            await self.edit_dm(session, seat)  # its texts say the offer (and its deadline)
        return True

    async def dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The DM channel with ``user_id``: discord.py's cache, created once (no GET /users)."""
        return await self.bot.create_dm(discord.Object(id=user_id))

    async def send_dm(
        self,
        session: GameSession,
        seat: int,
        content: str | None,
        *,
        live: bool,
        view: discord.ui.LayoutView | None = None,
        files: list[discord.File] | None = None,
    ) -> None:
        """Send ``seat`` a new DM: ``content`` text, or a V2 ``view`` with ``files`` (picture).

        ``live``: it is the seat's live hand DM.
        The previous live one, if any, collapses. Closed DMs: the channel is told once
        (:meth:`dm_blocked`).
        """
        user_id = session.seats[seat].user_id
        if user_id is None or session.message(DM_BLOCKED_ROLE, seat) is not None:
            return
        try:
            channel = await self.dm_channel(user_id)
            # the turn ping: a new DM that may ping its addressee and nobody else
            pings = only([user_id])
            if view is not None:
                message = await channel.send(
                    view=view, allowed_mentions=pings, **send_kwargs(files)
                )
            else:
                message = await channel.send(content=content, allowed_mentions=pings)
        except discord.Forbidden as exc:
            if exc.code == CLOSED_DMS or exc.status == 403:
                await self.dm_blocked(session, seat, user_id)
                return
            raise
        except discord.HTTPException as exc:
            log.warning("could not DM seat %d in game %d: %s", seat, session.id, exc)
            return
        current = session.message(DM_ROLE, seat)
        if current is not None and current.message_id is not None:
            await self.edit_dm(session, seat, collapse=True)
        if live:  # before the await below: other listeners see it drawn
            self._shown[(session.id, seat)] = self.situation(session, seat)
        await self.bot.games.remember_message(
            session, DM_ROLE, message.channel.id, message.id if live else None, seat=seat
        )

    async def send_hand_dm(self, session: GameSession, seat: int) -> None:
        """A new DM that pings ``seat``: their turn came, or a swap offer.

        The live hand DM with controls; for a player who plays by slash commands
        (:meth:`plays_by_slash`), one line with their hand instead (nothing to collapse
        afterwards).
        """
        user_id = session.seats[seat].user_id
        if user_id is None:
            return
        tr = self.tr_for(user_id, session.row.guild_id)
        where = session.channel_mention
        if self.plays_by_slash(session, user_id):
            # they play by slash commands: one line pings them, no controls to collapse later
            game = session.game
            if game.pending_offer is not None:
                text = slash_offer_text(where, game.hands[seat], tr)
            else:
                text = slash_turn_text(game.round, where, game.hands[seat], tr)
                due = await self.turn_deadline(session, seat)
                if due is not None:  # the turn timer: no reminder message follows (36.2)
                    text += "\n" + turn_deadline_line(f"<t:{int(due)}:t>", tr)
            await self.send_dm(session, seat, text, live=False)
            return
        message = self.hand_message(session, seat, tr, **await self.deadlines(session, seat))
        files = await self.hand_picture(session, seat, tr, message, urgent=False)
        view = message.view(picture=bool(files))
        await self.send_dm(session, seat, None, live=True, view=view, files=files)

    def plays_by_slash(self, session: GameSession, user_id: int) -> bool:
        """Whether ``user_id``'s turn ping is the one-line DM instead of the live hand DM.

        True when their latest move (any game, since the bot started) was a slash command;
        False when it was made with controls (the hand DM's, or ``/hats hand``'s). A player not
        seen moving yet gets the live hand DM, unless every human who has moved in this game
        so far did so by slash command: at such a table live controls would most likely stay
        unused and cost one more rate-limited edit to collapse when the turn ends (issue 18's
        REST budget). The one line says that ``/hats hand`` shows the buttons, and one move
        with them brings the live hand DM back from the next turn on. A partner's swap offer
        (R10) to a player not seen moving always comes with the live controls: the answer is
        due within the swap time, so it should not need a command.
        """
        if user_id in self._by_slash:
            return True
        if user_id in self._by_controls or session.game.pending_offer is not None:
            return False
        styles = self._styles.get(session.id)
        return bool(styles) and all(styles.values())

    async def edit_dm(
        self,
        session: GameSession,
        seat: int,
        *,
        collapse: bool = False,
        notice: str | None = None,
        answered: bool = False,
    ) -> None:
        """Edit the live hand DM of ``seat`` (through the per-channel edit gate).

        ``collapse``: it becomes one short line (``answered``: the seat just answered its
        partner's swap offer).
        """
        current = session.message(DM_ROLE, seat)
        user_id = session.seats[seat].user_id
        if current is None or current.message_id is None or user_id is None:
            return
        tr = self.tr_for(user_id, session.row.guild_id)
        partial = self.bot.get_partial_messageable(current.channel_id).get_partial_message(
            current.message_id
        )
        if collapse:
            text = self.collapsed_text(session, seat, tr, notice, answered=answered)
            await self._mark_collapsed(session, seat)
            kwargs: dict = {"view": collapsed_view(text), "attachments": [], **LEGACY_CLEARED}
        else:
            message = self.hand_message(
                session, seat, tr, notice=notice, **await self.deadlines(session, seat)
            )
            self._shown[(session.id, seat)] = self.situation(session, seat)
            files = await self.hand_picture(session, seat, tr, message, urgent=False)
            kwargs = {
                "view": message.view(picture=bool(files)),
                "attachments": files,
                **LEGACY_CLEARED,  # a hand DM sent by an older version had content and an embed
            }

        async def edit() -> None:
            if await self.bot.games.drawable(session) is None:
                return  # another process committed a later step: it edits this DM
            now_live = session.message(DM_ROLE, seat)
            if not collapse and (now_live is None or now_live.message_id != current.message_id):
                return  # collapsed meanwhile by a later step (its picture took a while)
            try:
                await partial.edit(**kwargs)
            except discord.HTTPException as exc:
                log.info("could not edit DM of seat %d in game %d: %s", seat, session.id, exc)

        await self.bot.edit_gate.submit(current.channel_id, (DM_ROLE, current.message_id), edit)

    async def _mark_collapsed(self, session: GameSession, seat: int) -> None:
        current = session.message(DM_ROLE, seat)
        if current is not None and current.message_id is not None:
            await self.bot.games.remember_message(
                session, DM_ROLE, current.channel_id, None, seat=seat
            )
        self._shown.pop((session.id, seat), None)

    async def dm_blocked(self, session: GameSession, seat: int, user_id: int) -> None:
        """Tell the channel once that ``user_id`` gets no DMs and how to play anyway."""
        await self.bot.games.remember_message(
            session, DM_BLOCKED_ROLE, session.channel_id, None, seat=seat
        )
        channel = self.bot.get_partial_messageable(session.channel_id)
        tr = self.public_tr(session.row.guild_id)  # a channel message: the server's language
        await channel.send(
            dm_blocked_text(f"<@{user_id}>", tr),
            allowed_mentions=only([user_id]),
        )


async def setup(bot: HatsBot) -> None:
    """Load the cog and register its persistent controls."""
    bot.add_dynamic_items(HandButton, CardSelect, AutoEndButton)
    await bot.add_cog(PlayCog(bot))
