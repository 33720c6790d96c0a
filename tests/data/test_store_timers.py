"""Timers: deadlines that survive restarts, one per (owner, kind)."""

from __future__ import annotations

import pytest
from storetest_util import new_game

from data import Store, open_store


async def test_timers_survive_a_restart_and_come_due_in_order(store: Store, target):
    row, _ = await new_game(store, 10, seats=4)
    lobby = await store.lobbies.create_lobby(1, 20, 100)
    await store.timers.set_timer("turn", 200.0, game_id=row.id, seat=1, payload={"round": 2})
    await store.timers.set_timer("swap_offer", 150.0, game_id=row.id, seat=3)
    await store.timers.set_timer("expiry", 900.0, lobby_id=lobby.id)
    await store.close()
    async with await open_store(target) as again:
        due = await again.timers.list_due(200.0)
        assert [(t.kind, t.seat, t.due_at) for t in due] == [
            ("swap_offer", 3, 150.0),
            ("turn", 1, 200.0),
        ]
        assert due[1].payload == {"round": 2}
        assert await again.timers.list_due(149.9) == []
        assert [t.kind for t in await again.timers.list_all()] == ["swap_offer", "turn", "expiry"]


async def test_setting_a_timer_again_replaces_it(store: Store):
    row, _ = await new_game(store, 10)
    first = await store.timers.set_timer("turn", 100.0, game_id=row.id, seat=0)
    second = await store.timers.set_timer("turn", 160.0, game_id=row.id, seat=1)
    assert second.id == first.id
    (only,) = await store.timers.list_all()
    assert (only.seat, only.due_at) == (1, 160.0)
    got = await store.timers.get_timer("turn", game_id=row.id)
    assert got == only


async def test_clearing_a_timer(store: Store):
    row, _ = await new_game(store, 10)
    await store.timers.set_timer("turn", 100.0, game_id=row.id)
    await store.timers.set_timer("swap_offer", 100.0, game_id=row.id)
    assert await store.timers.clear_timer("turn", game_id=row.id)
    assert not await store.timers.clear_timer("turn", game_id=row.id)
    assert [t.kind for t in await store.timers.list_all()] == ["swap_offer"]


async def test_a_timer_needs_exactly_one_owner(store: Store):
    row, _ = await new_game(store, 10)
    lobby = await store.lobbies.create_lobby(1, 20, 100)
    with pytest.raises(ValueError):
        await store.timers.set_timer("turn", 1.0)
    with pytest.raises(ValueError):
        await store.timers.set_timer("turn", 1.0, game_id=row.id, lobby_id=lobby.id)
    assert await store.timers.list_all() == []


async def test_a_cancelled_lobby_takes_its_timers_along(store: Store):
    lobby = await store.lobbies.create_lobby(1, 20, 100)
    await store.timers.set_timer("expiry", 5.0, lobby_id=lobby.id)
    await store.lobbies.delete_lobby(lobby.id)
    assert await store.timers.list_all() == []
