"""Swiss tournaments (``/hats tournament``): the tournament, its entrants, its rounds' tables.

Every change is one transaction, committed before anyone is told. A round's tables are stored
at once (:meth:`Tournaments.start_round`, idempotent: a round already stored is not stored
again), then each table's game is created in the same transaction that records it on its
table (:meth:`Tournaments.create_table_game`, idempotent: a table holds one game). The
tournament's deadlines (its timed start, its round starts) are timers owned by the tournament
(``timers.tournament_id``), written in the same transactions (``TimerChange``).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from data import jsoncodec
from data.db import Database, Transaction
from data.errors import ChannelBusy, ConstraintViolated, StoreError
from data.games import GAME_COLUMNS, checked_config, game_row, insert_game
from data.lobbies import is_channel_conflict
from data.outbox import OutboxKind, add_item
from data.rows import GameRow, SeatSpec, TimerChange
from data.timers import write_timer_changes

__all__ = [
    "ENTRANT_COLUMNS",
    "TABLE_COLUMNS",
    "TOURNAMENT_COLUMNS",
    "EntrantRow",
    "EntrantSpec",
    "NoticeKind",
    "TableResultRow",
    "TableRow",
    "TournamentBusy",
    "TournamentClosed",
    "TournamentFull",
    "TournamentRow",
    "TournamentStatus",
    "Tournaments",
]

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, host_id, name, rounds, settings, start_at, status, round,"
    " message_id, event_id, winner_id, created_at, updated_at, finished_at"
)
ENTRANT_COLUMNS = "tournament_id, user_id, signup, rating, provisional, dropped, joined_at"
TABLE_COLUMNS = "t.tournament_id, t.round, t.tab, t.players, t.thread_id, t.game_id, g.status"


class NoticeKind(enum.StrEnum):
    """An announcement a tournament owes once (``tournament_notices``, migration 0012)."""

    ROUND = "round"
    """A round's tables and their threads (per round)."""
    PAUSE = "pause"
    """A round is over; the next one starts after the pause (per round)."""
    FINAL = "final"
    """The final standings (round 0)."""
    CANCELLED = "cancelled"
    """The tournament was called off (round 0)."""


class TournamentStatus(enum.StrEnum):
    """Where a tournament stands: sign-up, rounds being played, over, or called off."""

    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def active(self) -> bool:
        """True while open or running (one active tournament per channel)."""
        return self in (TournamentStatus.OPEN, TournamentStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament: where, who hosts it, its name, rounds (1–7) and settings (``turn_timer``).

    ``start_at``: the timed start (unix seconds) or None; ``round``: the round being played (0
    before the start); ``message_id``: the sign-up message; ``event_id``: the guild scheduled
    event; ``winner_id``: set when finished; times in unix seconds.
    """

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    name: str
    rounds: int
    settings: dict[str, Any]
    start_at: float | None
    status: TournamentStatus
    round: int
    message_id: int | None
    event_id: int | None
    winner_id: int | None
    created_at: float
    updated_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A signed-up player.

    ``signup`` 0 for the first to join; ``rating``/``provisional`` as seen at sign-up (round
    1's seeding); ``dropped``: out of later rounds.
    """

    tournament_id: int
    user_id: int
    signup: int
    rating: float
    provisional: bool
    dropped: bool
    joined_at: float


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table of a round.

    ``tab`` 1 = the top table, ``players`` by seat; ``thread_id`` and ``game_id`` once its game
    exists; ``game_status`` ('live', 'finished', 'abandoned') or None before that.
    """

    tournament_id: int
    round: int
    tab: int
    players: tuple[int, ...]
    thread_id: int | None
    game_id: int | None
    game_status: str | None


@dataclass(frozen=True, slots=True)
class TableResultRow:
    """A finished table's result: per seat the player, the game's place and total."""

    round: int
    tab: int
    game_id: int
    players: tuple[int, ...]
    places: tuple[int, ...]
    totals: tuple[int, ...]


class TournamentBusy(StoreError):
    """The channel already has an open or running tournament."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        super().__init__(f"channel {channel_id} already has an open or running tournament")


class TournamentClosed(StoreError):
    """The tournament is not open for sign-up (started, finished, cancelled, or unknown)."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"tournament {tournament_id} is not open for sign-up")


class TournamentFull(StoreError):
    """The tournament has its maximum of entrants."""

    def __init__(self, tournament_id: int, limit: int) -> None:
        self.tournament_id = tournament_id
        self.limit = limit
        super().__init__(f"tournament {tournament_id} already has {limit} entrants")


def tournament_row(r: Sequence[Any]) -> TournamentRow:
    """A :class:`TournamentRow` from a row selected with :data:`TOURNAMENT_COLUMNS`."""
    return TournamentRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        host_id=r[3],
        name=r[4],
        rounds=r[5],
        settings=jsoncodec.loads_object(r[6]),
        start_at=r[7],
        status=TournamentStatus(r[8]),
        round=r[9],
        message_id=r[10],
        event_id=r[11],
        winner_id=r[12],
        created_at=r[13],
        updated_at=r[14],
        finished_at=r[15],
    )


def entrant_row(r: Sequence[Any]) -> EntrantRow:
    """An :class:`EntrantRow` from a row selected with :data:`ENTRANT_COLUMNS`."""
    return EntrantRow(r[0], r[1], r[2], float(r[3]), bool(r[4]), bool(r[5]), r[6])


def table_row(r: Sequence[Any]) -> TableRow:
    """A :class:`TableRow` from a row selected with :data:`TABLE_COLUMNS`."""
    players = tuple(int(p) for p in jsoncodec.loads_list(r[3]))
    return TableRow(r[0], r[1], r[2], players, r[4], r[5], r[6])


_FROM_TABLES = "FROM tournament_tables t LEFT JOIN games g ON g.id = t.game_id"


@dataclass(frozen=True, slots=True)
class EntrantSpec:
    """A player signing up: their server rating and whether it is provisional."""

    user_id: int
    rating: float = 0.0
    provisional: bool = True


class Tournaments:
    """Repository of ``tournaments``, ``tournament_entrants`` and ``tournament_tables``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # ------------------------------------------------------------------ reading
    async def get(self, tournament_id: int) -> TournamentRow | None:
        """The tournament, or None."""
        row = await self._db.fetch_one(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return tournament_row(row) if row else None

    async def active_in_channel(self, channel_id: int) -> TournamentRow | None:
        """The channel's open or running tournament, or None."""
        row = await self._db.fetch_one(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE channel_id = ?"
            " AND status IN ('open', 'running')",
            (channel_id,),
        )
        return tournament_row(row) if row else None

    async def latest_in_channel(self, channel_id: int) -> TournamentRow | None:
        """The channel's newest tournament of any status, or None."""
        row = await self._db.fetch_one(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE channel_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return tournament_row(row) if row else None

    async def list_active(self) -> list[TournamentRow]:
        """Every open or running tournament, oldest first (checked again after a restart)."""
        rows = await self._db.fetch_all(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments"
            " WHERE status IN ('open', 'running') ORDER BY id"
        )
        return [tournament_row(r) for r in rows]

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """The entrants in sign-up order (dropped ones too)."""
        rows = await self._db.fetch_all(
            f"SELECT {ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = ?"
            " ORDER BY signup",
            (tournament_id,),
        )
        return [entrant_row(r) for r in rows]

    async def tables(self, tournament_id: int, round: int | None = None) -> list[TableRow]:
        """The tables of every round (or of ``round``), by round then table."""
        sql = f"SELECT {TABLE_COLUMNS} {_FROM_TABLES} WHERE t.tournament_id = ?"
        params: tuple[Any, ...] = (tournament_id,)
        if round is not None:
            sql += " AND t.round = ?"
            params += (round,)
        rows = await self._db.fetch_all(sql + " ORDER BY t.round, t.tab", params)
        return [table_row(r) for r in rows]

    async def table_of_game(self, game_id: int) -> TableRow | None:
        """The tournament table whose game is ``game_id``, or None for any other game."""
        row = await self._db.fetch_one(
            f"SELECT {TABLE_COLUMNS} {_FROM_TABLES} WHERE t.game_id = ?", (game_id,)
        )
        return table_row(row) if row else None

    async def results(self, tournament_id: int) -> list[TableResultRow]:
        """The results of every finished table, by round then table (seats in order)."""
        rows = await self._db.fetch_all(
            "SELECT t.round, t.tab, t.game_id, r.seat, r.user_id, r.place, r.total"
            " FROM tournament_tables t JOIN games g ON g.id = t.game_id"
            " JOIN results r ON r.game_id = t.game_id"
            " WHERE t.tournament_id = ? AND g.status = 'finished'"
            " ORDER BY t.round, t.tab, r.seat",
            (tournament_id,),
        )
        grouped: dict[tuple[int, int], list[Any]] = {}
        for r in rows:
            grouped.setdefault((r[0], r[1]), []).append(r)
        out = []
        for (rnd, tab), seats in grouped.items():
            out.append(
                TableResultRow(
                    rnd,
                    tab,
                    seats[0][2],
                    tuple(int(s[4]) for s in seats),
                    tuple(int(s[5]) for s in seats),
                    tuple(int(s[6]) for s in seats),
                )
            )
        return out

    async def of_user(self, user_id: int, *, guild_id: int | None = None) -> list[TournamentRow]:
        """The tournaments ``user_id`` entered (newest first), in one guild or all."""
        sql = (
            f"SELECT {', '.join('x.' + c.strip() for c in TOURNAMENT_COLUMNS.split(','))}"
            " FROM tournaments x JOIN tournament_entrants e ON e.tournament_id = x.id"
            " WHERE e.user_id = ?"
        )
        params: tuple[Any, ...] = (user_id,)
        if guild_id is not None:
            sql += " AND x.guild_id = ?"
            params += (guild_id,)
        rows = await self._db.fetch_all(sql + " ORDER BY x.id DESC", params)
        return [tournament_row(r) for r in rows]

    async def of_guild(self, guild_id: int, *, limit: int = 25) -> list[TournamentRow]:
        """The server's tournaments, newest first (at most ``limit``)."""
        rows = await self._db.fetch_all(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = ?"
            " ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [tournament_row(r) for r in rows]

    async def user_stats(self, user_id: int, *, guild_id: int | None = None) -> tuple[int, int]:
        """``(played, won)``: finished tournaments ``user_id`` entered, and those they won."""
        sql = (
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN x.winner_id = ? THEN 1 ELSE 0 END), 0)"
            " FROM tournaments x JOIN tournament_entrants e ON e.tournament_id = x.id"
            " WHERE e.user_id = ? AND x.status = 'finished'"
        )
        params: tuple[Any, ...] = (user_id, user_id)
        if guild_id is not None:
            sql += " AND x.guild_id = ?"
            params += (guild_id,)
        row = await self._db.fetch_one(sql, params)
        return (int(row[0]), int(row[1])) if row else (0, 0)

    async def ended_unannounced(self) -> list[TournamentRow]:
        """Finished or cancelled tournaments whose final or cancelled notice is not posted.

        Oldest first (after a restart, the bot posts what is still owed).
        """
        rows = await self._db.fetch_all(
            f"SELECT {', '.join('x.' + c.strip() for c in TOURNAMENT_COLUMNS.split(','))}"
            " FROM tournaments x WHERE x.status IN ('finished', 'cancelled')"
            " AND NOT EXISTS (SELECT 1 FROM tournament_notices n WHERE n.tournament_id = x.id"
            " AND n.kind = x.status AND n.posted_at IS NOT NULL) ORDER BY x.id"
        )
        return [tournament_row(r) for r in rows]

    # ------------------------------------------------------------------ notices
    async def posted_notices(self, tournament_id: int) -> dict[tuple[str, int], int | None]:
        """The posted announcements: ``(kind, round) -> message id`` (None: nothing kept)."""
        rows = await self._db.fetch_all(
            "SELECT kind, round, message_id FROM tournament_notices"
            " WHERE tournament_id = ? AND posted_at IS NOT NULL",
            (tournament_id,),
        )
        return {(r[0], int(r[1])): r[2] for r in rows}

    async def claim_notice(
        self,
        tournament_id: int,
        kind: NoticeKind,
        round: int,
        claimer: str,
        *,
        now: float,
        lease: float,
    ) -> bool:
        """Claim the announcement ``(kind, round)`` for ``lease`` seconds; False if not ours.

        One statement: of two processes exactly one wins; False also once it is posted. A
        claim whose lease ran out (its process died) can be taken over; the same claimer may
        claim again. ``now``/``lease`` in (unix) seconds.
        """
        row = await self._db.fetch_one(
            "INSERT INTO tournament_notices (tournament_id, kind, round, claimed_by,"
            " claimed_until) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (tournament_id, kind, round) DO UPDATE SET"
            " claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until"
            " WHERE tournament_notices.posted_at IS NULL"
            " AND (tournament_notices.claimed_until <= ? OR tournament_notices.claimed_by = ?)"
            " RETURNING tournament_id",
            (tournament_id, kind.value, round, claimer, now + lease, now, claimer),
        )
        return row is not None

    async def mark_notice(
        self,
        tournament_id: int,
        kind: NoticeKind,
        round: int,
        message_id: int | None,
        *,
        at: float,
    ) -> bool:
        """Mark the announcement posted (``message_id``: the message, if any); False if it was."""
        row = await self._db.fetch_one(
            "UPDATE tournament_notices SET posted_at = ?, message_id = ?"
            " WHERE tournament_id = ? AND kind = ? AND round = ? AND posted_at IS NULL"
            " RETURNING tournament_id",
            (at, message_id, tournament_id, kind.value, round),
        )
        return row is not None

    # ------------------------------------------------------------------ writing
    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        name: str,
        rounds: int,
        settings: Mapping[str, Any] | None = None,
        *,
        start_at: float | None = None,
        timers: Sequence[TimerChange] = (),
        at: float | None = None,
    ) -> TournamentRow:
        """Open a tournament for sign-up; ``timers`` (its timed start) in the same transaction.

        Raises TournamentBusy when the channel has an open or running tournament (nothing
        written), ValueError for rounds below 1.
        """
        if rounds < 1:
            raise ValueError(f"a tournament has at least 1 round, got {rounds}")
        now = time.time() if at is None else at
        try:
            async with self._db.write() as tx:
                row = await tx.one(
                    "INSERT INTO tournaments (guild_id, channel_id, host_id, name, rounds,"
                    " settings, start_at, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    f" RETURNING {TOURNAMENT_COLUMNS}",
                    (
                        guild_id,
                        channel_id,
                        host_id,
                        name,
                        rounds,
                        jsoncodec.dumps(dict(settings or {})),
                        start_at,
                        now,
                        now,
                    ),
                )
                assert row is not None
                created = tournament_row(row)
                await write_timer_changes(tx, created.id, timers, column="tournament_id")
        except ConstraintViolated as exc:
            if exc.names("tournaments.channel_id", "tournaments_open_channel"):
                raise TournamentBusy(channel_id) from exc
            raise
        return created

    async def _locked(self, tx: Transaction, tournament_id: int) -> TournamentRow | None:
        row = await tx.one(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?"
            f"{self._db.dialect.for_update}",
            (tournament_id,),
        )
        return tournament_row(row) if row else None

    async def join(
        self, tournament_id: int, entrant: EntrantSpec, *, limit: int, at: float | None = None
    ) -> bool:
        """Sign ``entrant`` up (next sign-up number); False when already signed up.

        Raises TournamentClosed unless the tournament is open, TournamentFull at ``limit``
        entrants (nothing written either way).
        """
        now = time.time() if at is None else at
        async with self._db.write() as tx:
            row = await self._locked(tx, tournament_id)
            if row is None or row.status is not TournamentStatus.OPEN:
                raise TournamentClosed(tournament_id)
            counts = await tx.one(
                "SELECT COUNT(*), COALESCE(MAX(signup), -1),"
                " SUM(CASE WHEN user_id = ? THEN 1 ELSE 0 END)"
                " FROM tournament_entrants WHERE tournament_id = ?",
                (entrant.user_id, tournament_id),
            )
            assert counts is not None
            if counts[2]:
                return False
            if counts[0] >= limit:
                raise TournamentFull(tournament_id, limit)
            await tx.run(
                "INSERT INTO tournament_entrants (tournament_id, user_id, signup, rating,"
                " provisional, joined_at) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    tournament_id,
                    entrant.user_id,
                    int(counts[1]) + 1,
                    float(entrant.rating),
                    int(entrant.provisional),
                    now,
                ),
            )
            await self._touch(tx, tournament_id, now)
        return True

    async def withdraw(self, tournament_id: int, user_id: int, *, at: float | None = None) -> bool:
        """Remove a sign-up before the start; False when not signed up.

        Raises TournamentClosed unless the tournament is open (after the start a player drops).
        """
        now = time.time() if at is None else at
        async with self._db.write() as tx:
            row = await self._locked(tx, tournament_id)
            if row is None or row.status is not TournamentStatus.OPEN:
                raise TournamentClosed(tournament_id)
            gone = await tx.one(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?"
                " RETURNING user_id",
                (tournament_id, user_id),
            )
            if gone is not None:
                await self._touch(tx, tournament_id, now)
        return gone is not None

    async def drop(self, tournament_id: int, user_id: int, *, at: float | None = None) -> bool:
        """Take a player out of later rounds (kept in the standings).

        False when not an entrant or already dropped.
        """
        now = time.time() if at is None else at
        async with self._db.write() as tx:
            done = await tx.one(
                "UPDATE tournament_entrants SET dropped = 1 WHERE tournament_id = ?"
                " AND user_id = ? AND dropped = 0 RETURNING user_id",
                (tournament_id, user_id),
            )
            if done is not None:
                await self._touch(tx, tournament_id, now)
        return done is not None

    async def _touch(self, tx: Transaction, tournament_id: int, now: float) -> None:
        await tx.run("UPDATE tournaments SET updated_at = ? WHERE id = ?", (now, tournament_id))

    async def set_message_id(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message."""
        await self._db.fetch_one(
            "UPDATE tournaments SET message_id = ? WHERE id = ? RETURNING id",
            (message_id, tournament_id),
        )

    async def set_event_id(self, tournament_id: int, event_id: int | None) -> None:
        """Remember the guild scheduled event."""
        await self._db.fetch_one(
            "UPDATE tournaments SET event_id = ? WHERE id = ? RETURNING id",
            (event_id, tournament_id),
        )

    async def start_round(
        self,
        tournament_id: int,
        round: int,
        tables: Sequence[Sequence[int]],
        *,
        timers: Sequence[TimerChange] = (),
        at: float | None = None,
    ) -> bool:
        """Store round ``round``'s tables and make it the current round (one transaction).

        Idempotent: False (nothing written) when the tournament is past ``round - 1`` already
        or is not open (round 1) / running (later rounds). ``timers``: the tournament's
        deadline changes written with it.
        """
        now = time.time() if at is None else at
        async with self._db.write() as tx:
            row = await self._locked(tx, tournament_id)
            expected = TournamentStatus.OPEN if round == 1 else TournamentStatus.RUNNING
            if row is None or row.status is not expected or row.round != round - 1:
                return False
            await tx.many(
                "INSERT INTO tournament_tables (tournament_id, round, tab, players)"
                " VALUES (?, ?, ?, ?)",
                [
                    (tournament_id, round, tab, jsoncodec.dumps([int(p) for p in players]))
                    for tab, players in enumerate(tables, 1)
                ],
            )
            await tx.run(
                "UPDATE tournaments SET status = 'running', round = ?, updated_at = ? WHERE id = ?",
                (round, now, tournament_id),
            )
            await write_timer_changes(tx, tournament_id, timers, column="tournament_id")
        return True

    async def set_thread(self, tournament_id: int, round: int, tab: int, thread_id: int) -> None:
        """Remember a table's thread before its game is created (a retry reuses it)."""
        await self._db.fetch_one(
            "UPDATE tournament_tables SET thread_id = ? WHERE tournament_id = ? AND round = ?"
            " AND tab = ? AND game_id IS NULL RETURNING tab",
            (thread_id, tournament_id, round, tab),
        )

    async def create_table_game(
        self,
        tournament_id: int,
        round: int,
        tab: int,
        *,
        guild_id: int,
        thread_id: int,
        config: Mapping[str, Any],
        seats: Sequence[SeatSpec],
        settings: Mapping[str, Any],
        at: float | None = None,
    ) -> tuple[GameRow, bool]:
        """Create the table's game in ``thread_id`` and record it on the table, atomically.

        Returns ``(game, created)``: ``created`` False when the table already had its game
        (that game is returned; idempotent). The outbox item ``start`` is written with it.
        Raises ChannelBusy when the thread already holds another live game, TournamentClosed
        when the table does not exist or its tournament is not running.
        """
        config_json = checked_config(config, seats)
        now = time.time() if at is None else at
        try:
            async with self._db.write() as tx:
                row = await self._locked(tx, tournament_id)
                if row is None or row.status is not TournamentStatus.RUNNING:
                    raise TournamentClosed(tournament_id)
                table = await tx.one(
                    "SELECT game_id FROM tournament_tables WHERE tournament_id = ?"
                    " AND round = ? AND tab = ?",
                    (tournament_id, round, tab),
                )
                if table is None:
                    raise TournamentClosed(tournament_id)
                if table[0] is not None:
                    game = await tx.one(
                        f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (table[0],)
                    )
                    assert game is not None
                    return game_row(game), False
                game_row_ = await insert_game(
                    tx, guild_id, thread_id, config_json, seats, settings, now
                )
                await add_item(tx, game_row_.id, OutboxKind.START, now)
                await tx.run(
                    "UPDATE tournament_tables SET thread_id = ?, game_id = ?"
                    " WHERE tournament_id = ? AND round = ? AND tab = ?",
                    (thread_id, game_row_.id, tournament_id, round, tab),
                )
        except ConstraintViolated as exc:
            if is_channel_conflict(exc):
                raise ChannelBusy(thread_id) from exc
            raise
        return game_row_, True

    async def set_timers(self, tournament_id: int, timers: Sequence[TimerChange]) -> bool:
        """Write the tournament's deadline changes if it is still open or running."""
        async with self._db.write() as tx:
            row = await self._locked(tx, tournament_id)
            if row is None or not row.status.active:
                return False
            await write_timer_changes(tx, tournament_id, timers, column="tournament_id")
        return True

    async def finish(
        self, tournament_id: int, winner_id: int | None, *, at: float | None = None
    ) -> bool:
        """Mark a running tournament finished with its winner; its deadlines are deleted.

        False (nothing written) when it is not running (already finished: idempotent).
        """
        return await self._end(tournament_id, TournamentStatus.FINISHED, winner_id, at)

    async def cancel(self, tournament_id: int, *, at: float | None = None) -> bool:
        """Call off an open or running tournament; its deadlines are deleted.

        False (nothing written) when it is already over.
        """
        return await self._end(tournament_id, TournamentStatus.CANCELLED, None, at)

    async def _end(
        self,
        tournament_id: int,
        status: TournamentStatus,
        winner_id: int | None,
        at: float | None,
    ) -> bool:
        now = time.time() if at is None else at
        async with self._db.write() as tx:
            row = await self._locked(tx, tournament_id)
            if row is None or not row.status.active:
                return False
            if status is TournamentStatus.FINISHED and row.status is not TournamentStatus.RUNNING:
                return False
            await tx.run(
                "UPDATE tournaments SET status = ?, winner_id = ?, finished_at = ?,"
                " updated_at = ? WHERE id = ?",
                (status.value, winner_id, now, now, tournament_id),
            )
            await tx.run("DELETE FROM timers WHERE tournament_id = ?", (tournament_id,))
        return True
