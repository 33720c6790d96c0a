"""The one aiosqlite connection and its transactions, shared by the repositories.

All access goes through :class:`Database`: an ``asyncio.Lock`` serialises the coroutines that
use the connection, so one coroutine's transaction never interleaves with another's
statements. Single statements run in autocommit mode (one implicit transaction each);
multi-statement writes use :meth:`Database.write` (``BEGIN IMMEDIATE`` … ``COMMIT``).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from data.errors import StoreLocked

__all__ = ["Database", "is_busy"]

Params = Sequence[Any] | dict[str, Any]


def is_busy(exc: BaseException) -> bool:
    """True for SQLITE_BUSY / SQLITE_LOCKED errors (another connection holds a lock)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)


class Database:
    """The store's connection (autocommit mode) plus the lock that serialises its users."""

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self.lock = asyncio.Lock()

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Any]:
        """Run one statement (autocommit) and return every row as a tuple.

        Raises StoreLocked when the busy timeout runs out.
        """
        async with self.lock:
            try:
                return list(await self.conn.execute_fetchall(sql, params))
            except sqlite3.OperationalError as exc:
                if is_busy(exc):
                    raise StoreLocked(self.path, str(exc)) from exc
                raise

    async def fetch_one(self, sql: str, params: Params = ()) -> Any | None:
        """The first row of :meth:`fetch_all`, or None."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        """A read transaction (``BEGIN`` … ``COMMIT``): one consistent snapshot for its queries."""
        async with self._transaction("BEGIN") as tx:
            yield tx

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Transaction]:
        """A write transaction (``BEGIN IMMEDIATE``): all or nothing, rolled back on any error.

        Raises StoreLocked when another connection keeps the write lock past the busy timeout.
        """
        async with self._transaction("BEGIN IMMEDIATE") as tx:
            yield tx

    @asynccontextmanager
    async def _transaction(self, begin: str) -> AsyncIterator[Transaction]:
        async with self.lock:
            conn = self.conn
            try:
                await conn.execute(begin)
                try:
                    yield Transaction(conn)
                    await conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        await conn.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as exc:
                if is_busy(exc):
                    raise StoreLocked(self.path, str(exc)) from exc
                raise


class Transaction:
    """Statements inside one transaction of :class:`Database` (use only inside its block)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def all(self, sql: str, params: Params = ()) -> list[Any]:
        """Run one statement and return its rows (tuples); RETURNING rows for writes."""
        return list(await self._conn.execute_fetchall(sql, params))

    async def one(self, sql: str, params: Params = ()) -> Any | None:
        """The first row of :meth:`all`, or None."""
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def run(self, sql: str, params: Params = ()) -> None:
        """Run one statement whose rows are not needed."""
        await self._conn.execute_fetchall(sql, params)

    async def many(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row (``executemany``)."""
        cursor = await self._conn.executemany(sql, rows)
        await cursor.close()
