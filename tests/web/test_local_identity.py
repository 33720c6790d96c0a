"""Local mode keeps who is who across a crash and a restart (issue 34 section 4).

``bot.py --local`` runs as a real subprocess over a SQLite file and is killed with SIGKILL in
the middle of a two-player game. Started again on the same database, the two players sign in
again in the other order: each gets their own seat and their own hand (before the fix the
ids were counted from 1 again and the first to come back took the other's seat and saw their
hand). A session signed before the crash is still good, and a newcomer gets an id nobody had.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp

from data import open_store
from tests.activity.local_bot import LocalBot
from web.local import LocalMode


async def next_frame(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    while True:
        frame = json.loads((await ws.receive(timeout=30)).data)
        assert frame["t"] != "error", frame
        if frame["t"] == kind:
            return frame


async def sign_in(http: aiohttp.ClientSession, base: str, name: str) -> dict[str, Any]:
    async with http.post(base + "api/local", json={"name": name}) as answer:
        assert answer.status == 200, await answer.text()
        return await answer.json()


async def connect(http: aiohttp.ClientSession, base: str, session: str):
    ws = await http.ws_connect(base + "ws")
    await ws.send_json({"t": "hello", "session": session, "channel_id": "2", "guild_id": "1"})
    await next_frame(ws, "welcome")
    return ws


async def _seats_before_crash(base: str) -> dict[str, Any]:
    async with aiohttp.ClientSession() as http:
        ana = await sign_in(http, base, "Ana")
        bo = await sign_in(http, base, "Bo")
        ws_ana = await connect(http, base, ana["session"])
        assert (await next_frame(ws_ana, "lobby"))["lobby"] is None
        await ws_ana.send_json({"t": "lobby", "id": 1, "op": "open"})
        await next_frame(ws_ana, "ack")
        ws_bo = await connect(http, base, bo["session"])
        await next_frame(ws_bo, "lobby")
        await ws_bo.send_json({"t": "lobby", "id": 2, "op": "join"})
        await next_frame(ws_bo, "ack")
        await ws_ana.send_json({"t": "lobby", "id": 3, "op": "start"})
        views = {"Ana": await next_frame(ws_ana, "view"), "Bo": await next_frame(ws_bo, "view")}
        # one move, so the game is well under way when the bot dies
        mover = "Ana" if views["Ana"]["to_move"] == views["Ana"]["seat"] else "Bo"
        ws = ws_ana if mover == "Ana" else ws_bo
        view = views[mover]
        await ws.send_json(
            {
                "t": "act",
                "id": 4,
                "game_id": view["game_id"],
                "step": view["step"],
                "action": view["legal"][0],
            }
        )
        while True:  # the move's view may come before its ack: keep it
            frame = json.loads((await ws.receive(timeout=30)).data)
            assert frame["t"] != "error", frame
            if frame["t"] == "view":
                views[mover] = frame
            if frame["t"] == "ack":
                break
        step = view["step"] + 1
        for name, sock in (("Ana", ws_ana), ("Bo", ws_bo)):
            while views[name]["step"] < step:
                views[name] = await next_frame(sock, "view")
        return {
            "ids": {"Ana": ana["user"]["id"], "Bo": bo["user"]["id"]},
            "sessions": {"Ana": ana["session"], "Bo": bo["session"]},
            "views": views,
        }


async def _after_restart(base: str, before: dict[str, Any]) -> None:
    async with aiohttp.ClientSession() as http:
        seen: dict[str, dict[str, Any]] = {}
        for name in ("Bo", "Ana"):  # the other order
            signed = await sign_in(http, base, name)
            assert signed["user"]["id"] == before["ids"][name], (name, signed["user"])
            ws = await connect(http, base, signed["session"])
            seen[name] = await next_frame(ws, "view")
            await ws.close()
        for name in ("Ana", "Bo"):
            old, new = before["views"][name], seen[name]
            assert new["game_id"] == old["game_id"]
            assert new["seat"] == old["seat"], f"{name} lost their seat"
            assert new["hand"] == old["hand"], f"{name} does not see their own hand"
            assert new["names"] == old["names"]
        # a session from before the crash is still good (the key is kept with the database)
        ws = await connect(http, base, before["sessions"]["Ana"])
        assert (await next_frame(ws, "view"))["seat"] == before["views"]["Ana"]["seat"]
        await ws.close()
        # a newcomer is someone new: an id never given before, no seat
        cy = await sign_in(http, base, "Cy")
        assert cy["user"]["id"] not in before["ids"].values()
        ws = await connect(http, base, cy["session"])
        view = await next_frame(ws, "view")
        assert view["seat"] is None and view["hand"] is None
        await ws.close()


def test_after_a_sigkill_each_player_signs_back_into_their_own_seat(tmp_path: Path):
    bot = LocalBot(tmp_path)
    try:
        base = bot.start()
        before = asyncio.run(_seats_before_crash(base))
        assert before["views"]["Ana"]["seat"] != before["views"]["Bo"]["seat"]
        bot.kill()  # SIGKILL mid-game
        base = bot.start()
        asyncio.run(_after_restart(base, before))
    finally:
        bot.kill()


async def test_two_players_of_one_name_each_get_a_seat_back(tmp_path: Path):
    """Two tabs both named "Ana" sat down; after a restart, two sign-ins as "ana" (any case)
    get the two seats, the free one first: nobody is left out, nobody gets a stranger's."""
    store = await open_store(tmp_path / "hats.sqlite3")
    try:
        first = LocalMode(store, port=0, ai_delay=0.0)
        base = await first.start()
        async with aiohttp.ClientSession() as http:
            one = await sign_in(http, base, "Ana")
            two = await sign_in(http, base, "Ana")
            assert one["user"]["id"] != two["user"]["id"]
            ws_one = await connect(http, base, one["session"])
            await ws_one.send_json({"t": "lobby", "id": 1, "op": "open"})
            await next_frame(ws_one, "ack")
            ws_two = await connect(http, base, two["session"])
            await ws_two.send_json({"t": "lobby", "id": 2, "op": "join"})
            await next_frame(ws_two, "ack")
            await ws_one.close()
            await ws_two.close()
        await first.stop()
        again = LocalMode(store, port=0, ai_delay=0.0)
        base = await again.start()
        try:
            async with aiohttp.ClientSession() as http:
                back = await sign_in(http, base, "ana")
                ws = await connect(http, base, back["session"])  # holds that seat now
                other = await sign_in(http, base, "ANA")
                await ws.close()
                seated = {one["user"]["id"], two["user"]["id"]}
                assert {back["user"]["id"], other["user"]["id"]} == seated
        finally:
            await again.stop()
    finally:
        await store.close()
