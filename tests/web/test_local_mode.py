"""Local mode: one person plays a whole game against AI players in a browser, no Discord."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import os
import random
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp

from data import open_store
from web import LOCAL_CHANNEL
from web.auth import is_local_id
from web.local import LocalMode

ROOT = Path(__file__).resolve().parents[2]


async def next_frame(ws, kind: str, timeout: float = 20.0) -> dict:
    while True:
        frame = json.loads((await ws.receive(timeout=timeout)).data)
        if frame["t"] == kind or frame["t"] == "error":
            return frame


async def test_one_person_plays_a_whole_game_against_two_ais(tmp_path):
    store = await open_store(tmp_path / "hats.sqlite3")
    seeds = itertools.count(31)
    local = LocalMode(store, port=0, ai_delay=0.0, seed_source=lambda: next(seeds))
    # With AIs that answer at once, this client makes its 16 moves in well under a second, a
    # pace no person reaches; the per-socket rate limit (tested in tests/web/test_socket.py)
    # is widened so that the game, not the limit, is what this test plays.
    local.web.config = dataclasses.replace(local.web.config, rate_burst=1000.0)
    base = await local.start()
    try:
        async with aiohttp.ClientSession() as http:
            async with http.post(base + "api/local", json={"name": "Ana"}) as answer:
                signed = await answer.json()
            assert is_local_id(int(signed["user"]["id"]))
            ws = await http.ws_connect(base + "ws")
            # the channel the client names does not matter: local mode has one table
            await ws.send_json(
                {"t": "hello", "session": signed["session"], "channel_id": "5", "guild_id": "6"}
            )
            welcome = await next_frame(ws, "welcome")
            assert welcome["channel_id"] == str(LOCAL_CHANNEL)
            assert (await next_frame(ws, "lobby"))["lobby"] is None
            for number, request in enumerate(
                [
                    {"op": "open"},
                    {"op": "ai_add", "level": "easy"},
                    {"op": "ai_add", "level": "normal"},
                ]
            ):
                await ws.send_json({"t": "lobby", "id": number, **request})
                assert (await next_frame(ws, "ack"))["id"] == number
            await ws.send_json({"t": "lobby", "id": 9, "op": "start"})
            rng = random.Random(4)
            moves = 0
            acted_at = -1  # a view may come again for the same step: act once per step
            view = await next_frame(ws, "view")
            while view["result"] is None:
                if view["to_move"] == view["seat"] and view["step"] != acted_at:
                    acted_at = view["step"]
                    action = rng.choice(view["legal"])
                    await ws.send_json(
                        {
                            "t": "act",
                            "game_id": view["game_id"],
                            "step": view["step"],
                            "action": action,
                        }
                    )
                    moves += 1
                view = await next_frame(ws, "view")
                assert view["t"] == "view", view
            assert len(view["names"]) == 3 and view["ai"][1:] == ["easy", "normal"]
            assert view["result"]["ranking"] and moves >= 8
            await ws.close()
    finally:
        await local.stop()
        await store.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_bot_py_local_needs_no_token_and_prints_its_address(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HATS_", "DISCORD_"))} | {
        "HATS_WEB_PORT": str(port),
        "HATS_DB_PATH": str(tmp_path / "local.sqlite3"),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bot.py"),
        "--local",
        cwd=tmp_path,
        env=env | {"PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        line = await asyncio.wait_for(process.stdout.readline(), 30)
        assert f"http://127.0.0.1:{port}/" in line.decode()
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/api/config") as answer:
                assert (await answer.json())["local"] is True
            async with http.get(f"http://127.0.0.1:{port}/") as answer:
                page = await answer.text()
                assert "npm" in page or "<script" in page
    finally:
        process.terminate()
        assert await asyncio.wait_for(process.wait(), 30) == 0
