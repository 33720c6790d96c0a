"""The Activity's sign-in and sessions against a local fake of Discord (hats-activity/1)."""

from __future__ import annotations

import aiohttp
import pytest

from tests.web.conftest import CHANNEL, GUILD, SECRET
from web.auth import Sessions, local_user_id

ANA = {"id": "80351110224678912", "username": "ana", "global_name": "Ana"}
BO = {"id": "90351110224678913", "username": "bo", "global_name": None}


async def post(world, path: str, body) -> tuple[int, dict]:
    kwargs = {"json": body} if not isinstance(body, str) else {"data": body}
    async with world.http.post(world.base + path.lstrip("/"), **kwargs) as answer:
        return answer.status, await answer.json()


async def test_a_code_signs_in_the_user_discord_names(web_world, fake_discord):
    fake_discord.codes["good"] = ANA
    status, body = await post(web_world, "/api/token", {"code": "good", "user_id": BO["id"]})
    assert status == 200
    assert body["access_token"] == "tok-good"
    assert body["user"] == {"id": ANA["id"], "name": "Ana"}  # never the id the client claims
    user = web_world.server.sessions.check(body["session"])
    assert user.user_id == int(ANA["id"]) and not user.local
    assert body["expires_at"] == pytest.approx(user.expires_at)


async def test_the_name_falls_back_to_the_username(web_world, fake_discord):
    fake_discord.codes["b"] = BO
    status, body = await post(web_world, "/api/token", {"code": "b"})
    assert status == 200 and body["user"]["name"] == "bo"


async def test_a_bad_code_is_401_and_a_replayed_code_never_reaches_discord(web_world, fake_discord):
    status, body = await post(web_world, "/api/token", {"code": "made-up"})
    assert (status, body) == (401, {"error": "bad_code"})
    fake_discord.codes["once"] = ANA
    assert (await post(web_world, "/api/token", {"code": "once"}))[0] == 200
    before = dict(fake_discord.hits)
    status, body = await post(web_world, "/api/token", {"code": "once"})
    assert (status, body) == (401, {"error": "bad_code"})
    assert fake_discord.hits == before


async def test_malformed_requests_are_400(web_world):
    for body in ({}, {"code": ""}, {"code": 5}, "not json", ["code"], {"code": "x" * 600}):
        status, answer = await post(web_world, "/api/token", body)
        assert (status, answer) == (400, {"error": "bad_request"}), body


async def test_discord_down_is_502(web_world, fake_discord):
    fake_discord.fail = True
    fake_discord.codes["c"] = ANA
    assert await post(web_world, "/api/token", {"code": "c"}) == (
        502,
        {"error": "discord_unreachable"},
    )


async def test_the_secret_is_never_sent_nor_logged(web_world, fake_discord, caplog):
    fake_discord.codes["good"] = ANA
    fake_discord.fail = True
    await post(web_world, "/api/token", {"code": "good"})
    async with web_world.http.get(web_world.base + "api/config") as answer:
        text = await answer.text()
    assert SECRET not in text and SECRET not in caplog.text
    assert SECRET not in repr(web_world.server.oauth) and SECRET not in repr(
        web_world.server.config
    )


async def test_config_and_local_sign_in_is_off_outside_local_mode(web_world):
    async with web_world.http.get(web_world.base + "api/config") as answer:
        assert await answer.json() == {
            "client_id": "111222333444555666",
            "local": False,
            "protocol": "hats-activity/1",
        }
    assert (await post(web_world, "/api/local", {"name": "Ana"}))[0] == 404


async def test_local_sign_in_names_a_user_that_is_never_a_discord_id(web_world):
    web_world.server.local = True
    status, body = await post(web_world, "/api/local", {"name": "  Ana  Lee "})
    assert status == 200 and body["user"]["name"] == "Ana Lee"
    assert int(body["user"]["id"]) < 1 << 22 < int(ANA["id"]) >> 22 << 22  # never a snowflake
    assert int(body["user"]["id"]) == local_user_id(1)
    for bad in ({"name": ""}, {"name": "x" * 33}, {"name": "a\x00b"}, {}):
        assert (await post(web_world, "/api/local", bad))[0] == 400


async def closed_with(world, session: str) -> tuple[int | None, str]:
    ws = await world.http.ws_connect(world.base + "ws")
    await ws.send_json(
        {"t": "hello", "session": session, "channel_id": str(CHANNEL), "guild_id": str(GUILD)}
    )
    msg = await ws.receive(timeout=5)
    assert msg.type in (
        aiohttp.WSMsgType.CLOSE,
        aiohttp.WSMsgType.CLOSED,
        aiohttp.WSMsgType.CLOSING,
    )
    return ws.close_code, str(msg.extra or "")


async def test_forged_and_expired_sessions_close_the_socket_with_4001(web_world):
    good = web_world.session_for(1234, "Ana")
    payload, _, signature = good.rpartition(".")
    forged = payload + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    assert await closed_with(web_world, forged) == (4001, "bad_session")
    other_key = Sessions(b"another application's key!!!!!!!").issue(1234, "Ana")[0]
    assert await closed_with(web_world, other_key) == (4001, "bad_session")
    assert await closed_with(web_world, "") == (4001, "bad_session")
    old = Sessions(b"k" * 32, clock=lambda: 1_000_000.0).issue(1234, "Ana")[0]
    assert await closed_with(web_world, old) == (4001, "expired_session")


async def test_nothing_but_hello_before_hello(web_world):
    ws = await web_world.http.ws_connect(web_world.base + "ws")
    await ws.send_json({"t": "act", "id": 3, "game_id": "1", "step": 0, "action": {}})
    frame = await ws.receive_json(timeout=5)
    assert frame["t"] == "error" and frame["code"] == "not_signed_in" and frame["id"] == 3


async def test_a_second_socket_of_the_same_session_replaces_the_first(web_world):
    token = web_world.session_for(77, "Ana")
    first = await web_world.connect(77, "Ana", session=token)
    await first.until(lambda f: f["t"] == "lobby")
    second = await web_world.connect(77, "Ana", session=token)
    await second.until(lambda f: f["t"] == "lobby")
    with pytest.raises(ConnectionError):
        await first.until(lambda f: False)
    assert first.close_code == 4002
    assert web_world.server.hub.viewers() == 1
