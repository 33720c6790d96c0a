"""Issue 29.8: a rematch keeps the lobby's turn timer and its Hints setting, under simcord."""

from __future__ import annotations

import random

import pytest

from tests.bot.helpers import bot_messages, play_one, session_of


@pytest.fixture
def bot_options():
    """The bot's default turn timer is 5 minutes: a rematch must not fall back to it."""
    return {"turn_timer": 300.0, "ai_delay": 0.0, "edit_limit": None}


async def _finish(world, *, timer: int, hints: bool):
    alice, bob = world.players[:2]
    lobby = (await alice.slash(world.channel, "hats new", timer=timer)).response.message
    if hints:
        await alice.click(lobby, label="Hints: off (turn on)")
        lobby = next(m for m in world.channel.history() if m.id == lobby.id)
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    session = await session_of(world.env, world.channel)
    rng = random.Random(4)
    while not session.game.is_over:
        await play_one(world, session, rng)
    return session


async def test_rematch_keeps_a_two_minute_timer_and_hints(world):
    await _finish(world, timer=120, hints=True)
    final = bot_messages(world.env, world.channel)[-1]
    await world.players[1].click(final, label="Rematch")
    lobby = await world.env.bot.games.lobby_in_channel(world.channel.id)
    assert lobby is not None and lobby.host_id == world.players[1].user.id
    assert lobby.settings["turn_timer"] == 120
    assert lobby.settings.get("hints") is True


async def test_rematch_of_a_game_without_timer_or_hints_keeps_none(world):
    await _finish(world, timer=0, hints=False)
    final = bot_messages(world.env, world.channel)[-1]
    await world.players[0].click(final, label="Rematch")
    lobby = await world.env.bot.games.lobby_in_channel(world.channel.id)
    assert lobby is not None
    assert lobby.settings["turn_timer"] is None
    assert lobby.settings.get("hints") is not True
