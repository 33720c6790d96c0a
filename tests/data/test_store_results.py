"""Finished games: results with places (R19, R20), the hats-record/1 JSON, simple statistics."""

from __future__ import annotations

import dataclasses
import random

import pytest
from storetest_util import new_game, play_and_store, play_to_end, seat_specs

from data import (
    GameNotLive,
    GameStatus,
    SeatRow,
    Store,
    entries_from_game,
    open_store,
)
from engine import Game, GameConfig, from_record, to_record


async def finish(store: Store, channel: int, seats: int, seed: int, at: float = 10.0):
    row, game = await new_game(store, channel, seats=seats, seed=seed)
    await play_and_store(store, row.id, game, random.Random(seed), 10_000)
    assert game.is_over
    entries = entries_from_game(game, await store.games.seats(row.id))
    finished = await store.results.finish_game(row.id, entries, to_record(game), at=at)
    return finished, game, entries


async def test_a_finished_game_keeps_its_results_and_record(store: Store, target):
    row, game, entries = await finish(store, 10, seats=3, seed=4)
    assert row.status is GameStatus.FINISHED and row.finished_at == 10.0
    await store.close()
    async with await open_store(target) as again:
        assert await again.results.results_for_game(row.id) == entries
        record = await again.results.get_record(row.id)
        assert record == to_record(game)
        assert from_record(record).snapshot() == game.snapshot()
        assert await again.games.live_game_in_channel(10) is None
        assert await again.games.list_live() == []


async def test_results_match_the_engine_scores_and_winners(store: Store):
    for seats in (2, 3, 4):
        _, game, entries = await finish(store, seats, seats=seats, seed=seats * 7)
        assert game.result is not None
        for e in entries:
            score = game.result.scores[e.seat]
            assert (e.collection, e.favourite, e.cookie, e.total, e.black_hats) == (
                score.collection,
                score.favourite,
                score.cookie,
                score.total,
                score.black_hats,
            )
            assert e.winner == (e.seat in game.result.winners)


def test_places_follow_the_winning_order_over_many_games():
    rng = random.Random(8)
    for n in range(150):
        seats = (2, 3, 4)[n % 3]
        game = play_to_end(Game.new(GameConfig(seats, n)), rng)
        rows = [SeatRow(1, s, 10 + s, None, False, 0) for s in range(seats)]
        entries = entries_from_game(game, rows)
        assert game.result is not None
        assert {e.seat for e in entries if e.place == 1} == set(game.result.winners)  # R19/R20
        if seats == 4:  # R20: partners share their team's place
            assert entries[0].place == entries[2].place and entries[1].place == entries[3].place
            assert [e.team for e in entries] == [0, 1, 0, 1]
        else:
            totals = [(e.total, e.place) for e in entries]
            for total, place in totals:  # a higher total never places behind a lower one
                assert all(p <= place for t, p in totals if t > total)


async def test_finishing_twice_is_refused(store: Store):
    row, game, entries = await finish(store, 10, seats=2, seed=1)
    with pytest.raises(GameNotLive):
        await store.results.finish_game(row.id, entries, to_record(game))
    assert await store.results.results_for_game(row.id) == entries


async def test_a_bad_finish_writes_nothing(store: Store):
    row, game = await new_game(store, 10, seats=3, seed=2)
    await play_and_store(store, row.id, game, random.Random(2), 10_000)
    entries = entries_from_game(game, await store.games.seats(row.id))
    with pytest.raises(ValueError):
        await store.results.finish_game(row.id, entries[:2], to_record(game))
    with pytest.raises(ValueError):
        await store.results.finish_game(row.id, entries, {"format": "other"})
    too_many = [*entries, dataclasses.replace(entries[0], seat=3)]
    with pytest.raises(ValueError):
        await store.results.finish_game(row.id, too_many, to_record(game))
    assert await store.results.results_for_game(row.id) == []
    live = await store.games.get_game(row.id)
    assert live is not None and live.status is GameStatus.LIVE


async def test_last_finished_game_of_a_channel(store: Store):
    assert await store.results.last_finished_game(10) is None
    first, _, _ = await finish(store, 10, seats=2, seed=3, at=100.0)
    second, _, _ = await finish(store, 10, seats=2, seed=4, at=200.0)
    await finish(store, 11, seats=2, seed=5, at=300.0)
    last = await store.results.last_finished_game(10)
    assert last is not None and last.id == second.id != first.id


async def test_user_stats_count_games_wins_and_mean_score(store: Store):
    totals, wins = [], 0
    for n in range(4):
        _, _, entries = await finish(store, 10 + n, seats=2, seed=20 + n)
        mine = entries[0]  # seat 0 is user 500 in every game (storetest_util.seat_specs)
        totals.append(mine.total)
        wins += mine.winner
    stats = await store.results.user_stats(500)
    assert (stats.games, stats.wins) == (4, wins)
    assert stats.mean_score == pytest.approx(sum(totals) / 4)
    assert (await store.results.user_stats(500, guild_id=2)).games == 0
    nobody = await store.results.user_stats(12345)
    assert (nobody.games, nobody.wins, nobody.mean_score) == (0, 0, 0.0)


async def test_user_stats_leave_out_practice_games_like_the_rest_of_the_store(store: Store):
    """Issue 29.19: one rule for practice games (data.game_flags.not_practice_sql)."""
    _, _, entries = await finish(store, 10, seats=2, seed=30)
    config = GameConfig(2, 31)
    row = await store.games.create_game(
        1, 11, config.to_dict(), seat_specs(2), {"practice": True, "language": "en-US"}
    )
    game = Game.new(config)
    await play_and_store(store, row.id, game, random.Random(31), 10_000)
    practice = entries_from_game(game, await store.games.seats(row.id))
    await store.results.finish_game(row.id, practice, to_record(game))
    stats = await store.results.user_stats(500)
    assert (stats.games, stats.wins) == (1, int(entries[0].winner))
    assert stats.mean_score == pytest.approx(entries[0].total)
    assert (await store.results.user_stats(500, guild_id=1)).games == 1


async def test_a_seat_the_ai_took_over_does_not_count_for_the_user(store: Store):
    row, game = await new_game(store, 10, seats=2, seed=6)
    seats = await store.games.seats(row.id)
    await store.games.update_seat(dataclasses.replace(seats[0], ai_level="easy"))
    await play_and_store(store, row.id, game, random.Random(6), 10_000)
    entries = entries_from_game(game, await store.games.seats(row.id))
    await store.results.finish_game(row.id, entries, to_record(game))
    assert (await store.results.user_stats(500)).games == 0


async def test_finishing_clears_the_games_timers(store: Store):
    row, game = await new_game(store, 10, seats=2, seed=7)
    await store.timers.set_timer("turn", 50.0, game_id=row.id)
    await play_and_store(store, row.id, game, random.Random(7), 10_000)
    entries = entries_from_game(game, await store.games.seats(row.id))
    await store.results.finish_game(row.id, entries, to_record(game))
    assert await store.timers.list_all() == []
