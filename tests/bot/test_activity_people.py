"""The Activity shows the people the bot saw (issue 34 s. 3), through the real bot (simcord).

A member with a server nickname and a server avatar opens a lobby with ``/hats new``; another
with only a user avatar joins by the lobby's button. The Activity's lobby and game frames
name them by their nicknames and carry their avatars as Discord's CDN paths: what the
interactions said, never what a client claims.
"""

from __future__ import annotations

import json

import aiohttp
import pytest

from tests.bot.helpers import adopt_web_steps, open_activity


@pytest.fixture
def bot_options():
    return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": None, "web_port": 0}


async def next_frame(ws, kind: str) -> dict:
    while True:
        msg = await ws.receive(timeout=10)
        frame = json.loads(msg.data)
        if frame["t"] == kind:
            return frame


async def test_nicknames_and_avatars_reach_the_activity_from_interactions(simcord_env):
    env = simcord_env
    bot = env.bot
    adopt_web_steps(env)
    guild = env.create_guild("Tea party")
    channel = guild.create_text_channel("hats")
    alice = guild.add_member(
        env.create_user("alice", global_name="Alice", avatar="a1b2c3"),
        nick="Queen Alice",
        avatar="d4e5f6",
    )
    bob = guild.add_member(env.create_user("bob", global_name="Bob", avatar="0b0b"))
    lobby = (await alice.slash(channel, "hats new")).response.message
    await bob.click(lobby, label="Join")
    await env.settle()
    a, b = alice.user.id, bob.user.id
    async with aiohttp.ClientSession() as http:
        ws = await open_activity(http, bot, bob.user, "Bob", channel)
        seats = (await next_frame(ws, "lobby"))["lobby"]["seats"]
        assert [s["name"] for s in seats] == ["Queen Alice", "Bob"]
        assert [s["avatar"] for s in seats] == [
            f"guilds/{guild.id}/users/{a}/avatars/d4e5f6.png",
            f"avatars/{b}/0b0b.png",
        ]
        await alice.click(lobby, label="Start")
        await env.settle()
        view = await next_frame(ws, "view")
        by_seat = {0: view["names"][0], 1: view["names"][1]}
        assert sorted(by_seat.values()) == ["Bob", "Queen Alice"]
        seat_a = view["names"].index("Queen Alice")
        assert view["avatars"][seat_a] == f"guilds/{guild.id}/users/{a}/avatars/d4e5f6.png"
        await ws.close()
