"""Appending steps: the sequence check makes double clicks and races harmless."""

from __future__ import annotations

import asyncio
import random

import pytest
from storetest_util import new_game, play_and_store, random_move, raw_query

from data import GameNotFound, GameNotLive, StaleSequence, Store, open_store

END = {"seat": 0, "kind": "end_turn"}


async def test_steps_come_back_in_order(store: Store):
    row, game = await new_game(store, 10, seats=2)
    await play_and_store(store, row.id, game, random.Random(1), 25)
    assert await store.steps.load_steps(row.id) == [s.to_dict() for s in game.steps]
    assert await store.steps.step_count(row.id) == len(game.steps) == 25


async def test_a_stale_sequence_number_writes_nothing(store: Store):
    row, game = await new_game(store, 10, seats=3)
    await play_and_store(store, row.id, game, random.Random(2), 5)
    before = await store.steps.load_steps(row.id)
    for stale in (0, 4, 6):  # already taken, already taken, a gap
        with pytest.raises(StaleSequence) as info:
            await store.steps.append_step(row.id, stale, END, at=1.0)
        assert (info.value.expected, info.value.actual) == (stale, 5)
    assert await store.steps.load_steps(row.id) == before


async def test_a_double_click_is_refused_the_second_time(store: Store):
    row, game = await new_game(store, 10, seats=2)
    seq = len(game.steps)
    random_move(game, random.Random(3))
    step = game.steps[-1].to_dict()
    assert await store.steps.append_step(row.id, seq, step, at=1.0) == 0
    with pytest.raises(StaleSequence):
        await store.steps.append_step(row.id, seq, step, at=1.1)
    assert await store.steps.load_steps(row.id) == [step]


async def test_concurrent_appends_with_one_number_exactly_one_wins(store: Store):
    row, _ = await new_game(store, 10, seats=2)
    for seq in range(5):
        outcomes = await asyncio.gather(
            *(store.steps.append_step(row.id, seq, END, at=float(i)) for i in range(4)),
            return_exceptions=True,
        )
        assert outcomes.count(seq) == 1
        assert all(isinstance(o, StaleSequence) for o in outcomes if o != seq)
    assert await store.steps.step_count(row.id) == 5


async def test_concurrent_appends_from_two_connections_exactly_one_wins(target):
    async with await open_store(target) as a, await open_store(target) as b:
        row, _ = await new_game(a, 10, seats=2)
        for seq in range(10):
            outcomes = await asyncio.gather(
                a.steps.append_step(row.id, seq, END, at=1.0),
                b.steps.append_step(row.id, seq, END, at=2.0),
                return_exceptions=True,
            )
            assert outcomes.count(seq) == 1, outcomes
            assert any(isinstance(o, StaleSequence) for o in outcomes)
        assert await b.steps.step_count(row.id) == 10


async def test_an_acknowledged_step_is_committed(store: Store, target):
    row, _ = await new_game(store, 10, seats=2)
    await store.steps.append_step(row.id, 0, END, actor="timer", at=123.5)
    # another connection sees it at once
    stored = await raw_query(
        target, "SELECT seq, actor, at FROM steps WHERE game_id = ?", (row.id,)
    )
    assert stored == [(0, "timer", 123.5)]


async def test_steps_of_finished_or_unknown_games_are_refused(store: Store):
    row, _ = await new_game(store, 10, seats=2)
    await store.games.abandon_game(row.id)
    with pytest.raises(GameNotLive):
        await store.steps.append_step(row.id, 0, END, at=1.0)
    with pytest.raises(GameNotFound):
        await store.steps.append_step(999, 0, END, at=1.0)
    assert await store.steps.load_steps(row.id) == []


async def test_undecodable_steps_are_refused_before_writing(store: Store):
    row, _ = await new_game(store, 10, seats=2)
    for bad in ({"seat": 0, "kind": "fly"}, {"seat": 0, "kind": "discard", "card": "pink9"}, {}):
        with pytest.raises(ValueError):
            await store.steps.append_step(row.id, 0, bad, at=1.0)
    with pytest.raises(ValueError):
        await store.steps.append_step(row.id, -1, END, at=1.0)
    assert await store.steps.step_count(row.id) == 0


async def test_a_finish_racing_an_append_on_another_connection_never_leaves_a_step_after_it(
    target,
):
    """The finishing transaction and a racing append of the same number: exactly one wins, and a
    finished game never gets a step after its last one (PostgreSQL: the game row's lock)."""
    from data import entries_from_game
    from engine import to_record

    async with await open_store(target) as a, await open_store(target) as b:
        for channel in range(10, 16):
            row, game = await new_game(a, channel, seats=2, seed=channel)
            rng = random.Random(channel)
            while True:
                probe = game.copy()
                random_move(probe, rng)
                if probe.is_over:
                    break
                game = probe
                await a.steps.append_step(
                    row.id, len(game.steps) - 1, game.steps[-1].to_dict(), at=0
                )
            seq = len(game.steps)
            seats = await a.games.seats(row.id)
            finish = a.results.finish_game(
                row.id,
                entries_from_game(probe, seats),
                to_record(probe),
                last_step=(seq, probe.steps[-1].to_dict(), "player"),
            )
            other = b.steps.append_step(row.id, seq, END, at=1.0)
            finished, appended = await asyncio.gather(finish, other, return_exceptions=True)
            wins = [not isinstance(o, BaseException) for o in (finished, appended)]
            assert wins.count(True) == 1, (finished, appended)
            loser = appended if wins[0] else finished
            assert isinstance(loser, StaleSequence | GameNotLive), loser
            steps = await b.steps.load_steps(row.id)
            assert len(steps) == seq + 1
            status = (await b.games.get_game(row.id)).status
            assert (status == "finished") == wins[0]
