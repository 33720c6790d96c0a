"""Stored ratings equal a recompute from the results in game order (hypothesis), and what the
history repository answers (leaderboard, stats rows, recent games, kicked players)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.timers import KICKED
from data import ResultEntry, SeatSpec, open_store
from data.history import KICKED_SETTING
from engine import GameConfig
from history import Outcome, SeatOutcome, recompute

USERS = (11, 12, 13, 14, 15)
LEVELS = ("easy", "normal", "hard")


@st.composite
def game_results(draw):
    """One finished game: guild, and per seat (user or AI level, place, team, kicked)."""
    n = draw(st.integers(2, 4))
    humans = draw(st.integers(0, n))
    users = draw(st.permutations(USERS))[:humans]
    kinds = draw(st.permutations([*users, *[None] * (n - humans)]))
    if n == 4:
        first = draw(st.sampled_from([(1, 2), (2, 1), (1, 1)]))
        places = [first[s % 2] for s in range(4)]
        teams = [s % 2 for s in range(4)]
    else:
        places = [draw(st.integers(1, n)) for _ in range(n)]
        places[draw(st.integers(0, n - 1))] = 1
        teams = [None] * n
    seats = []
    for s, user in enumerate(kinds):
        level = draw(st.sampled_from(LEVELS)) if user is None else None
        kicked = user is not None and draw(st.booleans())
        seats.append((user, level, places[s], teams[s], kicked))
    return draw(st.sampled_from([1, 2])), seats, draw(st.booleans())


async def _store_games(path: Path, games) -> tuple[dict, dict, list[int]]:
    async with await open_store(path) as store:
        expected = []
        for number, (guild, seats, process_now) in enumerate(games):
            specs = [
                SeatSpec(user_id=u) if u is not None else SeatSpec(ai_level=lvl)
                for u, lvl, *_ in seats
            ]
            row = await store.games.create_game(
                guild, 100 + number, GameConfig(len(seats), number).to_dict(), specs, at=number
            )
            kicked = {str(s): u for s, (u, _, _, _, k) in enumerate(seats) if k}
            if kicked:
                await store.games.set_settings(row.id, {KICKED: kicked})
            entries = [
                ResultEntry(
                    s,
                    None if k else u,
                    "normal" if k else lvl,
                    10,
                    3,
                    0,
                    13,
                    1,
                    place,
                    team,
                    place == 1,
                )
                for s, (u, lvl, place, team, k) in enumerate(seats)
            ]
            record = {"format": "hats-record/1", "end": {"favorites": ["red1"] * len(seats)}}
            await store.results.finish_game(row.id, entries, record, at=1000.0 + number)
            expected.append(
                Outcome(
                    row.id,
                    guild,
                    tuple(SeatOutcome(u, lvl, p, t, k) for u, lvl, p, t, k in seats),
                )
            )
            if process_now:  # some games are rated at once, others caught up later
                await store.history.process_pending()
        await store.history.process_pending()
        stored = await store.history.all_ratings()
        order = [o.game_id for o in await store.history.outcomes()]
    return recompute(expected), stored, order


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(game_results(), min_size=1, max_size=8))
def test_stored_ratings_equal_a_recompute_in_game_order(games):
    with tempfile.TemporaryDirectory() as tmp:
        computed, stored, order = asyncio.run(_store_games(Path(tmp) / "h.sqlite3", games))
    assert stored == computed  # exactly: same floats, games and wins
    assert order == sorted(order)


def test_the_kicked_setting_key_is_the_timers_cogs():
    assert KICKED_SETTING == KICKED


async def test_kicked_player_loses_rating_and_a_one_human_game_is_unrated(store):
    config = GameConfig(3, 1).to_dict()
    specs = [SeatSpec(user_id=1), SeatSpec(user_id=2), SeatSpec(ai_level="hard")]
    row = await store.games.create_game(7, 70, config, specs, at=1)
    await store.games.set_settings(row.id, {KICKED: {"0": 1}})
    entries = [
        ResultEntry(0, None, "normal", 20, 5, 5, 30, 0, 1, None, True),  # the AI won the seat
        ResultEntry(1, 2, None, 10, 2, 0, 12, 0, 3, None, False),
        ResultEntry(2, None, "hard", 15, 2, 0, 17, 0, 2, None, False),
    ]
    await store.results.finish_game(row.id, entries, {"format": "hats-record/1"}, at=2)
    solo = await store.games.create_game(
        7, 71, GameConfig(2, 2).to_dict(), [SeatSpec(user_id=1), SeatSpec(ai_level="easy")], at=3
    )
    entries = [
        ResultEntry(0, 1, None, 10, 2, 0, 12, 0, 1, None, True),
        ResultEntry(1, None, "easy", 9, 2, 0, 11, 0, 2, None, False),
    ]
    await store.results.finish_game(solo.id, entries, {"format": "hats-record/1"}, at=4)
    assert await store.history.process_pending() == [row.id, solo.id]
    kicked = await store.history.rating(1, 7)
    assert kicked.games == 1 and kicked.wins == 0 and kicked.mu < 25
    deltas = {d.user_id: d.delta for d in await store.history.changes_for_game(row.id, 7)}
    assert deltas[1] < 0
    assert await store.history.changes_for_game(solo.id, 7) == []
    # stats rows: the kicked seat has no user id, the solo game counts (unrated)
    games = await store.history.player_games(1, 7)
    assert [g.game_id for g in games] == [solo.id] and games[0].winner
    assert await store.history.process_pending() == []  # never twice


async def test_leaderboard_min_games_period_and_pages(store):
    # user 1 plays 7 games: 4 against user 2 (days 1-4), then 3 against user 3 (days 5-7)
    for number in range(7):
        users = [1, 2] if number < 4 else [1, 3]
        row = await store.games.create_game(
            5,
            200 + number,
            GameConfig(2, number).to_dict(),
            [SeatSpec(user_id=u) for u in users],
            at=number,
        )
        entries = [
            ResultEntry(0, users[0], None, 10, 2, 0, 12, 0, 1, None, True),
            ResultEntry(1, users[1], None, 9, 2, 0, 11, 0, 2, None, False),
        ]
        at = 1000.0 * (number + 1)
        await store.results.finish_game(row.id, entries, {"format": "hats-record/1"}, at=at)
    await store.history.process_pending()
    history = store.history
    total, rows = await history.leaderboard_size(5), await history.leaderboard(5)
    assert total == 3 and rows[0].user_id == 1
    assert [r.ordinal for r in rows] == sorted((r.ordinal for r in rows), reverse=True)
    assert [r.rank for r in rows] == [1, 2, 3]
    assert [(r.games, r.wins) for r in rows if r.user_id == 1] == [(7, 7)]
    page = await history.leaderboard(5, offset=1, limit=1)
    assert len(page) == 1 and page[0] == rows[1]
    # since day 4.5: users 1 and 3 have 3 games each in the period, user 2 none
    recent = await history.leaderboard(5, since=4500)
    assert await history.leaderboard_size(5, since=4500) == 2 and {r.user_id for r in recent} == {
        1,
        3,
    }
    assert {(r.user_id, r.games, r.wins) for r in recent} == {(1, 3, 3), (3, 3, 0)}
    # listed from the first rated game in the period: since day 5.5 users 1 and 3, 2 games each
    later = await history.leaderboard(5, since=5500)
    assert {(r.user_id, r.games) for r in later} == {(1, 2), (3, 2)}
    assert await history.leaderboard_size(5, since=5500) == 2
    assert [r.provisional for r in later if r.user_id == 1] == [False]  # 7 rated games
    assert await history.leaderboard(5, since=7500) == []  # none since
    assert await history.leaderboard_size(5, seats=3) == 0
    assert await history.leaderboard_size(6) == 0  # another server
    recent_games = await store.history.recent_games(5, user_id=3)
    assert [g.game_id for g in recent_games] == [7, 6, 5]


async def test_a_cancelled_game_counts_for_nobody(store):
    specs = [SeatSpec(user_id=1), SeatSpec(user_id=2)]
    row = await store.games.create_game(7, 90, GameConfig(2, 1).to_dict(), specs, at=1)
    await store.games.abandon_game(row.id, at=2)
    assert await store.history.process_pending() == []
    assert await store.history.all_ratings() == {}
    assert await store.history.player_games(1, 7) == []
