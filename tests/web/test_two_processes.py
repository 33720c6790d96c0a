"""Two processes on one PostgreSQL store: a client of one sees what the other commits.

Each "process" is a store of its own (its own pool, origin and listening connection), a game
service and a web server, as two bot processes would have. A step committed by one reaches a
WebSocket client connected to the other through the database's change notifications
(migration 0008), and so does a lobby opened, joined and closed elsewhere (migration 0013).
"""

from __future__ import annotations

import contextlib

import pytest

from tests.web.conftest import CHANNEL, open_web_world

pytestmark = pytest.mark.postgres


@contextlib.asynccontextmanager
async def two_processes(tmp_path, pg_url):
    async with (
        open_web_world(tmp_path / "a", database=pg_url) as a,
        open_web_world(tmp_path / "b", database=pg_url) as b,
    ):
        yield a, b


async def test_a_step_made_in_one_process_reaches_a_client_of_the_other(tmp_path, pg_url):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with two_processes(tmp_path, pg_url) as (a, b):
        game_id = await a.start_game([1301, 1302])
        mover_seat = a.games.cached(game_id).game.to_move
        mover = 1301 + mover_seat
        client = await b.connect(mover, "Far")  # served by process b
        view = await client.view_at(0)
        assert view["seat"] == mover_seat
        session = a.games.cached(game_id)
        action = session.game.legal_actions(mover_seat)[0]
        await a.games.play(session, mover_seat, action, version=0)  # made in process a
        moved = await client.view_at(1)
        assert moved["step"] == session.version >= 1
        assert moved["hand"] == [c.code for c in session.game.hands[mover_seat]]
        # and a move the client of b makes is seen by a
        if moved["legal"]:
            rid = await client.request(
                {
                    "t": "act",
                    "game_id": str(game_id),
                    "step": moved["step"],
                    "action": moved["legal"][0],
                }
            )
            assert (await client.answer(rid))["t"] == "ack"


async def test_a_lobby_changed_in_one_process_reaches_a_client_of_the_other(tmp_path, pg_url):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with two_processes(tmp_path, pg_url) as (a, b):
        watcher = await b.connect(1402, "Watcher")
        assert (await watcher.until(lambda f: f["t"] == "lobby"))["lobby"] is None
        host = await a.connect(1401, "Host")
        await host.until(lambda f: f["t"] == "lobby")
        rid = await host.request({"t": "lobby", "op": "open"})
        assert (await host.answer(rid))["t"] == "ack"
        opened = await watcher.until(lambda f: f["t"] == "lobby" and f["lobby"] is not None)
        assert opened["lobby"]["host_id"] == "1401" and not opened["lobby"]["you_joined"]
        rid = await watcher.request({"t": "lobby", "op": "join"})  # through process b
        assert (await watcher.answer(rid))["t"] == "ack"
        joined = await host.until(
            lambda f: f["t"] == "lobby" and f["lobby"] and len(f["lobby"]["seats"]) == 2
        )
        assert joined["lobby"]["can_start"]
        rid = await host.request({"t": "lobby", "op": "start"})
        assert (await host.answer(rid))["t"] == "ack"
        view = await watcher.until(lambda f: f["t"] == "view")  # the game started in a
        assert view["seat"] is not None and view["step"] == 0
        assert await b.games.lobby_in_channel(CHANNEL) is None
