"""Numbered schema migrations, applied forward only at start-up.

Each ``NNNN_name.sql`` file in this package is one version (numbered from 1 without gaps).
The database's version is ``PRAGMA user_version`` (0 for an empty file). A migration runs in
one ``BEGIN IMMEDIATE`` transaction together with the version bump, so a crash in the middle
leaves the previous version intact and the next start-up simply runs it again.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

import aiosqlite

__all__ = [
    "LATEST_VERSION",
    "MIGRATIONS",
    "Migration",
    "load_migrations",
    "migrate",
    "split_statements",
]

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema version: its number, its file name's label and its SQL text."""

    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The SQL split into complete statements (trigger bodies kept whole)."""
        return split_statements(self.sql)


def split_statements(sql: str) -> list[str]:
    """Split an SQL script into complete statements with :func:`sqlite3.complete_statement`.

    Raises ValueError when the script ends inside an unfinished statement.
    """
    out: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            statement = buf.strip()
            buf = ""
            if _strip_comments(statement):
                out.append(statement)
    if _strip_comments(buf).strip():
        raise ValueError(f"unfinished SQL statement: {buf.strip()[:80]!r}")
    return out


def _strip_comments(sql: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in sql.splitlines()).strip()


def load_migrations(package: str) -> tuple[Migration, ...]:
    """The ``NNNN_name.sql`` files of ``package`` in order; RuntimeError if numbers have gaps.

    This package holds SQLite's; ``data.migrations.postgres`` PostgreSQL's (same numbers).
    """
    found: list[Migration] = []
    for entry in resources.files(package).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n: {[m.version for m in found]}")
    return tuple(found)


MIGRATIONS: tuple[Migration, ...] = load_migrations(__name__)
LATEST_VERSION: int = MIGRATIONS[-1].version


async def _version(conn: aiosqlite.Connection) -> int:
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def migrate(conn: aiosqlite.Connection, *, target: int | None = None) -> tuple[int, int]:
    """Bring the schema up to ``target`` (default: the latest); return (before, after) versions.

    ``conn`` must be in autocommit mode (``isolation_level=None``). Every migration is applied
    in its own ``BEGIN IMMEDIATE`` transaction, which also takes the write lock: a database
    another connection holds locked raises ``sqlite3.OperationalError`` (database is locked)
    after the busy timeout. A version above ``target`` is left alone (no downgrades); the
    caller decides whether that is an error. Even when nothing needs migrating the write lock
    is taken once, so a locked file is noticed at start-up rather than at the first move.
    """
    goal = LATEST_VERSION if target is None else target
    if not 0 <= goal <= LATEST_VERSION:
        raise ValueError(f"target must be 0–{LATEST_VERSION}, got {goal}")
    before: int | None = None
    while True:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            current = await _version(conn)
            if before is None:
                before = current
            if current >= goal:
                await conn.execute("COMMIT")
                return before, current
            migration = MIGRATIONS[current]
            for statement in migration.statements():
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {migration.version:d}")
            await conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
