"""Fixtures for the store tests: a fresh store on each backend (SQLite file, PostgreSQL).

``target`` is what ``open_store`` opens: a file path in a temporary directory, or the URL of
a new database on the session's PostgreSQL server (tests marked ``postgres``). Every test that
uses ``store`` or ``target`` runs on both; ``db_path`` is for the SQLite-only tests.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import Store, open_store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "hats.sqlite3"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def target(request: pytest.FixtureRequest, db_path: Path) -> Path | str:
    if request.param == "sqlite":
        return db_path
    return request.getfixturevalue("pg_url")


@pytest.fixture
async def store(target: Path | str) -> AsyncIterator[Store]:
    async with await open_store(target) as s:
        yield s
