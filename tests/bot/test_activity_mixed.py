"""One game played in the Activity and by DM buttons at once, through the real bot (simcord).

Alice plays over a WebSocket (the Activity's protocol), Bob with his hand DM's buttons, and an
AI takes the third seat. A move made in the Activity must have the same Discord-side effects
as a button move: the table message follows, the next player's hand DM comes with its
controls, AI moves follow. Alice, following the game live, gets no turn-ping DM.

A WebSocket request is outside input for simcord (like a gateway event): the steps it makes
are announced with ``bot.dispatch`` from the web server's own task. :func:`adopt_web_steps`
announces them as bot-owned work, so ``env.settle()`` waits for the bot's listeners as it
does after a click (simcord's ownership is a contextvar; nothing else changes).
"""

from __future__ import annotations

import json
import random
from typing import Any

import aiohttp
import pytest

from cogs.controls import card_select_custom_id
from engine import ActionKind
from tests.bot.helpers import act_on_hand, adopt_web_steps, custom_ids, dm_of, open_activity
from tests.bot.test_full_game import table_message


@pytest.fixture
def bot_options():
    return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": None, "web_port": 0}


def dm_posts(env, user) -> int:
    channel = dm_of(user)
    if channel is None:
        return 0
    path = f"/channels/{channel.id}/messages"
    return sum(1 for r in env.http_requests if r.method == "POST" and r.path == path)


class Socket:
    """The Activity's protocol from the test's side: hello, requests, the latest view."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.view: dict[str, Any] | None = None
        self.next_id = 0

    async def frame(self) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=10)
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        frame = json.loads(msg.data)
        if frame["t"] == "view":
            self.view = frame
        return frame

    async def view_at(self, step: int) -> dict[str, Any]:
        while self.view is None or self.view["step"] < step:
            await self.frame()
        return self.view

    async def act(self, action: dict[str, Any]) -> dict[str, Any]:
        assert self.view is not None
        self.next_id += 1
        await self.ws.send_json(
            {
                "t": "act",
                "id": self.next_id,
                "game_id": self.view["game_id"],
                "step": self.view["step"],
                "action": action,
            }
        )
        while True:
            frame = await self.frame()
            if frame["t"] in ("ack", "error") and frame.get("id") == self.next_id:
                return frame


async def test_websocket_moves_dm_clicks_and_an_ai_share_one_game(world):
    env = world.env
    bot = env.bot
    adopt_web_steps(env)
    host, guest = world.players[:2]
    lobby = (await host.slash(world.channel, "hats new")).response.message
    await guest.click(lobby, label="Join")
    await host.slash(world.channel, "hats ai add", level="easy")
    await host.click(lobby, label="Start")
    await env.settle()
    session = await bot.games.session_in_channel(world.channel.id)
    seat_of = {session.seats[i].user_id: i for i in range(3)}
    # the first human to move plays in the Activity: before any button move was seen, a move
    # from the web was taken for a slash command, and the other player's hand DM came as one
    # line without controls ("never drawn")
    first = session.seats[session.game.to_move].user_id
    alice, bob = (host, guest) if first == host.user.id else (guest, host)
    rng = random.Random(3)
    async with aiohttp.ClientSession() as http:
        ws = await open_activity(http, bot, alice.user, "alice", world.channel, "fr")
        socket = Socket(ws)
        await socket.view_at(session.version)
        await env.settle()
        alice_pings = dm_posts(env, alice)
        web_moves = bob_moves = 0
        while not session.game.is_over:
            seat = session.game.to_move
            if seat == seat_of[alice.user.id]:
                view = await socket.view_at(session.version)
                answer = await socket.act(rng.choice(view["legal"]))
                assert answer["t"] == "ack", answer
                web_moves += 1
            else:
                assert seat == seat_of[bob.user.id]  # the AI moved during the settle
                hand = dm_of(bob).last_message
                # the bot drew Bob's live hand DM for this very step, whoever moved before
                assert card_select_custom_id(session.id, session.version) in custom_ids(hand)
                legal = session.game.legal_actions(seat)
                kinds = sorted({a.kind for a in legal}, key=lambda k: k.value)
                kind = rng.choice(kinds)
                action = rng.choice([a for a in legal if a.kind is kind])
                await act_on_hand(session, bob, hand, action)
                bob_moves += 1
            await env.settle()
            # the table message shows every step, whoever made it (web, button, AI)
            table = table_message(env, world.channel, session)
            assert table is not None
        final = await socket.view_at(session.version)
        assert final["result"] is not None
        await ws.close()
    await env.settle()
    assert web_moves >= 8 and bob_moves >= 8
    ai_steps = [e for e in session.game.events if e.seat == seat_of[None]]
    assert any(e.kind is not ActionKind.END_TURN for e in ai_steps)  # the AI played too
    # Alice followed the game live: not one turn-ping DM for her turns
    assert dm_posts(env, alice) == alice_pings


async def test_a_player_with_the_activity_open_gets_no_start_dm(world):
    """The Activity open on the channel's lobby follows the start live: no start DM."""
    env = world.env
    bot = env.bot
    adopt_web_steps(env)
    alice, bob = world.players[:2]
    async with aiohttp.ClientSession() as http:
        ws = await open_activity(http, bot, alice.user, "alice", world.channel)
        socket = Socket(ws)
        while (await socket.frame())["t"] != "lobby":
            pass
        lobby = (await alice.slash(world.channel, "hats new")).response.message
        await bob.click(lobby, label="Join")
        await alice.click(lobby, label="Start")
        await env.settle()
        session = await bot.games.session_in_channel(world.channel.id)
        view = await socket.view_at(session.version)
        assert view["seat"] == session.seat_of(alice.user.id)
        await ws.close()
    assert dm_posts(env, alice) == 0
    assert dm_posts(env, bob) == 1  # his start DM (his live hand, or one line with his hand)


async def test_a_team_game_played_live_in_the_activity_sends_no_dm(world):
    """4 players, all in the Activity from the lobby on: no start DM, no turn ping, no swap
    offer nor answer by DM (the Activity shows them live); only the table is kept."""
    env = world.env
    bot = env.bot
    adopt_web_steps(env)
    players = world.players[:4]
    rng = random.Random(11)
    async with aiohttp.ClientSession() as http:
        sockets = {}
        for player in players:
            ws = await open_activity(http, bot, player.user, player.user.name, world.channel)
            sockets[player.user.id] = Socket(ws)
        lobby = (await players[0].slash(world.channel, "hats new")).response.message
        for player in players[1:]:
            await player.click(lobby, label="Join")
        await players[0].click(lobby, label="Start")
        await env.settle()
        session = await bot.games.session_in_channel(world.channel.id)
        kinds = set()
        while not session.game.is_over:
            mover = sockets[session.seats[session.game.to_move].user_id]
            view = await mover.view_at(session.version)
            action = rng.choice(view["legal"])
            kinds.add(action["kind"])
            assert (await mover.act(action))["t"] == "ack"
            await env.settle()
        for socket in sockets.values():
            await socket.ws.close()
    await env.settle()
    assert {"offer_swap"} <= kinds and kinds & {"answer_swap", "decline_swap"}
    assert all(dm_posts(env, p) == 0 for p in players)
