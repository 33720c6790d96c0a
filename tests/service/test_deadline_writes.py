"""Deadlines of changes that are not steps are keyed on the step number (issue 33.3, 36.1).

A seat that turns away or back, and a start, get their deadlines from the service in the
change's own transaction, written only if the store still holds the step count they were
judged on (compare-and-set): a writer that judged an older state never replaces the deadline
a newer step wrote. Two services on one store stand for two processes (on SQLite nothing tells
one of the other's steps; on PostgreSQL a notification may come, too late to matter here).
On SQLite and PostgreSQL (the ``target`` fixture).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from data import SeatSpec, Store, TimerChange, TimerRow, open_store
from engine import GameConfig
from service import DeadlinePolicy, GameService, GameSession
from service.deadlines import AI, MOVE_KINDS, REMINDER, TURN, TURN_TIMER, keep_standing
from service.due import still_due

LIMIT = 60
"""The games' turn timer, seconds."""


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    if request.param == "sqlite":
        return tmp_path / "hats.sqlite3"
    return request.getfixturevalue("pg_url")


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def service(store: Store, clock: Clock) -> GameService:
    return GameService(
        store,
        lambda: 1,
        dispatch=lambda *args: None,
        deadlines=DeadlinePolicy(ai_delay=0.0),
        clock=clock,
    )


async def four_humans(store: Store, channel: int, seed: int) -> int:
    """A live game of four human seats with a turn timer; its id."""
    specs = [SeatSpec(user_id=100 + s) for s in range(4)]
    row = await store.games.create_game(
        1, channel, GameConfig(4, seed).to_dict(), specs, {TURN_TIMER: LIMIT}, announce=False
    )
    return row.id


async def until_the_move_passes(svc: GameService, session: GameSession) -> None:
    """The seat to move plays until another seat has the move (its first legal actions)."""
    seat = session.game.to_move
    while session.game.to_move == seat:
        await svc.play(session, seat, session.game.legal_actions(seat)[0])


async def held(store: Store, game_id: int) -> dict[str, tuple[float, dict]]:
    """The game's stored timers: kind -> (due_at, payload)."""
    rows = [t for t in await store.timers.list_all() if t.game_id == game_id]
    return {t.kind: (t.due_at, dict(t.payload)) for t in rows}


async def test_a_seat_change_judged_before_a_newer_step_never_replaces_its_deadline(target):
    clock_a, clock_b = Clock(1000.0), Clock(1000.0)
    async with await open_store(target) as one, await open_store(target) as other:
        a, b = service(one, clock_a), service(other, clock_b)
        game_id = await four_humans(one, 1, seed=3)
        stale = await a.session(game_id)
        await a.arm(stale)  # the start: the first seat's turn timer
        first = stale.game.to_move
        assert (await held(one, game_id))[TURN][1]["seat"] == first

        clock_b.t = 1010.0  # the other process plays the first turn to its end
        theirs = await b.session(game_id)
        await until_the_move_passes(b, theirs)
        newer = await held(one, game_id)
        assert newer[TURN][1] == {"seat": theirs.game.to_move, "version": theirs.version}
        assert newer[TURN][0] == 1010.0 + LIMIT

        # This process, still at the start, marks a seat away (not the one to move now): the
        # deadlines it judged (the first seat's turn at 1020) lose to the step's.
        clock_a.t = 1020.0
        away = next(s for s in range(4) if s not in (first, theirs.game.to_move))
        assert stale.version < theirs.version
        await a.update_seat(stale, away, away=True, ai_level="normal")
        assert (await one.games.seats(game_id))[away].ai_level == "normal"  # the change stands
        assert await held(one, game_id) == newer  # and the newer deadline too, to the second


async def test_a_timer_write_judged_on_an_older_step_count_writes_nothing(target):
    async with await open_store(target) as store:
        svc = service(store, Clock(500.0))
        game_id = await four_humans(store, 1, seed=5)
        session = await svc.session(game_id)
        await until_the_move_passes(svc, session)
        before = await held(store, game_id)
        asked: list[dict[str, TimerRow]] = []

        def plan(timers):
            asked.append(dict(timers))
            return [TimerChange(TURN, 1.0, 0, {"seat": 0, "version": 0})]

        assert await store.timers.write_at_step(game_id, 0, plan) is None
        assert asked == [] and await held(store, game_id) == before
        written = await store.timers.write_at_step(game_id, session.version, plan)
        assert written == [TimerChange(TURN, 1.0, 0, {"seat": 0, "version": 0})]
        assert set(asked[0]) == {TURN, REMINDER}  # the plan saw the timers held then
        assert (await held(store, game_id))[TURN] == (1.0, {"seat": 0, "version": 0})


async def test_a_start_racing_the_first_step_leaves_the_deadline_of_the_game_as_stored(target):
    """Whatever the order of the two transactions, the stored move deadline is due."""
    async with await open_store(target) as one, await open_store(target) as other:
        a, b = service(one, Clock(2000.0)), service(other, Clock(2000.0))
        for channel in range(1, 9):
            game_id = await four_humans(one, channel, seed=channel)
            stale, theirs = await a.session(game_id), await b.session(game_id)
            await asyncio.gather(a.arm(stale), until_the_move_passes(b, theirs))
            stored = await b.fresh_session(game_id)
            timers = await one.timers.list_all()
            move = [t for t in timers if t.game_id == game_id and t.kind in MOVE_KINDS]
            assert len(move) == 1 and still_due(stored, move[0]) == stored.game.to_move


def test_a_deadline_that_already_stands_is_kept():
    turn = TimerChange(TURN, 160.0, 2, {"seat": 2, "version": 9})
    reminder = TimerChange(REMINDER, 130.0, 2, {"seat": 2, "version": 9})
    ai = TimerChange(AI, None)
    same_seat = TimerRow(7, 1, None, TURN, 2, 150.0, {"seat": 2, "version": 4})
    other_seat = TimerRow(7, 1, None, TURN, 1, 150.0, {"seat": 1, "version": 4})
    assert keep_standing([turn, reminder, ai], {TURN: same_seat}) == [ai]  # the time runs on
    assert keep_standing([turn, reminder, ai], {TURN: other_seat}) == [turn, reminder, ai]
    move = TimerChange(AI, 5.0, 1, {"seat": 1, "version": 3})
    stored = TimerRow(8, 1, None, AI, 1, 4.0, {"seat": 1, "version": 3})
    assert keep_standing([move], {AI: stored}) == []  # its claim stays
    older = TimerRow(8, 1, None, AI, 1, 4.0, {"seat": 1, "version": 2})
    assert keep_standing([move], {AI: older}) == [move]


async def test_a_step_made_on_older_seats_writes_the_deadline_the_stored_seats_owe(target):
    """Issue 36.1 across processes: the other process hands the next seat to an AI; this one,
    whose copy still shows a human there, ends its turn. The AI gets its move at once."""
    clock = Clock(3000.0)
    async with await open_store(target) as one, await open_store(target) as other:
        a, b = service(one, clock), service(other, clock)
        game_id = await four_humans(one, 1, seed=7)
        stale = await a.session(game_id)
        await a.arm(stale)
        mover = stale.game.to_move
        theirs = await b.session(game_id)
        probe = stale.game.copy()  # who moves after this turn, on this copy's own choices
        while probe.to_move == mover:
            probe.apply(mover, probe.legal_actions(mover)[0])
        after = probe.to_move
        await b.update_seat(theirs, after, away=True, ai_level="normal")
        assert stale.seats[after].ai_level is None  # this copy has not heard of it

        await until_the_move_passes(a, stale)
        timers = await held(one, game_id)
        assert stale.game.to_move == after
        assert timers[AI] == (3000.0, {"seat": after, "version": stale.version})
        assert TURN not in timers and REMINDER not in timers
        assert stale.seats[after].ai_level == "normal"  # and the copy took the stored seats
        game = await b.fresh_session(game_id)
        ai = next(t for t in await one.timers.list_all() if t.kind == AI)
    assert still_due(game, ai) == after
