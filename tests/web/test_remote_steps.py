"""Steps another process commits reach this process's viewers without reloading the game.

Two "processes" (a store, a game service and a web server each) on one PostgreSQL, as in
test_two_processes. Process a makes every move; a client of process b watches. Each step
announced by the database's change notification is read alone from the store and applied to
the copy b showed last (``Hub._catch_up``), not reloaded with every step and replayed: b loads
the game once, when its client says hello. The frames b sends are those b would build from
the game as a holds it (byte for byte), so nothing a viewer sees differs.
"""

from __future__ import annotations

import json
import random
import traceback

import aiohttp
import pytest

from service.requests import auto_end
from tests.web.conftest import CHANNEL, GUILD, open_web_world
from web.views import view_frame

pytestmark = pytest.mark.postgres


@pytest.fixture
async def two_processes(tmp_path, pg_url):
    """Worlds ``a`` and ``b``: a store, a game service and a web server each, one database."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with (
        open_web_world(tmp_path / "a", database=pg_url) as a,
        open_web_world(tmp_path / "b", database=pg_url) as b,
    ):
        yield a, b


def count_loads(world) -> list[str]:
    """From now on, the stack of every load of a game by ``world``'s service (in the list)."""
    loads: list[str] = []
    real_load = world.games._load

    async def counted_load(game_id: int):
        loads.append("".join(traceback.format_stack(limit=6)))
        return await real_load(game_id)

    world.games._load = counted_load
    return loads


async def test_remote_steps_are_caught_up_one_by_one_not_reloaded(two_processes):
    a, b = two_processes
    users = [1401, 1402, 1403]
    game_id = await a.start_game(users)
    session = a.games.cached(game_id)
    watcher = users[1]
    b.discord.users["server"].add(watcher)  # Discord lists the watcher in the instance
    ws = await b.http.ws_connect(b.base + "ws")
    await ws.send_str(
        json.dumps(
            {
                "t": "hello",
                "session": b.session_for(watcher, "Far"),
                "instance_id": "i-server",
                "channel_id": str(CHANNEL),
                "guild_id": str(GUILD),
                "locale": "en-US",
                "resume": None,
            }
        )
    )

    async def raw_view_at(step: int) -> str:
        while True:
            msg = await ws.receive(timeout=10.0)
            assert msg.type is aiohttp.WSMsgType.TEXT, msg
            if msg.data.startswith('{"t":"view"') and json.loads(msg.data)["step"] >= step:
                return msg.data

    await raw_view_at(0)
    # The socket reads one frame at a time: the answer to a frame sent after hello means
    # hello was handled to its end (the game loaded for it; a view may come earlier).
    await ws.send_str(json.dumps({"t": "after-hello"}))
    while '"code":"bad_frame"' not in (await ws.receive(timeout=10.0)).data:
        pass
    loads = count_loads(b)  # where each load came from, to say which path reloaded
    rng = random.Random(3)
    seat = session.seat_of(watcher)
    tr = b.server.translator.for_locale("en-US")
    for _ in range(10):
        mover = session.game.to_move
        action = rng.choice(session.game.legal_actions(mover))
        await a.games.play(session, mover, action, version=session.version)  # made in a
        raw = await raw_view_at(session.version)
        assert json.loads(raw)["step"] == session.version
        expected = view_frame(session, seat, tr, b.server.names, auto_end=auto_end(session, seat))
        assert raw == json.dumps(expected, separators=(",", ":"), ensure_ascii=False)
    assert not loads, f"process b reloaded the game for 10 remote steps: {loads}"
    await ws.close()


async def test_a_spectator_leaving_after_a_remote_step_reloads_nothing(two_processes):
    """The ``watching`` frame is judged on the copy last shown: after another process's step
    (which makes this process's cached copy stale), a spectator who leaves changes only who
    watches, and the game is not loaded again for it."""
    a, b = two_processes
    users = [1501, 1502, 1503]
    game_id = await a.start_game(users)
    session = a.games.cached(game_id)
    player = await b.connect(users[0], "Seat")
    spectator = await b.connect(1599, "Watcher")
    for client in (player, spectator):
        # The socket reads one frame at a time: the answer to a frame sent after hello means
        # hello was handled to its end (the game loaded for it; a view may come earlier).
        await client.send({"t": "after-hello"})
        await client.until(lambda f: f.get("t") == "error" and f.get("code") == "bad_frame")
        assert client.view is not None
    await player.until(lambda f: f.get("t") == "watching" and f.get("count") == 1)
    mover = session.game.to_move
    await a.games.play(session, mover, session.game.legal_actions(mover)[0])
    await player.until(lambda f: f.get("t") == "view" and f["step"] == session.version)
    assert b.games.cached(game_id) is None  # the notification made b's copy stale
    loads = count_loads(b)
    await spectator.ws.close()
    watching = await player.until(lambda f: f.get("t") == "watching")
    assert watching["count"] == 0
    assert not loads, f"a spectator leaving reloaded the game: {loads}"
    await player.ws.close()
