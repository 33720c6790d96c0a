"""Hostile input on the Activity's surface (issue 34.5): deep JSON, huge frames, bursts, and
sign-ins in the same second. Each case was measured against the server from outside."""

from __future__ import annotations

import json

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
