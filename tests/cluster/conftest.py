"""Fixtures of the cluster tests: stores on one PostgreSQL database (or SQLite file)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """What ``open_store`` opens: an SQLite file, or a fresh PostgreSQL schema's URL."""
    if request.param == "sqlite":
        return tmp_path / "hats.sqlite3"
    return request.getfixturevalue("pg_url")
