"""A corrupted, unreadable or locked file at start-up: a clear error, the file left untouched."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from storetest_util import ROOT, file_digest, random_move, seat_specs

from data import GameImport, StoreCorrupted, StoreLocked, StoreUnreadable, open_store
from engine import Game, GameConfig


def siblings(path: Path) -> set[str]:
    return {p.name for p in path.parent.iterdir()}


async def make_store_with_games(path: Path, games: int = 20) -> None:
    """A database holding ``games`` live games of 40 random steps each (bulk import)."""
    rng = random.Random(4)
    imports = []
    for channel in range(games):
        config = GameConfig(3, channel)
        game = Game.new(config)
        for _ in range(40):
            random_move(game, rng)
        steps = [s.to_dict() for s in game.steps]
        imports.append(GameImport(1, channel, config.to_dict(), seat_specs(3), steps))
    async with await open_store(path) as store:
        await store.games.import_games(imports)


async def test_garbage_bytes_are_refused_and_left_unchanged(db_path: Path):
    db_path.write_bytes(random.Random(1).randbytes(64 * 1024))
    before = file_digest(db_path)
    with pytest.raises(StoreCorrupted) as info:
        await open_store(db_path)
    assert "not an SQLite database" in str(info.value)
    assert "backup" in str(info.value)  # says what to do
    assert file_digest(db_path) == before
    assert siblings(db_path) == {db_path.name}  # no -wal / -shm / new database beside it


async def test_a_truncated_header_is_refused(db_path: Path):
    db_path.write_bytes(b"SQLite format 3\x00\x10\x00")
    with pytest.raises(StoreCorrupted, match="truncated"):
        await open_store(db_path)
    assert db_path.read_bytes() == b"SQLite format 3\x00\x10\x00"


async def test_damaged_pages_behind_a_valid_header_are_refused(db_path: Path):
    await make_store_with_games(db_path)
    with sqlite3.connect(db_path) as conn:  # fold the WAL into the main file
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    assert pages > 6
    raw = bytearray(db_path.read_bytes())
    noise = random.Random(2).randbytes(page_size * 3)
    raw[page_size * 2 : page_size * 5] = noise  # pages 3–5: tables and indexes
    db_path.write_bytes(bytes(raw))
    before = file_digest(db_path)
    with pytest.raises(StoreCorrupted):
        await open_store(db_path)
    assert file_digest(db_path) == before


async def test_a_directory_at_the_path_is_unreadable(db_path: Path):
    db_path.mkdir()
    with pytest.raises(StoreUnreadable, match="directory") as info:
        await open_store(db_path)
    assert "HATS_DB_PATH" in str(info.value)
    assert list(db_path.iterdir()) == []


async def test_a_missing_directory_is_not_created(tmp_path: Path):
    path = tmp_path / "nowhere" / "hats.sqlite3"
    with pytest.raises(StoreUnreadable, match="does not exist"):
        await open_store(path)
    assert not path.parent.exists()


async def test_a_file_locked_by_another_connection_is_refused(db_path: Path):
    await make_store_with_games(db_path, games=2)
    before = file_digest(db_path)
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StoreLocked) as info:
            await open_store(db_path, busy_timeout_ms=50)
        assert "Another process" in str(info.value)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert file_digest(db_path) == before
    async with await open_store(db_path) as store:  # usable again once released
        assert len(await store.games.list_live()) == 2


async def test_a_locked_rollback_journal_database_is_refused(db_path: Path):
    """An SQLite file not yet in WAL mode (e.g. from a tool) held EXCLUSIVE by another program."""
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA user_version = 0")
        conn.execute("VACUUM")  # a valid, empty, rollback-journal database file
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        before = file_digest(db_path)
        with pytest.raises(StoreLocked):
            await open_store(db_path, busy_timeout_ms=50)
        assert file_digest(db_path) == before
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_the_process_exits_non_zero_with_the_message(db_path: Path):
    """What the bot's start-up does with a StoreError: print it, exit non-zero, write nothing."""
    db_path.write_bytes(b"this is not a database" * 100)
    before = file_digest(db_path)
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "crash_writer.py"), str(db_path), "1"],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert "not an SQLite database" in done.stderr
    assert done.stdout == ""
    assert file_digest(db_path) == before
