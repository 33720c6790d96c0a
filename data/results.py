"""Finished games: results per seat (statistics) and the hats-record/1 JSON (``/hats record``)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from data import jsoncodec
from data.db import Database
from data.errors import ConstraintViolated, GameNotFound, StaleSequence
from data.game_flags import not_practice_sql
from data.games import GAME_COLUMNS, game_row, require_live
from data.outbox import OutboxKind, add_item
from data.rows import GameRow, GameStatus, ResultEntry, SeatRow, UserStats
from data.steps import append_step_sql, is_step_conflict, step_json
from engine import Game

__all__ = ["RECORD_FORMAT", "RESULT_COLUMNS", "Results", "entries_from_game"]

RECORD_FORMAT = "hats-record/1"

RESULT_COLUMNS = (
    "seat, user_id, ai_level, collection, favourite, cookie, total, black_hats, place, team, winner"
)


def entries_from_game(game: Game, seats: Sequence[SeatRow]) -> list[ResultEntry]:
    """One :class:`ResultEntry` per seat of a finished engine game, with places.

    Places are the game's one ranking (``GameResult.places``, :func:`engine.standings`: R19;
    R20 by team with 4 seats), so the winners (shared wins included) are exactly the places
    1. Raises ValueError when the game is not over or ``seats`` does not match it.
    """
    result = game.result
    if result is None:
        raise ValueError("the game is not over")
    if [s.seat for s in seats] != list(range(game.seats)):
        raise ValueError("seats must list every seat of the game in order")
    scores = result.scores
    teams = game.teams
    team_of: list[int | None] = [None] * game.seats
    for index, team in enumerate(teams or ()):
        for s in team:
            team_of[s] = index
    out = []
    for seat, (score, row) in enumerate(zip(scores, seats, strict=True)):
        out.append(
            ResultEntry(
                seat=seat,
                user_id=row.user_id,
                ai_level=row.ai_level,
                collection=score.collection,
                favourite=score.favourite,
                cookie=score.cookie,
                total=score.total,
                black_hats=score.black_hats,
                place=result.places[seat],
                team=team_of[seat],
                winner=seat in result.winners,
            )
        )
    return out


def _entry(r: Sequence[Any]) -> ResultEntry:
    return ResultEntry(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], bool(r[10]))


class Results:
    """Repository of ``results`` and ``records``, and the move of a game to finished."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def finish_game(
        self,
        game_id: int,
        entries: Sequence[ResultEntry],
        record: Mapping[str, Any],
        *,
        at: float | None = None,
        last_step: tuple[int, Mapping[str, Any], str] | None = None,
    ) -> GameRow:
        """Finish a game in ONE transaction: its last step (optional), results, record, status.

        ``entries``: one per seat (:func:`entries_from_game` builds them); ``record``: the
        ``to_record(game)`` dict (format hats-record/1, kept verbatim). ``last_step``:
        ``(expected_seq, Step.to_dict(), actor)`` of the step that ended the game, appended with
        the same sequence check as ``Steps.append_step``. The same transaction marks the game
        finished, clears its timers and writes the outbox item ``end`` (the end screen is owed),
        so the store never holds a game over by its steps but still live, except one stored
        before this version (finish it again without ``last_step``).

        Raises GameNotFound, GameNotLive (already finished or abandoned: nothing written),
        StaleSequence (``last_step`` carries a taken number), StoreFault (nothing written),
        ValueError when the entries do not cover the seats or the record is not hats-record/1.
        """
        if record.get("format") != RECORD_FORMAT:
            raise ValueError(f"record format must be {RECORD_FORMAT!r}")
        if sorted(e.seat for e in entries) != list(range(len(entries))):
            raise ValueError("entries must hold each seat once")
        now = time.time() if at is None else at
        step_text = step_json(last_step[1]) if last_step is not None else None
        async with self._db.write() as tx:
            await require_live(tx, game_id, self._db.dialect.for_update)
            if last_step is not None:
                seq, _, actor = last_step
                try:
                    appended = await tx.one(
                        append_step_sql(self._db.dialect),
                        {
                            "game_id": game_id,
                            "seq": seq,
                            "step": step_text,
                            "actor": actor,
                            "at": now,
                        },
                    )
                except ConstraintViolated as exc:
                    # Another connection's step took the number (PostgreSQL aborts the
                    # transaction here, so no count can be read: the next number is beyond).
                    if not is_step_conflict(exc):
                        raise
                    raise StaleSequence(game_id, seq, seq + 1) from exc
                if appended is None:
                    count = await tx.one("SELECT COUNT(*) FROM steps WHERE game_id = ?", (game_id,))
                    raise StaleSequence(game_id, seq, int(count[0]) if count else 0)
            seats = await tx.one("SELECT COUNT(*) FROM game_seats WHERE game_id = ?", (game_id,))
            if seats is None or seats[0] != len(entries):
                raise ValueError(f"game {game_id} has {seats and seats[0]} seats")
            await tx.many(
                f"INSERT INTO results (game_id, {RESULT_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        e.seat,
                        e.user_id,
                        e.ai_level,
                        e.collection,
                        e.favourite,
                        e.cookie,
                        e.total,
                        e.black_hats,
                        e.place,
                        e.team,
                        int(e.winner),
                    )
                    for e in entries
                ],
            )
            await tx.run(
                "INSERT INTO records (game_id, record) VALUES (?, ?)",
                (game_id, jsoncodec.dumps(dict(record))),
            )
            await tx.run("DELETE FROM timers WHERE game_id = ?", (game_id,))
            await add_item(tx, game_id, OutboxKind.END, now)
            row = await tx.one(
                f"UPDATE games SET status = 'finished', updated_at = ?, finished_at = ?"
                f" WHERE id = ? RETURNING {GAME_COLUMNS}",
                (now, now, game_id),
            )
        assert row is not None
        return game_row(row)

    async def status(self, game_id: int) -> GameStatus:
        """A game's stored status. Raises GameNotFound."""
        row = await self._db.fetch_one("SELECT status FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        return GameStatus(row[0])

    async def get_record(self, game_id: int) -> dict[str, Any] | None:
        """The hats-record/1 dict of a finished game, or None."""
        row = await self._db.fetch_one("SELECT record FROM records WHERE game_id = ?", (game_id,))
        return jsoncodec.loads_object(row[0]) if row else None

    async def results_for_game(self, game_id: int) -> list[ResultEntry]:
        """The stored results of a finished game in seat order ([] if none)."""
        rows = await self._db.fetch_all(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [_entry(r) for r in rows]

    async def last_finished_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recently finished game, or None."""
        row = await self._db.fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status = 'finished'"
            " ORDER BY finished_at DESC, id DESC LIMIT 1",
            (channel_id,),
        )
        return game_row(row) if row else None

    async def user_stats(self, user_id: int, *, guild_id: int | None = None) -> UserStats:
        """A user's finished games, wins and mean total score, in one guild or everywhere.

        Counts the seats the user played to the end: a seat an AI took over (``ai_level`` set
        in its result) does not count for the user who left it. Practice games never count
        (:func:`data.game_flags.not_practice_sql`, the store's one rule for them).
        """
        in_guild = "" if guild_id is None else " AND g.guild_id = :guild"
        row = await self._db.fetch_one(
            "SELECT COUNT(*), COALESCE(SUM(r.winner), 0), COALESCE(AVG(r.total), 0.0)"
            " FROM results r JOIN games g ON g.id = r.game_id"
            f" WHERE r.user_id = :user AND r.ai_level IS NULL AND {not_practice_sql('g')}"
            f"{in_guild}",
            {"user": user_id} if guild_id is None else {"user": user_id, "guild": guild_id},
        )
        assert row is not None
        return UserStats(user_id, int(row[0]), int(row[1]), float(row[2]))
