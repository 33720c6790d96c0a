"""Games nobody touched for HATS_CACHE_IDLE seconds leave the cache and load again on use."""

from __future__ import annotations

import random

import pytest

from tests.bot.helpers import play_one, session_of


@pytest.fixture
def bot_options():
    return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": None, "cache_idle": 900.0}


async def start_against_ai(world, player, channel):
    result = await player.slash(channel, "hats new")
    await player.slash(channel, "hats ai add", level="easy")
    lobby = next(m for m in channel.history() if m.id == result.response.message.id)
    await player.click(lobby, label="Start")
    return await session_of(world.env, channel)


async def test_an_idle_game_leaves_the_cache_and_comes_back_on_first_use(world):
    env, games = world.env, world.env.bot.games
    alice, bob = world.players[:2]
    first = await start_against_ai(world, alice, world.channel)
    await env.advance_time(600)
    second = await start_against_ai(world, bob, world.guild.create_text_channel("hats-2"))
    assert games.cached(first.id) is first and games.cached(second.id) is second

    await env.advance_time(400)  # the first game idles 1,000 s, the second 400 s
    rng = random.Random(2)
    await play_one(world, second, rng)  # any use sweeps the cache
    assert games.cached(first.id) is None
    assert games.cached(second.id) is second

    # Alice's next click loads her game again from the store, and the move counts
    version = first.version
    again = await games.session(first.id)
    assert again is not first and again.version == version
    await play_one(world, again, rng)
    assert games.cached(first.id) is again and again.version > version


async def test_a_game_whose_step_is_in_flight_stays(world):
    env, games = world.env, world.env.bot.games
    session = await start_against_ai(world, world.players[0], world.channel)
    await env.advance_time(1000)
    async with session.lock:  # a step of this game is being committed
        assert await games.session(session.id + 1) is None  # any look-up sweeps the cache
        assert games.cached(session.id) is session
    await env.advance_time(1000)
    await games.session(session.id + 1)
    assert games.cached(session.id) is None
