"""Fault injection for the PostgreSQL store: asyncpg's own error classes on matching SQL.

The store's pool is wrapped so that statements matching a pattern raise the asyncpg exception
of a fault kind (the real classes, with their SQLSTATE) instead of running; the transaction
machinery (rollback) and the mapping in data/pg.py run for real.
"""

from __future__ import annotations

import re
from typing import Any

import asyncpg.exceptions as pgx

PG_ERRORS: dict[str, type[Exception]] = {
    "full": pgx.DiskFullError,
    "read_only": pgx.ReadOnlySQLTransactionError,
    "io": pgx.PostgresIOError,
    "corrupt": pgx.DataCorruptedError,
    "busy": pgx.LockNotAvailableError,
    "cannot_open": pgx.ConnectionDoesNotExistError,
}


class _Conn:
    def __init__(self, conn: Any, rules: list) -> None:
        self._conn = conn
        self._rules = rules

    def _check(self, sql: str) -> None:
        for pattern, kind in self._rules:
            if pattern.search(sql):
                raise PG_ERRORS[kind](f"injected {kind}")

    async def fetch(self, sql: str, *args: Any) -> Any:
        self._check(sql)
        return await self._conn.fetch(sql, *args)

    async def executemany(self, sql: str, args: Any) -> Any:
        self._check(sql)
        return await self._conn.executemany(sql, args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


class _Acquire:
    def __init__(self, ctx: Any, rules: list) -> None:
        self._ctx = ctx
        self._rules = rules

    async def __aenter__(self) -> _Conn:
        return _Conn(await self._ctx.__aenter__(), self._rules)

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._ctx.__aexit__(*exc)


class _Pool:
    def __init__(self, pool: Any) -> None:
        self._pool = pool
        self.rules: list = []

    def acquire(self) -> _Acquire:
        return _Acquire(self._pool.acquire(), self.rules)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pool, name)


class PgFault:
    def __init__(self, pool: _Pool, rule: tuple) -> None:
        self._pool = pool
        self._rule = rule

    def clear(self) -> None:
        if self._rule in self._pool.rules:
            self._pool.rules.remove(self._rule)


def inject_pg(store: Any, pattern: str, kind: str) -> PgFault:
    """Fail statements of ``store`` matching ``pattern`` with the ``kind`` error until clear()."""
    db = store._db
    if not isinstance(db.pool, _Pool):
        db.pool = _Pool(db.pool)
    rule = (re.compile(pattern, re.IGNORECASE | re.DOTALL), kind)
    db.pool.rules.append(rule)
    return PgFault(db.pool, rule)
