"""simcord fixtures: the real bot over a temporary database, a server, a channel, players."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest
from simcord.env import Env

from bot import create_bot

# simcord idles 50 ms after every ephemeral answer while settling; our tests send hundreds of
# them. 1 ms keeps the same settling logic at test speed (private simcord knob, pinned 3.2.1).
Env._settle_internal.__kwdefaults__["idle"] = 0.001


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "hats.sqlite3"


@pytest.fixture
def bot_options():
    """Settings for the bot under test; tests override this fixture to change them."""
    # edit_limit None: every edit at once (moves here come back to back in simulated time;
    # tests/bot/test_rest_budget.py plays with Discord's per-channel edit budget on)
    return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": None}


@pytest.fixture
async def make_bot(db_path, bot_options):
    """Build bots over the test database (a restart builds a second one); closes their stores.

    simcord never calls ``bot.close()``, and an open aiosqlite connection keeps a worker
    thread alive that would stop the test process from exiting.
    """
    seeds = itertools.count(1001)
    bots = []

    def make(**overrides):
        bot = create_bot(db_path, seed_source=lambda: next(seeds), **{**bot_options, **overrides})
        bots.append(bot)
        return bot

    yield make
    for bot in bots:
        await bot.monitor.stop()
        if bot.store is not None:
            await bot.store.close()


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot()


@dataclass
class World:
    env: object
    guild: object
    channel: object
    players: list


@pytest.fixture
async def world(simcord_env):
    guild = simcord_env.create_guild("Tea party")
    channel = guild.create_text_channel("hats")
    players = [
        guild.add_member(simcord_env.create_user(name))
        for name in ("alice", "bob", "carol", "dave", "erin")
    ]
    return World(simcord_env, guild, channel, players)
