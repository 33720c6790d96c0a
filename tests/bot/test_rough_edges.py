"""Issue 9, a new player's rough edges, through the real bot: the lobby after the start,
team buttons only with 4 players, ``/hats record`` private unless shared, table talk."""

from __future__ import annotations

from tests.bot.helpers import (
    bot_messages,
    open_and_start,
    play_to_end,
    record_posts,
    v2_texts,
    walk_components,
)


def _lobby_message(world):
    return bot_messages(world.env, world.channel)[0]  # the lobby is the channel's first


def _labels(message) -> list[str]:
    return [getattr(c, "label", None) for c in walk_components(message.components)]


def _text(message) -> str:
    embed = message.embeds[0]
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


async def test_started_lobby_says_only_that_it_started(world):
    session = await open_and_start(world, 3)
    lobby = bot_messages(world.env, world.channel)[0]
    # one line pointing to the table (issue 18): no players, settings or buttons go stale
    assert v2_texts(lobby) == [f"🎩 Game #{session.id} has started: follow it on the table below."]
    assert [type(c).__name__ for c in walk_components(lobby.components)] == ["TextDisplay"]


async def test_team_buttons_only_when_four_players_joined(world):
    alice = world.players[0]
    result = await alice.slash(world.channel, "hats new")
    lobby = result.response.message
    for player in world.players[1:3]:
        await player.click(lobby, label="Join")
    lobby = _lobby_message(world)
    assert not {"Team A", "Team B", "Shuffle teams"} & set(_labels(lobby))
    await world.players[3].click(lobby, label="Join")
    lobby = _lobby_message(world)
    assert {"Team A", "Team B", "Shuffle teams"} <= set(_labels(lobby))


async def test_record_is_private_unless_shared(world):
    await play_to_end(world, 2, 9)
    alice = world.players[0]
    final = record_posts(world.env, world.channel)[-1]  # the end screen keeps its record file
    assert any(a.filename.endswith(".json") for a in final.attachments)
    before = len(bot_messages(world.env, world.channel))
    private = await alice.slash(world.channel, "hats record")
    assert private.ephemeral and private.response.attachments
    assert len(bot_messages(world.env, world.channel)) == before
    shared = await alice.slash(world.channel, "hats record", share=True)
    assert not shared.ephemeral and shared.response.attachments
    assert len(bot_messages(world.env, world.channel)) == before + 1


async def test_team_message_with_a_slot_number_is_delivered_and_a_card_number_is_named(world):
    session = await open_and_start(world, 4)
    alice = world.players[0]
    team = next(i for i, t in enumerate(session.game.teams) if 0 in t)
    thread_id = session.message("team_thread", team).channel_id
    th = next(t for t in world.channel.threads if t.id == thread_id)
    for text in ("take slot 2", "I will wait for round 3", "hold on 1 sec", "blue sky thinking"):
        r = await alice.slash(world.channel, "hats team message", text=text)
        assert r.ephemeral and "team thread" in r.response.content, r.response.content
        assert th.history(viewer=alice)[-1].content.endswith(f"\u2068{text}\u2069")
    count = len(th.history(viewer=alice))
    r = await alice.slash(
        world.channel, "hats team message", text="I have the red five, take slot 2"
    )
    answer = r.response.content
    assert "Not sent" in answer and "red" in answer and "five" in answer and "(2)" not in answer
    assert len(th.history(viewer=alice)) == count
