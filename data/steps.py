"""A game's steps in order: the append with its sequence check, and loading them back."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from functools import cache, lru_cache, partial
from typing import Any, TypeVar

from data import jsoncodec
from data.db import Database, Transaction
from data.dialect import Dialect
from data.errors import (
    ConstraintViolated,
    GameNotFound,
    GameNotLive,
    ReplayFailed,
    StaleSequence,
)
from data.rows import GameStatus, SeatRow, TimerChange
from data.timers import (
    StepDeadlines,
    check_timer_change,
    write_step_deadlines,
    write_timer_changes,
)
from engine import Step

__all__ = [
    "AUTO_ACTOR",
    "Steps",
    "append_step_sql",
    "decode_step",
    "decode_step_rows",
    "is_step_conflict",
    "step_json",
]

T = TypeVar("T")

AUTO_ACTOR = "auto"
"""The actor of a move the AI played for an absent player (``LiveGame.auto_seqs``)."""


@cache
def append_step_sql(dialect: Dialect) -> str:
    """The one statement that appends a step only as the game's next seq, while it is live.

    One statement, hence one implicit transaction: the sequence check, the live check and the
    insert cannot be separated by another writer (SQLite: one writer at a time). On PostgreSQL
    two racing appends of the same seq both pass the check and the primary key (game_id, seq)
    refuses the second (:func:`is_step_conflict`); the live check share-locks the game row, so
    an append waits for a concurrent ``finish_game``/``abandon_game`` and then sees its status.
    The CASTs give PostgreSQL the parameter types (SQLite: no-ops by type affinity).
    """
    return f"""
INSERT INTO steps (game_id, seq, step, actor, at)
SELECT CAST(:game_id AS BIGINT), CAST(:seq AS INTEGER), CAST(:step AS TEXT),
       CAST(:actor AS TEXT), CAST(:at AS DOUBLE PRECISION)
WHERE :seq = (SELECT COALESCE(MAX(seq) + 1, 0) FROM steps WHERE game_id = :game_id)
  AND EXISTS (SELECT 1 FROM games WHERE id = :game_id AND status = 'live'{dialect.for_share})
RETURNING seq
"""


def is_step_conflict(exc: ConstraintViolated) -> bool:
    """True when an insert hit the steps primary key (game_id, seq): another writer's step."""
    return exc.names("steps.game_id", "steps_pkey")


def step_json(step: Mapping[str, Any]) -> str:
    """Compact JSON of a ``Step.to_dict()`` dict after checking that the engine decodes it.

    Raises ValueError otherwise: the store never keeps a step the replay could not read.
    """
    try:
        Step.from_dict(dict(step))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not an engine step: {step!r}") from exc
    return jsoncodec.dumps(dict(step))


@lru_cache(maxsize=16384)
def decode_step(text: str) -> Step:
    """The engine Step of a stored step's JSON text (cached: games share most step texts).

    Steps are immutable, so one object serves every game. Raises ValueError for a text that
    is not an engine step.
    """
    try:
        return Step.from_dict(jsoncodec.loads_object(text))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not an engine step: {text!r}") from exc


def decode_step_rows(
    game_id: int, rows: Iterable[Sequence[Any]]
) -> tuple[tuple[Step, ...], frozenset[int]]:
    """A game's Steps and its ``auto`` seqs from ``(seq, step text, actor)`` rows in seq order.

    Raises ReplayFailed for a gap in the seqs (the first missing one) or an undecodable text.
    """
    steps: list[Step] = []
    auto: set[int] = set()
    for expected, (seq, text, actor) in enumerate(rows):
        if seq != expected:
            raise ReplayFailed(game_id, expected, f"step {expected} is missing")
        try:
            steps.append(decode_step(text))
        except ValueError as exc:
            raise ReplayFailed(game_id, seq, f"undecodable step: {exc}") from exc
        if actor == AUTO_ACTOR:
            auto.add(seq)
    return tuple(steps), frozenset(auto)


class _Refused(Exception):
    """Leaves a write transaction whose append was refused (rolled back, nothing written)."""


class Steps:
    """Repository of the ``steps`` table (seq 0, 1, 2, … per game, no gaps)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def append_step(
        self,
        game_id: int,
        expected_seq: int,
        step: Mapping[str, Any],
        *,
        actor: str = "player",
        at: float,
        timers: Sequence[TimerChange] = (),
    ) -> int:
        """Append ``step`` (``Step.to_dict()``) as number ``expected_seq``; return that number.

        Atomic and committed (durable) when it returns. ``expected_seq`` is the number of steps
        the caller believes are stored (``len(game.steps)`` before applying the move; seq starts
        at 0); ``actor`` says who acted (``"player"``, ``"ai"``, ``"timer"``, ``"auto"``…);
        ``at`` is unix seconds. ``timers``: changes to this game's timers (the deadlines that
        follow the step, :class:`~data.rows.TimerChange`; see
        :func:`~data.timers.write_timer_changes`) written in the SAME transaction as the step:
        both or neither. Without ``timers`` the append is one statement (the fast path).

        Raises StaleSequence (nothing written, no timer either) when another step already took
        that number — of two concurrent appends with the same number exactly one wins —,
        GameNotFound, GameNotLive, ValueError when ``step`` does not decode as an engine Step or
        a timer change is malformed, StoreFault (nothing written).
        """
        for change in timers:
            check_timer_change(change)  # refused before anything is written
        write = partial(write_timer_changes, game_id=game_id, changes=timers) if timers else None
        return (await self._append(game_id, expected_seq, step, actor, at, write))[0]

    async def append_judged(
        self,
        game_id: int,
        expected_seq: int,
        step: Mapping[str, Any],
        *,
        actor: str = "player",
        at: float,
        deadlines: StepDeadlines,
    ) -> tuple[list[TimerChange], tuple[SeatRow, ...] | None]:
        """:meth:`append_step` with deadlines judged on the seats stored at the commit.

        The step's deadlines are written in its transaction by
        :func:`~data.timers.write_step_deadlines`: ``deadlines.changes`` when the stored seats
        are ``deadlines.seats``, else what ``deadlines.rejudge`` owes for the stored seats (a
        seat change another process stored after the caller read its copy, issue 36.1).
        Returns the timer changes written and the stored seats when they differed (None when
        the copy was current). Raises as :meth:`append_step` (nothing written).
        """
        for change in deadlines.changes:
            check_timer_change(change)
        write = partial(write_step_deadlines, game_id=game_id, deadlines=deadlines)
        return (await self._append(game_id, expected_seq, step, actor, at, write))[1]

    async def _append(
        self,
        game_id: int,
        expected_seq: int,
        step: Mapping[str, Any],
        actor: str,
        at: float,
        then: Callable[[Transaction], Awaitable[T]] | None,
    ) -> tuple[int, T]:
        """Append the step, then run ``then(tx)`` in its transaction; (seq, what it returned).

        Without ``then`` the append is one statement (the fast path; ``None`` returned).
        """
        if not isinstance(expected_seq, int) or expected_seq < 0:
            raise ValueError(f"expected_seq must be an int >= 0, got {expected_seq!r}")
        params = {
            "game_id": game_id,
            "seq": expected_seq,
            "step": step_json(step),
            "actor": actor,
            "at": at,
        }
        sql = append_step_sql(self._db.dialect)
        row: Any = None
        result: Any = None
        try:
            if then is None:
                row = await self._db.fetch_one(sql, params)
            else:
                async with self._db.write() as tx:
                    row = await tx.one(sql, params)
                    if row is None:
                        raise _Refused
                    result = await then(tx)
        except _Refused:
            row = None
        except ConstraintViolated as exc:  # primary key: a writer on another connection
            row = None
            if not is_step_conflict(exc):
                raise
        if row is not None:
            return int(row[0]), result
        raise await self._refusal(game_id, expected_seq)

    async def _refusal(self, game_id: int, expected_seq: int) -> Exception:
        row = await self._db.fetch_one(
            "SELECT status, (SELECT COUNT(*) FROM steps WHERE game_id = :g) FROM games"
            " WHERE id = :g",
            {"g": game_id},
        )
        if row is None:
            return GameNotFound(game_id)
        if row[0] != GameStatus.LIVE:
            return GameNotLive(game_id, row[0])
        return StaleSequence(game_id, expected_seq, int(row[1]))

    async def load_steps(self, game_id: int) -> list[dict[str, Any]]:
        """The game's steps (``Step.to_dict()`` dicts) in sequence order; [] if none."""
        rows = await self._db.fetch_all(
            "SELECT step FROM steps WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [jsoncodec.loads_object(r[0]) for r in rows]

    async def stored_step(self, game_id: int, seq: int) -> tuple[dict[str, Any], str, float] | None:
        """Step ``seq`` of the game as stored: ``(step dict, actor, at)``, or None if absent.

        ``at`` (unix seconds, as appended) tells two appends of the same step apart: after an
        error, a writer checks that the step stored is its own, not an equal one appended by
        another process (two AIs choose the same step for the same state).
        """
        row = await self._db.fetch_one(
            "SELECT step, actor, at FROM steps WHERE game_id = ? AND seq = ?", (game_id, seq)
        )
        if row is None:
            return None
        return jsoncodec.loads_object(row[0]), row[1], float(row[2])

    async def seqs_by_actor(self, actor: str) -> dict[int, set[int]]:
        """Sequence numbers of live games' steps made by ``actor`` (e.g. ``"auto"``), by game.

        One query over every live game (start-up: the table marks moves the AI made for an
        absent player).
        """
        rows = await self._db.fetch_all(
            "SELECT s.game_id, s.seq FROM steps s JOIN games g ON g.id = s.game_id"
            " WHERE g.status = 'live' AND s.actor = ?",
            (actor,),
        )
        out: dict[int, set[int]] = {}
        for game_id, seq in rows:
            out.setdefault(game_id, set()).add(seq)
        return out

    async def step_count(self, game_id: int) -> int:
        """How many steps are stored: the ``expected_seq`` of the next append."""
        row = await self._db.fetch_one(
            "SELECT COALESCE(MAX(seq) + 1, 0) FROM steps WHERE game_id = ?", (game_id,)
        )
        return int(row[0]) if row else 0
