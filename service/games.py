"""The game service: live games and lobbies in memory, every change committed to the store first.

The cogs call this module; it calls the engine and the store. It imports no Discord: after
each committed step it fires the event ``hats_step`` through the ``dispatch`` callable it is
handed (the bot's ``bot.dispatch``, discord.py custom events) so the cogs can update the table,
the DMs, the timers and the AI players; time comes from the ``clock`` it is handed.

Rules of the house: one asyncio lock per game serialises its steps; a step is appended to the
store (with its expected sequence number) before anyone is told; when the store fails, the
in-memory game is rebuilt from the store so nothing unacknowledged survives, and whether the
step counts is decided by what the store holds afterwards, never guessed.

The step that ends a game is stored in the same transaction as the results, the record, the
finished status and the outbox item ``end`` (``Results.finish_game(last_step=...)``): a game is
never over in memory and live in the store. A game's start writes the outbox item ``start``
with the game. Announcements owed by the outbox are delivered by ``cogs.outbox`` (event
``hats_outbox``); the service only records them.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import functools
import logging
import math
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from data import (
    ChannelBusy,
    GameMessage,
    GameNotLive,
    GameRow,
    GameStatus,
    LobbyNotFound,
    LobbyRow,
    LobbySeat,
    SeatRow,
    SeatSpec,
    StaleSequence,
    Store,
    StoreError,
    entries_from_game,
    rebuild_game,
)
from data.errors import ReplayFailed
from data.game_flags import is_practice
from data.rows import GameChange, TimerChange
from data.timers import StepDeadlines, TimerPlan
from engine import Action, Event, Game, GameConfig, Step, to_record
from engine.actions import END_TURN
from service.clock import Clock, system_clock
from service.errors import OutcomeUnknown, OutOfDate, ServiceError
from telemetry.logs import log_context
from telemetry.metrics import GAMES_FINISHED, count_step

if TYPE_CHECKING:
    from service.deadlines import DeadlinePolicy

__all__ = [
    "GameService",
    "GameSession",
    "OutOfDate",
    "OutcomeUnknown",
    "ServiceError",
]

log = logging.getLogger("hats.service")

StoredStep = tuple[dict[str, Any], str, float]
"""One append as the store keeps it: the step dict, its actor and its time (unix seconds)."""


@dataclass(eq=False)
class GameSession:
    """A live game: its stored row and seats, the engine game, its messages and its lock.

    ``version`` is the number of steps applied (the next step's sequence number).
    ``auto_played`` holds the event numbers that an AI played for an absent human.
    ``superseded``: another process stored a step first while this copy was committing one;
    the copy was brought up to the store's state, but a step chosen on it meanwhile may have
    been chosen for the state it had before (same version, other steps), so every later
    :meth:`GameService.play` on it raises OutOfDate (the cache holds a fresh copy).
    """

    row: GameRow
    seats: list[SeatRow]
    game: Game
    messages: dict[tuple[str, int | None], GameMessage] = field(default_factory=dict)
    auto_played: set[int] = field(default_factory=set)
    superseded: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def id(self) -> int:
        """The game id."""
        return self.row.id

    @property
    def channel_id(self) -> int:
        """The game's channel."""
        return self.row.channel_id

    @property
    def channel_mention(self) -> str:
        """The game channel as a Discord mention, ``<#id>`` (what ``channel.mention`` gives)."""
        return f"<#{self.row.channel_id}>"

    @property
    def version(self) -> int:
        """Steps applied so far: the sequence number of the next step."""
        return self.game.step_count

    @property
    def practice(self) -> bool:
        """True for a practice game (``/hats learn``): unrated, never counts as "playing"."""
        return is_practice(self.row.settings)

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` holds (even while an AI plays it for them), or None."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def human_seats(self) -> list[SeatRow]:
        """Seats held by a human (their user id is set)."""
        return [s for s in self.seats if s.user_id is not None]

    def message(self, role: str, seat: int | None = None) -> GameMessage | None:
        """The tracked message of ``role`` (and seat), or None."""
        return self.messages.get((role, seat))


LOAD_ATTEMPTS = 3
"""Loads of a game that another process changes meanwhile before a copy is used uncached."""

RESOLVE_WITHIN_S = 2.0
"""Seconds :meth:`GameService.play` keeps reading the store after a commit reported an error,
to say whether the step was stored: Discord wants an interaction answered within 3 s."""
RESOLVE_DELAYS_S = (0.0, 0.1, 0.2, 0.4, 0.8)
"""Pauses (seconds) before each read of that bounded retry (a restarting server needs ~1 s)."""
RESOLVE_LATER_S = 14 * 60.0
"""Seconds an outcome still unknown after that keeps being read in the background; an
interaction's followup can be sent for 15 minutes."""
RESOLVE_LATER_PAUSE_S = (1.0, 10.0)
"""The first and the longest pause (seconds) between those reads (doubling in between)."""

ARM_ATTEMPTS = 3
"""Times :meth:`GameService.arm` judges a game again when it moved on while being judged."""

CACHED_FINISHED = 1000
"""Finished games kept in the cache (their end screens and late clicks); older ones leave it."""

CACHE_IDLE = 900.0
"""Seconds after which a game nobody touched leaves the cache (``HATS_CACHE_IDLE``)."""


_Method = TypeVar("_Method", bound=Callable[..., Awaitable[Any]])


def _in_game_log_context(method: _Method) -> _Method:
    """Lines logged by ``method(self, session, ...)`` and the tasks it starts carry its ids."""

    @functools.wraps(method)
    async def wrapper(self: GameService, session: GameSession, *args: Any, **kwargs: Any) -> Any:
        with log_context(game_id=session.id, guild_id=session.row.guild_id):
            return await method(self, session, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


class GameService:
    """Live lobbies and games of the bot: the store is the authority, this is its cache.

    ``store``: the open :class:`data.Store`; ``seed_source()`` returns a new game's seed;
    ``dispatch(name, *args)`` is ``bot.dispatch`` (fires ``on_hats_step``, ``on_hats_outbox``,
    ``on_hats_deadline``); ``deadlines``: the rules of the deadlines that follow each step
    (:class:`service.deadlines.DeadlinePolicy`; None writes none); ``clock()``: the time in
    unix seconds (the bot hands in discord.py's clock, which simcord moves in tests).
    ``cache_idle``: seconds after which a game nobody touched (looked up, started, played)
    leaves the cache (None: never); it is loaded again on first use.

    Several processes may share one PostgreSQL store and act on the same games: a game is
    loaded (replayed from its steps) the first time this process needs it, a change another
    process commits evicts it (``Store.watch``, LISTEN/NOTIFY), and a step appended on a stale
    copy is refused by the store's sequence check (the game is reloaded and the player told
    that it moved on, :class:`OutOfDate`). Lobbies are read from the store at each use.
    """

    def __init__(
        self,
        store: Store,
        seed_source: Callable[[], int],
        *,
        dispatch: Callable[..., None],
        deadlines: DeadlinePolicy | None = None,
        clock: Clock = system_clock,
        cache_idle: float | None = CACHE_IDLE,
    ) -> None:
        self.store = store
        self.clock = clock
        self.cache_idle = cache_idle
        self._touched: OrderedDict[int, float] = OrderedDict()
        """Cached game id -> when it was last touched (clock), least recently touched first."""
        self.seed_source = seed_source
        self.dispatch = dispatch
        self.deadlines = deadlines
        self.sessions: dict[int, GameSession] = {}
        """The cache: games this process loaded or started, by id."""
        self._loads: dict[int, asyncio.Future[GameSession | None]] = {}
        self._changed_while_loading: dict[int, float] = {}
        """Games being loaded -> the highest step number changed meanwhile (inf: unknown)."""
        self._finished: deque[int] = deque()
        self._lobby_locks: dict[int, asyncio.Lock] = {}
        self._channel_locks: dict[int, asyncio.Lock] = {}
        self.unresolved: set[asyncio.Task[bool | None]] = set()
        """Steps whose commit outcome is being read in the background (OutcomeUnknown)."""

    # ------------------------------------------------------------------ start-up
    async def start(self) -> None:
        """Start serving: follow the changes other processes commit (PostgreSQL only).

        Nothing is loaded here: a game is loaded on first use (:meth:`session`), so start-up
        costs the same with 10 or 100,000 live games.
        """
        await self.store.watch(self.changed)

    def changed(self, change: GameChange) -> None:
        """Another process committed a change to a game: drop this process's copy of it.

        ``change.game_id`` None (the notification stream was interrupted): drop every copy.
        Own changes (this store's origin) and steps already applied here are ignored. Fires
        ``hats_game_changed(change)`` after a copy was dropped.
        """
        if change.origin == self.store.origin:
            return
        if change.game_id is None:
            self._changed_while_loading.update(dict.fromkeys(self._loads, math.inf))
            self.sessions.clear()
            self.dispatch("hats_game_changed", change)
            return
        if change.game_id in self._loads:
            seq = math.inf if change.seq is None else change.seq
            old = self._changed_while_loading.get(change.game_id, -1)
            self._changed_while_loading[change.game_id] = max(old, seq)
        session = self.sessions.get(change.game_id)
        if session is None or (change.seq is not None and change.seq < session.version):
            return
        del self.sessions[change.game_id]
        self.dispatch("hats_game_changed", change)

    # ------------------------------------------------------------------ look-ups
    def cached(self, game_id: int) -> GameSession | None:
        """The copy of game ``game_id`` this process holds, or None (no store access)."""
        return self.sessions.get(game_id)

    def is_current(self, session: GameSession) -> bool:
        """Whether ``session`` is still the copy this process holds (nobody else changed it)."""
        return self.sessions.get(session.id) is session

    async def drawable(self, session: GameSession) -> GameSession | None:
        """The copy of ``session``'s game to draw a message edit from, or None to skip the edit.

        Each process edits the messages of the steps it committed. When another process
        committed a later step meanwhile, that process edits them (None here), so two processes
        never edit a message for the same step; when it changed something else (a seat, a
        message id), the fresh copy is drawn.
        """
        if session.game.is_over or self.is_current(session):
            return session
        fresh = await self.session(session.id)
        if fresh is None or fresh.version != session.version:
            return None
        return fresh

    async def session(self, game_id: int) -> GameSession | None:
        """The live (or finished in this process, still cached) game ``game_id``, or None.

        Loaded from the store and replayed on first use; concurrent callers share one load.
        When another process changed the game during the load and the copy does not hold
        that change, it is loaded again; after :data:`LOAD_ATTEMPTS` such loads (the game
        moves faster than it can be read) the last copy is returned without being cached (a
        move on it is checked by the store: OutOfDate if it is behind).
        A game that is over but not finished in the store (an older version's crash) is
        finished here. Raises StoreError when the store cannot be read.
        """
        self._touch(game_id)
        session = self.sessions.get(game_id)
        if session is not None:
            return session
        pending = self._loads.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[GameSession | None] = asyncio.get_running_loop().create_future()
        self._loads[game_id] = future
        try:
            for _ in range(LOAD_ATTEMPTS):
                self._changed_while_loading.pop(game_id, None)
                session = await self._load(game_id)
                changed = self._changed_while_loading.pop(game_id, -1)
                if session is None or changed < session.version:  # it holds every change
                    if session is not None:
                        self.sessions[game_id] = session
                    break
            future.set_result(session)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: only the waiters (if any) see it
            raise
        finally:
            del self._loads[game_id]
        if session is not None and self.unsettled(session):
            try:
                await self.settle(session)
            except StoreError as exc:  # the outbox cog retries (settle) until it works
                log.warning("game %d is over, its finish is not stored: %s", session.id, exc)
                self.dispatch("hats_outbox", session.id)
        return session

    async def _load(self, game_id: int) -> GameSession | None:
        """Game ``game_id`` rebuilt from the store, or None (not live, or its replay fails)."""
        try:
            live = await self.store.games.load_live(game_id)
        except ReplayFailed as exc:
            log.error("%s", exc)
            return None
        if live is None:
            return None
        try:
            game = rebuild_game(live.row, live.steps)
        except ReplayFailed as exc:
            log.error("%s", exc)
            return None
        return GameSession(
            live.row,
            list(live.seats),
            game,
            {(m.role, m.seat): m for m in live.messages},
            set(live.auto_seqs),
        )

    async def fresh_session(self, game_id: int) -> GameSession | None:
        """Game ``game_id`` as the store holds it now (to judge a deadline), or None if not live.

        The cached copy when it holds every stored step (one cheap query: the store's step
        count), else the game reloaded. A copy may miss other processes' steps while its
        notifications are down (the database restarted). Raises StoreError when the store
        cannot be read.
        """
        session = self.sessions.get(game_id)
        if session is not None:
            if await self.store.steps.step_count(game_id) == session.version:
                return session
            if self.sessions.get(game_id) is session:
                del self.sessions[game_id]
        return await self.session(game_id)

    async def session_in_channel(self, channel_id: int) -> GameSession | None:
        """The live game in a channel, if any (one game per channel at a time)."""
        row = await self.store.games.live_game_in_channel(channel_id)
        if row is None:
            return None
        session = await self.session(row.id)
        return session if session is not None and not session.game.is_over else None

    async def sessions_of_user(self, user_id: int) -> list[GameSession]:
        """Live games where ``user_id`` holds a seat, oldest first."""
        out = []
        for game_id in await self.store.games.live_ids_of_user(user_id):
            session = await self.session(game_id)
            if (
                session is not None
                and not session.game.is_over
                and session.seat_of(user_id) is not None
            ):
                out.append(session)
        return out

    async def sessions_in_guild(self, guild_id: int) -> list[GameSession]:
        """Live games of a server, oldest first (loaded on use)."""
        out = []
        for game_id in await self.store.games.live_ids_in_guild(guild_id):
            session = await self.session(game_id)
            if session is not None and not session.game.is_over:
                out.append(session)
        return out

    async def lobby(self, lobby_id: int) -> LobbyRow | None:
        """An open lobby by id (read from the store)."""
        return await self.store.lobbies.get_lobby(lobby_id)

    async def lobby_in_channel(self, channel_id: int) -> LobbyRow | None:
        """The open lobby in a channel, if any (read from the store)."""
        return await self.store.lobbies.lobby_in_channel(channel_id)

    async def lobbies(self) -> list[LobbyRow]:
        """Every open lobby (read from the store)."""
        return await self.store.lobbies.list_open()

    def _channel_lock(self, channel_id: int) -> asyncio.Lock:
        return self._channel_locks.setdefault(channel_id, asyncio.Lock())

    def _lobby_lock(self, lobby_id: int) -> asyncio.Lock:
        return self._lobby_locks.setdefault(lobby_id, asyncio.Lock())

    # ------------------------------------------------------------------ lobbies
    async def open_lobby(
        self, guild_id: int, channel_id: int, host_id: int, settings: dict[str, Any]
    ) -> LobbyRow:
        """Open a lobby with the host seated; raises ServiceError when the channel is busy.

        A game of the channel that is over but whose finish is not stored yet is finished
        first (StoreError if the store still fails: nothing changed).
        """
        async with self._channel_lock(channel_id):
            last = await self.store.games.live_game_in_channel(channel_id)
            session = await self.session(last.id) if last is not None else None
            if session is not None:
                await self.settle(session)  # nothing unless its finish is owed
            busy = session is not None and not session.game.is_over
            if busy or await self.lobby_in_channel(channel_id):
                raise ServiceError(
                    "This channel already has a game or a lobby. Finish or cancel it first, "
                    "or use another channel."
                )
            try:
                row = await self.store.lobbies.create_lobby(
                    guild_id,
                    channel_id,
                    host_id,
                    settings,
                    (LobbySeat(user_id=host_id),),
                    at=self.clock(),
                )
            except ChannelBusy:
                raise ServiceError(
                    "This channel already has a game or a lobby. Finish or cancel it first, "
                    "or use another channel."
                ) from None
            return row

    async def update_lobby(
        self,
        lobby_id: int,
        change: Callable[[LobbyRow], tuple[Sequence[LobbySeat], dict[str, Any]]],
    ) -> LobbyRow:
        """Apply ``change(row) -> (seats, settings)`` to a lobby and store it, under its lock.

        ``change`` raises ServiceError to refuse (nothing is stored then). Raises ServiceError
        when the lobby no longer exists.
        """
        async with self._lobby_lock(lobby_id):
            row = await self.lobby(lobby_id)
            if row is None:
                raise ServiceError("This lobby is closed.")
            seats, settings = change(row)
            if tuple(seats) != row.seats:
                row = await self.store.lobbies.set_seats(lobby_id, tuple(seats), at=self.clock())
            if settings != row.settings:
                row = await self.store.lobbies.set_settings(lobby_id, settings, at=self.clock())
            return row

    async def set_lobby_host(self, lobby_id: int, host_id: int) -> LobbyRow:
        """Make ``host_id`` the lobby's host (the previous host left)."""
        async with self._lobby_lock(lobby_id):
            return await self.store.lobbies.set_host(lobby_id, host_id, at=self.clock())

    async def set_lobby_message(self, lobby_id: int, message_id: int) -> None:
        """Remember the lobby's Discord message.

        The lobby is already open and shown, so a store that fails here is only logged: the
        buttons still work (they edit the message they are on).
        """
        try:
            async with self._lobby_lock(lobby_id):
                if await self.lobby(lobby_id) is not None:
                    await self.store.lobbies.set_message_id(lobby_id, message_id, at=self.clock())
        except StoreError as exc:
            log.warning("lobby %d: its message id is not stored: %s", lobby_id, exc)

    async def close_lobby(self, lobby_id: int) -> LobbyRow | None:
        """Delete a lobby (cancel, expiry); returns the closed row or None if already gone.

        Raises StoreError when the store cannot delete it (the lobby stays open then).
        """
        async with self._lobby_lock(lobby_id):
            row = await self.lobby(lobby_id)
            if row is None or not await self.store.lobbies.delete_lobby(lobby_id):
                return None
            return row

    async def start_game(
        self, lobby_id: int, seat_order: Sequence[LobbySeat] | None = None
    ) -> GameSession:
        """Turn a lobby into a game (atomically in the store) and return the new session.

        ``seat_order`` overrides the lobby's seat order (team seating, R5). Raises ServiceError
        when the lobby is gone or has fewer than 2 or more than 4 seats, StoreError when the
        store cannot write (the lobby stays open, nothing changed). The game's announcement
        (table, hands) is owed by the outbox item written with it; fire ``hats_outbox``.
        """
        async with self._lobby_lock(lobby_id):
            row = await self.lobby(lobby_id)
            if row is None:
                raise ServiceError("This lobby is closed.")
            seats = list(seat_order if seat_order is not None else row.seats)
            if not 2 <= len(seats) <= 4:
                raise ServiceError("A game needs 2 to 4 players; this lobby has {n}.", n=len(seats))
            config = GameConfig(len(seats), self.seed_source())
            specs = [SeatSpec(user_id=s.user_id, ai_level=s.ai_level) for s in seats]
            try:
                game_row = await self.store.games.create_game(
                    row.guild_id,
                    row.channel_id,
                    config.to_dict(),
                    specs,
                    dict(row.settings),
                    from_lobby_id=lobby_id,
                    at=self.clock(),
                )
            except LobbyNotFound:
                raise ServiceError("This lobby is closed.") from None
            except StoreError:  # the store decides: was the game created after all?
                stored = await self._created_despite_error(row, config)
                if stored is None:
                    raise
                game_row = stored
        return self._cache_new(game_row, specs, config)

    def _cache_new(
        self, row: GameRow, specs: Sequence[SeatSpec], config: GameConfig
    ) -> GameSession:
        """The session of a game just created in the store (seats as ``specs``), cached."""
        seat_rows = [
            SeatRow(row.id, i, s.user_id, s.ai_level, False, 0) for i, s in enumerate(specs)
        ]
        session = GameSession(row, seat_rows, Game.new(config))
        self.sessions[session.id] = session
        self._touch(session.id)
        return session

    async def start_practice(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        config: GameConfig,
        ai_level: str,
        settings: dict[str, Any],
    ) -> GameSession:
        """Start a practice game: ``user_id`` at seat 0, AI players of ``ai_level`` elsewhere.

        ``channel_id``: where it lives (the learner's DM channel or a private thread; one live
        game per channel); ``settings`` must mark it practice (:mod:`data.game_flags`). The
        outbox item ``start`` is written with it (fire ``hats_outbox``). Raises ServiceError
        when the channel already holds a game, StoreError when the store cannot write.
        """
        if not is_practice(settings):
            raise ValueError("a practice game's settings must say practice")
        specs = [SeatSpec(user_id=user_id)]
        specs += [SeatSpec(ai_level=ai_level) for _ in range(config.seats - 1)]
        async with self._channel_lock(channel_id):
            try:
                row = await self.store.games.create_game(
                    guild_id, channel_id, config.to_dict(), specs, settings, at=self.clock()
                )
            except ChannelBusy:
                raise ServiceError("You already have a practice game running.") from None
        return self._cache_new(row, specs, config)

    async def abandon(self, session: GameSession) -> bool:
        """Abandon a live game (a practice game given up): no results, its channel freed.

        Returns False when it was not live any more. Raises StoreError when the store fails.
        """
        async with session.lock:
            try:
                session.row = await self.store.games.abandon_game(session.id, at=self.clock())
            except GameNotLive:
                return False
            finally:
                self.sessions.pop(session.id, None)
        return True

    async def _created_despite_error(self, lobby: LobbyRow, config: GameConfig) -> GameRow | None:
        """The game the store holds for this start although it reported an error, or None."""
        try:
            if await self.store.lobbies.get_lobby(lobby.id) is not None:
                return None  # the lobby is still open: nothing was created
            game = await self.store.games.live_game_in_channel(lobby.channel_id)
        except StoreError:
            return None
        if game is None or game.seed != config.seed:
            return None
        log.warning("game %d was stored despite an error", game.id)
        return game

    # ------------------------------------------------------------------ idle eviction
    def _touch(self, game_id: int) -> None:
        """Note a use of game ``game_id``, then evict the games idle for ``cache_idle``."""
        if self.cache_idle is None:
            return
        now = self.clock()
        self._touched[game_id] = now
        self._touched.move_to_end(game_id)
        self._evict_idle(now - self.cache_idle)

    def _evict_idle(self, before: float) -> None:
        """Drop from the cache the games last touched before ``before`` (clock seconds).

        Oldest first, so the work is the number of games evicted. A game whose lock is held
        (a step in flight) counts as touched now and stays.
        """
        busy = []
        while self._touched:
            game_id, touched = next(iter(self._touched.items()))
            if touched >= before:
                break
            del self._touched[game_id]
            session = self.sessions.get(game_id)
            if session is not None and session.lock.locked():
                busy.append(game_id)
            elif session is not None:
                del self.sessions[game_id]
        now = self.clock()
        for game_id in busy:
            self._touched[game_id] = now

    # ------------------------------------------------------------------ play
    @_in_game_log_context
    async def play(
        self,
        session: GameSession,
        seat: int,
        action: Action,
        *,
        version: int | None = None,
        actor: str = "player",
        origin: int | None = None,
        end_turn_after: bool = False,
    ) -> Event:
        """Apply one step for ``seat``, commit it, then announce it (``on_hats_step``).

        ``version``: the state the player saw (a button's version); a different current state
        raises :class:`OutOfDate`. ``actor`` is stored with the step: ``player``, ``ai``
        (an AI seat) or ``auto`` (the AI played for an absent human). ``origin``: the id of
        the message whose control made the move (listeners skip redrawing it).
        After a main action, when ending the turn is then the only legal action, or it is legal
        and ``end_turn_after`` is set (the player's "end my turn after the main action"
        preference), the turn is ended too (R11), as a second committed step, before anyone
        is told; listeners get both steps, the table is drawn once. Returns the event of
        ``action``.
        The step that ends the game is stored together with the results, the record and the
        outbox item ``end`` (one transaction); ``hats_outbox`` then fires to post the end.
        Raises engine IllegalMove (nothing changed), OutOfDate, or a data StoreError when the
        store did not commit the step (the game is rolled back to what the store holds: the
        step did not happen). When the store reports an error but holds the step anyway, the
        step counts and no error is raised. When it cannot be read back within
        :data:`RESOLVE_WITHIN_S`, :class:`OutcomeUnknown` (a StoreError) is raised: its
        ``outcome`` says later whether the step counts (never guessed; if it does,
        ``hats_step`` fires then).
        """
        self._touch(session.id)
        async with session.lock:
            if session.superseded or (version is not None and version != session.version):
                raise OutOfDate()
            events = [await self._commit(session, seat, action, actor)]
            game = session.game
            legal = game.legal_actions(seat) if action.kind.is_main and not game.is_over else []
            if END_TURN in legal and (end_turn_after or legal == [END_TURN]):
                try:
                    events.append(await self._commit(session, seat, END_TURN, actor))
                except (OutOfDate, StoreError) as exc:  # the main action stands
                    log.warning(
                        "game %d: the turn was not ended after the main action: %s",
                        session.id,
                        exc,
                    )
        for event in events:
            self.dispatch("hats_step", session, event, actor, origin)
            if event.game_over:
                self.dispatch("hats_outbox", session.id)
        return events[0]

    async def _commit(self, session: GameSession, seat: int, action: Action, actor: str) -> Event:
        """Apply and store one step under the game's lock; the last one finishes the game.

        Raises IllegalMove (nothing changed), OutOfDate (stale sequence) or StoreError when
        the store did not commit the step (the game is rolled back to what the store holds).

        The step is applied to a copy of the game (``staged``), which the session's game adopts
        (``Game.adopt``) only once the store holds the step: until then every reader and
        drawer (the listeners of earlier steps, a click answered meanwhile) sees the committed
        state, so a version number never stands for a state the store may not keep (issue
        29.6).
        """
        seq = session.version
        before = session.game.to_move
        staged = session.game.copy()
        event = staged.apply(seat, action)
        pending = dataclasses.replace(session, game=staged)  # what the store and timers read
        step = Step(seat, action).to_dict()
        at = self.clock()
        timers: list[TimerChange] = []
        stored_seats: tuple[SeatRow, ...] | None = None
        try:
            if staged.is_over:
                session.row = await self._finish(pending, last_step=(seq, step, actor), at=at)
            else:
                if self.deadlines is None:
                    await self.store.steps.append_step(session.id, seq, step, actor=actor, at=at)
                else:
                    judged = self._step_deadlines(pending, before, at=at)
                    timers = list(judged.changes)  # what a step of unknown outcome owes
                    timers, stored_seats = await self.store.steps.append_judged(
                        session.id, seq, step, actor=actor, at=at, deadlines=judged
                    )
        except (StaleSequence, GameNotLive) as exc:
            # Another process moved first, or finished (or abandoned) the game meanwhile: the
            # store checks that before the sequence number. This copy is out of date.
            if self.sessions.get(session.id) is session:
                del self.sessions[session.id]
            session.superseded = True
            await self._roll_back(session, seq)
            if isinstance(exc, GameNotLive):
                session.row = dataclasses.replace(session.row, status=GameStatus(exc.status))
            raise OutOfDate() from None
        except StoreError as exc:
            mine = (step, actor, at)  # an equal step appended elsewhere is not this one
            held = await self._holds_step(session, seq, mine)
            if held is None:
                raise self._unknown(session, seq, mine, event, timers) from exc
            if not held:
                await self._roll_back(session, seq)
                raise
            log.warning("game %d: step %d was stored despite an error: %s", session.id, seq, exc)
            if staged.is_over:  # the step was stored with its finish (one transaction)
                session.row = dataclasses.replace(session.row, status=GameStatus.FINISHED)
        except BaseException:
            await self._roll_back(session, seq)
            raise
        session.game.adopt(staged)  # committed: now everyone may see it
        if stored_seats is not None:  # another process changed a seat: the store's are newer
            session.seats[:] = stored_seats
        if actor == "auto":
            session.auto_played.add(event.number)
        count_step(actor)
        if session.game.is_over:
            GAMES_FINISHED.labels(str(len(session.seats))).inc()
            self._forget_old_finished(session.id)
        due = [t.due_at for t in timers if t.due_at is not None]
        if due:
            self.dispatch("hats_deadline", min(due))
        return event

    def _step_deadlines(
        self, pending: GameSession, before: int | None, *, at: float
    ) -> StepDeadlines:
        """The deadlines after a step (``pending`` holds it), judged again on newer seats.

        :meth:`DeadlinePolicy.after_step` on this copy's seats; should the store hold other
        seats when the step commits (a seat change another process stored meanwhile), the
        step's transaction writes :meth:`DeadlinePolicy.standing` for the stored seats
        instead, so a seat that an AI took over gets its move (issue 36.1).
        """
        policy = self.deadlines
        assert policy is not None

        def rejudge(seats: tuple[SeatRow, ...]) -> TimerPlan:
            return policy.standing(dataclasses.replace(pending, seats=list(seats)), at=at)

        changes = policy.after_step(pending, before, at=at)
        return StepDeadlines(tuple(pending.seats), tuple(changes), rejudge)

    def _forget_old_finished(self, game_id: int) -> None:
        """Keep at most :data:`CACHED_FINISHED` finished games in the cache (oldest leave)."""
        self._finished.append(game_id)
        while len(self._finished) > CACHED_FINISHED:
            old = self.sessions.get(self._finished.popleft())
            if old is not None and old.game.is_over:
                del self.sessions[old.id]

    async def _holds_step(self, session: GameSession, seq: int, mine: StoredStep) -> bool | None:
        """Whether the store holds this append (``mine``: step, actor, at) as number ``seq``.

        The truth after an error. False when it holds none there, or another append (even of
        an equal step: its ``at`` differs); None when the store did not answer within
        :data:`RESOLVE_WITHIN_S` (reads retried after :data:`RESOLVE_DELAYS_S`): unknown,
        never guessed.
        """
        loop = asyncio.get_running_loop()
        end = loop.time() + RESOLVE_WITHIN_S
        for delay in RESOLVE_DELAYS_S:
            if loop.time() + delay >= end:
                break
            await asyncio.sleep(delay)
            try:
                stored = await asyncio.wait_for(
                    self.store.steps.stored_step(session.id, seq), end - loop.time()
                )
            except (StoreError, TimeoutError):
                continue
            return stored == mine
        return None

    def _unknown(
        self,
        session: GameSession,
        seq: int,
        mine: StoredStep,
        event: Event,
        timers: list[TimerChange],
    ) -> OutcomeUnknown:
        """Set the copy aside (it may lack or hold the step) and read the outcome later."""
        if self.sessions.get(session.id) is session:
            del self.sessions[session.id]
        session.superseded = True
        session.game = rebuild_game(session.row, session.game.steps[:seq])
        log.warning("game %d: whether step %d was stored is not known yet", session.id, seq)
        # From an empty context: the reads belong to the service, not to the request that
        # failed (a test harness that waits for a request's tasks does not wait for these).
        task = contextvars.Context().run(
            asyncio.get_running_loop().create_task,
            self._resolve_later(session.id, seq, mine, event, timers),
        )
        self.unresolved.add(task)
        task.add_done_callback(self.unresolved.discard)
        return OutcomeUnknown(session.id, seq, task)

    async def _resolve_later(
        self,
        game_id: int,
        seq: int,
        mine: StoredStep,
        event: Event,
        timers: list[TimerChange],
    ) -> bool | None:
        """Read until the store says whether this append (``mine``) is step ``seq``.

        True: stored (``hats_step``, and ``hats_outbox``/``hats_deadline`` as after a commit,
        fire on the stored game); False: not stored; None: no answer within
        :data:`RESOLVE_LATER_S` (the next load of the game shows what the store holds).
        """
        loop = asyncio.get_running_loop()
        end = loop.time() + RESOLVE_LATER_S
        delay, longest = RESOLVE_LATER_PAUSE_S
        while loop.time() < end:
            await asyncio.sleep(delay)
            delay = min(2 * delay, longest)
            try:
                if await self.store.steps.stored_step(game_id, seq) != mine:
                    log.warning("game %d: step %d was not stored", game_id, seq)
                    return False
                session = await self.session(game_id) or await self.load_game(game_id)
            except StoreError:
                continue
            log.warning("game %d: step %d was stored despite an error", game_id, seq)
            count_step(mine[1])
            if event.game_over and session is not None:
                GAMES_FINISHED.labels(str(len(session.seats))).inc()
            if session is not None:
                self.dispatch("hats_step", session, event, mine[1], None)
                if event.game_over:
                    self.dispatch("hats_outbox", game_id)
            due = [t.due_at for t in timers if t.due_at is not None]
            if due:
                self.dispatch("hats_deadline", min(due))
            return True
        return None

    async def _roll_back(self, session: GameSession, seq: int) -> None:
        """Put the game back to what the store holds (``seq`` steps if the store cannot say)."""
        try:
            steps: Sequence[Any] = await self.store.steps.load_steps(session.id)
        except StoreError as exc:
            log.warning(
                "game %d: rebuilt from memory, the store cannot be read: %s", session.id, exc
            )
            steps = session.game.steps[:seq]
        session.game = rebuild_game(session.row, steps)

    async def _finish(
        self,
        session: GameSession,
        *,
        last_step: tuple[int, dict[str, Any], str] | None = None,
        at: float | None = None,
    ) -> GameRow:
        game = session.game
        return await self.store.results.finish_game(
            session.id,
            entries_from_game(game, session.seats),
            to_record(game),
            at=self.clock() if at is None else at,
            last_step=last_step,
        )

    def unsettled(self, session: GameSession) -> bool:
        """True for a game over by its steps whose finish is not stored yet."""
        return session.game.is_over and session.row.status is GameStatus.LIVE

    async def settle(self, session: GameSession) -> bool:
        """Store the finish of a game that is over but still live in the store (idempotent).

        Only games stored by an older version (last step and finish in two transactions) need
        it. Returns True when this call finished it (``hats_outbox`` fires to post its end),
        False when there was nothing to do. Raises StoreError when the store still fails.
        """
        if not self.unsettled(session):
            return False
        async with session.lock:
            if not self.unsettled(session):
                return False
            try:
                session.row = await self._finish(session)
                GAMES_FINISHED.labels(str(len(session.seats))).inc()
            except GameNotLive:
                row = await self.store.games.get_game(session.id)
                session.row = row or session.row
                return False
        self.dispatch("hats_outbox", session.id)
        return True

    async def load_game(self, game_id: int) -> GameSession | None:
        """A game of any status rebuilt from the store (to announce a finished game's end)."""
        session = self.sessions.get(game_id)
        if session is not None:
            return session
        row = await self.store.games.get_game(game_id)
        if row is None:
            return None
        seats = await self.store.games.seats(game_id)
        game = rebuild_game(row, await self.store.steps.load_steps(game_id))
        messages = await self.store.messages.list_messages(game_id)
        return GameSession(row, seats, game, {(m.role, m.seat): m for m in messages})

    async def update_seat(self, session: GameSession, seat: int, **changes: Any) -> SeatRow:
        """Change a seat's stored state (``ai_level``, ``away``, ``auto_turns``, ``user_id``).

        When the change decides who plays the seat (``ai_level`` or ``user_id``: a seat that
        turned away or back, a removed player), the game's deadlines as the rules then owe
        them (:meth:`DeadlinePolicy.standing`) are written in the SAME transaction, keyed on
        the step number: only if the store still holds ``session.version`` steps. Under the
        game's lock, so no step of this process falls between the two. When another process
        stepped meanwhile, the deadlines are judged again on the stored game (:meth:`arm`).
        Raises StoreError (nothing changed), ValueError for a seat with neither user nor AI.
        """
        async with session.lock:
            old = session.seats[seat]
            row = dataclasses.replace(old, **changes)
            rearm = self.deadlines is not None and (row.ai_level, row.user_id) != (
                old.ai_level,
                old.user_id,
            )
            deadlines = None
            if rearm:
                assert self.deadlines is not None
                seats = list(session.seats)
                seats[seat] = row
                pending = dataclasses.replace(session, seats=seats)
                plan = self.deadlines.standing(pending, at=self.clock())
                deadlines = (session.version, plan)
            written = await self.store.games.update_seat(row, at=self.clock(), deadlines=deadlines)
            session.seats[seat] = row
        if written is not None:
            self._deadlines_written(written)
        elif rearm and not session.game.is_over:
            await self.arm(session)
        return row

    async def arm(self, session: GameSession) -> list[TimerChange] | None:
        """Write the deadlines the game is owed as it stands (a start; a seat change), if due.

        :meth:`DeadlinePolicy.standing` judged on ``session`` under its lock, written in one
        transaction only if the store still holds ``session.version`` steps (compare-and-set,
        ``Timers.write_at_step``): a newer step's deadlines are never replaced by these. When
        the game moved on (another process's step), it is judged again on the stored game, at
        most :data:`ARM_ATTEMPTS` times. Returns the changes written, or None (no policy, the
        game is over, or it kept moving). Fires ``hats_deadline`` for a deadline set. Raises
        StoreError when the store fails (nothing written: the sweep, ``service.sweep``,
        re-arms a game left without a deadline).
        """
        policy = self.deadlines
        if policy is None:
            return None
        for _ in range(ARM_ATTEMPTS):
            if session.game.is_over:
                return None
            async with session.lock:
                steps = session.version
                plan = policy.standing(session, at=self.clock())
                written = await self.store.timers.write_at_step(session.id, steps, plan)
            if written is not None:
                self._deadlines_written(written)
                return written
            fresh = await self.fresh_session(session.id)
            if fresh is None or (fresh is session and fresh.version == steps):
                return None  # not live any more
            session = fresh
        log.warning("game %d: its deadlines were not written, it kept moving", session.id)
        return None

    def _deadlines_written(self, changes: Sequence[TimerChange]) -> None:
        """Wake the deadline runner for the earliest deadline just written (``hats_deadline``)."""
        due = [c.due_at for c in changes if c.due_at is not None]
        if due:
            self.dispatch("hats_deadline", min(due))

    async def remember_message(
        self,
        session: GameSession,
        role: str,
        channel_id: int,
        message_id: int | None,
        *,
        seat: int | None = None,
    ) -> None:
        """Remember a message (or thread) that belongs to the game: in memory, then stored.

        The session knows it at once (before the store's await), so a listener running
        meanwhile never acts on the message it replaces. The message exists already, so a
        store that fails here is only logged: this process keeps using the message; after a
        restart a new one is posted instead.
        """
        session.messages[(role, seat)] = GameMessage(session.id, role, seat, channel_id, message_id)
        try:
            await self.store.messages.set_message(
                session.id, role, channel_id, message_id, seat=seat
            )
        except StoreError as exc:
            log.warning("game %d: %s message not stored: %s", session.id, role, exc)
