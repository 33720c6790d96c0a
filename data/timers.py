"""Deadlines that survive restarts: turn timers, swap offer lapses (R10), lobby expiry.

Several processes may share the store (PostgreSQL): a due timer is first *claimed* by one of
them for a lease (:meth:`Timers.claim_due`), fired, then *completed* (:meth:`Timers.complete`,
which deletes it). A process that dies before completing leaves a claim whose lease runs out;
another process then claims the timer again, so a deadline still fires: at least once (twice
when a lease runs out before its claimer completes, or a completion is lost in a crash), so the
handlers must be idempotent. A handler that meets a store failure keeps its claim but lets it
be claimed again soon (:meth:`Timers.postpone`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from data import jsoncodec
from data.db import Database, Transaction
from data.rows import SEAT_COLUMNS, SeatRow, TimerChange, TimerRow, seat_row

__all__ = [
    "TIMER_COLUMNS",
    "StepDeadlines",
    "TimerPlan",
    "Timers",
    "check_timer_change",
    "timer_row",
    "write_step_deadlines",
    "write_timer_changes",
    "write_timers_at_step",
]

TIMER_COLUMNS = "id, game_id, lobby_id, kind, seat, due_at, payload, tournament_id"


def _upsert_sql(column: str) -> str:
    """Insert or replace the owner's timer of a kind; a replaced timer loses its claim."""
    return (
        f"INSERT INTO timers ({column}, kind, seat, due_at, payload) VALUES (?, ?, ?, ?, ?)"
        f" ON CONFLICT ({column}, kind) WHERE {column} IS NOT NULL DO UPDATE SET"
        " seat = excluded.seat, due_at = excluded.due_at, payload = excluded.payload,"
        " claimed_by = NULL, claimed_until = NULL"
    )


def check_timer_change(change: TimerChange) -> None:
    """Raise ValueError unless ``change`` has a non-empty kind and a numeric or None due_at."""
    if not isinstance(change.kind, str) or not change.kind:
        raise ValueError(f"a timer kind must be a non-empty str, got {change.kind!r}")
    if change.due_at is not None and not isinstance(change.due_at, int | float):
        raise ValueError(f"due_at must be unix seconds or None, got {change.due_at!r}")


async def write_timer_changes(
    tx: Transaction, game_id: int, changes: Iterable[TimerChange], *, column: str = "game_id"
) -> None:
    """Apply ``changes`` to the game's timers inside the caller's write transaction ``tx``.

    A change with ``due_at`` sets (inserts or replaces, freeing any claim) the game's timer of
    that kind; one with ``due_at`` None deletes it (nothing happens when there is none). Of
    several changes of one kind the last counts. Two calls at most (the deletes, then the
    sets; each one statement, or ``executemany`` for several rows). Raises ValueError for an
    empty kind or a ``due_at`` that is not a number (before anything is written).
    ``column``: the owner's column (``"game_id"``, or ``"tournament_id"`` with ``game_id``
    then the tournament's id).
    """
    if column not in ("game_id", "lobby_id", "tournament_id"):
        raise ValueError(f"unknown timer owner column {column!r}")
    last: dict[str, TimerChange] = {}
    for change in changes:
        check_timer_change(change)
        last[change.kind] = change
    cleared = [(game_id, c.kind) for c in last.values() if c.due_at is None]
    await _run_each(tx, f"DELETE FROM timers WHERE {column} = ? AND kind = ?", cleared)
    set_rows = [
        (game_id, c.kind, c.seat, float(c.due_at), jsoncodec.dumps(dict(c.payload)))
        for c in last.values()
        if c.due_at is not None
    ]
    await _run_each(tx, _upsert_sql(column), set_rows)


async def _run_each(tx: Transaction, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """One statement per row: ``run`` for a single row (one call), ``many`` for several."""
    if len(rows) == 1:
        await tx.run(sql, rows[0])
    elif rows:
        await tx.many(sql, rows)


TimerPlan = Callable[[Mapping[str, TimerRow]], Sequence[TimerChange]]
"""The timer changes owed, given the game's timers as stored (kind -> row): a pure function
called inside the write transaction (``service.deadlines``), so it judges what is held then."""


async def write_timers_at_step(
    tx: Transaction, game_id: int, steps: int, plan: TimerPlan, *, for_update: str
) -> list[TimerChange] | None:
    """Compare-and-set a game's timers on its step count, inside the write transaction ``tx``.

    Locks the game row (``for_update``: the dialect's row lock; on PostgreSQL an append that
    is in flight commits first and is counted, a later one waits for this transaction), then
    writes ``plan(held)`` (see :func:`write_timer_changes`) only if the game is live and holds
    exactly ``steps`` steps. Returns the changes written, or None (nothing written) when the
    game moved on (a newer step wrote its own deadlines), is not live or does not exist: a
    writer that judged an older state never replaces a newer deadline.
    """
    live = await tx.one(f"SELECT status FROM games WHERE id = ?{for_update}", (game_id,))
    if live is None or live[0] != "live":
        return None
    # a statement of its own, after the lock: on PostgreSQL it sees an append that committed
    # while this transaction waited for the row (READ COMMITTED takes a snapshot per statement)
    count = await tx.one("SELECT COUNT(*) FROM steps WHERE game_id = ?", (game_id,))
    if count is None or int(count[0]) != steps:
        return None
    changes = list(plan(await _held_timers(tx, game_id)))
    await write_timer_changes(tx, game_id, changes)
    return changes


async def _held_timers(tx: Transaction, game_id: int) -> dict[str, TimerRow]:
    """The game's timers as stored now (kind -> row), read inside the transaction ``tx``."""
    rows = await tx.all(f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ?", (game_id,))
    return {r.kind: r for r in map(timer_row, rows)}


@dataclass(frozen=True, slots=True)
class StepDeadlines:
    """The deadlines that follow a step, judged on a copy of the game's seats (issue 36.1).

    ``changes`` (see :func:`write_timer_changes`) were judged on ``seats``. Another process may
    have stored a seat change after that copy was read (a player turned away, an AI took a
    seat): then the step's transaction judges again, ``rejudge(stored seats)`` giving the plan
    applied to the timers held then (:data:`TimerPlan`). Both callables are pure.
    """

    seats: tuple[SeatRow, ...]
    changes: tuple[TimerChange, ...]
    rejudge: Callable[[tuple[SeatRow, ...]], TimerPlan]


async def write_step_deadlines(
    tx: Transaction, game_id: int, deadlines: StepDeadlines
) -> tuple[list[TimerChange], tuple[SeatRow, ...] | None]:
    """Write a step's deadlines inside its write transaction ``tx``, judged on the stored seats.

    Reads the game's seats in a statement of its own, after the step's insert (on PostgreSQL
    that insert share-locked the game row, so a seat change is either committed and seen here,
    or waits for this transaction and then finds the step count moved on). When they equal
    ``deadlines.seats`` the judged changes are written (one read more than before); else the
    plan ``deadlines.rejudge(stored)`` is applied to the stored timers. Returns the changes
    written and the stored seats when they differed from the copy (None when equal).
    """
    rows = await tx.all(
        f"SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    stored = tuple(map(seat_row, rows))
    if stored == deadlines.seats:
        changes = list(deadlines.changes)
        await write_timer_changes(tx, game_id, changes)
        return changes, None
    changes = list(deadlines.rejudge(stored)(await _held_timers(tx, game_id)))
    await write_timer_changes(tx, game_id, changes)
    return changes, stored


def timer_row(r: Sequence[Any]) -> TimerRow:
    """A :class:`TimerRow` from a row selected with :data:`TIMER_COLUMNS`."""
    return TimerRow(r[0], r[1], r[2], r[3], r[4], r[5], jsoncodec.loads_object(r[6]), r[7])


def _owner(
    game_id: int | None, lobby_id: int | None, tournament_id: int | None = None
) -> tuple[str, int]:
    owners = [
        (column, value)
        for column, value in (
            ("game_id", game_id),
            ("lobby_id", lobby_id),
            ("tournament_id", tournament_id),
        )
        if value is not None
    ]
    if len(owners) != 1:
        raise ValueError("give exactly one of game_id, lobby_id and tournament_id")
    return owners[0]


class Timers:
    """Repository of ``timers``: at most one timer per (owner, kind).

    Timers of a lobby vanish with the lobby (cancelled or started); a game's timers are cleared
    when it is finished or abandoned.
    """

    def __init__(self, db: Database) -> None:
        self._db = db

    async def set_timer(
        self,
        kind: str,
        due_at: float,
        *,
        game_id: int | None = None,
        lobby_id: int | None = None,
        seat: int | None = None,
        payload: Mapping[str, Any] | None = None,
        tournament_id: int | None = None,
    ) -> TimerRow:
        """Create or replace the owner's ``kind`` timer (e.g. ``"turn"``, ``"swap_offer"``).

        ``due_at`` in unix seconds; exactly one owner (a game, a lobby or a tournament). A
        replaced timer loses its claim (it fires at its new deadline; the old claimer's
        :meth:`complete` returns False). Raises ValueError without exactly one owner,
        ConstraintViolated for an unknown owner (foreign key).
        """
        column, owner = _owner(game_id, lobby_id, tournament_id)
        row = await self._db.fetch_one(
            f"{_upsert_sql(column)} RETURNING {TIMER_COLUMNS}",
            (owner, kind, seat, due_at, jsoncodec.dumps(dict(payload or {}))),
        )
        assert row is not None
        return timer_row(row)

    async def clear_timer(
        self,
        kind: str,
        *,
        game_id: int | None = None,
        lobby_id: int | None = None,
        tournament_id: int | None = None,
    ) -> bool:
        """Remove the owner's ``kind`` timer; False if there was none."""
        column, owner = _owner(game_id, lobby_id, tournament_id)
        row = await self._db.fetch_one(
            f"DELETE FROM timers WHERE {column} = ? AND kind = ? RETURNING id", (owner, kind)
        )
        return row is not None

    async def get_timer(
        self,
        kind: str,
        *,
        game_id: int | None = None,
        lobby_id: int | None = None,
        tournament_id: int | None = None,
    ) -> TimerRow | None:
        """The owner's ``kind`` timer, or None."""
        column, owner = _owner(game_id, lobby_id, tournament_id)
        row = await self._db.fetch_one(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE {column} = ? AND kind = ?", (owner, kind)
        )
        return timer_row(row) if row else None

    async def list_due(self, now: float) -> list[TimerRow]:
        """Timers with ``due_at <= now`` (unix seconds), earliest first."""
        rows = await self._db.fetch_all(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE due_at <= ? ORDER BY due_at, id", (now,)
        )
        return [timer_row(r) for r in rows]

    async def list_all(self) -> list[TimerRow]:
        """Every timer, earliest first (re-arm them all after a restart)."""
        rows = await self._db.fetch_all(f"SELECT {TIMER_COLUMNS} FROM timers ORDER BY due_at, id")
        return [timer_row(r) for r in rows]

    async def claim_due(
        self,
        now: float,
        claimer: str,
        lease: float,
        limit: int = 50,
        *,
        kinds: Sequence[str] | None = None,
    ) -> list[TimerRow]:
        """Claim up to ``limit`` due timers for ``claimer``; return them earliest first.

        A timer is claimable when ``due_at <= now`` (unix seconds) and it is unclaimed or its
        claim's lease ended (``claimed_until <= now``). One statement marks the claimed rows
        ``claimed_by = claimer`` and ``claimed_until = now + lease`` (``lease`` in seconds,
        > 0): until then no other claimer gets them. On PostgreSQL the rows are picked ``FOR
        UPDATE SKIP LOCKED``, so concurrent claimers in several processes never get the same
        row; SQLite runs one writer at a time. ``claimer`` is usually ``Store.origin``. After
        firing a timer call :meth:`complete`. ``kinds``: claim only timers of these kinds (a
        process that serves some deadlines only; None: every kind). Raises ValueError for
        ``lease <= 0`` or ``limit < 1``; StoreFault when the database fails (nothing claimed).
        """
        if not lease > 0:
            raise ValueError(f"lease must be > 0 seconds, got {lease!r}")
        if not isinstance(limit, int) or limit < 1:
            raise ValueError(f"limit must be an int >= 1, got {limit!r}")
        params: dict[str, Any] = {
            "claimer": claimer,
            "until": float(now + lease),
            "now": float(now),
            "limit": limit,
        }
        only = ""
        if kinds is not None:
            params.update({f"k{i}": kind for i, kind in enumerate(kinds)})
            only = f" AND kind IN ({', '.join(f':k{i}' for i in range(len(kinds)))})"
        rows = await self._db.fetch_all(
            "UPDATE timers SET claimed_by = :claimer, claimed_until = :until WHERE id IN"
            " (SELECT id FROM timers WHERE due_at <= :now"
            f" AND (claimed_until IS NULL OR claimed_until <= :now){only}"
            f" ORDER BY due_at, id LIMIT :limit{self._db.dialect.skip_locked})"
            f" RETURNING {TIMER_COLUMNS}",
            params,
        )
        claimed = [timer_row(r) for r in rows]
        claimed.sort(key=lambda t: (t.due_at, t.id))
        return claimed

    async def complete(self, row: TimerRow, claimer: str) -> bool:
        """Delete the fired timer ``row`` if it is still the one ``claimer`` claimed.

        True when deleted. False when the timer was set again meanwhile (a new deadline or a
        new claim: it stays and fires at its new ``due_at``), cleared, or claimed by another
        claimer after this claim's lease ended.
        """
        done = await self._db.fetch_one(
            "DELETE FROM timers WHERE id = ? AND claimed_by = ? AND due_at = ? RETURNING id",
            (row.id, claimer, row.due_at),
        )
        return done is not None

    async def postpone(self, row: TimerRow, claimer: str, until: float) -> bool:
        """Keep the claimed timer ``row`` but let it be claimed again from ``until`` (unix s).

        For a handler that could not finish (the store failed): the deadline is not dropped,
        it fires again then (in any process). False when the timer was set again, cleared or
        claimed by another claimer meanwhile (nothing changed).
        """
        done = await self._db.fetch_one(
            "UPDATE timers SET claimed_until = ? WHERE id = ? AND claimed_by = ? AND due_at = ?"
            " RETURNING id",
            (float(until), row.id, claimer, row.due_at),
        )
        return done is not None

    async def unarmed_games(self, kinds: Sequence[str], limit: int = 500) -> list[tuple[int, int]]:
        """Live games that may need a move deadline but hold none: ``(game id, step count)``.

        ONE query (the re-arm sweep, ``service.sweep``): live games with an AI seat (or the
        game setting ``turn_timer`` on) and no timer of any of ``kinds`` (e.g. ``ai``,
        ``turn``). Whether the seat to move really needs one is the engine's to say (the caller
        replays the game); the step count lets it skip games it already judged at that count.
        At most ``limit`` games, lowest id first.
        """
        if not kinds:
            raise ValueError("give at least one timer kind")
        marks = ", ".join("?" for _ in kinds)
        rows = await self._db.fetch_all(
            "SELECT g.id, (SELECT COUNT(*) FROM steps s WHERE s.game_id = g.id) FROM games g"
            " WHERE g.status = 'live'"
            " AND NOT EXISTS (SELECT 1 FROM timers t WHERE t.game_id = g.id"
            f" AND t.kind IN ({marks}))"
            " AND (EXISTS (SELECT 1 FROM game_seats a WHERE a.game_id = g.id"
            " AND a.ai_level IS NOT NULL)"
            " OR (g.settings LIKE '%\"turn_timer\":%'"
            " AND g.settings NOT LIKE '%\"turn_timer\":null%'))"
            " ORDER BY g.id LIMIT ?",
            (*kinds, limit),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def arm(
        self, game_id: int, changes: Sequence[TimerChange], *, steps: int, kinds: Sequence[str]
    ) -> bool:
        """Write a game's timer ``changes`` if it is live at ``steps`` steps without ``kinds``.

        One write transaction that locks the game row (PostgreSQL: an append waits, or has
        committed and is counted), so a re-arm judged on ``steps`` steps never overwrites the
        deadlines a newer step wrote. True when written; False (nothing written) when the game
        moved on, is not live, or holds a timer of ``kinds`` meanwhile.
        """
        marks = ", ".join("?" for _ in kinds)
        async with self._db.write() as tx:
            live = await tx.one(
                f"SELECT status FROM games WHERE id = ?{self._db.dialect.for_update}", (game_id,)
            )
            if live is None or live[0] != "live":
                return False
            row = await tx.one(
                "SELECT (SELECT COUNT(*) FROM steps WHERE game_id = ?),"
                f" (SELECT COUNT(*) FROM timers WHERE game_id = ? AND kind IN ({marks}))",
                (game_id, game_id, *kinds),
            )
            if row is None or int(row[0]) != steps or int(row[1]) != 0:
                return False
            await write_timer_changes(tx, game_id, changes)
        return True

    async def write_at_step(
        self, game_id: int, steps: int, plan: TimerPlan
    ) -> list[TimerChange] | None:
        """Write ``plan(held)`` to the game's timers if it is live at ``steps`` steps.

        One write transaction (:func:`write_timers_at_step`): the changes written, or None
        (nothing written) when the game moved on, is not live or is unknown. Raises ValueError
        for a malformed change (nothing written), StoreFault when the database fails.
        """
        async with self._db.write() as tx:
            return await write_timers_at_step(
                tx, game_id, steps, plan, for_update=self._db.dialect.for_update
            )

    async def next_wake(self, kinds: Sequence[str] | None = None) -> float | None:
        """The earliest unix time at which :meth:`claim_due` could return a timer; None if none.

        The minimum over unclaimed timers' ``due_at`` and claimed timers'
        ``max(due_at, claimed_until)`` (a claimed timer is claimable again when its lease
        ends). May be in the past: a timer is due now. ``kinds``: as for :meth:`claim_due`.
        """
        only, params = "", tuple(kinds or ())
        if kinds is not None:
            only = f" AND kind IN ({', '.join('?' for _ in kinds)})"
        row = await self._db.fetch_one(
            f"SELECT (SELECT due_at FROM timers WHERE claimed_until IS NULL{only}"
            " ORDER BY due_at LIMIT 1),"
            " (SELECT MIN(CASE WHEN claimed_until > due_at THEN claimed_until ELSE due_at END)"
            f" FROM timers WHERE claimed_until IS NOT NULL{only})",
            params + params,
        )
        times = [t for t in (row or ()) if t is not None]
        return float(min(times)) if times else None
