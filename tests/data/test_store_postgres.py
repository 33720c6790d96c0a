"""The PostgreSQL backend itself: its migrations, its open errors, its placeholders, its races.

(Every repository test in this folder also runs on PostgreSQL through the ``target`` fixture;
these are the things only PostgreSQL has.)
"""

from __future__ import annotations

import asyncio
import socket

import asyncpg
import pytest
from pgfaults import PG_ERRORS
from storetest_util import new_game, raw_query, seat_specs

import data.migrations as sqlite_migrations
import data.migrations.postgres as pg_migrations
import data.pg as pg
from data import ChannelBusy, FaultKind, StoreFault, StoreForeign, StoreTooNew, open_store
from data.config import database_url
from data.pg import redact, translate
from engine import GameConfig

pytestmark = pytest.mark.postgres


def test_both_backends_have_the_same_numbered_migrations():
    assert [(m.version, m.name) for m in pg_migrations.MIGRATIONS] == [
        (m.version, m.name) for m in sqlite_migrations.MIGRATIONS
    ]


@pytest.mark.parametrize("kind", sorted(PG_ERRORS))
def test_every_postgres_fault_has_its_kind(kind):
    fault = pg.pg_fault(PG_ERRORS[kind]("x"), "postgresql://hats:***@db/hats")
    assert fault is not None and fault.kind is FaultKind(kind)
    assert "Nothing was written" in str(fault) and "postgresql://hats:***@db/hats" in str(fault)


def test_os_errors_are_cannot_open_and_constraints_and_bugs_are_not_faults():
    assert pg.pg_fault(ConnectionRefusedError(111, "refused"), "x").kind is FaultKind.CANNOT_OPEN
    assert pg.pg_fault(TimeoutError(), "x").kind is FaultKind.CANNOT_OPEN
    assert pg.pg_fault(asyncpg.UniqueViolationError("dup"), "x") is None
    assert pg.pg_fault(asyncpg.PostgresSyntaxError("syntax"), "x") is None
    assert pg.pg_fault(asyncpg.UndefinedColumnError("no column"), "x") is None
    assert pg.pg_fault(ValueError("bug"), "x") is None


def test_placeholders_become_dollar_numbers_outside_literals_and_casts():
    assert translate("SELECT ? , ? WHERE a = '?'") == ("SELECT $1 , $2 WHERE a = '?'", None)
    text, names = translate("SELECT :a, :b::text, ':c' WHERE x = :a")
    assert text == "SELECT $1, $2::text, ':c' WHERE x = $1" and names == ("a", "b")
    with pytest.raises(ValueError, match="mixes"):
        translate("SELECT ?, :a")


def test_the_url_setting_and_its_redaction():
    assert database_url({}) is None and database_url({"HATS_DATABASE_URL": " "}) is None
    url = "postgresql://hats:s3cret@db.example:5432/hats"
    assert database_url({"HATS_DATABASE_URL": url}) == url
    with pytest.raises(ValueError, match="HATS_DATABASE_URL"):
        database_url({"HATS_DATABASE_URL": "mysql://x"})
    assert "s3cret" not in redact(url) and redact(url).startswith("postgresql://hats:***@db")


async def test_an_empty_database_reaches_the_latest_version_and_reopens_without_migrating(
    pg_url: str,
):
    async with await open_store(pg_url) as store:
        assert (store.migrated_from, store.schema_version) == (0, pg_migrations.LATEST_VERSION)
        assert store.backend == "postgres" and await store.integrity_check() == ["ok"]
    async with await open_store(pg_url) as store:
        assert store.migrated_from == store.schema_version == pg_migrations.LATEST_VERSION
    versions = await raw_query(pg_url, "SELECT version FROM schema_version ORDER BY version")
    assert [v for (v,) in versions] == list(range(1, pg_migrations.LATEST_VERSION + 1))


async def test_two_processes_starting_together_migrate_once(pg_url: str):
    a, b = await asyncio.gather(open_store(pg_url), open_store(pg_url))
    try:
        latest = pg_migrations.LATEST_VERSION
        assert a.schema_version == b.schema_version == latest
        assert min(a.migrated_from, b.migrated_from) == 0  # each took turns, none twice:
    finally:
        await a.close()
        await b.close()
    versions = await raw_query(pg_url, "SELECT version FROM schema_version ORDER BY version")
    assert [v for (v,) in versions] == list(range(1, latest + 1))


async def test_a_failing_migration_leaves_the_previous_version_intact(pg_url, monkeypatch):
    async with await open_store(pg_url):
        pass
    latest = pg_migrations.LATEST_VERSION
    broken = sqlite_migrations.Migration(latest + 1, "broken", "CREATE TABLE half (a int);\nBAD;")
    monkeypatch.setattr(pg, "MIGRATIONS", (*pg_migrations.MIGRATIONS, broken))
    monkeypatch.setattr(pg, "LATEST_VERSION", latest + 1)
    with pytest.raises(asyncpg.PostgresSyntaxError):
        await open_store(pg_url)
    assert await raw_query(pg_url, "SELECT MAX(version) FROM schema_version") == [(latest,)]
    assert await raw_query(pg_url, "SELECT to_regclass('half')") == [(None,)]


async def test_a_newer_schema_is_refused(pg_url: str):
    async with await open_store(pg_url):
        pass
    await raw_query(
        pg_url,
        "INSERT INTO schema_version VALUES (?, 'future', 0)",
        (pg_migrations.LATEST_VERSION + 1,),
    )
    with pytest.raises(StoreTooNew, match="newer bot version"):
        await open_store(pg_url)


async def test_another_programs_database_is_refused_and_left_alone(pg_url: str):
    await raw_query(pg_url, "CREATE TABLE invoices (id int PRIMARY KEY)")
    with pytest.raises(StoreForeign, match="invoices") as info:
        await open_store(pg_url)
    assert "HATS_DATABASE_URL" in str(info.value)
    assert await raw_query(pg_url, "SELECT to_regclass('schema_version')") == [(None,)]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_an_unreachable_server_is_a_cannot_open_fault_naming_the_server():
    url = f"postgresql://hats:pw@127.0.0.1:{_closed_port()}/hats"
    with pytest.raises(StoreFault) as info:
        await open_store(url)
    assert info.value.kind is FaultKind.CANNOT_OPEN
    text = str(info.value)
    assert "unreachable" in text and "HATS_DATABASE_URL" in text and "pw@" not in text


async def test_a_wrong_password_is_an_authentication_failure(pg_server):
    with pytest.raises(StoreFault) as info:
        await open_store(pg_server.url(password="wrong"))
    assert info.value.kind is FaultKind.CANNOT_OPEN
    assert "authentication failed" in str(info.value) and "wrong" not in str(info.value)


async def test_a_missing_database_is_named_and_not_created(pg_server):
    with pytest.raises(StoreFault) as info:
        await open_store(pg_server.url("no_such_db"))
    assert info.value.kind is FaultKind.CANNOT_OPEN
    assert "does not exist" in str(info.value) and "createdb" in str(info.value)
    names = await raw_query(pg_server.url(), "SELECT datname FROM pg_database")
    assert ("no_such_db",) not in names


async def test_a_malformed_url_is_refused():
    with pytest.raises(StoreFault) as info:
        await open_store("postgresql://hats@localhost:notaport/hats")
    assert info.value.kind is FaultKind.CANNOT_OPEN


async def test_a_server_that_goes_away_is_a_cannot_open_fault_then_recovers(pg_url: str):
    async with await open_store(pg_url) as store:
        row, _ = await new_game(store, 10)
        killed = await raw_query(
            pg_url,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?",
            (store.origin,),
        )
        assert killed and all(ok for (ok,) in killed)
        outcome = None
        for _ in range(3):  # the pool replaces the dead connection after its first use
            try:
                outcome = await store.games.get_game(row.id)
                break
            except StoreFault as exc:
                assert exc.kind is FaultKind.CANNOT_OPEN
        assert outcome is not None and outcome.id == row.id


async def test_a_row_lock_held_elsewhere_is_answered_busy_within_the_lock_timeout(pg_url: str):
    async with await open_store(pg_url) as store:
        row, _ = await new_game(store, 10)
        other = await asyncpg.connect(
            pg_url.split("?")[0], server_settings={"search_path": pg_url.rsplit("=", 1)[1]}
        )
        try:
            async with other.transaction():
                await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", row.id)
                loop = asyncio.get_running_loop()
                started = loop.time()
                with pytest.raises(StoreFault) as info:
                    await store.games.abandon_game(row.id)
                assert info.value.kind is FaultKind.BUSY
                assert loop.time() - started < 3.0
        finally:
            await other.close()


async def test_a_lobby_and_a_game_racing_on_many_channels_never_share_one(pg_url: str):
    """The advisory-locked channel trigger: no channel ever gets both (READ COMMITTED)."""
    config = GameConfig(2, 1).to_dict()
    async with await open_store(pg_url) as a, await open_store(pg_url) as b:
        for channel in range(100, 130):
            outcomes = await asyncio.gather(
                a.lobbies.create_lobby(1, channel, 5),
                b.games.create_game(1, channel, config, seat_specs(2)),
                return_exceptions=True,
            )
            assert sum(not isinstance(o, BaseException) for o in outcomes) == 1, outcomes
            assert all(isinstance(o, ChannelBusy) for o in outcomes if isinstance(o, BaseException))


async def _schema(url: str) -> list[tuple]:
    return await raw_query(
        url,
        "SELECT table_name, column_name, data_type, is_nullable, column_default"
        " FROM information_schema.columns WHERE table_schema = current_schema()"
        " ORDER BY table_name, column_name",
    )


@pytest.mark.parametrize("version", range(pg_migrations.LATEST_VERSION))
async def test_every_earlier_version_migrates_forward_and_keeps_its_data(pg_server, version):
    old = await asyncio.to_thread(pg_server.create_schema, f"old_{version}")
    fresh = await asyncio.to_thread(pg_server.create_schema, f"new_{version}")
    try:
        conn = await asyncpg.connect(old)
        try:
            assert await pg.migrate_pg(conn, "old", target=version) == (0, version)
            if version >= 1:  # data an old bot stored: a lobby, a live game with two seats
                await conn.execute(
                    "INSERT INTO lobbies (id, guild_id, channel_id, host_id, created_at,"
                    " updated_at) VALUES (1, 1, 10, 100, 1.0, 1.0)"
                )
                await conn.execute(
                    "INSERT INTO games (id, guild_id, channel_id, config, created_at, updated_at)"
                    """ VALUES (1, 1, 20, '{"seats":2,"seed":5,"start_seat":null}', 2.0, 2.0)"""
                )
                await conn.execute(
                    "INSERT INTO game_seats (game_id, seat, user_id)"
                    " VALUES (1, 0, 100), (1, 1, 101)"
                )
        finally:
            await conn.close()
        latest = pg_migrations.LATEST_VERSION
        async with await open_store(old) as store:
            assert (store.migrated_from, store.schema_version) == (version, latest)
            if version >= 1:
                assert (await store.lobbies.get_lobby(1)).channel_id == 10
                assert (await store.games.get_game(1)).seed == 5
                step = {"seat": 0, "kind": "end_turn"}
                assert await store.steps.append_step(1, 0, step, at=3.0) == 0
                await store.timers.set_timer("turn", 9.0, game_id=1)
        async with await open_store(fresh):
            pass
        assert await _schema(old) == await _schema(fresh)
    finally:
        await asyncio.to_thread(pg_server.drop_schema, f"old_{version}")
        await asyncio.to_thread(pg_server.drop_schema, f"new_{version}")
