"""HATS_DB_PATH: where the database lives; PostgreSQL tests never skip under CI."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.config import database_path


def test_the_default_is_hats_sqlite3_in_the_working_directory():
    assert database_path({}) == Path("hats.sqlite3")
    assert database_path({"HATS_DB_PATH": "  "}) == Path("hats.sqlite3")


def test_hats_db_path_sets_it():
    assert database_path({"HATS_DB_PATH": "/var/lib/hats/bot.sqlite3"}) == Path(
        "/var/lib/hats/bot.sqlite3"
    )
    assert database_path({"HATS_DB_PATH": "~/hats.sqlite3"}) == Path.home() / "hats.sqlite3"


def test_the_default_file_is_ignored_by_git():
    root = Path(__file__).resolve().parents[2]
    patterns = (root / ".gitignore").read_text().split()
    assert "*.sqlite3" in patterns and "*.sqlite3-*" in patterns  # the file, its -wal and -shm


def test_under_ci_a_postgres_server_that_cannot_start_fails_instead_of_skipping(monkeypatch):
    from tests.conftest import unavailable

    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI: PostgreSQL could not start"):
        unavailable("initdb not found")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        unavailable("initdb not found")
