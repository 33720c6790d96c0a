"""Opening the database safely, and the :class:`Store` that holds the repositories.

Two backends behind the same :class:`Store`: an SQLite file (the default, below) or a
PostgreSQL server when the target is a ``postgresql://`` URL (``HATS_DATABASE_URL``,
:mod:`data.pg`). The repositories are the same objects over either ``Database``.

Durability: WAL journal with ``synchronous=FULL``. Every commit (one appended step, say) is
fsynced to the WAL before the call returns, so an acknowledged step survives a killed process
and also a power cut or kernel crash (``NORMAL`` would only survive the former). It costs
about 0.3 ms per commit on the project machine (BENCHMARKS.md, "Store").
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosqlite

from data.db import Database, is_busy, log_opened
from data.errors import (
    StoreCorrupted,
    StoreError,
    StoreForeign,
    StoreLocked,
    StoreTooNew,
    StoreUnreadable,
)
from data.games import Games
from data.gauges import Gauges
from data.guild_settings import GuildSettings
from data.history import History
from data.lobbies import Lobbies
from data.messages import Messages
from data.meta import Meta
from data.migrations import LATEST_VERSION, migrate
from data.outbox import Outbox
from data.restore import Snapshot
from data.results import Results
from data.rows import GameChange, LobbyChange
from data.steps import Steps
from data.timers import Timers
from data.tournaments import Tournaments

__all__ = [
    "DEFAULT_BUSY_TIMEOUT_MS",
    "RUNTIME_BUSY_TIMEOUT_MS",
    "Store",
    "check_path",
    "open_store",
    "store_target",
]

log = logging.getLogger("hats.data")

DEFAULT_BUSY_TIMEOUT_MS = 5000
"""How long (ms) opening waits for another connection's lock before StoreLocked."""

RUNTIME_BUSY_TIMEOUT_MS = 1500
"""How long (ms) a statement waits for a lock once the store is open: short enough that a
player's click is answered within Discord's 3 s even when another process holds the lock."""

_HEADER = b"SQLite format 3\x00"
# Primary SQLite result codes (sqlite3.Error.sqlite_errorcode & 0xFF).
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB


class Store:
    """The open database (an aiosqlite connection or an asyncpg pool) and its repositories.

    Repositories: ``lobbies`` (:class:`~data.lobbies.Lobbies`), ``games``
    (:class:`~data.games.Games`), ``steps`` (:class:`~data.steps.Steps`), ``messages``
    (:class:`~data.messages.Messages`), ``timers`` (:class:`~data.timers.Timers`), ``results``
    (:class:`~data.results.Results`), ``snapshot`` (:class:`~data.restore.Snapshot`),
    ``meta`` (:class:`~data.meta.Meta`), ``guild_settings``
    (:class:`~data.guild_settings.GuildSettings`), ``outbox`` (:class:`~data.outbox.Outbox`),
    ``history`` (:class:`~data.history.History`), ``gauges`` (:class:`~data.gauges.Gauges`),
    ``tournaments`` (:class:`~data.tournaments.Tournaments`).
    Create it with :func:`open_store`; close it with :meth:`close` or ``async with``.
    ``backend`` is ``"sqlite"`` or ``"postgres"``; ``path`` the file (or the URL without its
    password). ``origin``: this opened store's unique name (``"hats-<hostname>-<pid>-<6
    hex>"``; on PostgreSQL the ``application_name`` of its connections, named by the change
    notifications of its writes, see :meth:`watch`; also a good ``claimer`` for
    ``timers.claim_due``). ``shared``: True when several processes may use the database at
    once (PostgreSQL), False for SQLite (one process).
    """

    def __init__(self, db: Any, schema_version: int, migrated_from: int) -> None:
        self._db: Database = db  # data.db.Database or data.pg.PgDatabase (same methods)
        self.backend = db.dialect.name
        self.path = db.path
        self.origin: str = db.origin
        self.shared: bool = self.backend == "postgres"
        self.schema_version = schema_version
        self.migrated_from = migrated_from
        self.lobbies = Lobbies(db)
        self.games = Games(db)
        self.steps = Steps(db)
        self.messages = Messages(db)
        self.timers = Timers(db)
        self.results = Results(db)
        self.snapshot = Snapshot(db)
        self.meta = Meta(db)
        self.guild_settings = GuildSettings(db)
        self.outbox = Outbox(db)
        self.history = History(db)
        self.gauges = Gauges(db)
        self.tournaments = Tournaments(db)

    async def watch(self, callback: Callable[[GameChange], None]) -> None:
        """Call ``callback(GameChange)`` for each change of a game, by any process (PostgreSQL).

        A change is reported after its transaction committed: a new step (``game_id``, ``seq``,
        the writer's ``origin``), a change of the game row, its seats or its messages (``seq``
        None). This store's own writes are reported too (compare ``origin``). Listens on a
        dedicated connection; when it is lost, the store reconnects (with backoff) and then
        calls ``callback(GameChange(None, None, ""))``: changes may have been missed, every
        cached game is suspect. Callbacks run on the event loop and must not block. Returns
        once listening. :meth:`close` stops it. SQLite: does nothing (one process).

        Raises StoreFault (CANNOT_OPEN) when the server cannot be reached for the listening
        connection.
        """
        await self._db.watch(callback)

    async def watch_lobbies(self, callback: Callable[[LobbyChange], None]) -> None:
        """Call ``callback(LobbyChange)`` for each change of a lobby, by any process (PostgreSQL).

        As :meth:`watch` (the same listening connection, this store's own writes reported
        too): ``LobbyChange(channel_id, origin)`` when a lobby was opened, changed or closed;
        ``LobbyChange(None, "")`` after the connection was lost. SQLite: does nothing.
        """
        await self._db.watch_lobbies(callback)

    async def close(self) -> None:
        """Stop watching, wait for running statements, close the connection(s) (idempotent)."""
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def integrity_check(self) -> list[str]:
        """``["ok"]`` for a sound database (SQLite: ``PRAGMA integrity_check``'s lines)."""
        return await self._db.integrity_check()

    async def backup(self, target: str | os.PathLike[str]) -> None:
        """Copy the whole database to a new file ``target`` while the bot runs (online backup).

        Uses SQLite's backup API, so the copy is a consistent snapshot. Raises FileExistsError
        rather than write over an existing file; NotImplementedError on PostgreSQL (use
        ``pg_dump``, docs/hosts.md "Data and backups").
        """
        if self.backend != "sqlite":
            raise NotImplementedError("back up a PostgreSQL store with pg_dump (see docs/hosts.md)")
        target_path = Path(target)
        if target_path.exists():
            raise FileExistsError(f"backup target {str(target_path)!r} already exists")
        dest = sqlite3.connect(target_path, check_same_thread=False)
        try:
            async with self._db.lock:
                await self._db.conn.backup(dest)
        finally:
            dest.close()


def _precheck(path: Path) -> None:
    """Refuse paths SQLite must not touch, before it opens (and perhaps creates) anything."""
    if path.is_dir():
        raise StoreUnreadable(path, "the path is a directory, not a database file")
    parent = path.absolute().parent
    if not parent.is_dir():
        raise StoreUnreadable(path, f"its directory {str(parent)!r} does not exist")
    if not path.exists():
        return
    try:
        with path.open("rb") as f:
            head = f.read(100)
    except OSError as exc:
        raise StoreUnreadable(path, f"it cannot be read ({exc.strerror})") from exc
    if head and not head.startswith(_HEADER):
        raise StoreCorrupted(path, "it is not an SQLite database (wrong file header)")
    if 0 < len(head) < 100:
        raise StoreCorrupted(path, "it is truncated (shorter than an SQLite header)")


def check_path(path: str | os.PathLike[str]) -> None:
    """Refuse a path that cannot be this bot's database, reading at most its first 100 bytes.

    Writes nothing and creates nothing (the bot checks this before it reaches Discord, and
    opens the store only once Discord accepted the token). Raises StoreUnreadable (a
    directory, a missing directory, unreadable) or StoreCorrupted (not an SQLite file).
    """
    _precheck(Path(path))


async def _pragma(conn: aiosqlite.Connection, sql: str) -> object:
    """The single value a PRAGMA returns."""
    rows = list(await conn.execute_fetchall(sql))
    return rows[0][0]


def _open_error(path: Path, exc: sqlite3.Error) -> StoreError:
    """The StoreError that explains an SQLite error met while opening."""
    if is_busy(exc):
        return StoreLocked(path, str(exc))
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code in _CORRUPT_CODES:
        return StoreCorrupted(path, f"SQLite reports {exc}")
    return StoreUnreadable(path, f"SQLite reports {exc}")


def store_target(path: str | os.PathLike[str], url: str | None) -> str | Path:
    """What :func:`open_store` should open: the PostgreSQL ``url`` when set, else ``path``."""
    return url if url else Path(path)


async def open_store(
    path: str | os.PathLike[str],
    *,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    check: bool = True,
) -> Store:
    """Open (or create) the database at ``path``, migrate it, and return the :class:`Store`.

    A ``postgresql://`` URL opens the PostgreSQL backend instead (:func:`data.pg.open_pg`:
    the database must exist; its schema is migrated; StoreFault of kind CANNOT_OPEN when the
    server is unreachable, the password is wrong or the database is missing). The rest of this
    docstring is about SQLite files.

    One aiosqlite connection: WAL journal, ``foreign_keys=ON``, ``busy_timeout``
    (``busy_timeout_ms``), ``synchronous=FULL`` (see the module docstring). With ``check``
    (default) ``PRAGMA quick_check`` runs first. Migrations run forward to the latest version.

    Raises (all :class:`~data.errors.StoreError`; the file is never replaced nor rewritten):
    StoreUnreadable (a directory, missing parent directory, no permission, read-only),
    StoreCorrupted (not an SQLite file, or the check fails), StoreLocked (another connection
    held the write lock past the busy timeout), StoreTooNew (schema newer than this code),
    StoreForeign (another program's database). Print the error and exit non-zero.
    """
    if isinstance(path, str) and path.startswith(("postgresql://", "postgres://")):
        from data.pg import open_pg  # asyncpg is imported only for PostgreSQL

        db, before, after = await open_pg(path)
        return Store(db, after, before)
    started = time.perf_counter()
    db_path = Path(path)
    _precheck(db_path)
    try:
        conn = await aiosqlite.connect(
            db_path, isolation_level=None, timeout=busy_timeout_ms / 1000
        )
    except sqlite3.Error as exc:
        raise _open_error(db_path, exc) from exc
    try:
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms):d}")
        version = int(await _pragma(conn, "PRAGMA user_version"))
        if version > LATEST_VERSION:
            raise StoreTooNew(db_path, version, LATEST_VERSION)
        if version == 0:
            tables = [
                r[0]
                for r in await conn.execute_fetchall(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                    " AND name NOT LIKE 'sqlite_%' ORDER BY name"
                )
            ]
            if tables:
                raise StoreForeign(db_path, tables)
        if check:
            lines = [r[0] for r in await conn.execute_fetchall("PRAGMA quick_check")]
            if lines != ["ok"]:
                problem = f"the integrity check failed: {'; '.join(map(str, lines[:3]))}"
                raise StoreCorrupted(db_path, problem)
        mode = await _pragma(conn, "PRAGMA journal_mode = WAL")
        if str(mode).lower() != "wal":
            raise StoreUnreadable(db_path, f"it cannot use the WAL journal (mode {mode!r})")
        await conn.execute("PRAGMA synchronous = FULL")
        await conn.execute("PRAGMA foreign_keys = ON")
        before, after = await migrate(conn)
        runtime_timeout = min(int(busy_timeout_ms), RUNTIME_BUSY_TIMEOUT_MS)
        await conn.execute(f"PRAGMA busy_timeout = {runtime_timeout:d}")
    except sqlite3.Error as exc:
        await conn.close()
        raise _open_error(db_path, exc) from exc
    except BaseException:
        await conn.close()
        raise
    log_opened(db_path, before, after, started)
    return Store(Database(conn, db_path), after, before)
