"""Issue 36.2: the turn timer's countdown lives in the hand DM; no message of its own.

A player with a turn timer reads when their time runs out in their hand DM itself, as a
Discord timestamp the client counts down (no edit). At half time nothing is sent, so after a
timed-out turn the newest DM is the hand DM saying that time ran out and what the AI played,
not a stale "half of your time is gone". Counted: the absent player's DM channel takes one
rate-limited call in a timed-out turn (the collapse), where it took two (a reminder, then the
collapse).
"""

from __future__ import annotations

import pytest

from tests.bot import rest_log
from tests.bot.helpers import dm_of, open_and_start, v2_texts

TURN = 120


@pytest.fixture
def bot_options():
    return {"turn_timer": TURN, "ai_delay": 0.0, "edit_limit": None}


def _player(world, session, seat):
    return next(p for p in world.players if p.user.id == session.seats[seat].user_id)


async def test_the_countdown_is_in_the_hand_dm_and_nothing_is_left_after_a_timeout(world):
    env = world.env
    log = rest_log.install(env)
    session = await open_and_start(world, 2)
    seat = session.game.to_move
    absent = _player(world, session, seat)
    channel = str(dm_of(absent).id)
    timer = await env.bot.get_cog("SchedulerCog").pending("turn", game_id=session.id)
    live = dm_of(absent).last_message
    assert live.id == session.message("dm", seat).message_id
    assert f"<t:{int(timer.due_at)}:R>" in "\n".join(v2_texts(live))  # the countdown
    mark = len(log.calls)
    count = len(dm_of(absent).history())
    await env.advance_time(TURN / 2 + 1)
    assert len(dm_of(absent).history()) == count  # half time: no message of its own
    await env.advance_time(TURN / 2)
    assert session.game.to_move != seat and session.auto_played
    newest = dm_of(absent).history()[-1]
    assert newest.id == live.id  # the newest DM is the hand DM, collapsed
    text = "\n".join(v2_texts(newest))
    assert text.startswith("Time ran out for your turn (round 1)")
    assert "<t:" not in text and "Half of your time" not in text
    calls = [c for c in log.calls[mark:] if c.channel == channel and not c.free]
    assert [c.method for c in calls] == ["PATCH"]  # the collapse only (was POST + PATCH)


async def test_a_slash_player_s_turn_line_says_when_the_ai_plays(world):
    session = await open_and_start(world, 2)
    game = session.game
    first = game.to_move
    player = _player(world, session, first)
    card = game.hands[first][0]
    await player.slash(world.channel, "hats blackhat", card=card.code)
    await player.slash(world.channel, "hats endturn")
    other = _player(world, session, game.to_move)
    card = game.hands[game.to_move][0]
    await other.slash(world.channel, "hats blackhat", card=card.code)
    await other.slash(world.channel, "hats endturn")
    assert game.to_move == first  # round 2: the one-line turn DM of a slash player
    timer = await world.env.bot.get_cog("SchedulerCog").pending("turn", game_id=session.id)
    line = dm_of(player).last_message.content
    assert line.startswith("Round 2: your turn")
    assert f"⏱️ Play by <t:{int(timer.due_at)}:t>, or the AI plays this turn for you." in line
