"""Issue 19, points 1–5, through the real bot: records stay in their server, names are data,
controls act only where their lobby or game lives, ids out of range are stale, abuse has
limits, and every autocomplete choice fits Discord's 100 characters."""

from __future__ import annotations

import contextlib
import logging
import random
import re

import pytest
from simcord.components import walk_components

from engine import ActionKind
from tests.bot.helpers import (
    act_on_hand,
    alt_texts,
    custom_ids,
    dm_of,
    open_and_start,
    play_one,
    session_of,
    v2_texts,
)
from texts.replies import labels_for

FSI, PDI = "\u2068", "\u2069"
LINK = "[click](https://example.com)"
# a masked link, but the bot's own jump links to a channel (the hand DM names its game's
# channel so: a channel mention may not resolve in a DM)
MASKED_LINK = re.compile(r"(?<!\\)\[[^\]\n]*\]\(https?://(?!discord\.com/channels/)")


def _strings(value):
    """Every string inside a REST body (dicts and lists walked; bytes skipped)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _sent_texts(env) -> list[str]:
    """Every text the bot ever sent: messages, edits, interaction answers (REST bodies)."""
    out = []
    for request in env.http_requests:
        out.extend(_strings(request.json))
    return out


def _check_names_are_data(env, hostile: list[str]) -> None:
    texts = _sent_texts(env)
    assert texts
    for text in texts:
        for name in hostile:  # only ever with its markdown escaped
            assert not re.search(r"(?<!\\)" + re.escape(name), text), (name, text)
        assert "\u202e" not in text, text
        assert not MASKED_LINK.search(text), text
        assert text.count(FSI) == text.count(PDI), text


@contextlib.contextmanager
def _forged(env, message, new_custom_id: str):
    """The first control of ``message`` carries ``new_custom_id`` (a custom client's forgery)."""
    channel_id = getattr(message, "channel_id", None) or message.channel.id
    stored = env.backend.get_message(channel_id, message.id)
    control = next(c for c in walk_components(stored.components) if c.get("custom_id"))
    old = control["custom_id"]
    control["custom_id"] = new_custom_id
    try:
        yield
    finally:
        control["custom_id"] = old


async def _play_to_end(world, n: int, seed: int):
    """Open, start and play a game to its end by random legal clicks on each live hand DM."""
    session = await open_and_start(world, n)
    rng = random.Random(seed)
    by_id = {p.user.id: p for p in world.players}
    while not session.game.is_over:
        seat = session.game.to_move
        player = by_id[session.seats[seat].user_id]
        live = session.message("dm", seat).message_id
        message = next(m for m in dm_of(player).history() if m.id == live)
        legal = session.game.legal_actions(seat)
        kind = rng.choice(sorted({a.kind for a in legal}, key=lambda k: k.value))
        action = rng.choice([a for a in legal if a.kind is kind])
        await act_on_hand(session, player, message, action)
    return session


async def _click_forged(env, actor, message, custom_id: str):
    with _forged(env, message, custom_id):
        return await actor.click(message, custom_id=custom_id)


# ---------------------------------------------------------------------------- point 2
async def test_hostile_names_in_a_four_player_game_are_data_to_the_end_and_in_the_replay(
    simcord_env,
):
    env = simcord_env
    guild = env.create_guild("Names")
    channel = guild.create_text_channel("hats")
    nicks = [LINK, "Ana", "ana", "\u202e**x** ||y|| `z`"]
    # display names (global names): a nickname is only seen in the server, DMs show these
    players = [
        guild.add_member(env.create_user(f"u{i}", global_name=n)) for i, n in enumerate(nicks)
    ]
    world = type("W", (), {"env": env, "guild": guild, "channel": channel, "players": players})
    session = await _play_to_end(world, 4, seed=3)
    labels = labels_for(session, env.bot.names)
    # pictures get the plain names; equal names told apart; the RTL override gone
    assert [label.plain_name for label in labels] == [LINK, "Ana", "ana (2)", "**x** ||y|| `z`"]
    assert [label.name for label in labels][:3] == [
        f"{FSI}\\[click](https://example.com){PDI}",
        f"{FSI}Ana{PDI}",
        f"{FSI}ana (2){PDI}",
    ]
    end_id = session.message("end").message_id  # the table became the final result
    end = next(m for m in channel.history() if m.id == end_id)
    described = " ".join(alt_texts(end))
    assert "ana (2)" in described and "\\*\\*x\\*\\*" in described
    replay = await players[0].slash(channel, "hats replay", game=session.id)
    await players[0].click(replay.response, custom_id=f"hats:rp:{session.id}:0:l")
    history = await players[0].slash(channel, "hats history")
    assert history.ephemeral
    _check_names_are_data(env, [LINK, "**x**", "||y||", "`z`"])


async def test_blank_and_markdown_names_in_a_three_player_game(simcord_env):
    env = simcord_env
    guild = env.create_guild("Blank")
    channel = guild.create_text_channel("hats")
    nicks = ["\u3164\u200b", "__x__ # big", "> quote @everyone"]
    players = [
        guild.add_member(env.create_user(f"b{i}", global_name=n), nick=n)
        for i, n in enumerate(nicks)
    ]
    world = type("W", (), {"env": env, "guild": guild, "channel": channel, "players": players})
    session = await _play_to_end(world, 3, seed=4)
    plain = [label.plain_name for label in labels_for(session, env.bot.names)]
    assert plain == ["Player 1", "__x__ # big", "> quote @everyone"]
    _check_names_are_data(env, ["__x__", "@everyone"])


# ---------------------------------------------------------------------------- point 1
async def test_records_stay_in_their_server_and_in_a_dm_with_their_players(world):
    env = world.env
    session = await _play_to_end(world, 2, seed=1)
    other = env.create_guild("Elsewhere")
    elsewhere = other.create_text_channel("games")
    stranger = other.add_member(env.create_user("zed"))
    for share in (False, True):
        refused = await stranger.slash(elsewhere, "hats record", game=session.id, share=share)
        assert refused.ephemeral
        assert f"There is no game #{session.id} on this server." in refused.response.content
    assert not [m for m in elsewhere.history() if m.attachments]
    refused = await stranger.user.slash("hats record", game=session.id)
    assert refused.ephemeral and "You did not play in a game" in refused.response.content
    mine = await world.players[0].user.slash("hats record", game=session.id)
    assert mine.response.attachments[0].filename.endswith(".json")
    here = await world.players[4].slash(world.channel, "hats record", game=session.id)
    assert here.response.attachments  # anyone on the game's own server


# ---------------------------------------------------------------------------- point 3
async def test_controls_act_only_where_their_lobby_or_game_lives(world, caplog):
    env = world.env
    alice, bob = world.players[:2]
    lobby = (await alice.slash(world.channel, "hats new")).response
    lobby_id = (await env.bot.games.lobby_in_channel(world.channel.id)).id
    # a server manager of another server, clicking in their own lobby there
    owner = env.create_user("owner")
    other = env.create_guild("Elsewhere", owner=owner)
    elsewhere = other.create_text_channel("games")
    boss = other.add_member(owner)
    own_lobby = (await boss.slash(elsewhere, "hats new")).response
    for op in ("cancel", "start", "join", "addai"):
        result = await _click_forged(env, boss, own_lobby, f"hats:l:{lobby_id}:{op}")
        assert result.ephemeral and "another channel" in result.response.content
    # another channel of the same server
    second = world.guild.create_text_channel("second")
    own = (await bob.slash(second, "hats new")).response
    result = await _click_forged(env, alice, own, f"hats:l:{lobby_id}:cancel")
    assert "another channel" in result.response.content
    assert await env.bot.games.lobby(lobby_id) is not None  # nothing changed
    # the hand's controls: the player's DM or the game's channel, nowhere else
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    session = await session_of(env, world.channel)
    mover = world.players[session.game.to_move]
    end_turn = f"hats:h:{session.id}:{session.version}:e"
    result = await _click_forged(env, mover, own, end_turn)
    assert "another channel" in result.response.content
    table = next(m for m in world.channel.history() if m.id == session.message("table").message_id)
    result = await _click_forged(env, boss, own_lobby, f"hats:t:{session.id}:hand")
    assert "another channel" in result.response.content
    # ids out of range are stale controls: a private answer, no ERROR log
    caplog.set_level(logging.WARNING)
    for custom_id, answer in (
        ("hats:l:9223372036854775808:join", "This lobby is closed."),
        ("hats:l:" + "9" * 31 + ":join", "out of date"),
        ("hats:t:" + "9" * 19 + ":hand", "This game is over."),
        ("hats:h:" + "9" * 31 + ":1:e", "out of date"),
        ("hats:rp:" + "9" * 25 + ":0:n", "out of date"),
        ("hats:l:1:zap", "out of date"),
    ):
        result = await _click_forged(env, alice, table, custom_id)
        assert result.ephemeral and answer in result.response.content, custom_id
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not session.game.steps  # no move was made by any of it


# ---------------------------------------------------------------------------- point 4
BASE = {"turn_timer": None, "ai_delay": 0.0, "edit_limit": None}


@pytest.mark.parametrize("bot_options", [{**BASE, "max_lobbies": 1, "max_games": 1}])
async def test_lobby_and_game_limits_per_user(world):
    env = world.env
    alice, bob, carol = world.players[:3]
    second = world.guild.create_text_channel("second")
    await alice.slash(world.channel, "hats new")
    refused = await alice.slash(second, "hats new")
    assert refused.ephemeral and "as many open lobbies as one player may (1)" in (
        refused.response.content
    )
    await carol.slash(second, "hats new")
    refused = await alice.slash(second, "hats lobby join")
    assert "as many open lobbies" in refused.response.content
    await bob.slash(world.channel, "hats lobby join")
    await alice.slash(world.channel, "hats lobby start")
    assert await session_of(env, world.channel) is not None
    refused = await bob.slash(second, "hats lobby join")
    assert "as many games at once as one player may (1)" in refused.response.content


@pytest.mark.parametrize("bot_options", [{**BASE, "public_cooldown": 30.0}])
async def test_public_posts_cool_down_per_channel(world):
    env = world.env
    await open_and_start(world, 2)
    watcher = world.players[4]
    first = await watcher.slash(world.channel, "hats table")
    assert "Here is the table." in first.response.content
    posts = len(world.channel.history())
    again = await watcher.slash(world.channel, "hats table")
    assert again.ephemeral and "try again in 30 seconds" in again.response.content
    board = await watcher.slash(world.channel, "hats leaderboard")
    assert board.ephemeral and "try again in" in board.response.content
    assert len(world.channel.history()) == posts  # nothing posted while cooling down
    before = [m.id for m in world.channel.history()]
    await env.advance_time(31)
    await watcher.slash(world.channel, "hats table")
    after = [m.id for m in world.channel.history()]
    assert after[-1] not in before  # posted again (the old table makes way for it)


async def test_a_partner_gets_one_new_dm_per_turn_from_swap_offers(world):
    session = await open_and_start(world, 4)
    game = session.game
    rng = random.Random(2)
    while not any(a.kind is ActionKind.OFFER_SWAP for a in game.legal_actions(game.to_move)):
        await play_one(world, session, rng)
    offerer = game.to_move
    partner = game.partner(offerer)
    by_seat = {p.user.id: p for p in world.players}
    them = by_seat[session.seats[partner].user_id]
    me = by_seat[session.seats[offerer].user_id]
    dms = len(dm_of(them).history())
    offers = [a for a in game.legal_actions(offerer) if a.kind is ActionKind.OFFER_SWAP]
    for offer in offers[:3]:
        await me.slash(world.channel, "hats swap", card=offer.card.code)
        assert game.pending_offer is not None
        await me.slash(world.channel, "hats swap")  # no card: withdraw
    assert len(dm_of(them).history()) == dms + 1
    offer = offers[0]
    await me.slash(world.channel, "hats swap", card=offer.card.code)
    live = dm_of(them).history()[-1]
    assert "offers you a card swap" in " ".join(v2_texts(live))  # redrawn, live again
    assert custom_ids(live)


# ---------------------------------------------------------------------------- point 5
async def test_autocomplete_names_fit_with_a_100_character_channel_and_32_character_names(
    simcord_env,
):
    env = simcord_env
    guild = env.create_guild("Long")
    channel = guild.create_text_channel("c" * 100)
    names = ["W" * 32, "\u202e" + "*" * 31]
    players = [
        guild.add_member(env.create_user(f"l{i}", global_name=n)) for i, n in enumerate(names)
    ]
    world = type("W", (), {"env": env, "guild": guild, "channel": channel, "players": players})
    session = await open_and_start(world, 2)
    choices = await players[0].user.autocomplete("hats hand", "game", "")
    assert [c["value"] for c in choices] == [session.id]
    assert all(len(c["name"]) <= 100 for c in choices)
    cards = await players[0].autocomplete(channel, "hats blackhat", "card", "")
    assert cards and all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in cards)
    for label in labels_for(session, env.bot.names):
        assert len(label.plain_name) <= 32 and len(label.name) <= 2 * 32 + 2


def test_a_team_message_of_markdown_or_emoji_still_fits_one_discord_message():
    from texts.limits import CONTENT_MAX, text_len
    from texts.user_text import with_user_text

    for text in ("*" * 1500, "🎩" * 1500, "\u202e" + "_" * 1499):
        sent = with_user_text(lambda quoted: f"<@{10**18}> (team chat): {quoted}", text)
        assert text_len(sent) <= CONTENT_MAX and sent.endswith("…\u2069")
