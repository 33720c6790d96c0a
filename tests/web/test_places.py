"""Where the Activity runs is Discord's word, not the client's (issue 34.1, 34.2).

The client sends its instance id; the server asks the (fake) Discord Activity Instance API
and takes the server and channel from its answer. Each case was measured from outside
against the server that believed the ``hello``'s ``guild_id``/``channel_id``.
"""

from __future__ import annotations

import random

import aiohttp
import pytest

from data.game_flags import is_rated_kind
from tests.web.conftest import CHANNEL, DM, GROUP_DM, PRIVATE, open_web_world


async def refused(client) -> tuple[dict, int]:
    """The ``unsupported`` frame and the close code of a refused hello."""
    frame = await client.recv()
    msg = await client.ws.receive(timeout=5)
    assert msg.type is aiohttp.WSMsgType.CLOSE, msg
    return frame, msg.data


async def test_a_user_not_in_the_instance_is_refused(web_world):
    """A signed-in user who is not in the server watched its channel's live table."""
    game_id = await web_world.start_game([4001, 4002])
    assert game_id
    stranger = await web_world.connect(4666, "Mallory", join=False)
    frame, code = await refused(stranger)
    assert frame["t"] == "unsupported" and frame["reason"] == "not_in_instance"
    assert "not in this Activity" in frame["message"]
    assert code == 4003
    assert not any(f["t"] == "view" for f in stranger.frames)


async def test_an_unknown_instance_is_refused(web_world):
    client = await web_world.connect(4003, "Ana", join=False, instance_id="i-nowhere")
    frame, code = await refused(client)
    assert frame["reason"] == "unknown_instance" and code == 4003
    client = await web_world.connect(4003, "Ana", join=False, instance_id=None)
    assert (await refused(client))[1] == 4003


async def test_the_channel_comes_from_discord_not_from_the_client(web_world):
    """A member saw and joined a lobby in a channel private to others by naming it."""
    owner = await web_world.connect(4010, "Owner", place="private")
    web_world.access.private_members.add(4010)
    await owner.until(lambda f: f["t"] == "lobby")
    rid = await owner.request({"t": "lobby", "op": "open"})
    assert (await owner.answer(rid))["t"] == "ack"
    member = await web_world.connect(4011, "Member", channel_id=str(PRIVATE))
    welcome = await member.until(lambda f: f["t"] == "welcome")
    assert welcome["channel_id"] == str(CHANNEL) and welcome["place"] == "server"
    assert (await member.until(lambda f: f["t"] == "lobby"))["lobby"] is None
    rid = await member.request({"t": "lobby", "op": "join"})
    assert (await member.answer(rid))["t"] == "error"
    row = await web_world.games.lobby_in_channel(PRIVATE)
    assert [s.user_id for s in row.seats] == [4010]


async def test_who_may_not_post_in_a_channel_opens_and_joins_nothing_there(web_world):
    """A non-member opened a lobby in a private channel (the bot would post it there)."""
    intruder = await web_world.connect(4020, "Intruder", place="private")
    await intruder.until(lambda f: f["t"] == "lobby")
    rid = await intruder.request({"t": "lobby", "op": "open"})
    answer = await intruder.answer(rid)
    assert answer["t"] == "error" and "see this channel and send messages" in answer["message"]
    assert await web_world.games.lobby_in_channel(PRIVATE) is None
    assert not any(name == "hats_lobby_opened" for name, _ in web_world.events)
    web_world.access.private_members.add(4021)
    host = await web_world.connect(4021, "Host", place="private")
    await host.until(lambda f: f["t"] == "lobby")
    rid = await host.request({"t": "lobby", "op": "open"})
    assert (await host.answer(rid))["t"] == "ack"
    await intruder.until(lambda f: f["t"] == "lobby" and f["lobby"] is not None)
    rid = await intruder.request({"t": "lobby", "op": "join"})
    assert (await intruder.answer(rid))["t"] == "error"
    row = await web_world.games.lobby_in_channel(PRIVATE)
    assert [s.user_id for s in row.seats] == [4021]


async def test_instances_are_cached_and_asked_again_for_a_newcomer(web_world, fake_discord):
    before = fake_discord.hits["instance"]
    fake_discord.users["server"].add(4031)  # in the Activity already when A connects
    a = await web_world.connect(4030, "A")
    await a.until(lambda f: f["t"] == "lobby")
    b = await web_world.connect(4031, "B")
    await b.until(lambda f: f["t"] == "lobby")
    assert fake_discord.hits["instance"] - before == 1  # B was listed in the cached answer
    c = await web_world.connect(4032, "C")  # joined after: not in the cached answer
    await c.until(lambda f: f["t"] == "lobby")
    assert fake_discord.hits["instance"] - before == 2
    again = await web_world.connect(4030, "A")
    await again.until(lambda f: f["t"] == "lobby")
    assert fake_discord.hits["instance"] - before == 2


async def test_discord_down_closes_with_try_again(web_world, fake_discord):
    fake_discord.fail = True
    client = await web_world.connect(4040, "Ana")
    msg = await client.ws.receive(timeout=5)
    assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == 1013


async def test_no_instance_lookup_no_discord_socket(tmp_path):
    """Without a bot token nothing outside local mode is trusted."""
    async with open_web_world(tmp_path, bot_token=None) as world:
        world.server.instances = None
        client = await world.connect(4050, "Ana")
        assert (await refused(client))[1] == 4003


@pytest.mark.parametrize("place,channel", [("dm", DM), ("group_dm", GROUP_DM)])
async def test_a_dm_activity_plays_a_whole_game_alone(web_world, place, channel):
    """A DM or group DM: the lobby says unrated, AI seats, the game starts and ends in the
    Activity; the bot is asked to post nothing (no lobby message, no table)."""
    host = await web_world.connect(4100, "Ana", place=place)
    welcome = await host.until(lambda f: f["t"] == "welcome")
    assert welcome["channel_id"] == str(channel) and welcome["place"] == "private"
    await host.until(lambda f: f["t"] == "lobby")
    for request in ({"op": "open"}, {"op": "ai_add", "level": "easy"}):
        rid = await host.request({"t": "lobby", **request})
        assert (await host.answer(rid))["t"] == "ack", request
    lobby = next(f for f in reversed(host.frames) if f["t"] == "lobby")["lobby"]
    assert lobby["rated"] is False and "Unrated" in lobby["note"]
    friend = await web_world.connect(4101, "Bo", place=place)
    await friend.until(lambda f: f["t"] == "lobby" and f["lobby"] is not None)
    rid = await friend.request({"t": "lobby", "op": "join"})
    assert (await friend.answer(rid))["t"] == "ack"
    rid = await host.request({"t": "lobby", "op": "start"})
    assert (await host.answer(rid))["t"] == "ack"
    view = await host.view_at(0)
    session = web_world.games.cached(int(view["game_id"]))
    assert session.row.channel_id == channel and session.row.guild_id == 0
    assert not is_rated_kind(session.row.settings)
    clients = {4100: host, 4101: friend}
    rng = random.Random(34)
    while not session.game.is_over:
        seat = session.game.to_move
        user = session.seats[seat].user_id
        if user is None:  # the AI seat: played here as the bot's deadline would
            action = rng.choice(session.game.legal_actions(seat))
            await web_world.games.play(session, seat, action, actor="ai")
            continue
        client = clients[user]
        view = await client.view_at(session.version)
        action = rng.choice(view["legal"])
        rid = await client.request(
            {"t": "act", "game_id": view["game_id"], "step": view["step"], "action": action}
        )
        assert (await client.answer(rid))["t"] == "ack"
    final = await host.view_at(session.version)
    assert final["result"] is not None
    posted = {"hats_lobby_opened", "hats_lobby_changed", "hats_team_chat"}
    assert not [name for name, _ in web_world.events if name in posted]
    rid = await friend.request({"t": "rematch", "game_id": final["game_id"]})
    assert (await friend.answer(rid))["t"] == "ack"
    row = await web_world.games.lobby_in_channel(channel)
    assert row is not None and row.settings.get("activity_only") is True
