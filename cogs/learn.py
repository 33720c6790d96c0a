"""Learning Hats: ``/hats learn`` (a practice game with a coach), ``/hats hint``, Hints allowed.

A practice game is a normal stored game (it survives a restart) whose settings say
``practice`` (:mod:`data.game_flags`): the learner at seat 0 against two normal AI players, on
a lesson deal (:data:`coach.LESSON_SEEDS`). It lives in the learner's DMs (its channel is the
DM channel, so the store's one-live-game-per-channel rule also keeps one practice game per
learner); with closed DMs, in a private thread of the channel where they asked (with a table,
as any game whose player gets no DMs); where no thread can be opened, in ephemeral answers
(a new private hand when their turn comes, followups of their newest interaction, whose token
Discord keeps 15 minutes; ``/hats hand`` shows it again later). Outside a thread no table is
posted: the hand shows the tea table. The coach's lines come with the hand
(:func:`coach_section`, recomputed from the steps: :func:`coach.latest_notes`), the end notes
(:func:`coach.explain_end`) with the final scores. Practice games are unrated and never in
history, stats or leaderboards (``data.history`` leaves them out).

``/hats hint`` suggests a move from the asking seat's own observation (:func:`coach.suggest`,
run off the event loop through ``bot.run_cpu``), in practice games and in games whose lobby
host allowed hints (a lobby toggle; such a game is not rated). It never changes the game.

custom_ids: ``hats:c:<game>:<op>`` (``hint``: What should I do?, ``quit``: give up a practice
game); the lobby toggle is a :class:`cogs.controls.LobbyButton` (``LobbyOp.HINTS``).
"""

from __future__ import annotations

import contextlib
import enum
import logging
import re
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from coach import (
    LEARNER,
    LESSON_SEEDS,
    Note,
    NoteKind,
    explain_end,
    latest_notes,
    lesson_config,
    suggest,
)
from cogs.base import HatsFeature
from cogs.controls import LobbyButton, LobbyOp
from cogs.custom_ids import ID, choice, fields
from cogs.errors import GuardedItem
from cogs.mentions import only
from cogs.replies import send_private
from data import LobbyRow, StoreError
from data.game_flags import (
    HINTS,
    LANGUAGE,
    PRACTICE,
    hints_allowed,
    is_activity_only,
    is_practice,
)
from engine import Event, GameResult
from service import GameSession, ServiceError, lobby_requests
from service.requests import hint_position, hint_seed
from texts.coach import coach_lines, hint_line
from texts.learn import (
    another_lesson_line,
    give_up_label,
    given_up_text,
    hint_button_label,
    hints_toggle_label,
    lesson_here_text,
    lesson_in_dms_text,
    lesson_in_thread_text,
    practice_thread_name,
    still_running_text,
    welcome_text,
    where_text,
)
from texts.replies import error_text, game_gone_text, labels_for

if TYPE_CHECKING:
    from bot import HatsBot
    from texts.common import SeatLabel
    from texts.i18n import Tr

__all__ = [
    "COACH_MARK",
    "EPHEMERAL",
    "PRACTICE_AI",
    "WHERE",
    "CoachButton",
    "CoachOp",
    "LearnCog",
    "coach_section",
    "end_notes",
    "hint_seed",
    "posts_table",
]

log = logging.getLogger("hats.learn")

PRACTICE_AI = "normal"
"""The AI level of a practice game's opponents."""
WHERE = "where"
"""Practice game setting: ``dm`` (the learner's DMs), ``thread`` (a private thread) or
:data:`EPHEMERAL` (messages only the learner sees)."""
EPHEMERAL = "ephemeral"
HAND_CONTROL = re.compile(rf"hats:(?:h|hs|p):(?P<game>{ID}):")
"""custom_ids of the hand controls that redraw the hand in place (cogs.controls)."""
COACH_MARK = "🎓"
"""Marks the coach's lines in the hand message."""


class CoachOp(enum.StrEnum):
    """Buttons of a practice game (and of a game with hints allowed)."""

    HINT = "hint"
    QUIT = "quit"


class CoachButton(
    GuardedItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"hats:c:(?P<game>{ID}):(?P<op>{choice(CoachOp)})",
):
    """What should I do? (a private hint) and Give up (a practice game), by game id."""

    def __init__(self, game: int, op: CoachOp, button: discord.ui.Button | None = None) -> None:
        super().__init__(button or discord.ui.Button(custom_id=f"hats:c:{game}:{op.value}"))
        self.game = game
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any
    ) -> CoachButton:
        """Rebuild the button from its custom_id."""
        f = fields(match)
        return cls(f["game"], CoachOp(f["op"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to LearnCog."""
        cog: Any = interaction.client.get_cog("LearnCog")  # type: ignore[attr-defined]
        await cog.on_coach_button(interaction, self.game, self.op)


def hint_button(game_id: int, tr: Tr) -> CoachButton:
    """The "What should I do?" button of a hand message."""
    button = CoachButton(game_id, CoachOp.HINT)
    button.item.label = hint_button_label(tr)
    button.item.style = discord.ButtonStyle.secondary
    button.item.emoji = "💡"
    return button


_NOTES: weakref.WeakKeyDictionary[GameSession, tuple[int, tuple[Note, ...]]] = (
    weakref.WeakKeyDictionary()
)
"""The coach's notes of each cached game at its last version (a hand is drawn several times)."""


def _notes(session: GameSession, seat: int) -> tuple[Note, ...]:
    """:func:`coach.latest_notes` of the learner's seat, computed once per game version."""
    known = _NOTES.get(session)
    if known is None or known[0] != session.version:
        known = (session.version, latest_notes(session.game, seat))
        _NOTES[session] = known
    return known[1]


def coach_section(
    session: GameSession, seat: int, tr: Tr, names: dict[int, str]
) -> tuple[list[str], discord.ui.Item | None]:
    """The coach's part of ``seat``'s hand message: text lines and a button (or None).

    In a practice game, the learner gets at most 3 lines about their latest move (until the
    others move) and the "What should I do?" button while they have something to do. In a game
    with hints allowed, the button only. Elsewhere nothing. Layout-free: the hand message puts
    the lines and the button where its layout wants them.
    """
    settings = session.row.settings
    if not hints_allowed(settings):
        return [], None
    game = session.game
    button = hint_button(session.id, tr) if game.legal_actions(seat) else None
    if not is_practice(settings) or seat != LEARNER:
        return [], button
    lines = coach_lines(_notes(session, seat), labels_for(session, names, tr), tr)
    return [f"{COACH_MARK} {line}" for line in lines], button


def end_notes(
    result: GameResult, seats: Sequence[SeatLabel], tr: Tr, *, results_shown: bool = False
) -> str:
    """The coach's end notes for the learner (:func:`coach.explain_end`), one 🎓 line each.

    Said once: the learner's favourite hat and the turned-down slots explained, then their
    final score and place, except when they won (the result's head already says who won and
    with how many points), then the invitation to another lesson. ``results_shown``: the
    compact end results stand above (pictures off: :func:`texts.end.end_texts`); they
    list every seat's score, place and favourite hat, so the final score goes and the
    favourite's note says only how it scored (R17).
    """
    notes = [
        note
        for note in explain_end(result, LEARNER)
        if not (note.kind is NoteKind.FINAL and (results_shown or LEARNER in result.winners))
    ]
    lines = coach_lines(notes, seats, tr, results_shown=results_shown)
    lines.append(another_lesson_line(tr))
    return "\n".join(f"{COACH_MARK} {line}" for line in lines)


def posts_table(session: GameSession) -> bool:
    """False where a game has no table message.

    A practice game outside a thread (the hand shows the tea table) and a DM or group DM
    Activity's game (it lives in the Activity alone, issue 34.2).
    """
    if is_activity_only(session.row.settings):
        return False
    return not session.practice or session.row.settings.get(WHERE) == "thread"


class LearnCog(HatsFeature, name="LearnCog"):
    """``/hats learn``, ``/hats hint``, the coach's buttons and the lobby's Hints toggle."""

    LOBBY_OPS = (LobbyOp.HINTS,)

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)
        self._answers: dict[int, discord.Interaction] = {}
        """Ephemeral lessons: game id -> the learner's newest interaction showing the hand."""

    # ------------------------------------------------------------------ look-ups
    async def practice_of(self, user_id: int) -> GameSession | None:
        """The user's live practice game, or None."""
        for session in await self.bot.games.sessions_of_user(user_id):
            if session.practice:
                return session
        return None

    def where_text(self, session: GameSession, tr: Tr) -> str:
        """Where a practice game is: "your DMs" or the thread's mention."""
        in_dm = session.row.settings.get(WHERE) == "dm"
        return where_text(tr, None if in_dm else session.channel_mention)

    # ------------------------------------------------------------------ /hats learn
    @app_commands.command(
        name="learn", description="Learn Hats: a practice game against two AI players, coached"
    )
    async def learn(self, interaction: discord.Interaction) -> None:
        """``/hats learn``: start a practice game, or point to the running one."""
        tr = self.tr(interaction)
        running = await self.practice_of(interaction.user.id)
        if running is not None:
            view = discord.ui.View(timeout=None)
            quit_button = CoachButton(running.id, CoachOp.QUIT)
            quit_button.item.label = give_up_label(tr)
            quit_button.item.style = discord.ButtonStyle.danger
            view.add_item(quit_button)
            await send_private(
                interaction,
                still_running_text(tr, running.id, self.where_text(running, tr)),
                view=view,
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            session = await self.start_lesson(interaction, tr)
        except ServiceError as exc:
            await interaction.followup.send(tr(exc.msgid, **exc.params), ephemeral=True)
            return
        except StoreError as exc:
            log.warning("practice game not started: %s", exc)
            await interaction.followup.send(error_text(exc, tr), ephemeral=True)
            return
        where = session.row.settings.get(WHERE)
        if where == "dm":
            text = lesson_in_dms_text(tr)
        elif where == "thread":
            text = lesson_in_thread_text(tr, session.channel_mention)
        else:
            await self.show_ephemeral(interaction, session)
            self.bot.dispatch("hats_outbox", session.id)
            return
        await interaction.edit_original_response(content=text)
        self.bot.dispatch("hats_outbox", session.id)

    async def start_lesson(self, interaction: discord.Interaction, tr: Tr) -> GameSession:
        """Open the lesson's place and store the practice game.

        The learner's DMs; with closed DMs a private thread of the channel; when neither
        works, messages only the learner sees (the game keeps the DM channel as its channel,
        one per learner, but nothing is sent there).
        """
        user = interaction.user
        welcome = welcome_text(tr)
        settings: dict[str, Any] = {PRACTICE: True, LANGUAGE: str(interaction.locale)}
        channel: Any = await self.bot.create_dm(user)
        try:
            await channel.send(welcome)
            settings[WHERE] = "dm"
        except discord.Forbidden:
            thread = await self._private_thread(interaction, welcome)
            channel = thread or channel
            settings[WHERE] = "thread" if thread is not None else EPHEMERAL
        seed = LESSON_SEEDS[self.bot.seed_source() % len(LESSON_SEEDS)]
        session = await self.bot.games.start_practice(
            interaction.guild_id or 0,
            channel.id,
            user.id,
            lesson_config(seed),
            PRACTICE_AI,
            settings,
        )
        if settings[WHERE] == EPHEMERAL:  # no DM is tried: the hand comes as private answers
            from cogs.play import DM_BLOCKED_ROLE  # (cogs.play imports this module)

            await self.bot.games.remember_message(
                session, DM_BLOCKED_ROLE, channel.id, None, seat=LEARNER
            )
        return session

    # ------------------------------------------------------------------ ephemeral lessons
    async def show_ephemeral(self, interaction: discord.Interaction, session: GameSession) -> None:
        """Answer ``interaction`` with the learner's hand (controls, coach); keep it updated.

        The answer's token lets the bot follow it up for 15 minutes (Discord): when the
        learner's turn comes again, a new private hand follows (:meth:`on_hats_step`).
        """
        tr = self.tr(interaction)
        play: Any = self.bot.get_cog("PlayCog")
        text = lesson_here_text(tr)
        await interaction.edit_original_response(content=text)
        await self._followup_hand(interaction, play, session, tr)
        self._answers[session.id] = interaction

    @staticmethod
    async def _followup_hand(
        interaction: discord.Interaction, play: Any, session: GameSession, tr: Tr
    ) -> None:
        """The learner's hand (Components V2, with its picture) as a private followup."""
        message = play.hand_message(session, LEARNER, tr)
        files = await play.hand_picture(session, LEARNER, tr, message, urgent=False)
        await interaction.followup.send(
            view=message.view(picture=bool(files)), files=files, ephemeral=True
        )

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Remember the newest hand control used in an ephemeral lesson (to redraw it later)."""
        data: Any = interaction.data or {}
        match = HAND_CONTROL.match(str(data.get("custom_id", "")))
        if match is None:
            return
        # the cached copy only: no store read per click (a live lesson's game is in the cache,
        # loaded by the control itself), and a forged id names nothing
        session = self.bot.games.cached(fields(match)["game"])
        if session is not None and session.row.settings.get(WHERE) == EPHEMERAL:
            self._answers[session.id] = interaction

    async def _send_ephemeral_hand(self, session: GameSession) -> None:
        """The learner's turn came in an ephemeral lesson: a new private hand message.

        Sent as a followup of their newest interaction (its token lives 15 minutes, Discord),
        so the previous hand keeps the coach's lines about their last turn, as a DM would.
        """
        interaction = self._answers.get(session.id)
        learner = session.seats[LEARNER].user_id
        if interaction is None or learner is None:
            return
        tr = self.tr_for(learner, session.row.guild_id)
        play: Any = self.bot.get_cog("PlayCog")
        try:
            await self._followup_hand(interaction, play, session, tr)
        except discord.HTTPException as exc:  # the token expired: /hats hand shows it again
            log.info("practice game %d: hand not sent: %s", session.id, exc)
            self._answers.pop(session.id, None)

    async def _private_thread(self, interaction: discord.Interaction, welcome: str) -> Any:
        """A private thread for the learner in the interaction's channel, or None."""
        parent = interaction.channel
        if isinstance(parent, discord.TextChannel):
            tr = self.tr(interaction)
            try:
                thread = await parent.create_thread(
                    name=practice_thread_name(tr),
                    type=discord.ChannelType.private_thread,
                    invitable=False,
                )
                await thread.send(
                    f"{interaction.user.mention} {welcome}",
                    allowed_mentions=only([interaction.user.id]),
                )
                return thread
            except discord.HTTPException as exc:
                log.info("no practice thread in channel %s: %s", parent.id, exc)
        return None

    # ------------------------------------------------------------------ /hats hint
    @app_commands.command(
        name="hint", description="Privately suggest a move (practice games, or hints allowed)"
    )
    @app_commands.describe(game="Which game (only needed when you play several)")
    async def hint(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/hats hint``: a private suggestion for the caller's seat; never changes the game."""

        async def work() -> None:
            session, seat = await self._hint_target(interaction, game)
            await self.answer_hint(interaction, session, seat)

        await self.guarded(interaction, work)

    async def _hint_target(
        self, interaction: discord.Interaction, game: int | None
    ) -> tuple[GameSession, int]:
        """The game and seat a hint is for: in DMs the practice game there comes first."""
        if game is None and interaction.guild is None:
            here = await self.bot.games.session_in_channel(interaction.channel_id or 0)
            seat = here.seat_of(interaction.user.id) if here is not None else None
            if here is not None and seat is not None:
                return here, seat
        play: Any = self.bot.get_cog("PlayCog")
        return await play.resolve(interaction, game)

    async def answer_hint(
        self, interaction: discord.Interaction, session: GameSession, seat: int
    ) -> None:
        """Answer privately with the hint for ``seat``, or why there is none."""
        tr = self.tr(interaction)
        obs, legal, seed = hint_position(session, seat)
        hint = await self.bot.run_cpu(suggest, obs, legal, seed, self.bot.expert_budget)
        await send_private(interaction, hint_line(hint, tr))

    # ------------------------------------------------------------------ buttons
    async def on_coach_button(
        self, interaction: discord.Interaction, game_id: int, op: CoachOp
    ) -> None:
        """What should I do? (a private hint) or Give up (abandon the practice game)."""

        async def work() -> None:
            session = await self.bot.games.session(game_id)
            seat = session.seat_of(interaction.user.id) if session is not None else None
            if session is None or session.game.is_over:
                raise ServiceError("This game is over or no longer exists.")
            if seat is None:
                raise ServiceError("These controls belong to another player.")
            if op is CoachOp.HINT:
                await self.answer_hint(interaction, session, seat)
                return
            if not session.practice:
                raise ServiceError("These controls belong to another player.")
            tr = self.tr(interaction)
            self._answers.pop(session.id, None)
            if await self.bot.games.abandon(session):
                text = given_up_text(tr, game_id)
            else:
                text = game_gone_text(tr)
            await send_private(interaction, text)

        await self.guarded(interaction, work)

    # ------------------------------------------------------------------ the game's end
    async def announce_end(self, session: GameSession) -> None:
        """Outbox ``end`` of a practice game: the final result with the coach's end notes.

        One Components V2 message, posted once where the game lives (DMs or the thread; in an
        ephemeral lesson a private followup), in the learner's language: the final result as
        a table's end screen shows it (:meth:`cogs.table.TableCog.end_layout`: winner, end
        picture with its alt text) and, in a text display of their own, the coach's end notes
        (:func:`end_notes`) and the invitation to another lesson; no rating, no record, no
        Rematch. Other games' ends are the table's (TableCog).
        """
        if not session.practice or session.message("end") is not None:
            return
        result = session.game.result
        learner = session.seats[LEARNER].user_id
        if result is None or learner is None:
            return
        tr = self.tr_for(learner, session.row.guild_id)
        labels = labels_for(session, self.bot.names, tr)
        table: Any = self.bot.get_cog("TableCog")
        view, files = await table.end_layout(
            session, tr, coach=lambda shown: end_notes(result, labels, tr, results_shown=shown)
        )
        if session.row.settings.get(WHERE) == EPHEMERAL:
            answer = self._answers.pop(session.id, None)
            if answer is not None:
                with contextlib.suppress(discord.HTTPException):  # the token may have expired
                    await answer.followup.send(view=view, files=files, ephemeral=True)
            return
        channel = self.bot.get_partial_messageable(session.channel_id)
        try:
            message = await channel.send(view=view, files=files)
        except discord.Forbidden:  # the learner closed their DMs meanwhile
            log.info("practice game %d: its end could not be sent", session.id)
            return
        await self.bot.games.remember_message(session, "end", session.channel_id, message.id)

    @commands.Cog.listener()
    async def on_hats_step(
        self, session: GameSession, event: Event, actor: str, origin: int | None
    ) -> None:
        """A practice game's DMs speak the learner's language, also after a restart.

        The language is stored with the game; this runs before PlayCog's listener (cogs.learn
        loads first) and sets it only for a learner the bot has not heard from since its start.
        """
        if session.practice:
            learner = session.seats[LEARNER].user_id
            language = session.row.settings.get(LANGUAGE)
            if learner is not None and isinstance(language, str):
                self.bot.locales.setdefault(learner, language)
            ephemeral = session.row.settings.get(WHERE) == EPHEMERAL
            if ephemeral and event.turn_ended and session.game.to_move == LEARNER:
                await self._send_ephemeral_hand(session)

    # ------------------------------------------------------------------ lobby: Hints allowed
    def lobby_items(self, row: LobbyRow, tr: Tr) -> list[discord.ui.Item]:
        """Lobby hook: the Hints toggle (host only; off by default)."""
        button = LobbyButton(row.id, LobbyOp.HINTS)
        on = row.settings.get(HINTS) is True
        button.item.label = hints_toggle_label(tr, on)
        button.item.style = discord.ButtonStyle.secondary
        button.item.emoji = "💡"
        return [button]

    async def on_lobby_op(
        self, interaction: discord.Interaction, lobby_id: int, op: LobbyOp
    ) -> None:
        """LobbyCog hook: the host switches Hints allowed on or off."""
        if op is not LobbyOp.HINTS:
            return

        perms = getattr(interaction.user, "guild_permissions", None)
        row = await lobby_requests.set_hints(
            self.bot.games,
            lobby_id,
            interaction.user.id,
            manages_server=bool(perms and perms.manage_guild),
        )
        lobby: Any = self.bot.get_cog("LobbyCog")
        await lobby.redraw(interaction, row, from_button=True)


async def setup(bot: HatsBot) -> None:
    """Load the cog and register its persistent buttons."""
    bot.add_dynamic_items(CoachButton)
    await bot.add_cog(LearnCog(bot))
