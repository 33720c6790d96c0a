"""The tournament service over the game service and the store, on SQLite and PostgreSQL.

A 7-player, 3-round tournament to the end with restarts (new services over a reopened store)
between two rounds and inside a round, one drop, repeated deadlines; bad inputs change nothing.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest

from data import TournamentStatus, open_store
from engine import RandomPolicy
from service import GameService, ServiceError
from service.tournament_record import tournament_record
from service.tournaments import ROUND_PAUSE, Step, TournamentService
from tests.tournament.oracle import groupings
from tournament import repeated_pairs, table_sizes

GUILD, CHANNEL = 1, 10
PLAYERS = [101, 102, 103, 104, 105, 106, 107]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    if request.param == "sqlite":
        return tmp_path / "hats.sqlite3"
    return request.getfixturevalue("pg_url")


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Bot:
    """A process: a store, a game service and a tournament service (what a restart rebuilds)."""

    def __init__(self, store, clock: Clock, seed: int) -> None:
        self.store = store
        seeds = iter(range(seed, seed + 10_000))
        self.games = GameService(store, lambda: next(seeds), dispatch=lambda *a: None, clock=clock)
        self.tournaments = TournamentService(self.games, clock=clock)

    async def start_tables(self, progress) -> list[int]:
        ids = []
        for table in progress.tables:
            thread = 50_000 + 100 * table.round + table.tab
            await self.tournaments.set_thread(table, thread)
            session, created = await self.tournaments.start_table(table, thread, GUILD)
            assert created
            ids.append(session.id)
        return ids

    async def play_to_end(self, game_id: int, seed: int) -> None:
        session = await self.games.session(game_id)
        policy = RandomPolicy(seed)
        while not session.game.is_over:
            step = policy.choose_step(session.game)
            await self.games.play(session, step.seat, step.action)


def points_from(results, player):
    """The test's own table: points of ``player`` from the games' places."""
    total = Fraction(0)
    for r in results:
        if player in r.players:
            i = r.players.index(player)
            mine = r.places[i]
            others = [p for j, p in enumerate(r.places) if j != i]
            got = sum(
                Fraction(1) if p > mine else Fraction(1, 2) if p == mine else 0 for p in others
            )
            total += got / (len(r.places) - 1)
    return total


async def test_seven_players_three_rounds_with_restarts_and_a_drop(target):
    clock = Clock()
    store = await open_store(target)
    bot = Bot(store, clock, 1)
    row = await bot.tournaments.open(
        GUILD, CHANNEL, PLAYERS[0], "Friday night", rounds=3, turn_timer=120
    )
    for p in PLAYERS[1:]:
        assert await bot.tournaments.join(row.id, p)
    assert not await bot.tournaments.join(row.id, PLAYERS[1])  # twice: nothing changes
    with pytest.raises(ServiceError, match="Only the host"):
        await bot.tournaments.start(row.id, PLAYERS[1], manager=False)
    progress = await bot.tournaments.start(row.id, PLAYERS[0], manager=False)
    assert progress.step is Step.STARTED
    assert [len(t.players) for t in progress.tables] == [3, 2, 2]
    with pytest.raises(ServiceError, match="started"):
        await bot.tournaments.join(row.id, 999)  # a join after the start
    # a deadline that fires meanwhile (twice) only reports the tables still owed
    again = await bot.tournaments.advance(row.id)
    assert again.step is Step.TABLES and len(again.tables) == 3
    games = await bot.start_tables(progress)
    assert (await bot.tournaments.advance(row.id)).step is Step.WAITING

    seen_pairs: set[frozenset[int]] = set()
    for rnd in (1, 2, 3):
        view = await bot.tournaments.view(row.id)
        tables = view.round_tables(rnd)
        active = view.active_players
        assert sorted(len(t.players) for t in tables) == sorted(table_sizes(len(active)))
        assert sorted(p for t in tables for p in t.players) == sorted(active)
        pairs = {frozenset(c) for t in tables for c in combinations(t.players, 2)}
        best = min(
            repeated_pairs(g, seen_pairs) for g in groupings(active, table_sizes(len(active)))
        )
        assert len(pairs & seen_pairs) == best  # no repeat opponent where one could be avoided
        seen_pairs |= pairs
        for i, game_id in enumerate(games):
            if rnd == 2 and i == 1:  # a restart inside a round: a new process finishes it
                await store.close()
                store = await open_store(target)
                bot = Bot(store, clock, 100 * rnd)
            await bot.play_to_end(game_id, seed=rnd * 10 + i)
        if rnd == 1:
            assert await bot.tournaments.leave(row.id, PLAYERS[3])  # a drop between rounds
        clock.t += 10
        if rnd < 3:
            waiting = await bot.tournaments.advance(row.id)  # the pause is not over yet
            assert waiting.step is Step.WAITING
            timer = await store.timers.get_timer("tournament", tournament_id=row.id)
            assert timer.due_at > clock.t
            clock.t += ROUND_PAUSE
            if rnd == 1:  # a restart between two rounds
                await store.close()
                store = await open_store(target)
                bot = Bot(store, clock, 50)
            progress = await bot.tournaments.advance(row.id)
            assert progress.step is Step.STARTED and progress.tournament.round == rnd + 1
            assert (await bot.tournaments.advance(row.id)).step is Step.TABLES  # no double
            games = await bot.start_tables(progress)
        else:  # after the last round the final standings come at once, no pause
            done = await bot.tournaments.advance(row.id)
            assert done.step is Step.FINISHED
            assert (await bot.tournaments.advance(row.id)).step is Step.OVER

    view = await bot.tournaments.view(row.id)
    assert view.tournament.status is TournamentStatus.FINISHED
    assert len(view.tables) == 3 + 2 + 2  # 7, then 6 players after the drop: 3+3, 3+3
    dropped = PLAYERS[3]
    assert all(dropped not in t.players for t in view.tables if t.round > 1)
    # the standings equal a table computed here from the games' results
    mine = {p: points_from(view.results, p) for p in PLAYERS}
    assert {s.player: s.points for s in view.standings} == mine
    assert [s.points for s in view.standings] == sorted(mine.values(), reverse=True)
    assert view.tournament.winner_id == view.standings[0].player
    assert await store.tournaments.user_stats(view.standings[0].player) == (1, 1)
    await store.close()


async def test_bad_inputs_change_nothing(target):
    clock = Clock()
    async with await open_store(target) as store:
        bot = Bot(store, clock, 1)
        with pytest.raises(ServiceError, match="1 to 7 rounds"):
            await bot.tournaments.open(GUILD, CHANNEL, 1, "x", rounds=8)
        with pytest.raises(ServiceError, match="in the past"):
            await bot.tournaments.open(GUILD, CHANNEL, 1, "x", start_at=clock.t - 1)
        assert await store.tournaments.active_in_channel(CHANNEL) is None
        row = await bot.tournaments.open(GUILD, CHANNEL, 1, "x", start_at=clock.t + 3600)
        with pytest.raises(ServiceError, match="already has a tournament"):
            await bot.tournaments.open(GUILD, CHANNEL, 2, "y")
        with pytest.raises(ServiceError, match="at least 3 players"):
            await bot.tournaments.start(row.id, 1, manager=False)
        # the timed start with too few players calls it off
        assert (await bot.tournaments.advance(row.id)).step is Step.WAITING
        clock.t += 3600
        assert (await bot.tournaments.advance(row.id)).step is Step.CANCELLED
        assert (await store.tournaments.get(row.id)).status is TournamentStatus.CANCELLED


async def test_the_timed_start_pairs_round_one_by_rating_once(target):
    clock = Clock()
    async with await open_store(target) as store:
        bot = Bot(store, clock, 1)
        row = await bot.tournaments.open(GUILD, CHANNEL, 1, "x", start_at=clock.t + 60)
        for p in (2, 3, 4):
            await bot.tournaments.join(row.id, p)
        timer = await store.timers.get_timer("tournament", tournament_id=row.id)
        assert timer.due_at == clock.t + 60
        clock.t += 60
        first = await bot.tournaments.advance(row.id)
        second = await bot.tournaments.advance(row.id)  # the deadline fired twice
        assert first.step is Step.STARTED and second.step is Step.TABLES
        assert len(await store.tournaments.tables(row.id)) == 2  # 4 players: 2+2, stored once


async def test_the_record_lists_rounds_tables_points_and_standings(target):
    clock = Clock()
    async with await open_store(target) as store:
        bot = Bot(store, clock, 1)
        row = await bot.tournaments.open(GUILD, CHANNEL, 1, "Night", rounds=1)
        for p in (2, 3):
            await bot.tournaments.join(row.id, p)
        progress = await bot.tournaments.start(row.id, 1, manager=False)
        (game_id,) = await bot.start_tables(progress)
        await bot.play_to_end(game_id, seed=4)
        clock.t += ROUND_PAUSE
        assert (await bot.tournaments.advance(row.id)).step is Step.FINISHED
        record = tournament_record(await bot.tournaments.view(row.id))
        assert record["format"] == "hats-tournament/1" and record["status"] == "finished"
        (table,) = record["rounds"][0]["tables"]
        assert table["game_id"] == game_id and sum(table["points"]) == 1.5
        results = await store.results.results_for_game(game_id)
        assert table["places"] == [r.place for r in results]
        assert [s["rank"] for s in record["standings"]] == [1, 2, 3]
        assert record["winner_id"] == record["standings"][0]["user_id"]
        json.dumps(record)  # JSON as it is
