"""simcord fixtures: the real bot over a temporary database, a server, a channel, players."""

from __future__ import annotations

import asyncio
import itertools
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from simcord.env import Env

from bot import create_bot
from data import open_store
from engine.ai import ExpertBudget

# simcord idles 50 ms after every ephemeral answer while settling; our tests send hundreds of
# them. 1 ms keeps the same settling logic at test speed (private simcord knob, pinned 3.2.1).
Env._settle_internal.__kwdefaults__["idle"] = 0.001


@pytest.fixture(scope="session")
def migrated_store(tmp_path_factory) -> Path:
    """An empty SQLite store with every migration applied, made once per process.

    A fresh file takes 16 migrations, each committed with ``synchronous=FULL`` (0.06-0.3 s,
    most of a bot test's set-up on a busy disk); a copy of this one is the same file.
    """
    path = tmp_path_factory.mktemp("migrated") / "hats.sqlite3"

    async def migrate() -> None:
        store = await open_store(path)
        await store.close()

    asyncio.run(migrate())
    assert not path.with_name("hats.sqlite3-wal").exists()  # all in the file: copy it alone
    return path


@pytest.fixture
def db_path(tmp_path, migrated_store):
    """The bot's database: this test's own copy of the empty, migrated store."""
    path = tmp_path / "hats.sqlite3"
    shutil.copyfile(migrated_store, path)
    return path


@pytest.fixture
def bot_options():
    """Settings for the bot under test; tests override this fixture to change them."""
    # edit_limit None: every edit at once (moves here come back to back in simulated time;
    # tests/bot/test_rest_budget.py plays with Discord's per-channel edit budget on)
    return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": None}


TEST_EXPERT = ExpertBudget(turns=300, quick_turns=40)
"""The expert AI's budget in bot tests (expert seats, hints): small, so games stay quick."""


@pytest.fixture
async def make_bot(db_path, bot_options):
    """Build bots over the test database (a restart builds a second one); closes their stores.

    simcord never calls ``bot.close()``, and an open aiosqlite connection keeps a worker
    thread alive that would stop the test process from exiting.
    """
    seeds = itertools.count(1001)
    bots = []

    def make(**overrides):
        options = {"expert_budget": TEST_EXPERT, **bot_options, **overrides}
        bot = create_bot(db_path, seed_source=lambda: next(seeds), **options)
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
