"""Several GameServices (each on its own Store: its own pool and origin) share the same games.

Issue 13: any process must be able to act on any game. Three services over one PostgreSQL
database receive the moves of the same games in random order, concurrently; a service whose
copy is stale is refused by the store (OutOfDate) and re-reads the game. Nothing acknowledged
is lost or doubled, every finished game's record replays, a step made elsewhere evicts a
cached copy (LISTEN/NOTIFY), and a game loaded late equals the game played all along.
No sleeps: waits are on asyncio events with timeouts.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from data import GameChange, GameRow, Store, open_store, rebuild_game
from engine.actions import END_TURN
from service import GameService, OutOfDate
from service.games import LOAD_ATTEMPTS
from tests.cluster.cluster_util import (
    WAIT_S,
    Acks,
    News,
    check_stored_games,
    new_games,
    play_once,
)

GAMES = 30
PLAYERS_PER_GAME = 2  # concurrent tasks sending moves of one game, each to a random service


class Watched:
    """A service's ``changed`` callback, wrapped: remembers each change and wakes waiters."""

    def __init__(self, svc: GameService) -> None:
        self.inner = svc.changed
        self.seen: list[GameChange] = []
        self.news = News()
        svc.changed = self  # type: ignore[method-assign]  # before start(): watch() takes it

    def __call__(self, change: GameChange) -> None:
        self.inner(change)
        self.seen.append(change)
        self.news.tell()

    async def wait_for(self, wanted: GameChange) -> None:
        await self.news.until(lambda: wanted in self.seen)


class Cluster:
    """``n`` services, each on its own Store opened on ``target``, started and watched."""

    def __init__(self) -> None:
        self.stores: list[Store] = []
        self.services: list[GameService] = []
        self.acks: list[Acks] = []
        self.watched: list[Watched] = []
        self.rows: list[GameRow] = []

    @classmethod
    async def open(
        cls, stack: AsyncExitStack, target: Path | str, n: int, *, games: int = 0, seed: int = 0
    ) -> Cluster:
        """``n`` started services and ``games`` new games (random seats and deals: ``seed``)."""
        cluster = cls()
        for i in range(n):
            store = await stack.enter_async_context(await open_store(target))
            acks = Acks()
            svc = GameService(store, lambda i=i: 1000 + i, dispatch=acks.dispatch)
            cluster.watched.append(Watched(svc))
            await svc.start()
            cluster.stores.append(store)
            cluster.services.append(svc)
            cluster.acks.append(acks)
        cluster.rows = await new_games(cluster.stores[0], games, random.Random(seed))
        return cluster


@pytest.fixture
async def cluster3(pg_url: str) -> AsyncIterator[Cluster]:
    async with AsyncExitStack() as stack:
        yield await Cluster.open(stack, pg_url, 3)


@pytest.mark.postgres
async def test_three_services_play_the_same_games_none_lost_none_doubled(cluster3: Cluster):
    rng = random.Random(1313)
    rows = await new_games(cluster3.stores[0], GAMES, rng)
    outcomes: Counter[bool] = Counter()

    async def player(game_id: int, seed: int) -> None:
        prng = random.Random(seed)
        while True:
            played = await play_once(prng.choice(cluster3.services), game_id, prng)
            if played is None:
                return
            outcomes[played] += 1

    tasks = [player(row.id, rng.randrange(2**31)) for row in rows for _ in range(PLAYERS_PER_GAME)]
    await asyncio.wait_for(asyncio.gather(*tasks), 180)

    acked: dict[int, list[tuple[int, dict]]] = {}
    by_service: dict[int, set[int]] = {row.id: set() for row in rows}
    for index, acks in enumerate(cluster3.acks):
        for game_id, steps in acks.by_game().items():
            acked.setdefault(game_id, []).extend(steps)
            by_service[game_id].add(index)
    stored_total = await check_stored_games(cluster3.stores[1], [*rows], acked)
    for row in rows:  # exactly the acknowledged steps, in order: none lost, none doubled
        stored = await cluster3.stores[2].steps.load_steps(row.id)
        assert sorted(acked[row.id], key=lambda s: s[0]) == list(enumerate(stored))
    assert sum(len(v) for v in acked.values()) == stored_total
    # The moves of each game really went through different processes, and they collided.
    assert all(len(services) >= 2 for services in by_service.values())
    assert outcomes[False] > 0, "no service ever lost a race: the test proves nothing"


@pytest.mark.postgres
async def test_a_step_made_elsewhere_evicts_the_cached_copy(pg_url: str):
    async with AsyncExitStack() as stack:
        c = await Cluster.open(stack, pg_url, 2, games=1, seed=5)
        (a, b), (row,) = c.services, c.rows
        rng = random.Random(6)
        for mover, other, watched in ((b, a, c.watched[0]), (a, b, c.watched[1])) * 3:
            cached = await other.session(row.id)
            assert cached is not None and other.cached(row.id) is cached
            version = cached.version
            assert await play_once(mover, row.id, rng) is True
            moved = mover.cached(row.id)
            assert moved is not None and moved.version > version
            await watched.wait_for(GameChange(row.id, version, mover.store.origin))
            assert other.cached(row.id) is None  # evicted by the notification
            fresh = await other.session(row.id)
            assert fresh is not None and fresh is not cached
            assert fresh.version == moved.version
            assert fresh.game.snapshot() == moved.game.snapshot()


async def test_a_game_loaded_late_is_identical_to_the_one_played_all_along(target: Path | str):
    """A service that never saw the games loads them on first use (replaying their stored
    steps); each equals the copy of the service that played it, now and after every further
    move to its end (the same future draws and reshuffles too, R9)."""
    rng = random.Random(21)
    async with AsyncExitStack() as stack:
        c = await Cluster.open(stack, target, 1)
        (early,), store = c.services, c.stores[0]
        rows = await new_games(store, 8, rng)
        references = {}
        for row in rows:  # each game played to a different point (sometimes mid-swap)
            steps = rng.randint(0, 60)
            for _ in range(steps):
                if await play_once(early, row.id, rng) is None:
                    break
            session = await early.session(row.id)
            if session is not None and not session.game.is_over:
                references[row.id] = session.game.copy()
        assert len(references) >= 6
        late_store = await stack.enter_async_context(await open_store(target))
        late = GameService(late_store, lambda: 0, dispatch=lambda *a: None)
        await late.start()
        for game_id, reference in references.items():
            assert late.cached(game_id) is None
            loaded = await late.session(game_id)
            assert loaded is not None
            assert loaded.game.steps == reference.steps
            assert loaded.game.snapshot() == reference.snapshot()
            scratch = rebuild_game(loaded.row, await late_store.steps.load_steps(game_id))
            assert scratch.snapshot() == loaded.game.snapshot()
            while not reference.is_over:
                seat = reference.to_move
                assert loaded.game.legal_actions(seat) == reference.legal_actions(seat)
                action = rng.choice(reference.legal_actions(seat))
                reference.apply(seat, action)
                await late.play(loaded, seat, action, version=loaded.version)
                for step in loaded.game.steps[len(reference.steps) :]:  # automatic end turn
                    assert step.action == END_TURN
                    reference.apply(step.seat, step.action)
                assert loaded.game.steps == reference.steps
                assert loaded.game.snapshot() == reference.snapshot()
            assert await late_store.results.get_record(game_id) is not None


async def test_a_move_on_a_copy_that_lost_a_race_is_refused_not_applied(target: Path | str):
    """Service A's copy commits a move while B already stored another one at that number: A's
    copy is refused and brought up to the store. A second move that was chosen on A's copy
    while the losing step was in flight (the same version, but the state before B's step) is
    refused too (OutOfDate), never applied to the other state."""
    rng = random.Random(31)
    async with AsyncExitStack() as stack:
        c = await Cluster.open(stack, target, 2, games=1, seed=31)
        (a, b), (row,) = c.services, c.rows
        copy = await a.session(row.id)
        assert copy is not None
        assert await play_once(b, row.id, rng) is True  # B takes number 0
        second: list[asyncio.Task] = []
        real_append = a.store.steps.append_step

        async def append_while_a_move_is_chosen(*args, **kwargs):
            seat = copy.game.to_move  # A's copy shows its own step, not committed yet
            action = copy.game.legal_actions(seat)[0]
            second.append(asyncio.create_task(a.play(copy, seat, action, version=copy.version)))
            return await real_append(*args, **kwargs)

        a.store.steps.append_step = append_while_a_move_is_chosen  # type: ignore[method-assign]
        seat = copy.game.to_move
        with pytest.raises(OutOfDate):
            await a.play(copy, seat, copy.game.legal_actions(seat)[-1], version=0)
        a.store.steps.append_step = real_append  # type: ignore[method-assign]
        with pytest.raises(OutOfDate):
            await asyncio.wait_for(second[0], WAIT_S)
        assert await c.stores[0].steps.load_steps(row.id) == [s for _, _, s in c.acks[1].steps]
        assert c.acks[0].steps == []
        fresh = await a.session(row.id)
        assert fresh is not None and fresh is not copy and fresh.version == 1


async def test_a_move_on_a_copy_of_a_game_finished_elsewhere_is_not_acknowledged(
    target: Path | str,
):
    """B plays a game to its end while A holds a copy of an earlier state: A's move there is
    refused (OutOfDate: the store says the game is not live any more), not taken for B's step
    that the store holds at that number."""
    rng = random.Random(41)
    async with AsyncExitStack() as stack:
        c = await Cluster.open(stack, target, 2, games=1, seed=41)
        (a, b), (row,) = c.services, c.rows
        old = await a.session(row.id)
        while True:  # `old`: A's copy of a state before the end (PostgreSQL: of the last one)
            held = await a.session(row.id)
            if held is None:
                break
            old = held
            if await play_once(b, row.id, rng) is None:
                break
        assert old is not None and not old.game.is_over
        seat = old.game.to_move
        with pytest.raises(OutOfDate):
            await a.play(old, seat, old.game.legal_actions(seat)[0], version=old.version)
        assert c.acks[0].steps == []
        assert await a.session(row.id) is None  # finished: not live any more
        assert await check_stored_games(c.stores[0], [row], c.acks[1].by_game()) > 0


@pytest.mark.postgres
async def test_a_load_during_moves_elsewhere_ends_and_reloads_only_for_missing_steps(pg_url: str):
    """Service A loads a game while B moves it. A change the loaded copy already holds (B's
    step committed before A read) costs no second load. When B moves the game during every
    load, A's ``session()`` still returns after LOAD_ATTEMPTS loads, with a copy it does not
    cache (a move on it is refused: OutOfDate), instead of loading for as long as B plays."""
    rng = random.Random(51)
    async with AsyncExitStack() as stack:
        c = await Cluster.open(stack, pg_url, 2, games=2, seed=51)
        (a, b), rows = c.services, c.rows
        real_load = a.store.games.load_live
        loads = []

        def loading(move_after_read: bool):
            async def load_live(game_id: int):
                loads.append(game_id)
                version = (await b.session(game_id)).version
                if not move_after_read:  # B's step is committed before A reads
                    assert await play_once(b, game_id, rng) is True
                    await c.watched[0].wait_for(GameChange(game_id, version, b.store.origin))
                live = await real_load(game_id)
                if move_after_read:  # B's step comes after A read: A's copy misses it
                    assert await play_once(b, game_id, rng) is True
                    await c.watched[0].wait_for(GameChange(game_id, version, b.store.origin))
                return live

            return load_live

        a.store.games.load_live = loading(move_after_read=False)  # type: ignore[method-assign]
        held = await a.session(rows[0].id)
        assert held is not None and a.cached(rows[0].id) is held
        assert loads == [rows[0].id]  # one load: the change was already in it
        assert held.version == 1

        loads.clear()
        a.store.games.load_live = loading(move_after_read=True)  # type: ignore[method-assign]
        behind = await asyncio.wait_for(a.session(rows[1].id), WAIT_S)
        assert behind is not None and a.cached(rows[1].id) is None
        assert loads == [rows[1].id] * LOAD_ATTEMPTS
        a.store.games.load_live = real_load  # type: ignore[method-assign]
        seat = behind.game.to_move
        with pytest.raises(OutOfDate):
            await a.play(behind, seat, behind.game.legal_actions(seat)[0], version=behind.version)
        fresh = await a.session(rows[1].id)
        assert fresh is not None and fresh.version == LOAD_ATTEMPTS
        assert a.cached(rows[1].id) is fresh
