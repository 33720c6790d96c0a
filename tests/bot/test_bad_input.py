"""Every bad input gets a clear private answer and changes nothing."""

from __future__ import annotations

import discord

from engine import exchange_allowed
from tests.bot.helpers import open_and_start, session_of, text_of


def player_of(world, session, seat):
    user_id = session.seats[seat].user_id
    return next(p for p in world.players if p.user.id == user_id)


async def test_no_game_in_channel(world):
    result = await world.players[0].slash(world.channel, "hats exchange", card="red5", slot=1)
    assert result.ephemeral
    assert "no game in this channel" in result.response.content


async def test_second_lobby_and_full_lobby_and_double_join(world):
    alice = world.players[0]
    await alice.slash(world.channel, "hats new")
    again = await world.players[1].slash(world.channel, "hats new")
    assert again.ephemeral and "already has a game or a lobby" in again.response.content
    twice = await alice.slash(world.channel, "hats lobby join")
    assert twice.ephemeral and "already in this lobby" in twice.response.content
    for p in world.players[1:4]:
        assert not (await p.slash(world.channel, "hats lobby join")).response.content.startswith(
            "This"
        )
    full = await world.players[4].slash(world.channel, "hats lobby join")
    assert full.ephemeral and "full" in full.response.content
    lobby = await world.env.bot.games.lobby_in_channel(world.channel.id)
    assert len(lobby.seats) == 4


async def test_only_the_host_starts(world):
    alice, bob = world.players[:2]
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    await bob.click(lobby, label="Join")
    refused = await bob.click(lobby, label="Start")
    assert refused.ephemeral and "Only the host" in refused.response.content
    assert (await session_of(world.env, world.channel)) is None


async def test_turn_card_exchange_and_optional_errors(world):
    session = await open_and_start(world, 2)
    game = session.game
    active = game.to_move
    waiting = player_of(world, session, 1 - active)
    mover = player_of(world, session, active)
    version = session.version

    r = await waiting.slash(world.channel, "hats blackhat", card=game.hands[1 - active][0].code)
    assert r.ephemeral and "your move" in r.response.content
    assert f"<@{mover.user.id}>" in r.response.content  # says whose move it is

    outsider = world.players[4]
    r = await outsider.slash(world.channel, "hats hand")
    assert r.ephemeral and "not playing in this game" in r.response.content

    not_mine = next(c for c in game.hands[1 - active])
    r = await mover.slash(world.channel, "hats blackhat", card=not_mine.code)
    assert r.ephemeral and "not in your hand" in r.response.content

    r = await mover.slash(world.channel, "hats blackhat", card="purple9")
    assert r.ephemeral and "is not a card" in r.response.content

    illegal = next(
        (c, slot)
        for c in game.hands[active]
        for slot, b in enumerate(game.board, 1)
        if not exchange_allowed(c, b)
    )
    r = await mover.slash(world.channel, "hats exchange", card=illegal[0].code, slot=illegal[1])
    assert r.ephemeral and "cannot take" in r.response.content

    r = await mover.slash(world.channel, "hats endturn")
    assert r.ephemeral and "main action" in r.response.content
    assert session.version == version  # nothing changed

    hand = game.hands[active]
    r = await mover.slash(world.channel, "hats discard", card=hand[0].code)
    assert not r.response.content and session.version == version + 1
    r = await mover.slash(world.channel, "hats discard", card=game.hands[active][0].code)
    assert r.ephemeral and "optional action" in r.response.content
    assert session.version == version + 1


async def test_typed_cards_are_parsed_leniently_and_autocompleted(world):
    session = await open_and_start(world, 2)
    seat = session.game.to_move
    mover = player_of(world, session, seat)
    choices = await mover.autocomplete(world.channel, "hats blackhat", "card", "")
    assert [c["value"] for c in choices] == [c.code for c in session.game.hands[seat]]
    first = session.game.hands[seat][0]
    assert choices[0]["name"].startswith(first.type.emoji)
    typed = f"{first.type.value.title()} {first.value}"
    await mover.slash(world.channel, "hats blackhat", card=typed)
    assert first in session.game.black_hats[seat]


def embed_text(embed) -> str:
    return " ".join([embed.title or "", embed.description or ""] + [f.value for f in embed.fields])


async def test_stale_control_says_out_of_date_and_plays_nothing(world):
    """Issue 36.4: one private line, as for every stale control (it was the current hand)."""
    session = await open_and_start(world, 2)
    seat = session.game.to_move
    mover = player_of(world, session, seat)
    shown = (await mover.slash(world.channel, "hats hand")).response  # ephemeral, with controls
    select_id = next(c for c in shown_ids(shown) if c.startswith("hats:hs:"))
    first, second = session.game.hands[seat][:2]
    await mover.slash(world.channel, "hats blackhat", card=first.code)
    version = session.version
    # the ephemeral controls are now one step behind
    result = await mover.select(shown, [second.code], custom_id=select_id)
    assert session.version == version
    assert result.ephemeral
    text = text_of(result.response.message)
    assert "That button was out of date, so nothing was done" in text
    assert not shown_ids(result.response)  # no controls: the line only


def shown_ids(response) -> list[str]:
    out = []

    def walk(items):
        for item in items:
            if item.get("custom_id"):
                out.append(item["custom_id"])
            walk(item.get("components", []))

    walk(response.components)
    return out


async def test_missing_permission_is_named(world):
    guild = world.guild
    closed = guild.create_text_channel(
        "no-embeds", overwrites={guild.me: discord.PermissionOverwrite(embed_links=False)}
    )
    r = await world.players[0].slash(closed, "hats new")
    assert r.ephemeral and "Embed Links" in r.response.content
    assert await world.env.bot.games.lobby_in_channel(closed.id) is None
