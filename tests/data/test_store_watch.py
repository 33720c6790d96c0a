"""Other processes' changes reach a store's watchers (PostgreSQL LISTEN/NOTIFY, issue 13).

No sleeps: each test waits for the change it expects on an asyncio.Event with a timeout.
Notifications arrive in commit order on one connection, so once a later change arrived, an
earlier one that was never reported was never sent.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re

import pytest
from storetest_util import new_game, raw_query

from data import FaultKind, GameChange, StaleSequence, StoreFault, TimerChange, open_store
from data.pg_watch import PgWatcher, parse_payload

END = {"seat": 0, "kind": "end_turn"}
WAIT_S = 10.0


class Changes:
    """A watch callback that records every change; :meth:`wait_for` one matching a test."""

    def __init__(self) -> None:
        self.seen: list[GameChange] = []
        self._arrived = asyncio.Event()

    def __call__(self, change: GameChange) -> None:
        self.seen.append(change)
        self._arrived.set()

    async def wait_for(self, wanted: GameChange) -> None:
        async def arrive() -> None:
            while wanted not in self.seen:
                self._arrived.clear()
                await self._arrived.wait()

        await asyncio.wait_for(arrive(), WAIT_S)

    def of(self, game_id: int) -> list[GameChange]:
        return [c for c in self.seen if c.game_id == game_id]


async def test_every_opened_store_has_its_own_origin(target):
    async with await open_store(target) as a, await open_store(target) as b:
        assert a.origin != b.origin
        assert re.fullmatch(r"hats-[A-Za-z0-9.-]+-\d+-[0-9a-f]{6}", a.origin)
        assert len(a.origin) <= 52
        assert a.shared is (a.backend == "postgres")


async def test_an_sqlite_store_watches_nothing(db_path):
    changes = Changes()
    async with await open_store(db_path) as store:
        await store.watch(changes)
        row, _ = await new_game(store, 10)
        await store.steps.append_step(row.id, 0, END, at=1.0)
    assert changes.seen == []


def test_payloads_become_game_changes():
    assert parse_payload("12 5 hats-a-1-abcdef") == GameChange(12, 5, "hats-a-1-abcdef")
    assert parse_payload("12 - hats-a-1-abcdef") == GameChange(12, None, "hats-a-1-abcdef")
    assert parse_payload("12 - with space") == GameChange(12, None, "with space")
    assert parse_payload("12 5") is None
    assert parse_payload("x 5 o") is None


@pytest.mark.postgres
async def test_the_pool_connections_are_named_by_the_origin(pg_url: str):
    async with await open_store(pg_url) as store:
        await store.games.list_live()
        names = await raw_query(
            pg_url,
            "SELECT application_name FROM pg_stat_activity WHERE application_name LIKE ?",
            (f"{store.origin}%",),
        )
        assert (store.origin,) in names


@pytest.mark.postgres
async def test_a_change_made_through_one_store_reaches_the_others_watcher(pg_url: str):
    async with await open_store(pg_url) as a, await open_store(pg_url) as b:
        changes = Changes()
        await b.watch(changes)
        row, _ = await new_game(a, 10)
        other, _ = await new_game(a, 11)
        await a.steps.append_step(row.id, 0, END, at=1.0)
        await changes.wait_for(GameChange(row.id, 0, a.origin))
        # With timers: the step's notification, sent at commit.
        await a.steps.append_step(row.id, 1, END, at=2.0, timers=[TimerChange("turn", 9.0)])
        await changes.wait_for(GameChange(row.id, 1, a.origin))
        # A refused append (rolled back) notifies nobody: the next change arrives alone.
        with pytest.raises(StaleSequence):
            await a.steps.append_step(row.id, 1, END, at=3.0, timers=[TimerChange("ai", 9.0)])
        await a.messages.set_message(other.id, "table", 11, 99)
        await changes.wait_for(GameChange(other.id, None, a.origin))
        assert changes.of(row.id) == [
            GameChange(row.id, 0, a.origin),
            GameChange(row.id, 1, a.origin),
        ]
        # Seats and the game row: no seq.
        seat = (await a.games.seats(row.id))[0]
        await a.games.update_seat(dataclasses.replace(seat, away=True))
        await changes.wait_for(GameChange(row.id, None, a.origin))
        # A seat changed alone, by a program without an application_name: origin "".
        await raw_query(pg_url, "UPDATE game_seats SET auto_turns = 3 WHERE game_id = ?", (row.id,))
        await changes.wait_for(GameChange(row.id, None, ""))
        # b's own writes are reported with b's origin.
        await b.games.abandon_game(other.id)
        await changes.wait_for(GameChange(other.id, None, b.origin))
        assert {c.origin for c in changes.seen} == {a.origin, b.origin, ""}


@pytest.mark.postgres
async def test_a_lost_listener_reconnects_and_reports_that_anything_may_have_changed(
    pg_url: str,
):
    async with await open_store(pg_url) as a, await open_store(pg_url) as b:
        changes = Changes()
        await b.watch(changes)
        killed = await raw_query(
            pg_url,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?",
            (f"{b.origin}/watch",),
        )
        assert killed == [(True,)]
        await changes.wait_for(GameChange(None, None, ""))
        # The new connection listens: a step made through the other store arrives.
        row, _ = await new_game(a, 10)
        await a.steps.append_step(row.id, 0, END, at=1.0)
        await changes.wait_for(GameChange(row.id, 0, a.origin))
    listening = await raw_query(
        pg_url,
        "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = ?",
        (f"{b.origin}/watch",),
    )
    assert listening == [(0,)]  # close() closed the listening connection too


async def test_watching_an_unreachable_server_is_a_cannot_open_fault():
    watcher = PgWatcher("postgresql://hats:pw@127.0.0.1:1/hats", "hats-test/watch")
    with pytest.raises(StoreFault) as info:
        await watcher.start()
    assert info.value.kind is FaultKind.CANNOT_OPEN and not watcher.started
    await watcher.close()
