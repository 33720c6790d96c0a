"""The re-arm sweep (service.sweep): a live game whose seat to move lost its deadline gets it
back after two sweeps in a row saw it so, and only then; a game that needs none gets none.

On SQLite and PostgreSQL (the ``target`` fixture); the sweeps are run by hand, no runner.
"""

from __future__ import annotations

import random

from data import SeatSpec, open_store
from engine import GameConfig
from service import DeadlinePolicy, GameService
from service.deadlines import AI, TURN, TURN_TIMER
from service.sweep import DeadlineSweep


async def test_the_sweep_rearms_a_stalled_ai_game_after_its_grace_and_nothing_else(target):
    rng = random.Random(5)
    async with await open_store(target) as store:
        svc = GameService(
            store, lambda: 0, dispatch=lambda *a: None, deadlines=DeadlinePolicy(ai_delay=1.0)
        )
        sweep = DeadlineSweep(svc)

        async def game(channel: int, specs: list[SeatSpec], settings=None) -> int:
            config = GameConfig(len(specs), rng.randrange(2**31)).to_dict()
            row = await store.games.create_game(1, channel, config, specs, settings, at=0.0)
            return row.id

        ai_only = await game(1, [SeatSpec(ai_level="easy"), SeatSpec(ai_level="easy")])
        humans = await game(2, [SeatSpec(user_id=10), SeatSpec(user_id=11)])
        timed = await game(3, [SeatSpec(user_id=12), SeatSpec(user_id=13)], {TURN_TIMER: 60})
        assert await sweep.run() == []  # first seen: the grace of one period
        assert await store.timers.list_all() == []
        assert sorted(await sweep.run()) == [ai_only, timed]  # the humans' game needs none
        kinds = {(t.game_id, t.kind) for t in await store.timers.list_all()}
        assert kinds == {(ai_only, AI), (timed, TURN), (timed, "reminder")}
        assert await sweep.run() == []  # armed: nothing more to do
        assert humans not in {t.game_id for t in await store.timers.list_all()}

        # A deadline lost again; the game moves between two sweeps: no re-arm on the old count.
        await store.timers.clear_timer(AI, game_id=ai_only)
        assert await sweep.run() == []
        session = await svc.session(ai_only)
        seat = session.game.to_move
        await svc.play(session, seat, session.game.legal_actions(seat)[0], actor="ai")
        assert await store.timers.get_timer(AI, game_id=ai_only) is not None  # the step's own
        assert await sweep.run() == []
        assert sweep.rearmed == 2
