"""The deadlines written with each step (service.deadlines): who gets a turn timer, an AI move."""

from __future__ import annotations

import random

from data import GameRow, GameStatus, SeatRow
from engine import Game, GameConfig
from service import GameSession
from service.deadlines import AI, REMINDER, TURN, DeadlinePolicy

POLICY = DeadlinePolicy(ai_delay=1.5)


def session_for(seats: list[tuple[int | None, str | None]], turn_timer: int | None = 60):
    config = GameConfig(len(seats), 11)
    row = GameRow(
        1, 2, 3, config.to_dict(), {"turn_timer": turn_timer}, GameStatus.LIVE, 0, 0, None
    )
    seat_rows = [SeatRow(1, i, user, ai, False, 0) for i, (user, ai) in enumerate(seats)]
    return GameSession(row, seat_rows, Game.new(config))


def step(session: GameSession, rng: random.Random) -> int | None:
    """One random legal step; returns who was to move before it."""
    before = session.game.to_move
    session.game.apply(before, rng.choice(session.game.legal_actions(before)))
    return before


def by_kind(changes):
    return {c.kind: c for c in changes}


def test_a_human_who_gets_the_move_gets_a_turn_timer_and_a_reminder_at_half_time():
    session = session_for([(10, None), (20, None)])
    rng = random.Random(1)
    while True:  # play until the move passes to the other seat
        before = step(session, rng)
        if session.game.to_move != before:
            break
    changes = by_kind(POLICY.after_step(session, before, at=1000.0))
    seat = session.game.to_move
    assert changes[TURN].due_at == 1060.0 and changes[REMINDER].due_at == 1030.0
    assert changes[TURN].payload == {"seat": seat, "version": session.version}
    assert changes[AI].due_at is None


def test_the_same_human_still_acting_keeps_the_deadlines_of_the_turn():
    session = session_for([(10, None), (20, None)])
    rng = random.Random(2)
    before = step(session, rng)
    while session.game.to_move != before:  # find a step after which the same seat acts on
        before = step(session, rng)
    assert POLICY.after_step(session, before, at=5.0) == []


def test_an_ai_seat_gets_an_ai_move_after_every_step_and_no_turn_timer():
    session = session_for([(10, None), (None, "normal")])
    rng = random.Random(3)
    while session.game.to_move != 1:
        before = step(session, rng)
    changes = by_kind(POLICY.after_step(session, before, at=10.0))
    assert changes[AI].due_at == 11.5 and changes[AI].seat == 1
    assert changes[TURN].due_at is None and changes[REMINDER].due_at is None
    before = step(session, rng)  # the AI's own step
    if session.game.to_move == 1:
        assert by_kind(POLICY.after_step(session, before, at=20.0))[AI].due_at == 21.5


def test_no_turn_timer_means_no_human_deadline_and_a_finished_game_needs_nothing():
    session = session_for([(10, None), (20, None)], turn_timer=None)
    rng = random.Random(4)
    while not session.game.is_over:
        before = step(session, rng)
        changes = POLICY.after_step(session, before, at=0.0)
        assert all(c.due_at is None for c in changes)
    assert POLICY.after_step(session, before, at=0.0) == []
