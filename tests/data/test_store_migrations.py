"""Schema migrations: numbered, forward only, from an empty file and from every earlier version."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import pytest
from storetest_util import file_digest

import data.migrations as migrations
from data import StoreForeign, StoreTooNew, open_store
from data.migrations import LATEST_VERSION, MIGRATIONS, Migration, migrate, split_statements


def schema(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND sql IS NOT NULL"
        ).fetchall()
    return dict(rows)


async def build_version(path: Path, version: int) -> None:
    """A database at ``version``: an old bot's file, built by its first ``version`` migrations."""
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await conn.execute("PRAGMA foreign_keys = ON")
        assert await migrate(conn, target=version) == (0, version)
        if version >= 1:  # data an old bot stored: a lobby, a live game with two steps
            await conn.execute(
                "INSERT INTO lobbies (id, guild_id, channel_id, host_id, created_at, updated_at)"
                " VALUES (1, 1, 10, 100, 1.0, 1.0)"
            )
            await conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, config, created_at, updated_at)"
                """ VALUES (1, 1, 20, '{"seats":2,"seed":5,"start_seat":null}', 2.0, 2.0)"""
            )
            await conn.execute(
                "INSERT INTO game_seats (game_id, seat, user_id) VALUES (1, 0, 100), (1, 1, 101)"
            )


def test_migrations_are_numbered_from_one_without_gaps():
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST_VERSION + 1))
    assert LATEST_VERSION >= 3


def test_split_keeps_trigger_bodies_whole():
    statements = MIGRATIONS[0].statements()
    triggers = [s for s in statements if "CREATE TRIGGER" in s]
    assert len(triggers) == 2
    assert all(t.rstrip().endswith("END;") for t in triggers)
    assert split_statements("-- only a comment\n") == []
    with pytest.raises(ValueError, match="unfinished"):
        split_statements("CREATE TABLE t (a")


async def test_an_empty_file_reaches_the_latest_version(db_path: Path):
    db_path.touch()
    async with await open_store(db_path) as store:
        assert (store.migrated_from, store.schema_version) == (0, LATEST_VERSION)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("version", range(LATEST_VERSION))
async def test_every_earlier_version_migrates_forward_and_keeps_its_data(
    tmp_path: Path, version: int
):
    old, fresh = tmp_path / "old.sqlite3", tmp_path / "fresh.sqlite3"
    await build_version(old, version)
    async with await open_store(old) as store:
        assert (store.migrated_from, store.schema_version) == (version, LATEST_VERSION)
        if version >= 1:
            lobby = await store.lobbies.get_lobby(1)
            assert lobby is not None and lobby.channel_id == 10
            game = await store.games.get_game(1)
            assert game is not None and game.seed == 5
            assert await store.steps.append_step(1, 0, {"seat": 0, "kind": "end_turn"}, at=3.0) == 0
            await store.timers.set_timer("turn", 9.0, game_id=1)  # version 3's table works
    async with await open_store(fresh):
        pass
    assert schema(old) == schema(fresh)


async def test_reopening_does_not_migrate_again(db_path: Path):
    async with await open_store(db_path):
        pass
    async with await open_store(db_path) as store:
        assert (store.migrated_from, store.schema_version) == (LATEST_VERSION, LATEST_VERSION)


async def test_a_failing_migration_leaves_the_previous_version_intact(db_path, monkeypatch):
    broken = Migration(LATEST_VERSION + 1, "broken", "CREATE TABLE half (a);\nCREATE TABLE (;\n")
    monkeypatch.setattr(migrations, "MIGRATIONS", (*MIGRATIONS, broken))
    monkeypatch.setattr(migrations, "LATEST_VERSION", LATEST_VERSION + 1)
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(conn)
        rows = list(await conn.execute_fetchall("PRAGMA user_version"))
        assert rows[0][0] == LATEST_VERSION
        tables = [r[0] for r in await conn.execute_fetchall("SELECT name FROM sqlite_master")]
        assert "half" not in tables


async def test_a_newer_schema_is_refused_and_left_alone(db_path: Path):
    async with await open_store(db_path):
        pass
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    before = file_digest(db_path)
    with pytest.raises(StoreTooNew, match="newer bot version"):
        await open_store(db_path)
    assert file_digest(db_path) == before


async def test_another_programs_database_is_refused_and_left_alone(db_path: Path):
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    before = file_digest(db_path)
    with pytest.raises(StoreForeign, match="invoices"):
        await open_store(db_path)
    assert file_digest(db_path) == before
