"""The lobby as a Components V2 layout (issue 18), under simcord, in English and in German.

Only usable controls are shown, in full colour: no Join once the table is full, no Start
while a player is missing, no Remove AI without an AI, no Add AI select once full; the
lobby's status line says in one short line why a control is missing. Once the game starts
the lobby shrinks to one line pointing to the table.
"""

from __future__ import annotations

import discord
import pytest

from tests.bot.helpers import v2_texts, walk_components


def fetch(channel, message_id):
    return next(m for m in channel.history() if m.id == message_id)


def controls(message) -> tuple[dict[str, bool], list[str]]:
    """(button label -> enabled, the custom ids of the selects) of a V2 message."""
    buttons = {}
    selects = []
    for c in walk_components(message.components):
        if isinstance(c, discord.Button):
            buttons[c.label] = not c.disabled
        elif isinstance(c, discord.SelectMenu):
            assert not c.disabled  # no greyed-out menu either
            selects.append(c.custom_id)
    return buttons, selects


@pytest.fixture(params=["en-US", "de"])
async def lobby(request, simcord_env):
    env = simcord_env
    guild = env.create_guild("Tea party", preferred_locale=request.param)
    channel = guild.create_text_channel("hats")
    players = [guild.add_member(env.create_user(n)) for n in ("anna", "bruno", "carla")]
    message = (await players[0].slash(channel, "hats new")).response.message
    row = await env.bot.games.lobby_in_channel(channel.id)
    tr = env.bot.public_tr(guild.id)
    return env, channel, players, message, row.id, tr


async def test_only_usable_lobby_controls_are_shown(lobby):
    _, channel, players, message, lobby_id, tr = lobby
    assert tr.locale in ("en", "de")
    # alone: no Start (the status line says a player is missing), no Remove AI
    shown, selects = controls(fetch(channel, message.id))
    hints = tr("Hints: off (turn on)")
    assert shown == {tr("Join"): True, tr("Leave"): True, tr("Cancel"): True, hints: True}
    assert f"hats:ai:{lobby_id}" in selects
    waiting = tr.plural(
        "Waiting for {n} more player to start.", "Waiting for {n} more players to start.", 1
    )
    assert waiting in v2_texts(fetch(channel, message.id))[0]
    # an AI joins: Start and Remove AI appear
    await players[0].select(message, ["easy"], custom_id=f"hats:ai:{lobby_id}")
    shown, selects = controls(fetch(channel, message.id))
    assert shown[tr("Start")] and shown[tr("Remove AI")] and shown[tr("Join")]
    assert all(shown.values())
    assert waiting not in "\n".join(v2_texts(fetch(channel, message.id)))
    # full: neither Join nor the Add AI select; the status line says the table is full
    await players[1].click(fetch(channel, message.id), custom_id=f"hats:l:{lobby_id}:join")
    await players[2].click(fetch(channel, message.id), custom_id=f"hats:l:{lobby_id}:join")
    full = fetch(channel, message.id)
    shown, selects = controls(full)
    assert tr("Join") not in shown and all(shown.values())
    assert tr("Start") in shown and tr("Remove AI") in shown
    assert not any(s.startswith("hats:ai:") for s in selects)
    assert tr("The table is full.") in v2_texts(full)[0]
    # the AI leaves: a place is open again, Join and Add AI come back, Remove AI goes
    await players[0].click(full, custom_id=f"hats:l:{lobby_id}:rmai")
    shown, selects = controls(fetch(channel, message.id))
    assert shown[tr("Join")] and tr("Remove AI") not in shown
    assert f"hats:ai:{lobby_id}" in selects


async def test_a_started_lobby_is_one_line_pointing_to_the_table(lobby):
    env, channel, players, message, lobby_id, tr = lobby
    await players[1].click(message, custom_id=f"hats:l:{lobby_id}:join")
    await players[0].click(fetch(channel, message.id), custom_id=f"hats:l:{lobby_id}:start")
    session = await env.bot.games.session_in_channel(channel.id)
    closed = fetch(channel, message.id)
    (line,) = v2_texts(closed)
    assert line == tr("🎩 Game #{game} has started: follow it on the table below.", game=session.id)
    assert not [c for c in walk_components(closed.components) if hasattr(c, "custom_id")]
