"""The public table and the end screen as Components V2 layouts (issue 18), under simcord.

Layout as data: one container, the picture in a full-width media gallery whose alt text
describes it completely and reveals nothing hidden, the text saying only what the picture
cannot (whose turn, what just happened, at most 3 lines), every line once, the buttons
enabled; pictures off: a compact text layout. In English and in German.
"""

from __future__ import annotations

import random

import discord
import pytest

from tests.bot.helpers import (
    act_on_hand,
    alt_texts,
    bot_messages,
    dm_of,
    message_text,
    session_of,
    v2_texts,
    walk_components,
)
from tests.bot.test_hidden_info import PATTERNS, hidden_cards
from texts.common import card_token, type_name


def fetch(channel, message_id):
    return next(m for m in channel.history() if m.id == message_id)


def kinds(message) -> list[str]:
    return [type(c).__name__ for c in walk_components(message.components)]


def buttons(message) -> dict[str, bool]:
    """Button label -> enabled."""
    return {
        c.label: not c.disabled
        for c in walk_components(message.components)
        if isinstance(c, discord.Button)
    }


def tea_party(env, locale: str):
    """A server in ``locale`` with a #hats channel and four members: (guild, channel, players)."""
    guild = env.create_guild("Tea party", preferred_locale=locale)
    channel = guild.create_text_channel("hats")
    players = [guild.add_member(env.create_user(n)) for n in ("anna", "bruno", "carla", "dario")]
    return guild, channel, players


async def start(env, channel, players, *, ai: str | None = None):
    """The first player opens a lobby, the others join (or an AI is added), and starts."""
    lobby = (await players[0].slash(channel, "hats new")).response.message
    lobby_id = (await env.bot.games.lobby_in_channel(channel.id)).id
    if ai:
        await players[0].select(lobby, [ai], custom_id=f"hats:ai:{lobby_id}")
    for player in players[1:]:
        await player.click(lobby, custom_id=f"hats:l:{lobby_id}:join")
    await players[0].click(lobby, custom_id=f"hats:l:{lobby_id}:start")
    return lobby, await session_of(env, channel)


async def step(session, players, rng):
    """Whoever must move acts once through their live hand DM (swaps included)."""
    game = session.game
    seat = game.to_move
    player = next(p for p in players if p.user.id == session.seats[seat].user_id)
    legal = game.legal_actions(seat)
    kind = rng.choice(sorted({a.kind for a in legal}, key=lambda k: k.value))
    action = rng.choice([a for a in legal if a.kind is kind])
    live = session.message("dm", seat)
    message = fetch(dm_of(player), live.message_id)
    await act_on_hand(session, player, message, action)


@pytest.fixture(params=["en-US", "de"])
async def table(request, simcord_env):
    env = simcord_env
    guild, channel, players = tea_party(env, request.param)
    lobby, session = await start(env, channel, players)
    return env, guild, channel, players, lobby, session


async def test_the_table_is_one_v2_container_with_a_described_picture(table):
    env, _, channel, players, lobby, session = table
    tr = env.bot.public_tr(channel.guild.id)
    rng = random.Random(7)
    for _ in range(6):
        await step(session, players, rng)
    message = fetch(channel, session.message("table").message_id)
    assert message.flags.value & (1 << 15) and not message.embeds  # IS_COMPONENTS_V2
    assert kinds(message)[0] == "Container"
    assert kinds(message).count("MediaGalleryComponent") == 1
    assert buttons(message) == {tr("Show my hand"): True, tr("Rules"): True}
    # the alt text: complete (every slot, every player), the same on the attachment
    (alt,) = alt_texts(message)
    (picture,) = message.attachments
    assert picture.description == alt and len(alt) <= 1024
    game = session.game
    for slot, card in enumerate(game.board, start=1):
        assert f"{slot} {type_name(card.type, tr)} {card.value}" in alt
    for seat in session.seats:
        assert env.bot.names.get(seat.user_id, "") in alt
    # the text: whose turn, at most 3 recent moves, no line twice, nothing of the picture's
    texts = v2_texts(message)
    assert f"<@{session.seats[game.public_view().active_seat].user_id}>" in texts[0]
    recent = [t for t in texts if t.startswith("-# ")]
    assert recent and len(recent[0].splitlines()) <= 3
    lines = [line for t in texts for line in t.splitlines()]
    assert len(lines) == len(set(lines))
    assert tr("Tea table") not in "\n".join(texts)
    # hidden information reaches neither the text nor the alt text (English card names)
    if tr.locale == "en":
        text = message_text(message)
        for card in hidden_cards(game):
            assert not PATTERNS[card].search(text), card
    # the lobby shrank to one line pointing to the table
    closed = fetch(channel, lobby.id)
    (line,) = v2_texts(closed)
    assert kinds(closed) == ["TextDisplay"] and "\n" not in line and f"#{session.id}" in line


async def test_pictures_off_shows_a_compact_text_table(table):
    env, guild, channel, players, _, session = table
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[managers])
    r = await boss.slash(channel, "hats settings pictures", on=False)
    assert r.ephemeral
    assert (await env.bot.store.guild_settings.options())[guild.id].pictures is False
    await step(session, players, random.Random(3))
    message = fetch(channel, session.message("table").message_id)
    assert message.attachments == [] and "MediaGalleryComponent" not in kinds(message)
    text = "\n".join(v2_texts(message))
    for card in session.game.board:
        assert card_token(card) in text
    lines = text.splitlines()
    assert len(lines) == len(set(lines))
    for seat in session.seats:  # one line per player
        assert sum(f"<@{seat.user_id}>" in line and "·" in line for line in lines) >= 1


async def test_the_table_becomes_the_final_result_with_teams_ranked(table):
    env, _, channel, players, _, session = table
    tr = env.bot.public_tr(channel.guild.id)
    rng = random.Random(11)
    while not session.game.is_over:
        await step(session, players, rng)
    await env.advance_time(1)
    result = session.game.result
    message = fetch(channel, session.message("end").message_id)
    assert message.id == session.message("table").message_id  # the same message
    names = [a.filename for a in message.attachments]
    assert names == [f"hats-game-{session.id}.json", "end.png"]
    assert buttons(message) == {tr("Rematch"): True}
    head = v2_texts(message)[0]
    for seat in result.winners:  # every member of the winning team, with the trophy
        assert f"<@{session.seats[seat].user_id}>" in head
    assert "🏆" in head
    assert tr("Not rated: a game counts for the ratings with at least two human players.") not in (
        message_text(message)
    )
    # the alt text groups the players by team, the winning team first
    (alt,) = alt_texts(message)
    team_lines = [i for i, line in enumerate(alt.splitlines()) if line.startswith("Team ")]
    if tr.locale == "en":
        assert len(team_lines) == 2
        first_team = alt.splitlines()[team_lines[0]]
        winner_team = "Team A" if result.winners[0] % 2 == 0 else "Team B"
        assert first_team.startswith(winner_team)
    assert "Provisional" not in message_text(message)


async def test_a_game_against_the_ai_says_it_is_not_rated(simcord_env):
    env = simcord_env
    guild = env.create_guild("Tea party", preferred_locale="de")
    channel = guild.create_text_channel("hats")
    anna = guild.add_member(env.create_user("anna"))
    _, session = await start(env, channel, [anna], ai="easy")
    rng = random.Random(5)
    while not session.game.is_over:
        await step(session, [anna], rng)
    await env.advance_time(1)
    tr = env.bot.public_tr(guild.id)
    message = fetch(channel, session.message("end").message_id)
    unrated = tr("Not rated: a game counts for the ratings with at least two human players.")
    assert unrated != "Not rated: a game counts for the ratings with at least two human players."
    assert unrated in message_text(message)
    assert bot_messages(env, channel)


async def test_the_end_pictures_alt_text_is_built_once_per_game_end(world, monkeypatch):
    import importlib

    from tests.bot.helpers import play_to_end

    table_module = importlib.import_module("cogs.table")  # the module the bot's cog runs
    end_module = importlib.import_module("texts.end")
    built = []
    real = end_module.end_alt_text

    def counted(*args, **kwargs):
        built.append(kwargs.get("game_id"))
        return real(*args, **kwargs)

    monkeypatch.setattr(table_module, "end_alt_text", counted)
    monkeypatch.setattr(end_module, "end_alt_text", counted)
    session = await play_to_end(world, 2, seed=5)
    assert built == [session.id]
    end = fetch(world.channel, session.message("end").message_id)
    (alt,) = alt_texts(end)
    assert alt.startswith(
        world.env.bot.public_tr(world.channel.guild.id)(
            "Hats: game #{game_id} is over", game_id=session.id
        )
    )
