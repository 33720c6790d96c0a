"""``python -m data migrate-to URL``: an SQLite store copied into PostgreSQL, exactly."""

from __future__ import annotations

import dataclasses
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from storetest_util import ROOT, new_game, play_and_store, play_to_end, raw_query

from data import MessageRole, Store, entries_from_game, open_store, restore
from data.copy import TABLES, VerifyFailed, verify_copy
from engine import to_record

pytestmark = pytest.mark.postgres


async def fill(store: Store) -> None:
    """Something of everything: lobbies, live and finished games, timers, messages, settings."""
    rng = random.Random(4)
    lobby = await store.lobbies.create_lobby(1, 900, 7, {"turn_seconds": 60})
    await store.timers.set_timer("expiry", 50.0, lobby_id=lobby.id)
    for channel in range(10, 22):
        row, game = await new_game(store, channel, seats=2 + channel % 3, seed=channel)
        await play_and_store(store, row.id, game, rng, rng.randint(0, 40))
        await store.messages.set_message(row.id, MessageRole.TABLE, channel, 10**17 + channel)
        await store.messages.set_message(row.id, MessageRole.DM, 555, 10**17 + 1, seat=0)
        await store.timers.set_timer("turn", 100.5 + channel, game_id=row.id, seat=0)
        if channel % 4 == 0:
            seats = await store.games.seats(row.id)
            seats = [dataclasses.replace(seats[0], away=True, auto_turns=2), *seats[1:]]
            await store.games.update_seat(seats[0])
        if channel % 5 == 0 and not game.is_over:
            seq = len(game.steps)
            play_to_end(game, rng)
            for s in range(seq, len(game.steps)):
                await store.steps.append_step(row.id, s, game.steps[s].to_dict(), at=1.0)
            seats = await store.games.seats(row.id)
            await store.results.finish_game(row.id, entries_from_game(game, seats), to_record(game))
    await store.games.abandon_game((await store.games.live_game_in_channel(11)).id)
    assert await store.history.process_pending()  # ratings and history rows are copied too
    await store.meta.set("commands_synced:global", "abc")
    await store.guild_settings.set_language(1, "de", at=3.0)
    for item in (await store.outbox.pending())[:3]:
        await store.outbox.mark_delivered(item.id, at=4.0)


def migrate(url: str, source: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "data", "migrate-to", url, "--from", str(source), *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_table_of_the_schema_is_copied(db_path: Path):
    import asyncio

    async def make() -> None:
        async with await open_store(db_path):
            pass

    asyncio.run(make())
    with sqlite3.connect(db_path) as conn:
        tables = {
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
    assert tables == {t for t, _ in TABLES}


async def test_a_copied_store_rebuilds_every_live_game_identically(db_path: Path, pg_url: str):
    async with await open_store(db_path) as src:
        await fill(src)
        before = await restore(src)
    run = migrate(pg_url, db_path)
    assert run.returncode == 0, run.stderr
    assert "Verified" in run.stdout and "steps" in run.stdout
    async with await open_store(pg_url) as dst, await open_store(db_path) as src:
        after = await restore(dst)
        assert [g.game.snapshot() for g in after.games] == [g.game.snapshot() for g in before.games]
        assert after.lobbies == before.lobbies and after.timers == before.timers
        assert await dst.results.user_stats(500) == await src.results.user_stats(500)
        assert await dst.guild_settings.languages() == {1: "de"}
        # the copy goes on numbering after the copied ids
        lobby = await dst.lobbies.create_lobby(1, 901, 8)
        assert lobby.id > before.lobbies[-1].id
        row, _ = await new_game(dst, 902)
        assert row.id > max(g.live.row.id for g in before.games)


async def test_a_target_with_data_is_refused_unless_replace(db_path: Path, pg_url: str):
    async with await open_store(db_path) as src:
        await fill(src)
    async with await open_store(pg_url) as dst:
        await dst.lobbies.create_lobby(1, 12345, 1)
    run = migrate(pg_url, db_path)
    assert run.returncode == 2 and "already holds Hats data" in run.stderr
    assert await raw_query(pg_url, "SELECT COUNT(*) FROM games") == [(0,)]  # nothing written
    run = migrate(pg_url, db_path, "--replace")
    assert run.returncode == 0, run.stderr
    assert await raw_query(pg_url, "SELECT channel_id FROM lobbies") == [(900,)]


async def test_a_copy_that_differs_is_caught(db_path: Path, pg_url: str):
    async with await open_store(db_path) as src:
        await fill(src)
    assert migrate(pg_url, db_path).returncode == 0
    await raw_query(pg_url, "UPDATE steps SET at = 9 WHERE seq = 0 AND game_id = 2")
    async with await open_store(pg_url) as dst, await open_store(db_path) as src:
        with pytest.raises(VerifyFailed, match="steps: 1 rows differ"):
            await verify_copy(src, dst)


def test_an_unreachable_target_exits_3(db_path: Path):
    db_path.touch()
    run = migrate("postgresql://hats:pw@127.0.0.1:1/hats", db_path)
    assert run.returncode == 3 and "unreachable" in run.stderr and "pw@" not in run.stderr
