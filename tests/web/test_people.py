"""The people at the table (issue 34 s. 3, issue 35 s. 9): avatars, nicknames, who watches,
and quick reactions, as the Activity's WebSocket carries them.

Names and avatars are only what Discord said (``/users/@me`` at sign-in, the members the bot
saw), never what a client claims; a spectator is counted once however many tabs they have;
reactions are a fixed public set, for seated players only, rate-limited per player.
"""

from __future__ import annotations

from tests.web.conftest import CHANNEL, GUILD, Client
from web.people import avatar_path
from web.server import REACTIONS

ANA = {"id": "80351110224678912", "username": "ana", "global_name": "Ana", "avatar": "a_0f0f"}
BO = 90351110224678913
CY = 100351110224678914
DEE = 110351110224678915


async def sign_in(world, fake_discord, user: dict) -> str:
    fake_discord.codes[f"code-{user['id']}"] = user
    async with world.http.post(
        world.base + "api/token", json={"code": f"code-{user['id']}", "avatar": "evil"}
    ) as answer:
        assert answer.status == 200
        return (await answer.json())["session"]


async def test_seats_show_discords_avatars_and_server_nicknames(web_world, fake_discord):
    session = await sign_in(web_world, fake_discord, ANA)
    web_world.server.people.note_member(GUILD, BO, "Bobby (nick)", "beef01")
    web_world.server.names[BO] = "Bo"
    ana_id = int(ANA["id"])
    game_id = await web_world.start_game([ana_id, BO, None])
    fake_discord.users["server"].add(ana_id)  # Discord lists Ana in the channel's instance
    ws = await web_world.http.ws_connect(web_world.base + "ws")
    ana = Client(ws, ana_id)
    await ana.send(
        {
            "t": "hello",
            "session": session,
            "instance_id": "i-server",
            "channel_id": str(CHANNEL),
            "guild_id": str(GUILD),
        }
    )
    view = await ana.view_at(0)
    assert view["game_id"] == str(game_id)
    assert view["names"][:2] == ["Ana", "Bobby (nick)"]  # the server nickname wins
    assert view["avatars"] == [
        f"avatars/{ana_id}/a_0f0f.png",  # from /users/@me, not the client's "avatar"
        f"guilds/{GUILD}/users/{BO}/avatars/beef01.png",  # the server avatar
        None,  # the AI keeps its own look
    ]


async def test_the_lobby_shows_avatars_and_a_user_without_one_gets_discords_default(web_world):
    host = await web_world.connect(CY, "Cy")
    await host.until(lambda f: f["t"] == "lobby")
    await host.answer(await host.request({"t": "lobby", "op": "open"}))
    lobby = [f for f in host.frames if f["t"] == "lobby"][-1]["lobby"]
    assert lobby["seats"][0]["avatar"] == f"embed/avatars/{(CY >> 22) % 6}.png"


def test_local_players_and_malformed_hashes_get_no_cdn_path():
    assert avatar_path(1001, "abc") is None  # a local id: the client draws one from the name
    assert avatar_path(BO, "../../x") == f"embed/avatars/{(BO >> 22) % 6}.png"


async def test_spectators_are_counted_once_and_shown_as_watching(web_world):
    await web_world.start_game([BO, CY])
    bo = await web_world.connect(BO, "Bo")
    await bo.view_at(0)
    dee = await web_world.connect(DEE, "Dee")
    await dee.view_at(0)
    dee_again = await web_world.connect(DEE, "Dee")  # a second tab: still one spectator
    await dee_again.view_at(0)
    frame = await bo.until(lambda f: f["t"] == "watching" and f["count"] == 1)
    assert [w["name"] for w in frame["watchers"]] == ["Dee"]
    assert frame["watchers"][0]["avatar"] == f"embed/avatars/{(DEE >> 22) % 6}.png"
    await dee.ws.close()
    await dee_again.ws.close()
    frame = await bo.until(lambda f: f["t"] == "watching" and f["count"] == 0)
    assert frame["watchers"] == []


async def test_reactions_reach_the_whole_table_and_are_rate_limited(web_world):
    game_id = await web_world.start_game([BO, CY])
    bo = await web_world.connect(BO, "Bo")
    cy = await web_world.connect(CY, "Cy")
    dee = await web_world.connect(DEE, "Dee")
    for client in (bo, cy, dee):
        await client.view_at(0)
    react = {"t": "react", "game_id": str(game_id)}
    assert (await bo.answer(await bo.request(react | {"emoji": REACTIONS[0]})))["t"] == "ack"
    for client in (bo, cy, dee):
        earlier = [f for f in client.frames if f["t"] == "reaction"]
        shown = earlier[0] if earlier else await client.until(lambda f: f["t"] == "reaction")
        assert shown == {
            "t": "reaction",
            "game_id": str(game_id),
            "seat": bo.view["seat"],
            "emoji": REACTIONS[0],
        }
    # only the fixed set: free text (a colour, a number) is not a reaction
    for emoji in ("🟥", "5", "red", None):
        answer = await bo.answer(await bo.request(react | {"emoji": emoji}))
        assert answer["code"] == "bad_frame", emoji
    # a spectator cannot react
    answer = await dee.answer(await dee.request(react | {"emoji": REACTIONS[1]}))
    assert answer["t"] == "error" and answer["code"] == "refused"
    assert "players" in answer["message"]
    # three at once, then wait: the fourth is refused, and Cy's own are not affected
    codes = [
        (await bo.answer(await bo.request(react | {"emoji": REACTIONS[2]})))["t"] for _ in range(3)
    ]
    assert codes == ["ack", "ack", "error"]
    assert bo.frames[-1]["code"] == "rate_limited" and "wait" in bo.frames[-1]["message"]
    assert (await cy.answer(await cy.request(react | {"emoji": REACTIONS[3]})))["t"] == "ack"
