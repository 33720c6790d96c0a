"""Driver errors leave the store as StoreFault(kind); a failed finish writes nothing; the outbox."""

from __future__ import annotations

import contextlib
import random
import sqlite3

import pytest
from storetest_util import inject, new_game, play_and_store

from data import (
    FaultKind,
    GameStatus,
    OutboxKind,
    Store,
    StoreFault,
    entries_from_game,
    open_store,
)
from data.db import fault_of
from engine import to_record
from tests.bot.faults import SQLITE_ERRORS, sqlite_error


@pytest.mark.parametrize("kind", sorted(SQLITE_ERRORS))
def test_every_sqlite_fault_has_its_kind(kind):
    assert fault_of(sqlite_error(kind)) is FaultKind(kind)


def test_constraint_and_programming_errors_are_not_faults():
    assert fault_of(sqlite3.IntegrityError("UNIQUE constraint failed")) is None
    assert fault_of(sqlite3.ProgrammingError("closed")) is None
    assert fault_of(sqlite3.OperationalError("no such table: x")) is FaultKind.OTHER
    assert fault_of(sqlite3.OperationalError("database or disk is full")) is FaultKind.FULL


@contextlib.asynccontextmanager
async def read_only(store: Store, target):
    """The store as the database's own read-only mode sees it (SQLITE_READONLY / SQLSTATE 25006).

    SQLite: ``PRAGMA query_only`` on the store's connection; PostgreSQL: a second store whose
    sessions are read-only (``default_transaction_read_only``).
    """
    if store.backend == "sqlite":
        await store._db.conn.execute("PRAGMA query_only = ON")
        try:
            yield store
        finally:
            await store._db.conn.execute("PRAGMA query_only = OFF")
        return
    async with await open_store(f"{target}&default_transaction_read_only=on") as ro:
        yield ro


async def test_a_read_only_store_raises_read_only_and_writes_nothing(store: Store, target):
    row, _ = await new_game(store, 10)
    async with read_only(store, target) as ro:
        with pytest.raises(StoreFault) as info:
            await ro.lobbies.create_lobby(1, 11, 5)
        assert info.value.kind is FaultKind.READ_ONLY and "Nothing was written" in str(info.value)
        with pytest.raises(StoreFault):
            await ro.games.abandon_game(row.id)
    assert (await store.games.get_game(row.id)).status is GameStatus.LIVE
    assert await store.lobbies.lobby_in_channel(11) is None


async def test_a_full_store_refuses_the_finish_with_its_last_step_as_a_whole(store: Store):
    row, game = await new_game(store, 10, seats=2)
    rng = random.Random(3)
    while True:
        probe = game.copy()
        probe.apply(probe.to_move, rng.choice(probe.legal_actions(probe.to_move)))
        if probe.is_over:
            break
        game = probe
        await store.steps.append_step(row.id, len(game.steps) - 1, game.steps[-1].to_dict(), at=0)
    seats = await store.games.seats(row.id)
    seq = len(game.steps)
    last = (seq, probe.steps[-1].to_dict(), "player")
    full = inject(store, r"INSERT INTO records", "full")  # after the step and the results
    with pytest.raises(StoreFault) as info:
        await store.results.finish_game(
            row.id, entries_from_game(probe, seats), to_record(probe), last_step=last
        )
    assert info.value.kind is FaultKind.FULL
    assert await store.steps.step_count(row.id) == seq  # the last step was not kept alone
    assert (await store.games.get_game(row.id)).status is GameStatus.LIVE
    assert await store.results.results_for_game(row.id) == []
    assert [i.kind for i in await store.outbox.pending(row.id)] == [OutboxKind.START]
    full.clear()
    done = await store.results.finish_game(
        row.id, entries_from_game(probe, seats), to_record(probe), last_step=last
    )
    assert done.status is GameStatus.FINISHED
    assert await store.steps.step_count(row.id) == seq + 1
    pending = await store.outbox.pending(row.id)
    assert [i.kind for i in pending] == [OutboxKind.START, OutboxKind.END]
    assert await store.outbox.mark_delivered(pending[1].id, at=1.0)
    assert not await store.outbox.mark_delivered(pending[1].id, at=2.0)  # once
    assert [i.kind for i in await store.outbox.pending()] == [OutboxKind.START]


async def test_a_stale_last_step_finishes_nothing(store: Store):
    row, game = await new_game(store, 10, seats=2)
    await play_and_store(store, row.id, game, random.Random(1), 3)
    seats = await store.games.seats(row.id)
    over = game.copy()
    rng = random.Random(2)
    while not over.is_over:
        over.apply(over.to_move, rng.choice(over.legal_actions(over.to_move)))
    from data import StaleSequence

    with pytest.raises(StaleSequence):
        await store.results.finish_game(
            row.id,
            entries_from_game(over, seats),
            to_record(over),
            last_step=(1, over.steps[-1].to_dict(), "player"),
        )
    assert (await store.games.get_game(row.id)).status is GameStatus.LIVE
