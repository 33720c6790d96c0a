"""The counts behind /metrics' gauges, on both backends; statements timed, faults counted."""

from __future__ import annotations

from prometheus_client import REGISTRY
from storetest_util import inject, new_game

from data import Store, StoreFault


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_gauges_count_live_games_open_lobbies_and_overdue_deadlines(store: Store):
    assert (await store.gauges.read(1000.0)).live_games == 0
    first, _ = await new_game(store, 10)
    second, _ = await new_game(store, 11)
    await store.games.abandon_game(second.id, at=5.0)
    await store.lobbies.create_lobby(1, 12, 100)
    await store.timers.set_timer("turn", 100.0, game_id=first.id, seat=0)
    await store.timers.set_timer("reminder", 900.0, game_id=first.id, seat=0)
    queries = sample("hats_store_seconds_count", op="query")
    counts = await store.gauges.read(500.0)
    assert (counts.live_games, counts.open_lobbies, counts.overdue_deadlines) == (1, 1, 1)
    assert sample("hats_store_seconds_count", op="query") == queries + 1


async def test_a_fault_is_counted_by_kind(store: Store):
    before = sample("hats_store_faults_total", kind="full")
    inject(store, "COUNT", "full")
    try:
        await store.gauges.read(0.0)
    except StoreFault:
        pass
    else:  # pragma: no cover
        raise AssertionError("the injected fault did not happen")
    assert sample("hats_store_faults_total", kind="full") == before + 1
