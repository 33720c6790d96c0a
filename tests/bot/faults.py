"""Store faults for the bot tests: SQLite's own errors raised on chosen statements.

``inject(store, pattern, kind)`` makes every statement whose SQL (followed by a repr of its
parameters) matches ``pattern`` (a regex, case-insensitive; ``"COMMIT"`` for any write
transaction's commit) fail with the error SQLite
raises for that condition (same class, message and ``sqlite_errorcode``), until ``clear()``.
Only the connection's three statement methods are wrapped; everything else is the real
aiosqlite connection, so transactions, rollbacks and the mapping in data/db.py run for real.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from typing import Any

SQLITE_ERRORS = {
    "full": (sqlite3.OperationalError, sqlite3.SQLITE_FULL, "database or disk is full"),
    "read_only": (
        sqlite3.OperationalError,
        sqlite3.SQLITE_READONLY,
        "attempt to write a readonly database",
    ),
    "io": (sqlite3.OperationalError, sqlite3.SQLITE_IOERR, "disk I/O error"),
    "corrupt": (sqlite3.DatabaseError, sqlite3.SQLITE_CORRUPT, "database disk image is malformed"),
    "busy": (sqlite3.OperationalError, sqlite3.SQLITE_BUSY, "database is locked"),
    "cannot_open": (sqlite3.OperationalError, sqlite3.SQLITE_CANTOPEN, "unable to open database"),
}


def sqlite_error(kind: str) -> sqlite3.Error:
    """The exception SQLite raises for ``kind`` (a data.FaultKind value)."""
    cls, code, text = SQLITE_ERRORS[kind]
    exc = cls(text)
    exc.sqlite_errorcode = code
    exc.sqlite_errorname = kind
    return exc


class _Faulty:
    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.rules: list[tuple[re.Pattern[str], str, bool]] = []
        self.hits = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def _check(self, sql: str, args: tuple[Any, ...], *, after: bool) -> None:
        text = f"{sql} {args!r}"
        for rule in self.rules:
            pattern, kind, when_done = rule[:3]
            if when_done == after and pattern.search(text):
                self.hits += 1
                if len(rule) > 3:  # a fault that fails only a number of statements
                    rule[3][0] -= 1
                    if rule[3][0] <= 0:
                        self.rules.remove(rule)
                raise sqlite_error(kind)

    async def _run(self, method: str, sql: str, args: tuple[Any, ...]) -> Any:
        self._check(sql, args, after=False)
        result = await getattr(self._conn, method)(sql, *args)
        self._check(sql, args, after=True)
        return result

    async def execute(self, sql: str, *args: Any) -> Any:
        return await self._run("execute", sql, args)

    async def execute_fetchall(self, sql: str, *args: Any) -> Any:
        return await self._run("execute_fetchall", sql, args)

    async def executemany(self, sql: str, *args: Any) -> Any:
        return await self._run("executemany", sql, args)


class Fault:
    """An injected fault; ``hits`` counts the statements it failed."""

    def __init__(
        self, store: Any, pattern: str, kind: str, *, after: bool = False, times: int | None = None
    ) -> None:
        db = store._db
        if not isinstance(db.conn, _Faulty):
            db.conn = _Faulty(db.conn)
        self._faulty: _Faulty = db.conn
        self._rule: tuple[Any, ...] = (re.compile(pattern, re.IGNORECASE | re.DOTALL), kind, after)
        if times is not None:
            self._rule += ([times],)
        self._faulty.rules.append(self._rule)
        self._start = self._faulty.hits

    @property
    def hits(self) -> int:
        return self._faulty.hits - self._start

    def clear(self) -> None:
        if self._rule in self._faulty.rules:
            self._faulty.rules.remove(self._rule)


def inject(
    store: Any, pattern: str, kind: str, *, after: bool = False, times: int | None = None
) -> Fault:
    """Fail statements matching ``pattern`` with SQLite's ``kind`` error until ``clear()``.

    ``times``: fail only that many matching statements, then none (a database back up).

    ``after``: the statement runs (and an autocommit statement commits) before the error is
    raised, as when an I/O error is reported after the data reached the file.
    """
    return Fault(store, pattern, kind, after=after, times=times)


def warnings_and_errors(caplog) -> tuple[list[logging.LogRecord], list[logging.LogRecord]]:
    """The bot's WARNING records and its ERROR-or-worse records (or any with a traceback)."""
    ours = [r for r in caplog.records if r.name.startswith(("hats", "discord"))]
    warnings = [r for r in ours if r.levelno == logging.WARNING]
    bad = [r for r in ours if r.levelno >= logging.ERROR or r.exc_info]
    return warnings, bad
