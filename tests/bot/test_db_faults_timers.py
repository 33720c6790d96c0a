"""Database faults on the background paths: turn deadlines and AI seats retry within a minute."""

from __future__ import annotations

import logging

import pytest

from service.runner import STORE_RETRY_SECONDS
from tests.bot.faults import inject, warnings_and_errors
from tests.bot.helpers import open_and_start, session_of

TURN = 60


@pytest.fixture
def bot_options():
    return {"turn_timer": TURN, "ai_delay": 0.0, "lobby_expiry": 3600.0}


def assert_warned_once_per_try(caplog, needle):
    warnings, bad = warnings_and_errors(caplog)
    assert not bad, [r.getMessage() for r in bad]
    assert any(needle in r.getMessage() for r in warnings)


async def test_turn_deadline_on_a_full_store_is_retried(world, caplog):
    caplog.set_level(logging.WARNING)
    session = await open_and_start(world, 2)
    seat = session.game.to_move
    fault = inject(world.env.bot.store, r"INSERT INTO steps", "full")
    await world.env.advance_time(TURN + 1)  # the AI would play the absent player's turn
    assert session.version == 0 and session.game.to_move == seat
    assert fault.hits >= 1
    assert_warned_once_per_try(caplog, "full")
    fault.clear()
    await world.env.advance_time(TURN + 1)  # the same deadline fires again: played now
    assert session.version > 0 and session.game.to_move != seat
    assert session.auto_played


async def test_ai_seat_on_a_failing_store_plays_seconds_after_it_works_again(world, caplog):
    caplog.set_level(logging.WARNING)
    alice = world.players[0]
    store = world.env.bot.store
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    await alice.slash(world.channel, "hats ai add", level="easy")
    fault = inject(store, r"INSERT INTO steps.*'actor': 'ai'", "io")
    await alice.click(lobby, label="Start")
    session = await session_of(world.env, world.channel)
    ai_seat = next(s.seat for s in session.seats if s.user_id is None)
    if session.game.to_move != ai_seat:  # alice plays her turn; then the AI fails to move
        from engine import EndTurn

        first = next(
            a for a in session.game.legal_actions(session.game.to_move) if hasattr(a, "slot")
        )
        await alice.slash(world.channel, "hats exchange", card=first.card.code, slot=first.slot)
        assert EndTurn() in session.game.legal_actions(session.game.to_move)
        await alice.slash(world.channel, "hats endturn")
    stuck = session.version
    assert session.game.to_move == ai_seat and fault.hits >= 1
    assert_warned_once_per_try(caplog, "io")
    fault.clear()
    await world.env.advance_time(STORE_RETRY_SECONDS + 1)  # the same deadline fires again
    assert session.version > stuck
