"""The PostgreSQL backend: an asyncpg pool behind the same ``Database`` methods as SQLite's.

Chosen by ``HATS_DATABASE_URL`` (``postgresql://user:password@host:port/dbname``, see
:mod:`data.config`). The repositories' SQL is shared with SQLite: :func:`translate` rewrites
their ``?`` and ``:name`` placeholders to PostgreSQL's ``$1 … $n`` (skipping string literals and
``::`` casts), and :data:`data.dialect.POSTGRES` holds what must differ.

Transactions: single statements run in autocommit (one implicit transaction each, like
SQLite's); :meth:`PgDatabase.write` is a READ COMMITTED transaction whose ``SELECT … FOR
UPDATE`` row locks (``dialect.for_update``) keep a game live until it commits;
:meth:`PgDatabase.read` a REPEATABLE READ read-only one (one consistent snapshot). Every commit
is durable when it returns (the server's ``synchronous_commit``, on by default).

Errors: every asyncpg and OS error leaves as :class:`~data.errors.StoreFault` of the matching
:class:`~data.errors.FaultKind` (:func:`pg_fault`: the server unreachable, authentication
failed, the database missing → CANNOT_OPEN; a full disk → FULL; a read-only server or no
privilege → READ_ONLY; lock or statement timeouts, deadlocks, serialisation failures → BUSY;
damaged data → CORRUPT; the server's I/O errors → IO), constraint violations as
:class:`~data.errors.ConstraintViolated`. The error's ``path`` is the URL without password.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import asyncpg

from data.db import FetchOne, OneAndRun, log_opened, new_origin
from data.dialect import POSTGRES, Dialect
from data.errors import (
    ConstraintViolated,
    FaultKind,
    StoreError,
    StoreFault,
    StoreForeign,
    StoreLocked,
    StoreTooNew,
)
from data.migrations.postgres import LATEST_VERSION, MIGRATIONS
from data.rows import GameChange, LobbyChange
from telemetry.metrics import observe_store

if TYPE_CHECKING:
    from data.pg_watch import PgWatcher

__all__ = [
    "LOCK_TIMEOUT_MS",
    "POOL_SIZE",
    "PgDatabase",
    "is_postgres_url",
    "migrate_pg",
    "open_pg",
    "pg_fault",
    "redact",
    "translate",
]

log = logging.getLogger("hats.data")

Params = Sequence[Any] | dict[str, Any]

POOL_SIZE = 4
"""Connections per process (asyncpg pool maximum); one is opened at start-up."""

LOCK_TIMEOUT_MS = 1500
"""How long (ms) a statement waits for a row lock (PostgreSQL ``lock_timeout``) before a BUSY
fault: a player's click is answered within Discord's 3 s (as SQLite's runtime busy timeout)."""

CONNECT_TIMEOUT_S = 10.0
"""How long (seconds) opening waits for the server before a CANNOT_OPEN fault."""

_MIGRATION_LOCK = (0x48617473, 1)  # pg_advisory_xact_lock(int, int): one migrator at a time


def is_postgres_url(target: object) -> bool:
    """True for a ``postgresql://`` or ``postgres://`` URL (the PostgreSQL backend's target)."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return "postgresql://…"
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


# --------------------------------------------------------------------------- placeholders
_TOKEN = re.compile(r"'(?:[^']|'')*'|::|\?|(?<![:\w]):([A-Za-z_]\w*)")


@functools.lru_cache(maxsize=512)
def translate(sql: str) -> tuple[str, tuple[str, ...] | None]:
    """``sql`` with ``?`` / ``:name`` placeholders as ``$1 … $n``; and the names in ``$`` order.

    The names are None for positional (``?``) SQL. String literals and ``::`` casts are kept.
    Raises ValueError when one statement mixes both styles.
    """
    names: list[str] = []
    positional = 0

    def sub(match: re.Match[str]) -> str:
        nonlocal positional
        token = match.group(0)
        if token.startswith("'") or token == "::":
            return token
        if token == "?":
            positional += 1
            return f"${positional}"
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    out = _TOKEN.sub(sub, sql)
    if positional and names:
        raise ValueError("an SQL statement mixes ? and :name placeholders")
    return out, (tuple(names) if names else None)


def _args(sql: str, params: Params) -> tuple[str, list[Any]]:
    text, names = translate(sql)
    if names is None:
        if isinstance(params, dict):
            if params:
                raise ValueError("named parameters given for ? placeholders")
            return text, []
        return text, list(params)
    if not isinstance(params, dict):
        raise ValueError("positional parameters given for :name placeholders")
    return text, [params[n] for n in names]


# --------------------------------------------------------------------------- errors
_ADVICE = {
    FaultKind.FULL: "The database server's disk is full: free some space there.",
    FaultKind.READ_ONLY: (
        "The server refuses writes (a read-only standby, or the user lacks privileges): "
        "point HATS_DATABASE_URL at the primary with a user that owns the database."
    ),
    FaultKind.IO: "The database server reported an I/O error: check its disk and its log.",
    FaultKind.CORRUPT: "The server reports damaged data: check its log, restore a pg_dump.",
    FaultKind.BUSY: (
        f"Another connection held a row lock for more than {LOCK_TIMEOUT_MS} ms (or a deadlock "
        "was broken); try again."
    ),
    FaultKind.CANNOT_OPEN: (
        "Check HATS_DATABASE_URL (host, port, user, password, database name) and that the "
        "PostgreSQL server is running and reachable."
    ),
    FaultKind.OTHER: "See the server's message.",
}

# SQLSTATE classes and codes (https://www.postgresql.org/docs/current/errcodes-appendix.html).
_KIND_OF_STATE = {
    "53100": FaultKind.FULL,  # disk_full
    "25006": FaultKind.READ_ONLY,  # read_only_sql_transaction
    "42501": FaultKind.READ_ONLY,  # insufficient_privilege
    "XX001": FaultKind.CORRUPT,  # data_corrupted
    "XX002": FaultKind.CORRUPT,  # index_corrupted
    "55P03": FaultKind.BUSY,  # lock_not_available (lock_timeout)
    "57014": FaultKind.BUSY,  # query_canceled (statement_timeout)
    "40001": FaultKind.BUSY,  # serialization_failure
    "40P01": FaultKind.BUSY,  # deadlock_detected
    "53300": FaultKind.BUSY,  # too_many_connections
    "57P01": FaultKind.CANNOT_OPEN,  # admin_shutdown
    "57P02": FaultKind.CANNOT_OPEN,  # crash_shutdown
    "57P03": FaultKind.CANNOT_OPEN,  # cannot_connect_now (starting up)
    "3D000": FaultKind.CANNOT_OPEN,  # invalid_catalog_name: the database does not exist
    "28000": FaultKind.CANNOT_OPEN,  # invalid_authorization_specification
    "28P01": FaultKind.CANNOT_OPEN,  # invalid_password
}
_LOST = (asyncpg.InterfaceError, asyncpg.exceptions.InternalClientError)
_KIND_OF_CLASS = {"08": FaultKind.CANNOT_OPEN, "58": FaultKind.IO, "53": FaultKind.OTHER}


def _explain(exc: BaseException, location: str) -> str:
    """A short sentence for the error: what failed, in the user's terms."""
    state = getattr(exc, "sqlstate", None)
    if state == "3D000":
        return f"the database does not exist ({exc}); create it with createdb"
    if state in ("28000", "28P01"):
        return f"authentication failed ({exc})"
    if isinstance(exc, TimeoutError | asyncio.TimeoutError):
        return f"the server did not answer in time ({type(exc).__name__})"
    if isinstance(exc, OSError) or (state or "").startswith("08"):
        return f"the server is unreachable ({exc or type(exc).__name__})"
    if isinstance(exc, _LOST):
        return f"the connection to the server was lost ({exc})"
    return str(exc) or type(exc).__name__


def pg_fault(exc: BaseException, location: str) -> StoreFault | None:
    """The StoreFault (StoreLocked for BUSY) that stands for an asyncpg/OS error, or None.

    None for constraint violations (the repositories handle them as ConstraintViolated) and
    for errors that are bugs (syntax, undefined column: they must surface as they are).
    """
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return None
    state = getattr(exc, "sqlstate", None)
    kind: FaultKind | None
    if isinstance(exc, asyncpg.PostgresError) and state:
        kind = _KIND_OF_STATE.get(state) or _KIND_OF_CLASS.get(state[:2])
        if kind is None and state[:2] in ("42", "22", "0A"):  # syntax, data, unsupported: bugs
            return None
        kind = kind or FaultKind.OTHER
    elif isinstance(exc, (OSError, TimeoutError, asyncio.TimeoutError, *_LOST)):
        # Every statement acquires its own pooled connection, so a client-side error means the
        # connection died under it (the server restarted or ended the session).
        kind = FaultKind.CANNOT_OPEN
    else:
        return None
    detail = _explain(exc, location)
    if kind is FaultKind.BUSY:
        return StoreLocked(location, detail, _ADVICE[kind])
    return StoreFault(location, kind, detail, _ADVICE[kind])


def _violation(exc: asyncpg.IntegrityConstraintViolationError) -> ConstraintViolated:
    return ConstraintViolated(str(exc), getattr(exc, "constraint_name", None) or "")


class _Mapped:
    """Context manager turning asyncpg/OS errors into ConstraintViolated / StoreFault."""

    def __init__(self, location: str) -> None:
        self.location = location

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: type | None, exc: BaseException | None, tb: Any) -> bool:
        if exc is None or isinstance(exc, StoreError):
            return False
        if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
            raise _violation(exc) from exc
        fault = pg_fault(exc, self.location)
        if fault is not None:
            raise fault from exc
        return False


# --------------------------------------------------------------------------- database
class PgDatabase(FetchOne):
    """The PostgreSQL store's connection pool, with :class:`data.db.Database`'s methods.

    ``path`` is the server URL without its password (errors and logs name it); ``origin`` the
    opened store's unique name, the ``application_name`` of the pool's connections (migration
    0008's notifications carry it).
    """

    dialect: Dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, url: str, origin: str | None = None) -> None:
        self.pool = pool
        self.url = url
        self.path = redact(url)
        self.origin = origin or new_origin()
        self._watcher: PgWatcher | None = None
        self._watch_lock = asyncio.Lock()
        self._closed = False

    async def watch(self, callback: Callable[[GameChange], None]) -> None:
        """Call ``callback`` with every game change any process commits (:mod:`data.pg_watch`).

        The first call opens the listening connection (application_name ``<origin>/watch``);
        later calls add callbacks to it. Raises StoreFault (CANNOT_OPEN) when the server
        cannot be reached now; RuntimeError after :meth:`close`.
        """
        async with self._watch_lock:
            watcher = self._new_watcher()
            watcher.add(callback)
            await self._start_watcher(watcher)

    async def watch_lobbies(self, callback: Callable[[LobbyChange], None]) -> None:
        """Call ``callback`` with every lobby change any process commits (migration 0013).

        On the same listening connection as :meth:`watch`; same errors.
        """
        async with self._watch_lock:
            watcher = self._new_watcher()
            watcher.add_lobbies(callback)
            await self._start_watcher(watcher)

    def _new_watcher(self) -> Any:
        """The store's watcher (made, not started, on first use); RuntimeError once closed."""
        if self._closed:
            raise RuntimeError("the store is closed")
        if self._watcher is not None:
            return self._watcher
        from data.pg_watch import PgWatcher

        return PgWatcher(self.url, f"{self.origin}/watch")

    async def _start_watcher(self, watcher: Any) -> None:
        if self._watcher is None:
            await watcher.start()
            self._watcher = watcher

    async def close(self) -> None:
        """Stop watching, close every connection of the pool (waits for running statements).

        Idempotent.
        """
        if self._closed:
            return
        self._closed = True
        async with self._watch_lock:
            if self._watcher is not None:
                await self._watcher.close()
        try:
            await asyncio.wait_for(self.pool.close(), timeout=10)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("closing the PostgreSQL pool: %s", exc)
            self.pool.terminate()

    async def integrity_check(self) -> list[str]:
        """``["ok"]`` when the server answers and every table of the schema is readable.

        (PostgreSQL checks pages itself; ``pg_amcheck`` is the deeper, offline check.)
        """
        await self.fetch_all("SELECT COUNT(*) FROM games")
        return ["ok"]

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Any]:
        """Run one statement (autocommit) and return every row (asyncpg Records, indexable).

        Raises StoreFault (StoreLocked for a lock timeout) or ConstraintViolated.
        """
        text, args = _args(sql, params)
        started = time.perf_counter()
        try:
            with _Mapped(self.path):
                async with self.pool.acquire() as conn:
                    return list(await conn.fetch(text, *args))
        finally:
            observe_store("query", started)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PgTransaction]:
        """A read-only REPEATABLE READ transaction: one consistent snapshot for its queries."""
        async with self._transaction(isolation="repeatable_read", readonly=True) as tx:
            yield tx

    @asynccontextmanager
    async def write(self) -> AsyncIterator[PgTransaction]:
        """A READ COMMITTED write transaction: all or nothing, rolled back on any error.

        Raises StoreFault (nothing was written) or ConstraintViolated.
        """
        async with self._transaction(isolation="read_committed", readonly=False) as tx:
            yield tx

    @asynccontextmanager
    async def _transaction(self, *, isolation: str, readonly: bool) -> AsyncIterator[PgTransaction]:
        started = time.perf_counter()
        try:
            with _Mapped(self.path):
                async with (
                    self.pool.acquire() as conn,
                    conn.transaction(isolation=isolation, readonly=readonly),
                ):
                    yield PgTransaction(conn)
        finally:
            observe_store("read" if readonly else "write", started)


class PgTransaction(OneAndRun):
    """Statements inside one transaction of :class:`PgDatabase` (use only inside its block)."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def all(self, sql: str, params: Params = ()) -> list[Any]:
        """Run one statement and return its rows; RETURNING rows for writes.

        Raises ConstraintViolated (PostgreSQL then refuses the rest of the transaction).
        """
        text, args = _args(sql, params)
        try:
            return list(await self._conn.fetch(text, *args))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _violation(exc) from exc

    async def many(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row (``executemany``, one round trip)."""
        text, names = translate(sql)
        batch = [
            [r[n] for n in names] if names is not None else list(r)  # type: ignore[call-overload]
            for r in rows
        ]
        if not batch:
            return
        try:
            await self._conn.executemany(text, batch)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _violation(exc) from exc

    async def copy_rows(
        self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
    ) -> None:
        """Bulk-insert ``rows`` with PostgreSQL's COPY (``python -m data migrate-to``)."""
        try:
            await self._conn.copy_records_to_table(table, records=list(rows), columns=list(columns))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _violation(exc) from exc


# --------------------------------------------------------------------------- opening
async def _schema_version(conn: asyncpg.Connection, location: str) -> int:
    """The schema's version (0: no Hats tables); raises StoreForeign for another program's."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        tables = [
            r[0]
            for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                " ORDER BY tablename"
            )
        ]
        if tables:
            raise StoreForeign(location, tables)
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def migrate_pg(
    conn: asyncpg.Connection, location: str, *, target: int | None = None
) -> tuple[int, int]:
    """Bring the PostgreSQL schema up to ``target`` (default latest); return (before, after).

    Each migration runs whole in its own transaction with its ``schema_version`` row, under a
    transaction-scoped advisory lock, so two processes starting together migrate once.
    Raises StoreTooNew (a newer schema) and StoreForeign (tables but no ``schema_version``).
    """
    goal = LATEST_VERSION if target is None else target
    if not 0 <= goal <= LATEST_VERSION:
        raise ValueError(f"target must be 0–{LATEST_VERSION}, got {goal}")
    before: int | None = None
    while True:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", *_MIGRATION_LOCK)
            current = await _schema_version(conn, location)
            if current > LATEST_VERSION:
                raise StoreTooNew(location, current, LATEST_VERSION)
            if before is None:
                before = current
            if current >= goal:
                return before, current
            if current == 0:
                await conn.execute(
                    "CREATE TABLE schema_version (version INTEGER PRIMARY KEY,"
                    " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
                )
            migration = MIGRATIONS[current]
            await conn.execute(migration.sql)
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                migration.version,
                migration.name,
                time.time(),
            )


async def open_pg(
    url: str, *, pool_size: int = POOL_SIZE, origin: str | None = None
) -> tuple[PgDatabase, int, int]:
    """Connect to ``url``, migrate, and return (database, version before, version after).

    ``origin`` (default: a new :func:`data.db.new_origin`) is every pooled connection's
    ``application_name``, so the notifications of its writes name it.

    Raises StoreFault of kind CANNOT_OPEN (server unreachable, authentication failed, the
    database missing, a malformed URL), StoreTooNew, StoreForeign; never creates a database.
    """
    location = redact(url)
    started = time.perf_counter()
    origin = origin or new_origin()
    try:
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=pool_size,
            timeout=CONNECT_TIMEOUT_S,
            server_settings={
                "lock_timeout": str(LOCK_TIMEOUT_MS),
                "application_name": origin,
            },
        )
    except (ValueError, asyncpg.ClientConfigurationError) as exc:
        raise StoreFault(
            location,
            FaultKind.CANNOT_OPEN,
            f"malformed URL ({exc})",
            _ADVICE[FaultKind.CANNOT_OPEN],
        ) from exc
    except BaseException as exc:
        fault = pg_fault(exc, location)
        if fault is not None:
            raise fault from exc
        raise
    try:
        with _Mapped(location):
            async with pool.acquire() as conn:
                before, after = await migrate_pg(conn, location)
    except BaseException:
        pool.terminate()
        raise
    log_opened(location, before, after, started)
    return PgDatabase(pool, url, origin), before, after
