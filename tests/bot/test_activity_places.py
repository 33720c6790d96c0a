"""Where the Activity runs, through the real bot (simcord): the permission check is the bot's
own (cogs.access: simcord's members, roles and overwrites), and a group DM's game lives in
the Activity alone (issue 34.1, 34.2).

Discord's Activity Instance API is stood in for by ``web.instances.KnownInstances``
(:func:`tests.bot.helpers.open_activity` joins the channel's instance); its HTTP side is
tested against the fake in tests/web.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest

from tests.bot.helpers import adopt_web_steps, open_activity


@pytest.fixture
def bot_options():
    return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": None, "web_port": 0}


SEEN: dict[int, list[dict[str, Any]]] = {}
"""Frames read from each socket (by id) that no wait has taken yet."""


async def frame_until(ws, test, timeout: float = 10) -> dict[str, Any]:
    """The first frame (kept from before, else read now) that passes ``test``."""
    kept = SEEN.setdefault(id(ws), [])
    for i, frame in enumerate(kept):
        if test(frame):
            del kept[: i + 1]
            return frame
    kept.clear()
    while True:
        msg = await ws.receive(timeout=timeout)
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        frame = json.loads(msg.data)
        if test(frame):
            return frame


async def request(ws, rid: int, frame: dict[str, Any]) -> dict[str, Any]:
    """Send a request; its answer (the frames read before it are kept for later waits)."""
    await ws.send_json(frame | {"id": rid})
    kept = SEEN.setdefault(id(ws), [])
    while True:
        msg = await ws.receive(timeout=10)
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        got = json.loads(msg.data)
        if got.get("id") == rid and got["t"] in ("ack", "error"):
            return got
        kept.append(got)


def channel_posts(env, channel_id: int) -> int:
    path = f"/channels/{channel_id}/messages"
    return sum(1 for r in env.http_requests if r.method == "POST" and r.path == path)


async def test_a_private_channel_needs_view_and_send_for_the_lobby(world):
    """A member the channel's overwrites shut out opens no lobby there (the bot would post
    its message there); one they let in does, and the bot posts it."""
    env, guild = world.env, world.guild
    alice, bob = world.players[:2]
    everyone = guild.roles["@everyone"]
    private = guild.create_text_channel(
        "private",
        overwrites={
            everyone: discord.PermissionOverwrite(view_channel=False),
            alice: discord.PermissionOverwrite(view_channel=True, send_messages=True),
            guild.me: discord.PermissionOverwrite(view_channel=True, send_messages=True),
        },
    )
    adopt_web_steps(env)
    async with aiohttp.ClientSession() as http:
        ws_bob = await open_activity(http, env.bot, bob.user, "bob", private)
        await frame_until(ws_bob, lambda f: f["t"] == "lobby")
        answer = await request(ws_bob, 1, {"t": "lobby", "op": "open"})
        assert answer["t"] == "error" and "see this channel" in answer["message"]
        assert await env.bot.games.lobby_in_channel(private.id) is None
        ws_alice = await open_activity(http, env.bot, alice.user, "alice", private)
        await frame_until(ws_alice, lambda f: f["t"] == "lobby")
        assert (await request(ws_alice, 1, {"t": "lobby", "op": "open"}))["t"] == "ack"
        await env.settle()
        assert channel_posts(env, private.id) == 1  # the lobby message
        await frame_until(ws_bob, lambda f: f["t"] == "lobby" and f["lobby"] is not None)
        answer = await request(ws_bob, 2, {"t": "lobby", "op": "join"})
        assert answer["t"] == "error"
        row = await env.bot.games.lobby_in_channel(private.id)
        assert [s.user_id for s in row.seats] == [alice.user.id]
        await ws_alice.close()
        await ws_bob.close()


@dataclass
class GroupDM:
    """A group DM the bot cannot see (a user-installed app's Activity there)."""

    id: int
    guild: None = None


async def test_a_group_dm_game_lives_in_the_activity_alone(world):
    """Two friends and an AI play to the end in a group DM's Activity with a turn timer: the
    bot posts nothing anywhere (no lobby, table, hand DM, ping), the AI plays through the
    bot's deadlines, the game is unrated, and a rematch opens in the same group DM."""
    env = world.env
    bot = env.bot
    adopt_web_steps(env)
    # steps made in the web server's task read simcord's clock too (else the AI's deadline,
    # written in real time, would lie months after simcord's "now")
    bot.games.clock = lambda: env.now().timestamp()
    alice, bob = world.players[:2]
    gdm = GroupDM(1_300_000_000_000_000_001)
    rng = random.Random(34)
    before = len(env.http_requests)
    async with aiohttp.ClientSession() as http:
        ws = {
            p.user.id: await open_activity(http, bot, p.user, p.user.name, gdm)
            for p in (alice, bob)
        }
        for socket in ws.values():
            welcome = await frame_until(socket, lambda f: f["t"] == "welcome")
            assert welcome["place"] == "private" and welcome["channel_id"] == str(gdm.id)
        host, guest = ws[alice.user.id], ws[bob.user.id]
        assert (await request(host, 1, {"t": "lobby", "op": "open"}))["t"] == "ack"
        lobby = await frame_until(host, lambda f: f["t"] == "lobby" and f["lobby"])
        assert lobby["lobby"]["rated"] is False and lobby["lobby"]["note"]
        assert (await request(host, 2, {"t": "lobby", "op": "ai_add", "level": "easy"}))[
            "t"
        ] == "ack"
        assert (await request(guest, 1, {"t": "lobby", "op": "join"}))["t"] == "ack"
        assert (await request(host, 3, {"t": "lobby", "op": "start"}))["t"] == "ack"
        await env.settle()
        session = await bot.games.session_in_channel(gdm.id)
        assert session is not None
        views: dict[int, dict] = {}
        rid = 10
        while not session.game.is_over:
            user = session.seats[session.game.to_move].user_id
            assert user is not None, "the AI moved during the settle"
            socket = ws[user]
            view = views.get(user)
            while view is None or view["step"] < session.version:
                view = await frame_until(socket, lambda f: f["t"] == "view")
            views[user] = view
            rid += 1
            action = rng.choice(view["legal"])
            answer = await request(
                socket,
                rid,
                {"t": "act", "game_id": view["game_id"], "step": view["step"], "action": action},
            )
            assert answer["t"] == "ack", answer
            await env.settle()
        final = await frame_until(host, lambda f: f["t"] == "view" and f["result"] is not None)
        assert final["result"]["ranking"]
        assert (await request(guest, 99, {"t": "rematch", "game_id": final["game_id"]}))[
            "t"
        ] == "ack"
        for socket in ws.values():
            await socket.close()
    await env.settle()
    posts = [
        r.path for r in env.http_requests[before:] if r.method == "POST" and "/messages" in r.path
    ]
    assert posts == []  # no lobby, table, hand DM, ping or reminder anywhere
    calls = [(r.method, r.path) for r in env.http_requests[before:]]
    assert calls == [], calls
    rematch = await bot.games.lobby_in_channel(gdm.id)
    assert rematch is not None and rematch.settings.get("activity_only") is True
    ai_moves = [e for e in session.game.events if session.seats[e.seat].user_id is None]
    assert ai_moves
    assert await bot.store.history.changes_for_game(session.id, 0) == []  # unrated
