"""Swiss tournaments over the game service: sign-up, rounds, their games, the end.

No Discord here. The rules (tables, pairings, points, standings) are :mod:`tournament`'s; the
store (``data.tournaments``) holds every state, each change committed before anyone is told.
One deadline per tournament, kind :data:`KIND` (``timers.tournament_id``), drives it: its
timed start, the pause before a round, and a periodic look while games run. Whichever process
claims it (``service.runner``) calls :meth:`TournamentService.advance`, which judges the
stored tournament and does the next step only if it is still owed, so a deadline that fires
twice, or a restart at any point (also between a round's last game and the next round),
loses and doubles nothing:

- open, its start time reached: round 1 is paired and stored (or the tournament is called
  off with fewer than :data:`tournament.MIN_ENTRANTS` entrants);
- running, a table without its game (a crash before it was created): the caller creates it
  (:meth:`TournamentService.start_table` is idempotent);
- running, every game of the round over: after :data:`ROUND_PAUSE` seconds from the last end
  the next round is paired and stored; after the last round the tournament is finished at
  once;
- otherwise the deadline is set again (:data:`LOOK_SECONDS`, or the pause's end).

The Discord side (threads, the sign-up message, the scheduled event) is the cog's: it creates
each table's thread, then calls :meth:`TournamentService.start_table`.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from data import (
    ChannelBusy,
    EntrantRow,
    EntrantSpec,
    SeatSpec,
    Store,
    TableRow,
    TimerChange,
    TournamentBusy,
    TournamentClosed,
    TournamentFull,
    TournamentRow,
    TournamentStatus,
)
from engine import GameConfig
from history.ratings import is_provisional
from service.clock import Clock, system_clock
from service.deadlines import TURN_TIMER
from service.errors import ServiceError
from service.games import GameService, GameSession
from tournament import (
    MAX_ENTRANTS,
    MIN_ENTRANTS,
    Entrant,
    Seeded,
    Standing,
    TableResult,
    first_round,
    next_round,
    opponents_met,
    standings,
)

__all__ = [
    "DEFAULT_ROUNDS",
    "KIND",
    "LOOK_SECONDS",
    "MAX_ROUNDS",
    "ROUND_PAUSE",
    "TOURNAMENT_KEY",
    "Progress",
    "Step",
    "TournamentService",
    "TournamentView",
]

log = logging.getLogger("hats.tournaments")

KIND = "tournament"
"""The tournament's one deadline kind (owned by the tournament): look at it and advance it."""
ROUND_PAUSE = 60.0
"""Seconds between a round's last game end and the next round (the host may start sooner)."""
LOOK_SECONDS = 60.0
"""Seconds between two looks at a running round (a game's end also brings the look forward)."""
MIN_ROUNDS = 1
MAX_ROUNDS = 7
DEFAULT_ROUNDS = 3
TOURNAMENT_KEY = "tournament"
"""Game settings key: ``{"id", "round", "table"}`` of a tournament game (its thread's name)."""
NAME_LIMIT = 80
"""Most characters of a tournament's name (a thread or event name must stay short)."""


class Step(enum.StrEnum):
    """What :meth:`TournamentService.advance` did (or owes the caller)."""

    WAITING = "waiting"  # nothing due yet (deadline set again)
    STARTED = "started"  # a round was just stored: create its tables' games
    TABLES = "tables"  # tables of the current round still lack their game: create them
    FINISHED = "finished"  # the tournament just ended: show the final standings
    CANCELLED = "cancelled"  # called off (too few entrants at the timed start)
    OVER = "over"  # already finished or cancelled: nothing to do


@dataclass(frozen=True, slots=True)
class Progress:
    """The outcome of :meth:`TournamentService.advance`: the step and the stored tournament.

    ``tables``: the current round's tables still without a game (``STARTED``, ``TABLES``).
    """

    step: Step
    tournament: TournamentRow
    tables: tuple[TableRow, ...] = ()


@dataclass(frozen=True, slots=True)
class TournamentView:
    """Everything shown about a tournament: the row, its entrants, tables and standings."""

    tournament: TournamentRow
    entrants: tuple[EntrantRow, ...]
    tables: tuple[TableRow, ...]
    results: tuple[TableResult, ...]
    standings: tuple[Standing, ...]

    def round_tables(self, round: int) -> list[TableRow]:
        """The tables of ``round``, table 1 first."""
        return [t for t in self.tables if t.round == round]

    @property
    def active_players(self) -> list[int]:
        """Entrants not dropped, in sign-up order."""
        return [e.user_id for e in self.entrants if not e.dropped]


def table_results(rows: Sequence[Any]) -> list[TableResult]:
    """:class:`tournament.TableResult` for each ``data.TableResultRow``."""
    return [TableResult(r.round, r.tab, r.players, r.places, r.totals) for r in rows]


class TournamentService:
    """Tournaments over ``games`` (:class:`GameService`) and its store.

    ``pool``: where the Swiss search runs (CPU work off the event loop; None: the loop's
    default executor); ``clock()``: unix seconds (the bot hands in discord.py's clock).
    """

    def __init__(
        self,
        games: GameService,
        *,
        clock: Clock = system_clock,
        pool: Executor | None = None,
        max_games: Callable[[], int | None] = lambda: None,
    ) -> None:
        self.games = games
        self.store: Store = games.store
        self.clock = clock
        self.pool = pool
        self.max_games = max_games
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # ------------------------------------------------------------------ reading
    async def view(self, tournament_id: int) -> TournamentView | None:
        """The tournament as the store holds it, with its standings, or None."""
        row = await self.store.tournaments.get(tournament_id)
        if row is None:
            return None
        entrants = await self.store.tournaments.entrants(tournament_id)
        tables = await self.store.tournaments.tables(tournament_id)
        results = table_results(await self.store.tournaments.results(tournament_id))
        table = standings(
            [Entrant(e.user_id, e.signup, e.dropped) for e in entrants],
            [r for r in results if all(p in {e.user_id for e in entrants} for p in r.players)],
        )
        return TournamentView(row, tuple(entrants), tuple(tables), tuple(results), tuple(table))

    # ------------------------------------------------------------------ sign-up
    async def open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        name: str,
        *,
        rounds: int = DEFAULT_ROUNDS,
        turn_timer: float | None = None,
        start_at: float | None = None,
    ) -> TournamentRow:
        """Open a tournament in ``channel_id`` with its host signed up.

        ``rounds`` 1–7; ``turn_timer`` seconds (None: no timer); ``start_at`` unix seconds in
        the future or None (the host starts it). Raises ServiceError for rounds out of range,
        a start in the past or a channel that has a tournament already (nothing stored).
        """
        if not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
            raise ServiceError(
                "A tournament has {low} to {high} rounds; you asked for {n}.",
                low=MIN_ROUNDS,
                high=MAX_ROUNDS,
                n=rounds,
            )
        now = self.clock()
        if start_at is not None and start_at <= now:
            raise ServiceError("That start time is in the past. Give a time later than now.")
        name = " ".join(name.split())[:NAME_LIMIT] or "Hats"
        settings = {TURN_TIMER: turn_timer}
        timers = [TimerChange(KIND, start_at)] if start_at is not None else []
        try:
            row = await self.store.tournaments.create(
                guild_id,
                channel_id,
                host_id,
                name,
                rounds,
                settings,
                start_at=start_at,
                timers=timers,
                at=now,
            )
        except TournamentBusy:
            raise ServiceError(
                "This channel already has a tournament. Finish or cancel it first, "
                "or use another channel."
            ) from None
        await self.join(row.id, host_id)
        return row

    async def join(self, tournament_id: int, user_id: int) -> bool:
        """Sign ``user_id`` up (their server rating seeds round 1); False if already in.

        Raises ServiceError when the tournament has started or ended, is full (64), or the
        player already plays the most live games allowed (``max_games``).
        """
        row = await self.store.tournaments.get(tournament_id)
        if row is None or row.status is not TournamentStatus.OPEN:
            raise ServiceError("This tournament has already started or ended; sign-up is closed.")
        limit = self.max_games()
        if limit is not None:
            live = await self.store.games.live_ids_of_user(user_id, practice=False)
            if len(live) >= limit:
                raise ServiceError(
                    "You already play {n} games, the most at once. Finish one first.", n=len(live)
                )
        rating = await self.store.history.rating(user_id, row.guild_id)
        spec = EntrantSpec(
            user_id,
            rating.ordinal if rating is not None else 0.0,
            rating is None or is_provisional(rating.games),
        )
        try:
            return await self.store.tournaments.join(
                tournament_id, spec, limit=MAX_ENTRANTS, at=self.clock()
            )
        except TournamentClosed:
            raise ServiceError(
                "This tournament has already started or ended; sign-up is closed."
            ) from None
        except TournamentFull:
            raise ServiceError("This tournament is full ({n} players).", n=MAX_ENTRANTS) from None

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        """Leave the tournament (a player's own choice).

        Before the start the sign-up is removed; after it the player drops out of later rounds
        (their games so far count). False when not an entrant (or already dropped).
        """
        row = await self.store.tournaments.get(tournament_id)
        if row is None or not row.status.active:
            raise ServiceError("This tournament is over.")
        if row.status is TournamentStatus.OPEN:
            try:
                return await self.store.tournaments.withdraw(
                    tournament_id, user_id, at=self.clock()
                )
            except TournamentClosed:
                pass  # started meanwhile: drop instead
        return await self.store.tournaments.drop(tournament_id, user_id, at=self.clock())

    async def drop(self, tournament_id: int, by: int, player: int, *, manager: bool) -> bool:
        """The host (or a server manager, ``manager``) drops ``player`` from later rounds.

        Raises ServiceError for anyone else or before the start (then Leave is the way).
        """
        row = await self.store.tournaments.get(tournament_id)
        if row is None or not row.status.active:
            raise ServiceError("This tournament is over.")
        if by != row.host_id and not manager:
            raise ServiceError("Only the host or a server manager can drop a player.")
        if row.status is TournamentStatus.OPEN:
            return await self.store.tournaments.withdraw(tournament_id, player, at=self.clock())
        return await self.store.tournaments.drop(tournament_id, player, at=self.clock())

    async def cancel(self, tournament_id: int, by: int, *, manager: bool) -> TournamentRow:
        """The host (or a manager) calls the tournament off (games already running play on).

        Raises ServiceError for anyone else or when it is over.
        """
        row = await self.store.tournaments.get(tournament_id)
        if row is None or not row.status.active:
            raise ServiceError("This tournament is over.")
        if by != row.host_id and not manager:
            raise ServiceError("Only the host or a server manager can cancel the tournament.")
        await self.store.tournaments.cancel(tournament_id, at=self.clock())
        done = await self.store.tournaments.get(tournament_id)
        assert done is not None
        return done

    # ------------------------------------------------------------------ rounds
    async def start(self, tournament_id: int, by: int, *, manager: bool) -> Progress:
        """The host starts the tournament, or the next round during a pause; see :meth:`advance`.

        Raises ServiceError for anyone else, too few entrants, or games still running.
        """
        row = await self.store.tournaments.get(tournament_id)
        if row is None or not row.status.active:
            raise ServiceError("This tournament is over.")
        if by != row.host_id and not manager:
            raise ServiceError("Only the host or a server manager can start the tournament.")
        if row.status is TournamentStatus.OPEN:
            count = len(await self.store.tournaments.entrants(tournament_id))
            if count < MIN_ENTRANTS:
                raise ServiceError(
                    "A tournament needs at least {low} players; {n} signed up.",
                    low=MIN_ENTRANTS,
                    n=count,
                )
        progress = await self.advance(tournament_id, now_ok=True)
        if progress.step is Step.WAITING:
            raise ServiceError("The games of this round are still being played.")
        return progress

    async def advance(self, tournament_id: int, *, now_ok: bool = False) -> Progress:
        """Do the tournament's next owed step, judged on the store (idempotent; see module).

        ``now_ok``: the host asked (the start time and the pause are not waited for).
        Raises StoreError when the store fails (nothing half-done: the deadline fires again).
        """
        async with self._lock(tournament_id):
            row = await self.store.tournaments.get(tournament_id)
            if row is None or not row.status.active:
                return (
                    Progress(Step.OVER, row) if row else Progress(Step.OVER, _gone(tournament_id))
                )
            now = self.clock()
            if row.status is TournamentStatus.OPEN:
                return await self._open_step(row, now, now_ok)
            tables = await self.store.tournaments.tables(tournament_id, row.round)
            missing = tuple(t for t in tables if t.game_id is None)
            if missing:
                return Progress(Step.TABLES, row, missing)
            if any(t.game_status == "live" for t in tables):
                await self._look_again(row, now + LOOK_SECONDS)
                return Progress(Step.WAITING, row)
            ended = await self._round_ended_at(tables)
            last = row.round >= row.rounds  # the final standings come at once
            if not now_ok and not last and now < ended + ROUND_PAUSE:
                await self._look_again(row, ended + ROUND_PAUSE)
                return Progress(Step.WAITING, row)
            view = await self.view(tournament_id)
            assert view is not None
            active = view.active_players
            if row.round >= row.rounds or len(active) < 2:
                winner = view.standings[0].player if view.standings else None
                await self.store.tournaments.finish(tournament_id, winner, at=now)
                return Progress(Step.FINISHED, await self._row(tournament_id))
            order = [s.player for s in view.standings if not s.dropped]
            met = opponents_met(view.results)
            grouping = await self._run(next_round, order, met)
            return await self._store_round(row, row.round + 1, grouping, now)

    async def _open_step(self, row: TournamentRow, now: float, now_ok: bool) -> Progress:
        if not now_ok and (row.start_at is None or now < row.start_at):
            if row.start_at is not None:
                await self._look_again(row, row.start_at)
            return Progress(Step.WAITING, row)
        entrants = await self.store.tournaments.entrants(row.id)
        if len(entrants) < MIN_ENTRANTS:
            await self.store.tournaments.cancel(row.id, at=now)
            return Progress(Step.CANCELLED, await self._row(row.id))
        seeded = [Seeded(e.user_id, e.rating, e.provisional, e.signup) for e in entrants]
        grouping = await self._run(first_round, seeded)
        return await self._store_round(row, 1, grouping, now)

    async def _store_round(
        self, row: TournamentRow, round: int, grouping: Sequence[Sequence[int]], now: float
    ) -> Progress:
        look = [TimerChange(KIND, now + LOOK_SECONDS)]
        await self.store.tournaments.start_round(row.id, round, grouping, timers=look, at=now)
        fresh = await self._row(row.id)
        tables = await self.store.tournaments.tables(row.id, fresh.round)
        missing = tuple(t for t in tables if t.game_id is None)
        step = Step.STARTED if fresh.round == round else Step.TABLES
        return Progress(step, fresh, missing)

    async def _round_ended_at(self, tables: Sequence[TableRow]) -> float:
        ends = []
        for t in tables:
            if t.game_id is not None:
                game = await self.store.games.get_game(t.game_id)
                if game is not None and game.finished_at is not None:
                    ends.append(game.finished_at)
        return max(ends, default=0.0)

    async def _look_again(self, row: TournamentRow, due_at: float) -> None:
        await self.store.tournaments.set_timers(row.id, [TimerChange(KIND, due_at)])

    async def look_at(self, tournament_id: int, due_at: float) -> bool:
        """Set the tournament's deadline to ``due_at`` (unix seconds); False once it is over.

        The caller (the bot) uses it to have the deadline runner, which one process claims,
        do the next step now (``due_at`` = now) or to look again later.
        """
        return await self.store.tournaments.set_timers(tournament_id, [TimerChange(KIND, due_at)])

    async def game_over(self, game_id: int) -> int | None:
        """A game ended: if it is a tournament game, bring the tournament's look forward.

        Returns the tournament id (the caller may call :meth:`advance` at once), else None.
        """
        table = await self.store.tournaments.table_of_game(game_id)
        if table is None:
            return None
        row = await self.store.tournaments.get(table.tournament_id)
        if row is None or row.status is not TournamentStatus.RUNNING:
            return None
        await self._look_again(row, self.clock())
        return row.id

    async def start_table(
        self, table: TableRow, thread_id: int, guild_id: int
    ) -> tuple[GameSession, bool]:
        """Create ``table``'s game in its thread ``thread_id`` (idempotent: one per table).

        Every seat is its player's (an absent one is played by the AI as in any game).
        Returns the session and whether it was created now (then fire ``hats_outbox``).
        Raises ServiceError when the tournament is over, StoreError when the store fails.
        """
        row = await self._row(table.tournament_id)
        config = GameConfig(len(table.players), self.games.seed_source())
        settings: dict[str, Any] = {
            TURN_TIMER: row.settings.get(TURN_TIMER),
            TOURNAMENT_KEY: {"id": row.id, "round": table.round, "table": table.tab},
        }
        try:
            game, created = await self.store.tournaments.create_table_game(
                row.id,
                table.round,
                table.tab,
                guild_id=guild_id,
                thread_id=thread_id,
                config=config.to_dict(),
                seats=[SeatSpec(user_id=p) for p in table.players],
                settings=settings,
                at=self.clock(),
            )
        except (TournamentClosed, ChannelBusy):
            raise ServiceError("This tournament is over.") from None
        session = await self.games.session(game.id)
        if session is None:  # pragma: no cover - just created
            raise ServiceError("This tournament is over.")
        return session, created

    async def set_thread(self, table: TableRow, thread_id: int) -> None:
        """Remember a table's thread before its game is created."""
        await self.store.tournaments.set_thread(
            table.tournament_id, table.round, table.tab, thread_id
        )

    async def _row(self, tournament_id: int) -> TournamentRow:
        row = await self.store.tournaments.get(tournament_id)
        if row is None:
            raise ServiceError("This tournament is over.")
        return row

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run the pairing ``fn(*args)`` in the pool (CPU work off the event loop)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, fn, *args)


def _gone(tournament_id: int) -> TournamentRow:
    """A placeholder row for a tournament the store no longer holds."""
    return TournamentRow(
        tournament_id, 0, 0, 0, "", 0, {}, None, TournamentStatus.CANCELLED, 0,
        None, None, None, 0.0, 0.0, None,
    )  # fmt: skip
