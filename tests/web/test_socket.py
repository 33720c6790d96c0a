"""Bad frames and refused requests on the WebSocket: an error frame, and nothing changes."""

from __future__ import annotations

import json

from tests.web.conftest import CHANNEL, open_web_world


async def test_bad_frames_get_an_error_and_change_nothing(web_world):
    game_id = await web_world.start_game([501, 502])
    session = web_world.games.cached(game_id)
    mover = session.seats[session.game.to_move].user_id
    other = 1003 - mover
    me = await web_world.connect(mover, "Mover")
    them = await web_world.connect(other, "Other")
    view = await me.view_at(0)
    await them.view_at(0)
    legal = view["legal"][0]
    cases = [
        ("not json {", "bad_frame"),
        (json.dumps({"t": "act", "x": "y" * 5000}), "too_big"),
        (json.dumps({"t": "fly", "id": 1}), "bad_frame"),
        (json.dumps([1, 2]), "bad_frame"),
        (json.dumps({"t": "act", "game_id": "999", "step": 0, "action": legal}), "unknown_game"),
        (
            json.dumps({"t": "act", "game_id": str(game_id), "step": 0, "action": {"kind": "x"}}),
            "bad_frame",
        ),
        (
            json.dumps({"t": "act", "game_id": str(game_id), "step": 5, "action": legal}),
            "out_of_date",
        ),
    ]
    for text, code in cases:
        await me.ws.send_str(text)
        frame = await me.until(lambda f: f["t"] == "error")
        assert frame["code"] == code, (text, frame)
        assert frame["message"]
    # the other player may not move for the player to move
    rid = await them.request({"t": "act", "game_id": str(game_id), "step": 0, "action": legal})
    answer = await them.answer(rid)
    assert answer["code"] == "not_your_turn" and "Mover" in answer["message"]
    # a spectator holds no seat
    watcher = await web_world.connect(600, "Watcher")
    await watcher.view_at(0)
    rid = await watcher.request({"t": "act", "game_id": str(game_id), "step": 0, "action": legal})
    assert (await watcher.answer(rid))["code"] == "not_your_seat"
    assert session.version == 0  # nothing changed
    # the same move, right, is taken
    rid = await me.request({"t": "act", "game_id": str(game_id), "step": 0, "action": legal})
    assert (await me.answer(rid))["t"] == "ack"
    assert session.version >= 1


async def test_a_flood_is_rate_limited(web_world):
    client = await web_world.connect(700, "Flood")
    await client.until(lambda f: f["t"] == "lobby")
    for _ in range(40):
        await client.ws.send_str(json.dumps({"t": "fly"}))
    codes = []
    for _ in range(40):
        codes.append((await client.until(lambda f: f["t"] == "error"))["code"])
    assert "rate_limited" in codes and codes.count("bad_frame") >= 15


async def test_errors_speak_the_players_language(web_world):
    game_id = await web_world.start_game([801, 802])
    session = web_world.games.cached(game_id)
    waiting = session.seats[1 - session.game.to_move].user_id
    client = await web_world.connect(waiting, "Lea", locale="de")
    view = await client.view_at(0)
    assert view["legal"] == []
    theirs = session.game.legal_actions(session.game.to_move)[0].to_dict()
    rid = await client.request({"t": "act", "game_id": str(game_id), "step": 0, "action": theirs})
    answer = await client.answer(rid)
    assert answer["code"] in ("not_your_turn", "illegal")
    assert "ist dran" in answer["message"] or "nicht" in answer["message"], answer


def last_lobby(client) -> dict:
    return next(f for f in reversed(client.frames) if f["t"] == "lobby")["lobby"]


async def test_the_lobby_in_the_activity(web_world):
    host = await web_world.connect(901, "Host")
    assert (await host.until(lambda f: f["t"] == "lobby"))["lobby"] is None
    rid = await host.request({"t": "lobby", "op": "open"})
    assert (await host.answer(rid))["t"] == "ack"  # the new lobby came before the ack
    lobby = last_lobby(host)
    assert lobby["you_host"] and not lobby["can_start"]
    guest = await web_world.connect(902, "Guest")
    await guest.until(lambda f: f["t"] == "lobby")
    rid = await guest.request({"t": "lobby", "op": "ai_add", "level": "easy"})
    refused = await guest.answer(rid)
    assert refused["t"] == "error" and "host" in refused["message"]
    rid = await guest.request({"t": "lobby", "op": "join"})
    assert (await guest.answer(rid))["t"] == "ack"
    assert last_lobby(guest)["you_joined"]
    lobby = (await host.until(lambda f: f["t"] == "lobby"))["lobby"]
    assert [s["name"] for s in lobby["seats"]] == ["Host", "Guest"] and lobby["can_start"]
    rid = await host.request({"t": "lobby", "op": "start"})
    assert (await host.answer(rid))["t"] == "ack"
    for client in (host, guest):
        view = await client.view_at(0)
        assert view["names"] == ["Host", "Guest"] and view["seat"] is not None
    names = [name for name, _ in web_world.events]
    assert "hats_lobby_changed" in names and "hats_outbox" in names
    assert await web_world.games.lobby_in_channel(CHANNEL) is None


async def test_every_request_gets_its_answer_even_when_refused_before_reading(
    tmp_path, fake_discord
):
    """A rate-limited or too big request is answered with its own id (it was answered with
    none, and a client waiting for its answer waited forever: a fast 4-seat game hung)."""
    async with open_web_world(tmp_path, fake_discord.url, rate_per_s=0.001, rate_burst=3) as world:
        game_id = await world.start_game([1101, 1102])
        session = world.games.cached(game_id)
        mover = session.seats[session.game.to_move].user_id
        client = await world.connect(mover, "Quick")  # hello takes the first token
        view = await client.view_at(0)
        act = {"t": "act", "game_id": str(game_id), "step": 0, "action": view["legal"][0]}
        ids = [
            await client.request(act),
            await client.request({"t": "fly"}),
            await client.request({"t": "hint", "x": "y" * 5000}),
            await client.request(act),  # over the burst: refused before it is read
            await client.request({"t": "fly"}),
        ]
        answers = [await client.answer(rid) for rid in ids]
        assert [a["id"] for a in answers] == ids
        assert [a.get("code") for a in answers] == [
            None,
            "bad_frame",
            "too_big",
            "rate_limited",
            "rate_limited",
        ]
        assert answers[0]["t"] == "ack" and session.version == 1  # only the first move


async def test_a_request_that_fails_unexpectedly_is_answered_and_the_socket_lives(
    web_world, monkeypatch
):
    game_id = await web_world.start_game([1201, 1202])
    client = await web_world.connect(1201, "Ana")
    await client.view_at(0)

    async def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(web_world.server, "hint", broken)
    rid = await client.request({"t": "hint", "game_id": str(game_id)})
    answer = await client.answer(rid)
    assert answer["t"] == "error" and answer["code"] == "server_error"
    assert "nothing was changed" in answer["message"]
    rid = await client.request({"t": "auto_end", "game_id": str(game_id), "on": True})
    assert (await client.answer(rid))["t"] == "ack"  # the connection still serves


async def test_the_lobby_timer_and_hints_in_the_activity(web_world):
    """As the lobby's timer select and Hints toggle: the host only, the same checks."""
    host = await web_world.connect(1501, "Host")
    await host.until(lambda f: f["t"] == "lobby")
    assert (await host.answer(await host.request({"t": "lobby", "op": "open"})))["t"] == "ack"
    guest = await web_world.connect(1502, "Guest")
    await guest.until(lambda f: f["t"] == "lobby")
    refused = await guest.answer(await guest.request({"t": "lobby", "op": "timer", "seconds": 60}))
    assert refused["code"] == "refused" and "host" in refused["message"]
    short = await host.answer(await host.request({"t": "lobby", "op": "timer", "seconds": 5}))
    assert short["code"] == "refused" and "at least 10 seconds" in short["message"]
    for bad in ({"seconds": "60"}, {"seconds": -1}, {"seconds": 10**9}, {}):
        answer = await host.answer(await host.request({"t": "lobby", "op": "timer"} | bad))
        assert answer["code"] == "bad_frame", bad
    assert last_lobby(host)["timer"] is None  # nothing changed so far
    ok = await host.answer(await host.request({"t": "lobby", "op": "timer", "seconds": 90}))
    assert ok["t"] == "ack" and last_lobby(host)["timer"] == 90
    assert (await guest.until(lambda f: f["t"] == "lobby"))["lobby"]["timer"] == 90
    refused = await guest.answer(await guest.request({"t": "lobby", "op": "hints", "on": True}))
    assert refused["code"] == "refused" and "host" in refused["message"]
    ok = await host.answer(await host.request({"t": "lobby", "op": "hints", "on": True}))
    assert ok["t"] == "ack" and last_lobby(host)["hints"] is True
    again = await host.answer(await host.request({"t": "lobby", "op": "hints", "on": True}))
    assert again["t"] == "ack" and last_lobby(host)["hints"] is True  # set, not switched
    ok = await host.answer(await host.request({"t": "lobby", "op": "timer", "seconds": 0}))
    assert ok["t"] == "ack" and last_lobby(host)["timer"] is None
    changed = [args for name, args in web_world.events if name == "hats_lobby_changed"]
    assert len(changed) == 4  # the lobby message is redrawn after each change
