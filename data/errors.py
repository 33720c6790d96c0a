"""Errors raised by the store: start-up failures and the refusals that keep the data consistent."""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "ChannelBusy",
    "GameNotFound",
    "GameNotLive",
    "LobbyNotFound",
    "ReplayFailed",
    "StaleSequence",
    "StoreCorrupted",
    "StoreError",
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

    def __init__(self, path: Path, problem: str, advice: str) -> None:
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
            "Stop the bot and restore the file from a backup (see README, 'Data'); "
            "the damaged file was not modified.",
        )


class StoreUnreadable(StoreOpenError):
    """The path cannot be opened: a directory, a missing parent directory, no permission."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(
            path,
            problem,
            "Check HATS_DB_PATH and the file's permissions; nothing was written.",
        )


class StoreLocked(StoreError):
    """Another connection held the database's write lock for longer than the busy timeout.

    At start-up this usually means a second bot (or a long-running sqlite3 shell) uses the same
    file. ``path`` is the database path.
    """

    def __init__(self, path: Path, detail: str = "the database is locked") -> None:
        self.path = path
        super().__init__(
            f"database {str(path)!r}: {detail}. Another process (a second bot, an open sqlite3 "
            "shell in a transaction) holds its write lock; stop it and start again. "
            "Nothing was written."
        )


class StoreTooNew(StoreOpenError):
    """The schema version is newer than this code knows (migrations only go forward)."""

    def __init__(self, path: Path, found: int, known: int) -> None:
        self.found = found
        self.known = known
        super().__init__(
            path,
            f"its schema version is {found} but this bot only knows versions up to {known}",
            "Run the newer bot version that wrote it, or restore an older backup.",
        )


class StoreForeign(StoreOpenError):
    """The file is an SQLite database but not one of this bot's (tables and no schema version)."""

    def __init__(self, path: Path, tables: list[str]) -> None:
        self.tables = tables
        super().__init__(
            path,
            f"it is an SQLite database of another program (tables: {', '.join(tables[:5])})",
            "Point HATS_DB_PATH at a new or an existing Hats database file.",
        )


# --------------------------------------------------------------------------- refusals
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
