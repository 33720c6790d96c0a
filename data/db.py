"""The one aiosqlite connection and its transactions, shared by the repositories.

All access goes through :class:`Database`: an ``asyncio.Lock`` serialises the coroutines that
use the connection, so one coroutine's transaction never interleaves with another's
statements. Single statements run in autocommit mode (one implicit transaction each);
multi-statement writes use :meth:`Database.write` (``BEGIN IMMEDIATE`` … ``COMMIT``).

A constraint violation (``sqlite3.IntegrityError``) leaves as
:class:`~data.errors.ConstraintViolated` (the repositories turn it into refusals such as
ChannelBusy); every other driver error leaves as a
:class:`~data.errors.StoreFault` whose ``kind`` says why (:func:`fault_of`): a full disk, a
read-only file, an I/O error, a damaged file, a lock, a file that cannot be opened. A failed
write transaction is rolled back, so a StoreFault always means "nothing was written".

The PostgreSQL backend (:class:`data.pg.PgDatabase`) offers the same methods, so the
repositories are written once for both; ``dialect`` holds the few statements that differ.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import socket
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from data.dialect import SQLITE, Dialect
from data.errors import ConstraintViolated, FaultKind, StoreFault, StoreLocked
from data.rows import GameChange, LobbyChange
from telemetry.metrics import observe_store

__all__ = [
    "Database",
    "FetchOne",
    "OneAndRun",
    "Transaction",
    "fault_of",
    "is_busy",
    "log_opened",
    "new_origin",
    "store_fault",
]

Params = Sequence[Any] | dict[str, Any]

log = logging.getLogger("hats.data")


def is_busy(exc: BaseException) -> bool:
    """True for SQLITE_BUSY / SQLITE_LOCKED errors (another connection holds a lock)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)


# Primary SQLite result codes (sqlite3.Error.sqlite_errorcode & 0xFF) by kind.
_KIND_OF_CODE = {
    sqlite3.SQLITE_FULL: FaultKind.FULL,
    sqlite3.SQLITE_READONLY: FaultKind.READ_ONLY,
    sqlite3.SQLITE_PERM: FaultKind.READ_ONLY,
    sqlite3.SQLITE_AUTH: FaultKind.READ_ONLY,
    sqlite3.SQLITE_IOERR: FaultKind.IO,
    sqlite3.SQLITE_CORRUPT: FaultKind.CORRUPT,
    sqlite3.SQLITE_NOTADB: FaultKind.CORRUPT,
    sqlite3.SQLITE_BUSY: FaultKind.BUSY,
    sqlite3.SQLITE_LOCKED: FaultKind.BUSY,
    sqlite3.SQLITE_CANTOPEN: FaultKind.CANNOT_OPEN,
}
# Older drivers without error codes: the message decides.
_KIND_OF_TEXT = (
    ("disk is full", FaultKind.FULL),
    ("readonly", FaultKind.READ_ONLY),
    ("read-only", FaultKind.READ_ONLY),
    ("i/o error", FaultKind.IO),
    ("malformed", FaultKind.CORRUPT),
    ("not a database", FaultKind.CORRUPT),
    ("locked", FaultKind.BUSY),
    ("unable to open", FaultKind.CANNOT_OPEN),
)


def fault_of(exc: BaseException) -> FaultKind | None:
    """The :class:`FaultKind` of a driver error, or None when it is not a fault.

    Constraint violations (``sqlite3.IntegrityError``) and programming errors are not faults:
    the repositories handle the former, the latter are bugs and must surface as they are.
    """
    if not isinstance(exc, sqlite3.DatabaseError) or isinstance(
        exc, sqlite3.IntegrityError | sqlite3.ProgrammingError
    ):
        return None
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _KIND_OF_CODE:
        return _KIND_OF_CODE[code & 0xFF]
    text = str(exc).lower()
    for needle, kind in _KIND_OF_TEXT:
        if needle in text:
            return kind
    return FaultKind.OTHER


def store_fault(path: Path, exc: BaseException) -> StoreFault | None:
    """The StoreFault (StoreLocked for a lock) that stands for a driver error, or None."""
    kind = fault_of(exc)
    if kind is None:
        return None
    if kind is FaultKind.BUSY:
        return StoreLocked(path, str(exc))
    return StoreFault(path, kind, str(exc))


def _violation(exc: sqlite3.IntegrityError) -> ConstraintViolated:
    return ConstraintViolated(str(exc))


def new_origin() -> str:
    """A name unique to one opened store: ``"hats-<hostname>-<pid>-<6 hex digits>"``.

    At most 52 printable ASCII characters without spaces (PostgreSQL keeps 63 of an
    ``application_name`` and replaces other characters): the hostname is reduced to letters,
    digits, dots and dashes, and cut to 32 characters.
    """
    host = re.sub(r"[^A-Za-z0-9.-]", "", socket.gethostname())[:32] or "host"
    return f"hats-{host}-{os.getpid()}-{secrets.token_hex(3)}"


def log_opened(location: object, before: int, after: int, started: float) -> None:
    """Log the store's opening: where, the schema version (and the migration), the time."""
    log.info(
        "opened %s: schema version %d%s, in %.0f ms",
        location,
        after,
        f" (migrated from {before})" if before != after else "",
        (time.perf_counter() - started) * 1000,
    )


class FetchOne:
    """``fetch_one`` for a database class that has ``fetch_all`` (both backends)."""

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Any]:
        """Every row of one statement (each backend's own)."""
        raise NotImplementedError

    async def fetch_one(self, sql: str, params: Params = ()) -> Any | None:
        """The first row of :meth:`fetch_all`, or None."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


class OneAndRun:
    """``one`` and ``run`` for a transaction class that has ``all`` (both backends)."""

    async def all(self, sql: str, params: Params = ()) -> list[Any]:
        """Every row of one statement inside the transaction (each backend's own)."""
        raise NotImplementedError

    async def one(self, sql: str, params: Params = ()) -> Any | None:
        """The first row of :meth:`all`, or None."""
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def run(self, sql: str, params: Params = ()) -> None:
        """Run one statement whose rows are not needed."""
        await self.all(sql, params)


class Database(FetchOne):
    """The store's connection (autocommit mode) plus the lock that serialises its users.

    ``origin``: the opened store's unique name (:func:`new_origin`).
    """

    dialect: Dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: Path, origin: str | None = None) -> None:
        self.conn = conn
        self.path = path
        self.origin = origin or new_origin()
        self.lock = asyncio.Lock()
        self._closed = False

    async def watch(self, callback: Callable[[GameChange], None]) -> None:
        """Nothing: an SQLite store has one process, which sees its own changes."""

    async def watch_lobbies(self, callback: Callable[[LobbyChange], None]) -> None:
        """Nothing: an SQLite store has one process, which sees its own changes."""

    async def close(self) -> None:
        """Wait for running statements, then close the connection (idempotent).

        Runs ``PRAGMA optimize`` first (SQLite's advice for long-lived connections); closing the
        last connection folds the WAL back into the database file.
        """
        async with self.lock:
            if self._closed:
                return
            self._closed = True
            try:
                await self.conn.execute("PRAGMA optimize")
            except sqlite3.Error as exc:
                log.debug("PRAGMA optimize failed: %s", exc)
            await self.conn.close()

    async def integrity_check(self) -> list[str]:
        """SQLite's ``PRAGMA integrity_check`` lines: ``["ok"]`` for a sound database."""
        rows = await self.fetch_all("PRAGMA integrity_check")
        return [str(r[0]) for r in rows]

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Any]:
        """Run one statement (autocommit) and return every row as a tuple.

        Raises StoreFault (StoreLocked when the busy timeout runs out); nothing was written.
        Timed into ``hats_store_seconds{op="query"}``.
        """
        started = time.perf_counter()
        try:
            return await self._fetch_all(sql, params)
        finally:
            observe_store("query", started)

    async def _fetch_all(self, sql: str, params: Params) -> list[Any]:
        async with self.lock:
            try:
                return list(await self.conn.execute_fetchall(sql, params))
            except sqlite3.IntegrityError as exc:
                raise _violation(exc) from exc
            except sqlite3.Error as exc:
                fault = store_fault(self.path, exc)
                if fault is not None:
                    raise fault from exc
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        """A read transaction (``BEGIN`` … ``COMMIT``): one consistent snapshot for its queries."""
        async with self._transaction("BEGIN") as tx:
            yield tx

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Transaction]:
        """A write transaction (``BEGIN IMMEDIATE``): all or nothing, rolled back on any error.

        Raises StoreFault (StoreLocked when another connection keeps the write lock past the
        busy timeout, kind FULL for a full disk, ...): the transaction was rolled back.
        """
        async with self._transaction("BEGIN IMMEDIATE") as tx:
            yield tx

    @asynccontextmanager
    async def _transaction(self, begin: str) -> AsyncIterator[Transaction]:
        """``_locked_transaction`` timed into ``hats_store_seconds{op="read"|"write"}``."""
        started = time.perf_counter()
        try:
            async with self._locked_transaction(begin) as tx:
                yield tx
        finally:
            observe_store("read" if begin == "BEGIN" else "write", started)

    @asynccontextmanager
    async def _locked_transaction(self, begin: str) -> AsyncIterator[Transaction]:
        async with self.lock:
            conn = self.conn
            try:
                await conn.execute(begin)
                try:
                    yield Transaction(conn)
                    await conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        try:
                            await conn.execute("ROLLBACK")
                        except sqlite3.Error as rollback_error:
                            # SQLite rolls back by itself after some errors (full disk, I/O);
                            # the original error is the one to report.
                            log.debug("rollback after an error failed: %s", rollback_error)
                    raise
            except sqlite3.Error as exc:
                fault = store_fault(self.path, exc)
                if fault is not None:
                    raise fault from exc
                raise


class Transaction(OneAndRun):
    """Statements inside one transaction of :class:`Database` (use only inside its block)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def all(self, sql: str, params: Params = ()) -> list[Any]:
        """Run one statement and return its rows (tuples); RETURNING rows for writes.

        Raises ConstraintViolated for a broken constraint (the transaction can go on).
        """
        try:
            return list(await self._conn.execute_fetchall(sql, params))
        except sqlite3.IntegrityError as exc:
            raise _violation(exc) from exc

    async def many(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row (``executemany``)."""
        try:
            cursor = await self._conn.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise _violation(exc) from exc
        await cursor.close()
