"""Errors raised by the store: start-up failures and the refusals that keep the data consistent."""

from __future__ import annotations

import enum
from pathlib import Path

from telemetry.metrics import STORE_FAULTS

__all__ = [
    "ChannelBusy",
    "ConstraintViolated",
    "FaultKind",
    "GameNotFound",
    "GameNotLive",
    "LobbyNotFound",
    "ReplayFailed",
    "StaleSequence",
    "StoreCorrupted",
    "StoreError",
    "StoreFault",
    "StoreForeign",
    "StoreLocked",
    "StoreOpenError",
    "StoreTooNew",
    "StoreUnreadable",
]


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


# --------------------------------------------------------------------------- start-up
class StoreOpenError(StoreError):
    """The database file cannot be used; the file is left exactly as it was.

    ``path`` is the database path; the message says what is wrong and what to do. The bot
    should print it and exit with a non-zero status, never create a new database instead.
    """

    def __init__(self, path: Path | str, problem: str, advice: str) -> None:
        self.path = path
        self.problem = problem
        self.advice = advice
        super().__init__(f"database {str(path)!r}: {problem}. {advice}")


class StoreCorrupted(StoreOpenError):
    """The file is not an SQLite database, or fails SQLite's integrity check."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(
            path,
            problem,
            "Stop the bot and restore the file from a backup (see docs/hosts.md, "
            "'Data and backups'); the damaged file was not modified.",
        )


class StoreUnreadable(StoreOpenError):
    """The path cannot be opened: a directory, a missing parent directory, no permission."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(
            path,
            problem,
            "Check HATS_DB_PATH and the file's permissions; nothing was written.",
        )


# --------------------------------------------------------------------------- faults
class FaultKind(enum.StrEnum):
    """Why the database refused a statement, independent of the driver (SQLite today).

    A driver's error is mapped to one kind (``data.db.fault_of`` for sqlite3); the bot words
    its private answers and its one WARNING line by kind.
    """

    FULL = "full"
    """The disk (or the database's size limit) is full: SQLITE_FULL, ENOSPC."""
    READ_ONLY = "read_only"
    """The file or its directory cannot be written: SQLITE_READONLY, EROFS, no permission."""
    IO = "io"
    """The operating system reported an I/O error: SQLITE_IOERR."""
    CORRUPT = "corrupt"
    """The file is damaged or not a database: SQLITE_CORRUPT, SQLITE_NOTADB."""
    BUSY = "busy"
    """Another connection held a lock past the busy timeout: SQLITE_BUSY, SQLITE_LOCKED."""
    CANNOT_OPEN = "cannot_open"
    """The file (or its journal) cannot be opened: SQLITE_CANTOPEN, a missing directory."""
    OTHER = "other"
    """Any other driver error (an unexpected one: its text is logged)."""


_FAULT_ADVICE = {
    FaultKind.FULL: "The disk is full: free some space; the bot carries on by itself.",
    FaultKind.READ_ONLY: "The file cannot be written: check its permissions and the mount.",
    FaultKind.IO: "The disk reported an I/O error: check the disk and the system log.",
    FaultKind.CORRUPT: "The file is damaged: stop the bot and restore a backup (docs/hosts.md).",
    FaultKind.BUSY: (
        "Another process (a second bot, an open sqlite3 shell in a transaction) holds its "
        "write lock; stop it."
    ),
    FaultKind.CANNOT_OPEN: "The file cannot be opened: check HATS_DB_PATH and its directory.",
    FaultKind.OTHER: "See the driver's message.",
}


class StoreFault(StoreError):
    """The database refused a statement: the transaction was rolled back, nothing was written.

    ``kind`` (:class:`FaultKind`) says why; ``detail`` is the driver's own message; ``path`` the
    database file (SQLite) or the server's URL without its password (PostgreSQL); ``advice``
    what to do (default: the SQLite advice of the kind). Raised by every repository method in
    place of the driver's exception (sqlite3.OperationalError / DatabaseError, asyncpg's
    PostgresError, OSError), so callers never import the driver. Each one made is counted in
    ``hats_store_faults_total{kind}`` (it is made only to be raised).
    """

    def __init__(
        self, path: Path | str, kind: FaultKind, detail: str, advice: str | None = None
    ) -> None:
        STORE_FAULTS.labels(kind.value).inc()
        self.path = path
        self.kind = kind
        self.detail = detail
        super().__init__(
            f"database {str(path)!r}: {detail} ({kind.value}). "
            f"{advice or _FAULT_ADVICE[kind]} Nothing was written."
        )


class StoreLocked(StoreFault):
    """Another connection held the database's write lock for longer than the busy timeout.

    At start-up this usually means a second bot (or a long-running sqlite3 shell) uses the same
    file. ``path`` is the database path. A :class:`StoreFault` of kind ``BUSY``.
    """

    def __init__(
        self, path: Path | str, detail: str = "the database is locked", advice: str | None = None
    ) -> None:
        super().__init__(path, FaultKind.BUSY, detail, advice)


class StoreTooNew(StoreOpenError):
    """The schema version is newer than this code knows (migrations only go forward)."""

    def __init__(self, path: Path | str, found: int, known: int) -> None:
        self.found = found
        self.known = known
        super().__init__(
            path,
            f"its schema version is {found} but this bot only knows versions up to {known}",
            "Run the newer bot version that wrote it, or restore an older backup.",
        )


class StoreForeign(StoreOpenError):
    """The database has tables but no schema version: another program's (SQLite or PostgreSQL)."""

    def __init__(self, path: Path | str, tables: list[str]) -> None:
        self.tables = tables
        postgres = isinstance(path, str) and path.startswith("postgres")
        super().__init__(
            path,
            f"it is {'a PostgreSQL' if postgres else 'an SQLite'} database of another program"
            f" (tables: {', '.join(tables[:5])})",
            "Point HATS_DATABASE_URL at an empty database (createdb) or an existing Hats one."
            if postgres
            else "Point HATS_DB_PATH at a new or an existing Hats database file.",
        )


# --------------------------------------------------------------------------- refusals
class ConstraintViolated(StoreError):
    """A statement broke a constraint (unique key, foreign key, check); nothing was written.

    Raised in place of the driver's integrity error (sqlite3.IntegrityError, asyncpg's
    IntegrityConstraintViolationError) so the repositories stay driver-free; they turn the
    expected ones into refusals (ChannelBusy, StaleSequence). ``constraint`` names the broken
    constraint when the driver says (PostgreSQL), else ""; ``detail`` is the driver's message.
    """

    def __init__(self, detail: str, constraint: str = "") -> None:
        self.detail = detail
        self.constraint = constraint
        super().__init__(f"{detail} ({constraint})" if constraint else detail)

    def names(self, *needles: str) -> bool:
        """True when the message or the constraint name contains one of ``needles``."""
        text = f"{self.detail} {self.constraint}"
        return any(n in text for n in needles)


class StaleSequence(StoreError):
    """An appended step carried the wrong sequence number; nothing was written.

    ``expected`` is the number the caller sent; ``actual`` is the number the next step must
    carry (the count of stored steps). A double click or a race lands here.
    """

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"game {game_id}: step {expected} is stale, the next step is number {actual}"
        )


class ChannelBusy(StoreError):
    """The channel already has an open lobby or a live game (one of either per channel)."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        super().__init__(f"channel {channel_id} already has an open lobby or a live game")


class LobbyNotFound(StoreError):
    """No open lobby has this id (cancelled, started, or never created)."""

    def __init__(self, lobby_id: int) -> None:
        self.lobby_id = lobby_id
        super().__init__(f"no open lobby {lobby_id}")


class GameNotFound(StoreError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"no game {game_id}")


class GameNotLive(StoreError):
    """The game is finished or abandoned; steps and results can no longer be written."""

    def __init__(self, game_id: int, status: str) -> None:
        self.game_id = game_id
        self.status = status
        super().__init__(f"game {game_id} is {status}, not live")


class ReplayFailed(StoreError):
    """A stored game could not be rebuilt: a step did not decode or is illegal in the engine.

    ``seq`` is the failing step's sequence number (None when the config itself is bad).
    """

    def __init__(self, game_id: int, seq: int | None, reason: str) -> None:
        self.game_id = game_id
        self.seq = seq
        self.reason = reason
        where = f"step {seq}" if seq is not None else "config"
        super().__init__(f"game {game_id} does not replay at {where}: {reason}")
