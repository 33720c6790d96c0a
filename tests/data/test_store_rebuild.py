"""A game rebuilt from the database equals the live one (many random games, 2–4 seats)."""

from __future__ import annotations

import json
import logging
import random
import time

import pytest
from storetest_util import new_game, play_to_end, random_move, raw_query, seat_specs

from data import GameImport, ReplayFailed, Store, load_live, open_store, rebuild_game, restore
from engine import Game, GameConfig


async def test_games_rebuilt_from_the_database_equal_the_live_ones(target):
    """60 games played in interleaved random moves, then a restart and a replay of each."""
    rng = random.Random(2024)
    live: dict[int, Game] = {}
    async with await open_store(target) as store:
        for n in range(60):
            seats = (2, 3, 4)[n % 3]
            row, game = await new_game(
                store, channel_id=1000 + n, seats=seats, seed=rng.getrandbits(40)
            )
            live[row.id] = game
        targets = {gid: rng.randint(0, 120) for gid in live}  # some games finish, most do not
        active = [gid for gid in live if targets[gid] > 0]
        while active:
            gid = rng.choice(active)  # moves of many games interleave, as on a busy server
            game = live[gid]
            seq = len(game.steps)
            random_move(game, rng)
            await store.steps.append_step(gid, seq, game.steps[-1].to_dict(), at=time.time())
            if game.is_over or len(game.steps) >= targets[gid]:
                active.remove(gid)
    async with await open_store(target) as store:
        restored = await restore(store)
        assert restored.failed == []
        assert {r.live.row.id for r in restored.games} == set(live)
        for r in restored.games:
            original = live[r.live.row.id]
            assert r.game.snapshot() == original.snapshot()
            assert r.game.steps == original.steps
            assert r.game.public_view() == original.public_view()
            for seat in range(original.seats):
                assert r.game.observation(seat) == original.observation(seat)
            again = rebuild_game(r.live.row, await store.steps.load_steps(r.live.row.id))
            assert again.snapshot() == original.snapshot()
        assert any(r.game.is_over for r in restored.games)  # the crash-before-finish case
        assert any(not r.game.is_over and r.game.steps for r in restored.games)


async def test_load_live_returns_lobbies_games_seats_messages_and_timers(store: Store, caplog):
    lobby = await store.lobbies.create_lobby(1, 5, 100)
    row, game = await new_game(store, 10, seats=4)
    await store.messages.set_message(row.id, "table", 10, 77)
    await store.timers.set_timer("turn", 30.0, game_id=row.id, seat=0)
    rng = random.Random(5)
    for _ in range(7):
        seq = len(game.steps)
        random_move(game, rng)
        await store.steps.append_step(row.id, seq, game.steps[-1].to_dict(), at=1.0)
    finished, done = await new_game(store, 11, seats=2)
    play_to_end(done, rng)
    await store.games.abandon_game(finished.id)
    with caplog.at_level(logging.INFO, logger="hats.data"):
        state = await load_live(store)
    assert state.lobbies == [lobby]
    (g,) = state.games
    assert g.row == row
    assert g.steps == tuple(game.steps)
    assert [s.user_id for s in g.seats] == [500, None, 502, None]
    assert [(m.role, m.message_id) for m in g.messages] == [("table", 77)]
    assert [t.kind for t in state.timers] == ["turn"]
    assert any("live games" in r.getMessage() and " ms" in r.getMessage() for r in caplog.records)


async def test_a_game_that_no_longer_replays_is_reported_not_fatal(store: Store, caplog):
    config = GameConfig(2, 3)
    good = play_to_end(Game.new(config), random.Random(1))
    ok_steps = [s.to_dict() for s in good.steps[:10]]
    bad_steps = [{"seat": 1 - good.steps[0].seat, "kind": "end_turn"}]  # not that seat's turn
    ids = await store.games.import_games(
        [
            GameImport(1, 10, config.to_dict(), seat_specs(2), ok_steps),
            GameImport(1, 11, config.to_dict(), seat_specs(2), bad_steps),
        ]
    )
    with caplog.at_level(logging.INFO, logger="hats.data"):
        restored = await restore(store)
    assert [r.live.row.id for r in restored.games] == [ids[0]]
    ((row, error),) = restored.failed
    assert row.id == ids[1] and error.seq == 0
    assert "restored 1 live games" in caplog.text
    with pytest.raises(ReplayFailed) as info:
        rebuild_game(row, bad_steps)
    assert info.value.seq == 0


async def test_a_damaged_step_row_is_reported_not_fatal(store: Store, target):
    row, game = await new_game(store, 10, seats=2)
    rng = random.Random(3)
    for _ in range(3):
        seq = len(game.steps)
        random_move(game, rng)
        await store.steps.append_step(row.id, seq, game.steps[-1].to_dict(), at=1.0)
    # damage made outside the store
    await raw_query(target, 'UPDATE steps SET step = \'{"seat":0,"kind":"fly"}\' WHERE seq = 1')
    state = await load_live(store)
    assert state.games == []
    ((broken, error),) = state.broken
    assert broken.id == row.id and error.seq == 1


def test_steps_are_put_back_in_seq_order_and_gaps_are_reported():
    from data.restore import _decode_steps, _StepCache

    a = '{"seat":0,"kind":"end_turn"}'
    b = '{"seat":1,"kind":"discard","card":"red5"}'
    steps = _decode_steps(1, "1,0", f"{a}\n{b}", _StepCache())
    assert [s.to_dict() for s in steps] == [json.loads(b), json.loads(a)]
    with pytest.raises(ReplayFailed) as info:
        _decode_steps(1, "0,2", f"{a}\n{b}", _StepCache())
    assert info.value.seq == 1
    with pytest.raises(ReplayFailed) as info:
        _decode_steps(1, "0,1", f"{a}\n{{}}", _StepCache())
    assert info.value.seq == 1
