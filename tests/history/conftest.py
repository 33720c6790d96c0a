"""Fixtures for the store tests: a fresh store in a temporary directory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import Store, open_store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "hats.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    async with await open_store(db_path) as s:
        yield s
