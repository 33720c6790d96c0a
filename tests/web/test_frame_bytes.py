"""What a viewer receives is, byte for byte, the view frame as ``web.views.view_frame`` words it.

The hub builds frames through shared caches (seat labels per language, event lines, refused
slot lines) and its own encoder, once per distinct view and step. Seeded 3- and 4-seat games
are played to the end while every seat (in three languages), two spectators (two languages)
and a third spectator in the same language as the first watch; each ``view`` frame's raw
text must equal ``json.dumps(view_frame(...))`` of the same step built from scratch (no
cache), as the hub sent it before it had caches of its own. Nothing a viewer sees changed.
"""

from __future__ import annotations

import json
import random

import aiohttp
import pytest

from service.requests import auto_end
from tests.web.conftest import CHANNEL, GUILD
from web.views import view_frame


async def _connect(world, user_id: int, name: str, locale: str):
    world.discord.users["server"].add(user_id)  # Discord lists the viewer in the instance
    ws = await world.http.ws_connect(world.base + "ws")
    hello = {
        "t": "hello",
        "session": world.session_for(user_id, name),
        "instance_id": "i-server",
        "channel_id": str(CHANNEL),
        "guild_id": str(GUILD),
        "locale": locale,
        "resume": None,
    }
    await ws.send_str(json.dumps(hello))
    return ws


async def _raw_view_at(ws, step: int) -> str:
    """The raw text of the first ``view`` frame of ``step`` or later."""
    while True:
        msg = await ws.receive(timeout=5.0)
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        if msg.data.startswith('{"t":"view"') and json.loads(msg.data)["step"] >= step:
            return msg.data


def _reference(world, session, seat: int | None, locale: str) -> str:
    tr = world.server.translator.for_locale(locale)
    frame = view_frame(
        session,
        seat,
        tr,
        world.server.names,
        auto_end=auto_end(session, seat) if seat is not None else False,
        deadline=None,
    )
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize(("seats", "seed"), [(3, 11), (4, 12)])
async def test_frames_are_byte_identical_to_the_uncached_view(web_world, seats, seed):
    world = web_world
    users = [7100 + i for i in range(seats)]
    # names with quotes, a backslash and non-ASCII letters: the encoder must escape alike
    names = ['Zoë "Z"', "Łukasz\\", "黄", "Émile</script>"]
    locales = ["fr", "en-US", "de", "en-US"]
    viewers = [(u, names[i], locales[i], i) for i, u in enumerate(users)]
    viewers += [(7199, "Watcher", "en-US", None), (7198, "Zuschauer", "de", None)]
    viewers.append((7197, "Watcher", "en-US", None))  # shares the first spectator's frame
    sockets = [await _connect(world, u, name, loc) for u, name, loc, _ in viewers]
    game_id = await world.start_game(users)
    await world.server.hub.game_started(CHANNEL, game_id)
    session = world.games.cached(game_id)
    rng = random.Random(seed)
    checked = 0
    while True:
        for ws, (_, _, locale, seat) in zip(sockets, viewers, strict=True):
            raw = await _raw_view_at(ws, session.version)
            assert json.loads(raw)["step"] == session.version
            assert raw == _reference(world, session, seat, locale)
            checked += 1
        if session.game.is_over:
            break
        seat = session.game.to_move
        action = rng.choice(session.game.legal_actions(seat))
        await world.games.play(session, seat, action, version=session.version)
    assert checked >= 20 * len(viewers)
    for ws in sockets:
        await ws.close()
