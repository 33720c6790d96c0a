"""The bot as an AutoShardedBot: HATS_SHARD_COUNT/HATS_SHARD_IDS reach discord.py, and a game
is played across shards (its server on shard 1, its hand DMs on shard 0)."""

from __future__ import annotations

import logging
import random

import pytest

from bot import Settings
from tests.bot.conftest import World
from tests.bot.helpers import dm_of, open_and_start, play_one, text_of

TWO_SHARDS = Settings.from_env({"HATS_SHARD_COUNT": "2", "HATS_SHARD_IDS": "0,1"})


@pytest.fixture
def bot_options(bot_options):
    shards = {"shard_count": TWO_SHARDS.shard_count, "shard_ids": TWO_SHARDS.shard_ids}
    return {**bot_options, **shards}


@pytest.fixture
def simcord_bot(make_bot, caplog):
    caplog.set_level(logging.INFO, logger="hats")  # the start-up line says which shards run
    return make_bot()


def world_on_shard(env, shard_id: int, name: str) -> World:
    guild = env.create_guild(name, shard_id=shard_id)
    channel = guild.create_text_channel("hats")
    players = [guild.add_member(env.create_user(f"{name}-{n}")) for n in ("alice", "bob")]
    return World(env, guild, channel, players)


async def test_a_game_on_shard_1_is_played_from_dms_on_shard_0(simcord_env, caplog):
    env = simcord_env
    assert env.bot.shard_count == 2 and sorted(env.bot.shards) == [0, 1]
    started = [r.getMessage() for r in caplog.get_records("setup") if r.name == "hats"]
    assert "this process runs shards 0-1 of 2" in started
    world = world_on_shard(env, 1, "far")
    assert env.bot.get_guild(world.guild.id).shard_id == 1
    session = await open_and_start(world, 2)  # slash command and buttons in the server
    assert session is not None and session.version == 0

    rng = random.Random(5)
    await play_one(world, session, rng)  # a button on the hand DM (DMs: shard 0)
    assert session.version == 1

    mover = next(
        p for p in world.players if p.user.id == session.seats[session.game.to_move].user_id
    )
    shown = await mover.user.slash("hats hand")  # /hats hand typed in the DM
    assert shown.ephemeral
    text = text_of(shown.response.message)
    hand = session.game.hands[session.game.to_move]
    assert all(f"{c.type.emoji} {c.value}" in text for c in hand)

    while not session.game.is_over:
        await play_one(world, session, rng)
    assert session.game.result is not None
    assert dm_of(mover).last_message is not None


async def test_a_server_on_each_shard_gets_its_own_lobby(simcord_env):
    env = simcord_env
    near, far = world_on_shard(env, 0, "near"), world_on_shard(env, 1, "far")
    for world in (near, far):
        opened = await world.players[0].slash(world.channel, "hats new")
        assert not opened.ephemeral
        await world.players[1].click(opened.response.message, label="Join")
        lobby = await env.bot.games.lobby_in_channel(world.channel.id)
        assert len(lobby.seats) == 2


class TestOneShardOfTwo:
    """HATS_SHARD_IDS=1: this process sees only the servers of shard 1 (another runs 0)."""

    @pytest.fixture
    def bot_options(self, bot_options):
        # (Settings.from_env wants HATS_DATABASE_URL for a part of the shards; SQLite here)
        return {**bot_options, "shard_count": 2, "shard_ids": (1,)}

    async def test_only_the_servers_of_its_shard_are_served(self, simcord_env):
        env = simcord_env
        near, far = world_on_shard(env, 0, "near"), world_on_shard(env, 1, "far")
        assert sorted(env.bot.shards) == [1]
        assert env.bot.get_guild(near.guild.id) is None
        assert env.bot.get_guild(far.guild.id) is not None
        await far.players[0].slash(far.channel, "hats new")
        assert await env.bot.games.lobby_in_channel(far.channel.id) is not None
