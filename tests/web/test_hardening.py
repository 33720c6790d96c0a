"""Hostile input on the Activity's surface (issue 34.5): deep JSON, huge frames, bursts, and
sign-ins in the same second. Each case was measured against the server from outside."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct

import aiohttp

from tests.web.conftest import open_web_world
from web.auth import Sessions
from web.frames import BadJSON, TooBig, depth, parse_json

NESTED = "[" * 1024 + "]" * 1024  # 2 kB: json.loads raised RecursionError


async def test_deep_json_before_hello_is_a_bad_frame_and_the_socket_lives(web_world):
    ws = await web_world.http.ws_connect(web_world.base + "ws")
    await ws.send_str(NESTED)
    frame = json.loads((await ws.receive(timeout=5)).data)
    assert frame["t"] == "error" and frame["code"] == "bad_frame", frame
    nested_object = '{"t":' * 600 + "1" + "}" * 600
    await ws.send_str(nested_object)
    frame = json.loads((await ws.receive(timeout=5)).data)
    assert frame["code"] == "bad_frame"
    assert not ws.closed  # the handler did not die: hello still works afterwards
    client = await web_world.connect(3101, "Ana")
    assert (await client.until(lambda f: f["t"] == "welcome"))["user"]["id"] == "3101"
    await ws.close()


async def test_deep_json_after_hello_is_a_bad_frame(web_world):
    client = await web_world.connect(3102, "Bo")
    await client.until(lambda f: f["t"] == "lobby")
    await client.ws.send_str('{"t":"lobby","id":5,"op":' + NESTED + "}")
    frame = await client.until(lambda f: f["t"] == "error")
    assert frame["code"] == "bad_frame"
    rid = await client.request({"t": "lobby", "op": "open"})
    assert (await client.answer(rid))["t"] == "ack"


async def test_deep_json_bodies_are_400_not_500(tmp_path, fake_discord):
    async with open_web_world(tmp_path, fake_discord.url, local=True) as world:
        for path in ("api/local", "api/token"):
            body = '{"name": ' + NESTED + "}" if path == "api/local" else NESTED
            async with world.http.post(
                world.base + path, data=body, headers={"Content-Type": "application/json"}
            ) as answer:
                assert answer.status == 400, (path, answer.status)
                assert (await answer.json())["error"] == "bad_request"


async def test_a_1_mb_frame_gets_too_big_then_the_close(web_world):
    client = await web_world.connect(3103, "Cy")
    await client.until(lambda f: f["t"] == "lobby")
    await client.ws.send_str(json.dumps({"t": "chat", "id": 1, "text": "x" * 1_000_000}))
    frame = await client.until(lambda f: f["t"] == "error")
    assert frame["code"] == "too_big" and frame["message"] == "That request is too big."
    msg = await client.ws.receive(timeout=5)
    assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == 1009


async def test_a_client_that_reads_may_send_300_frames_at_once(web_world):
    """300 requests in one go: every one is answered (most ``rate_limited``) and the client,
    which reads everything, stays connected; it was closed 4008 "too slow"."""
    client = await web_world.connect(3104, "Di")
    await client.until(lambda f: f["t"] == "lobby")
    await client.ws.send_str(json.dumps({"t": "fly", "id": 0}))
    burst = [json.dumps({"t": "fly", "id": n}) for n in range(1, 301)]
    for text in burst:  # queued by the client before the server answers any of them
        await client.ws.send_str(text)
    answered: set[int] = set()
    while len(answered) < 301:
        frame = await client.recv(timeout=10)
        assert frame["t"] == "error", frame
        answered.add(frame["id"])
    assert answered == set(range(301))
    rid = await client.request({"t": "lobby", "op": "open"})
    for _ in range(50):  # still open, still served
        frame = await client.recv(timeout=10)
        if frame.get("id") == rid:
            break
    assert not client.ws.closed


def test_two_sign_ins_in_the_same_second_are_two_sessions():
    sessions = Sessions(b"k" * 32, clock=lambda: 1_800_000_000.0)
    first, _ = sessions.issue(80351110224678912, "Ana")
    second, _ = sessions.issue(80351110224678912, "Ana")
    assert first != second
    assert sessions.check(first).user_id == sessions.check(second).user_id


async def test_two_sign_ins_of_one_user_keep_both_sockets(web_world):
    a = await web_world.connect(3107, "Eve")
    b = await web_world.connect(3107, "Eve")  # the same user, the same second: two tabs
    await a.until(lambda f: f["t"] == "lobby")
    await b.until(lambda f: f["t"] == "lobby")
    rid = await a.request({"t": "lobby", "op": "open"})
    assert (await a.answer(rid))["t"] == "ack"
    assert (await b.until(lambda f: f["t"] == "lobby"))["lobby"] is not None
    assert not a.ws.closed and not b.ws.closed


def test_parse_json_bounds():
    assert parse_json('{"a": ["[[[", {"b": 1}]}', max_chars=100) == {"a": ["[[[", {"b": 1}]}
    assert depth('"[[[[" [1]', 10) == 1
    assert depth(r'["\"[[", [[]]]', 10) == 3
    for text, error in ((NESTED, BadJSON), ("x" * 101, TooBig), ("{", BadJSON)):
        try:
            parse_json(text, max_chars=100 if error is TooBig else 4096)
        except error:
            continue
        raise AssertionError(text[:20])


async def test_a_client_that_never_reads_is_still_dropped(web_world):
    """Letting the writer drain keeps no client that does not read: a raw socket that sends
    hello and never reads is closed "too slow" while its frames pile up, and nobody waits."""
    host, port = "127.0.0.1", web_world.server.port
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, port))
    sock.setblocking(False)
    reader, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    await reader.readuntil(b"\r\n\r\n")  # 101, then never read again
    web_world.discord.users["server"].add(3108)
    hello = json.dumps(
        {
            "t": "hello",
            "session": web_world.session_for(3108, "Sloth"),
            "instance_id": "i-server",
            "locale": "en",
        }
    ).encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(hello))
    writer.write(bytes([0x81, 0xFE]) + struct.pack("!H", len(hello)) + mask + masked)
    await writer.drain()
    hub = web_world.server.hub
    for _ in range(200):
        if hub.viewers():
            break
        await asyncio.sleep(0.01)
    [viewer] = hub.by_token.values()
    pad = "y" * 20_000
    for n in range(400):
        viewer.send({"t": "pad", "n": n, "x": pad})
        await asyncio.sleep(0)
        if viewer.closed:
            break
    assert viewer.closed
    writer.close()
