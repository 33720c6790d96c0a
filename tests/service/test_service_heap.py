"""Issue 21: a live game in the service's cache holds few objects the cyclic GC must scan.

A full collection stops the event loop for a time that grows with the tracked objects in the
heap, so each cached game's share is counted here: the objects reachable from its
``GameSession`` that Python's cyclic garbage collector tracks (``gc.is_tracked``), made for
that game (objects that existed before it, such as interned cards and enums, are shared).
"""

from __future__ import annotations

import gc
from pathlib import Path

from data import LobbySeat, open_store
from engine import RandomPolicy
from service import GameService, GameSession
from tests.heapwalk import existing_ids, own_tracked

PLAYERS = (101, 102, 103, 104)
MAX_TRACKED = 30
"""The most GC-tracked objects a cached live game may hold (issue 21; 119 before)."""


async def start_game(svc: GameService, channel_id: int) -> GameSession:
    """A 4-seat game of PLAYERS with a table message and one DM message per seat."""
    lobby = await svc.open_lobby(1, channel_id, PLAYERS[0], {"turn_timer": 120})
    seats = [LobbySeat(user_id=u) for u in PLAYERS]
    await svc.update_lobby(lobby.id, lambda row: (seats, dict(row.settings)))
    session = await svc.start_game(lobby.id)
    await svc.remember_message(session, "table", channel_id, channel_id + 1)
    for seat in range(4):
        await svc.remember_message(session, "dm", 900 + seat, 950 + seat, seat=seat)
    return session


async def play(svc: GameService, session: GameSession, steps: int, seed: int) -> None:
    """``steps`` random steps (offers, answers and withdrawals included), committed."""
    policy = RandomPolicy(seed)
    for _ in range(steps):
        step = policy.choose_step(session.game)
        await svc.play(session, step.seat, step.action)


def own_objects(session: GameSession, shared: set[int]) -> list[object]:
    gc.collect()  # as any collection does: tuples and dicts of atomic values are untracked
    return own_tracked(session, shared)


async def test_a_cached_live_game_holds_at_most_30_tracked_objects(tmp_path: Path) -> None:
    async with await open_store(tmp_path / "hats.sqlite3") as store:
        svc = GameService(store, lambda: 7, dispatch=lambda *args: None)
        await svc.start()
        warm = await start_game(svc, 5000)  # first-use work (caches, statements) done here
        await play(svc, warm, 10, seed=1)
        existing, shared = existing_ids()

        session = await start_game(svc, 6000)
        await play(svc, session, 20, seed=2)
        early = own_objects(session, shared)
        await play(svc, session, 30, seed=3)
        assert not session.game.is_over and session.version >= 50
        later = own_objects(session, shared)
        names = sorted(type(o).__name__ for o in later)
        assert len(later) <= MAX_TRACKED, names
        assert len(later) == len(early), "a game's tracked objects grow with its steps"

        # The same game loaded from the store into a fresh cache entry (as another process or
        # a restart would): the same bound.
        del svc.sessions[session.id]
        loaded = await svc.session(session.id)
        assert loaded is not None and loaded is not session
        assert loaded.version == session.version
        assert len(own_objects(loaded, shared)) <= MAX_TRACKED
        del existing
