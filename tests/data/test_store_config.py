"""HATS_DB_PATH: where the database lives."""

from __future__ import annotations

from pathlib import Path

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
