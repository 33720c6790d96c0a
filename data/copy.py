"""Copy a whole store into another (SQLite file → PostgreSQL), then prove the copy is exact.

``python -m data migrate-to URL`` (:mod:`data.__main__`) runs :func:`copy_store`: stop the
bot first, copy, then start it with ``HATS_DATABASE_URL=URL``. The source is read in one
snapshot; the target is written in one transaction (all or nothing) and must be empty unless
``replace`` (then its rows are deleted first, in the same transaction). Verification, after
the commit, by reading both back: every table's rows equal (hence its count), and every live
game rebuilt by replay from each store gives the same engine state.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from data.errors import StoreError
from data.games import GAME_COLUMNS, SEAT_COLUMNS
from data.lobbies import LOBBY_COLUMNS
from data.messages import MESSAGE_COLUMNS
from data.restore import restore
from data.results import RESULT_COLUMNS
from data.store import Store
from data.timers import TIMER_COLUMNS
from data.tournaments import ENTRANT_COLUMNS, TOURNAMENT_COLUMNS

__all__ = ["TABLES", "CopyRefused", "CopyReport", "VerifyFailed", "copy_store", "table_rows"]

log = logging.getLogger("hats.data")

TABLES: tuple[tuple[str, str], ...] = (
    ("lobbies", LOBBY_COLUMNS),
    ("games", GAME_COLUMNS),
    ("game_seats", SEAT_COLUMNS),
    ("steps", "game_id, seq, step, actor, at"),
    ("game_messages", MESSAGE_COLUMNS),
    ("results", f"game_id, {RESULT_COLUMNS}"),
    ("records", "game_id, record"),
    ("tournaments", TOURNAMENT_COLUMNS),
    ("tournament_entrants", ENTRANT_COLUMNS),
    ("tournament_tables", "tournament_id, round, tab, players, thread_id, game_id"),
    (
        "tournament_notices",
        "tournament_id, kind, round, claimed_by, claimed_until, message_id, posted_at",
    ),
    ("timers", TIMER_COLUMNS),
    ("meta", "key, value"),
    ("outbox", "id, game_id, kind, created_at, delivered_at"),
    ("guild_settings", "guild_id, language, updated_at, pictures, turn_timer, timezone"),
    ("history_games", "game_id, seq, guild_id, seats, finished_at, rated"),
    ("history_favourites", "game_id, seat, hat_type"),
    (
        "rating_changes",
        "game_id, guild_id, seats, user_id, mu_before, sigma_before, mu, sigma, won, at",
    ),
    ("ratings", "guild_id, seats, user_id, mu, sigma, ordinal, games, wins, kth_at"),
)
"""Every table of the schema with its columns, parents before children (foreign keys).
A new table (a new repository) must be added here; a test checks the list is complete."""

_IDENTITY_TABLES = ("lobbies", "games", "timers", "outbox", "tournaments")
"""Tables whose ``id`` the database numbers: the target's counter moves past the copied ids."""


class CopyRefused(StoreError):
    """The target already holds Hats data; nothing was written (pass ``replace`` to overwrite)."""


class VerifyFailed(StoreError):
    """The copy was written but reads back different from the source (``problems`` lists how)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("the copy differs from the source: " + "; ".join(problems[:5]))


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What was copied: rows per table, live games compared, seconds taken."""

    rows: dict[str, int]
    live_games: int
    seconds: float


async def table_rows(store: Store, table: str, columns: str) -> list[tuple[Any, ...]]:
    """Every row of ``table`` as tuples, in a backend-independent order (sorted in Python)."""
    rows = await store._db.fetch_all(f"SELECT {columns} FROM {table}")
    return sorted((tuple(r) for r in rows), key=repr)


async def _counts(store: Store) -> dict[str, int]:
    counts = {}
    for table, _ in TABLES:
        row = await store._db.fetch_one(f"SELECT COUNT(*) FROM {table}")
        counts[table] = int(row[0]) if row else 0
    return counts


async def copy_store(source: Store, target: Store, *, replace: bool = False) -> CopyReport:
    """Copy every row of ``source`` into ``target`` in one transaction, then verify.

    Raises CopyRefused (``target`` not empty and not ``replace``: nothing written),
    VerifyFailed (written, but not equal: the problems are listed), StoreFault (nothing
    written when raised by the copy itself).
    """
    started = time.perf_counter()
    existing = await _counts(target)
    if any(existing.values()) and not replace:
        busy = ", ".join(f"{t} {n}" for t, n in existing.items() if n)
        raise CopyRefused(
            f"the target database already holds Hats data ({busy}); nothing was written. "
            "Copy into an empty database, or pass --replace to delete the target's rows first."
        )
    data: dict[str, list[tuple[Any, ...]]] = {}
    async with source._db.read() as tx:  # one snapshot of the source
        for table, columns in TABLES:
            data[table] = [tuple(r) for r in await tx.all(f"SELECT {columns} FROM {table}")]
    async with target._db.write() as tx:
        if replace:
            for table, _ in reversed(TABLES):
                await tx.run(f"DELETE FROM {table}")
        for table, columns in TABLES:
            await _insert(tx, table, columns, data[table])
        for table in _IDENTITY_TABLES:
            await tx.run(_bump_identity(target, table))
    rows = {table: len(data[table]) for table, _ in TABLES}
    del data
    live = await verify_copy(source, target)
    seconds = time.perf_counter() - started
    log.info(
        "copied %d rows and verified %d live games in %.1f s", sum(rows.values()), live, seconds
    )
    return CopyReport(rows, live, seconds)


async def _insert(tx: Any, table: str, columns: str, rows: Sequence[tuple[Any, ...]]) -> None:
    if not rows:
        return
    names = [c.strip() for c in columns.split(",")]
    copy = getattr(tx, "copy_rows", None)
    if copy is not None:  # PostgreSQL: COPY, far faster than one INSERT per row
        await copy(table, names, rows)
        return
    marks = ", ".join("?" for _ in names)
    await tx.many(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


def _bump_identity(store: Store, table: str) -> str:
    if store.backend == "postgres":
        return (
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
            f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
        )
    return "SELECT 1"  # SQLite numbers rowids from the table's largest id by itself


async def verify_copy(source: Store, target: Store) -> int:
    """Compare both stores; return the number of live games compared. Raises VerifyFailed.

    Every table's rows (sorted) must be equal, and every live game rebuilt by replay from
    each store must have the same engine snapshot (and the same stored rows).
    """
    problems: list[str] = []
    for table, columns in TABLES:
        a = await table_rows(source, table, columns)
        b = await table_rows(target, table, columns)
        if len(a) != len(b):
            problems.append(f"{table}: {len(a)} rows in the source, {len(b)} in the copy")
        elif a != b:
            differing = sum(1 for x, y in zip(a, b, strict=True) if x != y)
            problems.append(f"{table}: {differing} rows differ")
    mine, theirs = await restore(source), await restore(target)
    by_id = {g.live.row.id: g for g in theirs.games}
    if len(mine.games) != len(theirs.games) or len(mine.failed) != len(theirs.failed):
        problems.append(
            f"live games: {len(mine.games)} rebuilt from the source ({len(mine.failed)} failed),"
            f" {len(theirs.games)} from the copy ({len(theirs.failed)} failed)"
        )
    for g in mine.games:
        other = by_id.get(g.live.row.id)
        if other is None:
            problems.append(f"game {g.live.row.id}: missing from the copy")
        elif other.live != g.live or other.game.snapshot() != g.game.snapshot():
            problems.append(f"game {g.live.row.id}: rebuilds differently from the copy")
    if problems:
        raise VerifyFailed(problems)
    return len(mine.games)
