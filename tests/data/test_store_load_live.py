"""One live game loaded when first used equals the one restore loads (issue 13: lazy loading).

Also the look-ups that find live games without loading them all: by user, by guild.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from storetest_util import new_game, play_to_end, random_move, raw_query

from data import ReplayFailed, SeatSpec, Store, entries_from_game, load_live, rebuild_game
from engine import to_record


async def play(store: Store, game_id: int, game, rng: random.Random, moves: int) -> None:
    """Random moves; every third one stored with actor "auto" (played for an absent player)."""
    for _ in range(moves):
        if game.is_over:
            return
        seq = len(game.steps)
        random_move(game, rng)
        actor = "auto" if seq % 3 == 2 else "player"
        await store.steps.append_step(
            game_id, seq, game.steps[-1].to_dict(), actor=actor, at=float(seq)
        )


async def test_a_game_loaded_alone_equals_the_one_restore_loads(store: Store):
    rng = random.Random(13)
    games = {}
    for n, seats in enumerate((2, 3, 4, 4)):
        row, game = await new_game(store, 100 + n, seats=seats, seed=rng.getrandbits(40))
        await play(store, row.id, game, rng, rng.randint(0, 40))
        games[row.id] = game
    first = next(iter(games))
    await store.messages.set_message(first, "table", 100, 7)
    await store.messages.set_message(first, "dm", 9000, 8, seat=0)
    (seat,) = [s for s in await store.games.seats(first) if s.seat == 1]
    await store.games.update_seat(dataclasses.replace(seat, away=True, auto_turns=2))
    state = await load_live(store)
    assert len(state.games) == len(games)
    for restored in state.games:
        alone = await store.games.load_live(restored.row.id)
        assert alone == restored
        original = games[restored.row.id]
        assert alone.steps == tuple(original.steps)
        assert alone.auto_seqs == frozenset(range(2, len(original.steps), 3))
        assert rebuild_game(alone.row, alone.steps).snapshot() == original.snapshot()
    alone = await store.games.load_live(first)
    assert [(m.role, m.seat) for m in alone.messages] == [("dm", 0), ("table", None)]
    assert (alone.seats[1].away, alone.seats[1].auto_turns) == (True, 2)


async def test_only_live_games_load(store: Store):
    finished, game = await new_game(store, 10, seats=2)
    play_to_end(game, random.Random(1))
    entries = entries_from_game(game, await store.games.seats(finished.id))
    await store.results.finish_game(finished.id, entries, to_record(game))
    assert await store.games.load_live(finished.id) is None
    abandoned, _ = await new_game(store, 11, seats=2)
    await store.games.abandon_game(abandoned.id)
    assert await store.games.load_live(abandoned.id) is None
    assert await store.games.load_live(987654) is None
    fresh, _ = await new_game(store, 12, seats=3)
    loaded = await store.games.load_live(fresh.id)
    assert loaded is not None and loaded.row == fresh
    assert loaded.steps == () and loaded.auto_seqs == frozenset()
    assert [s.seat for s in loaded.seats] == [0, 1, 2]


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        ('UPDATE steps SET step = \'{"seat":0,"kind":"fly"}\' WHERE seq = 2', "undecodable"),
        ("DELETE FROM steps WHERE seq = 2", "missing"),
    ],
)
async def test_a_damaged_or_missing_step_fails_the_load_at_its_seq(
    store: Store, target, damage: str, problem: str
):
    row, game = await new_game(store, 10, seats=2)
    await play(store, row.id, game, random.Random(3), 5)
    await raw_query(target, damage)  # damage made outside the store
    with pytest.raises(ReplayFailed) as info:
        await store.games.load_live(row.id)
    assert (info.value.game_id, info.value.seq) == (row.id, 2)
    assert problem in str(info.value)


async def test_live_games_by_user_and_by_guild(store: Store):
    # new_game seats users 500, 502 on even seats and AIs on odd ones, all in guild 1.
    two, _ = await new_game(store, 10, seats=2)
    four, _ = await new_game(store, 11, seats=4)
    other = await store.games.create_game(
        2,
        12,
        {"seats": 2, "seed": 1, "start_seat": None},
        [SeatSpec(user_id=777), SeatSpec(user_id=502)],
    )
    ended, _ = await new_game(store, 13, seats=2)
    await store.games.abandon_game(ended.id)
    assert await store.games.live_ids_of_user(500) == [two.id, four.id]
    assert await store.games.live_ids_of_user(502) == [four.id, other.id]
    assert await store.games.live_ids_of_user(1) == []
    assert await store.games.live_ids_in_guild(1) == [two.id, four.id]
    assert await store.games.live_ids_in_guild(2) == [other.id]
    # A seat an AI took over still belongs to the user who held it.
    seat = (await store.games.seats(two.id))[0]
    await store.games.update_seat(dataclasses.replace(seat, ai_level="normal"))
    assert await store.games.live_ids_of_user(500) == [two.id, four.id]
