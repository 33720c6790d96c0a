"""Issue 29.3 and 29.4: every control's custom_id is read by one helper with bounded ids, and
the lobby's timer select acts only where its lobby lives, under simcord.

A forged custom_id with a 31-digit id on the timer select (``hats:lt:``) or a coach button
(``hats:c:``) used to reach the store as an int beyond int64 (OverflowError, an ERROR log,
"Something went wrong"); now it is a stale control. A host's timer select forged from another
channel or from a DM used to change the lobby's timer and rewrite the message it came from.
"""

from __future__ import annotations

import contextlib
import logging
import re

import discord
import pytest
from simcord.components import walk_components

from cogs.custom_ids import ID, check_template, fields
from cogs.errors import GuardedItem
from tests.bot.helpers import dm_of, text_of, v2_texts
from tests.bot.test_guarded_controls import _dynamic_items

BIG = "9" * 31


@contextlib.contextmanager
def forged(env, message, new_custom_id: str, *, kind: int, values: tuple[str, ...] = ()):
    """The first component of type ``kind`` (2 button, 3 select) of ``message`` is forged.

    A forged select also offers ``values`` (a custom client sends what it likes).
    """
    channel_id = getattr(message, "channel_id", None) or message.channel.id
    stored = env.backend.get_message(channel_id, message.id)
    control = next(
        c for c in walk_components(stored.components) if c.get("custom_id") and c["type"] == kind
    )
    old = dict(control)
    control["custom_id"] = new_custom_id
    if values:
        control["options"] = [{"label": v, "value": v} for v in values]
    try:
        yield
    finally:
        control.clear()
        control.update(old)


async def forged_select(env, actor, message, custom_id: str, value: str):
    with forged(env, message, custom_id, kind=3, values=(value,)):
        return await actor.select(message, [value], custom_id=custom_id)


async def forged_click(env, actor, message, custom_id: str):
    with forged(env, message, custom_id, kind=2):
        return await actor.click(message, custom_id=custom_id)


# ---------------------------------------------------------------------------- the helper
@pytest.mark.parametrize(
    "template",
    [r"hats:x:(?P<id>\d+)", r"hats:x:(?P<id>\d*)", r"hats:x:(?P<id>\d{1,})", r"hats:x:(\d{1,31})"],
)
def test_a_template_with_unbounded_digits_is_refused_when_its_class_is_defined(template):
    with pytest.raises(TypeError, match=r"digits|int64"):
        check_template(template)
    with pytest.raises(TypeError):

        class Forgetful(GuardedItem, discord.ui.DynamicItem[discord.ui.Button], template=template):
            pass


def test_every_control_template_bounds_its_ids_and_fields_bound_the_numbers():
    for cls in _dynamic_items():
        check_template(cls.__discord_ui_compiled_template__.pattern)
    check_template(rf"hats:x:(?P<id>{ID}):(?P<v>\d{{1,9}})")

    match = re.fullmatch(
        rf"hats:x:(?P<id>{ID}):(?P<op>[a-z]+):?(?P<n>\d)?", "hats:x:" + "9" * 19 + ":go:"
    )
    assert fields(match) == {"id": 0, "op": "go", "n": None}  # beyond int64: no row
    match = re.fullmatch(rf"hats:x:(?P<id>{ID})", "hats:x:9223372036854775807")
    assert fields(match) == {"id": 9223372036854775807}


# ---------------------------------------------------------------------------- simcord
async def test_forged_long_ids_on_the_timer_select_and_coach_buttons_are_stale(world, caplog):
    env, alice, bob = world.env, world.players[0], world.players[1]
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    row = await env.bot.games.lobby_in_channel(world.channel.id)
    caplog.set_level(logging.WARNING)
    for custom_id in (f"hats:lt:{BIG}", "hats:lt:9223372036854775808"):
        result = await forged_select(env, alice, lobby, custom_id, "120")
        assert result.ephemeral, custom_id
        text = result.response.content
        assert "out of date" in text or "This lobby is closed." in text, (custom_id, text)
    await alice.slash(world.channel, "hats learn")  # a practice game: coach buttons in the DM
    hand = next(m for m in reversed(dm_of(alice).history()) if "hats:c:" in str(m.components))
    for custom_id in (f"hats:c:{BIG}:hint", f"hats:c:{BIG}:quit", "hats:c:1:zap"):
        result = await forged_click(env, alice.user, hand, custom_id)
        assert result.ephemeral, custom_id
        assert "out of date" in result.response.content or "is over" in result.response.content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert (await env.bot.games.lobby(row.id)).settings == row.settings
    del bob


async def test_the_timer_select_acts_only_in_its_lobbys_channel(world):
    env, alice, bob = world.env, world.players[0], world.players[1]
    await alice.slash(world.channel, "hats new", timer=0)
    row = await env.bot.games.lobby_in_channel(world.channel.id)
    # the same host's own lobby in another channel: its timer select forged to the first lobby
    second = world.guild.create_text_channel("second")
    own = (await alice.slash(second, "hats new", timer=60)).response.message
    own_row = await env.bot.games.lobby_in_channel(second.id)
    before = v2_texts(next(m for m in second.history() if m.id == own.id))
    result = await forged_select(env, alice, own, f"hats:lt:{row.id}", "600")
    assert result.ephemeral and "another channel" in result.response.content
    # from a DM: the host's practice hand carries a select to forge
    await alice.slash(world.channel, "hats learn")
    hand = next(m for m in reversed(dm_of(alice).history()) if "hats:hs:" in str(m.components))
    result = await forged_select(env, alice.user, hand, f"hats:lt:{row.id}", "600")
    assert result.ephemeral and "another channel" in result.response.content
    assert (await env.bot.games.lobby(row.id)).settings["turn_timer"] is None  # unchanged
    assert (await env.bot.games.lobby(own_row.id)).settings["turn_timer"] == 60
    after = next(m for m in second.history() if m.id == own.id)
    assert v2_texts(after) == before  # the message it came from is still its own lobby
    assert "#" + str(row.id) not in text_of(after) or row.id == own_row.id
    # the select still works where it lives
    lobby = next(m for m in world.channel.history() if m.id == row.message_id)
    await alice.select(lobby, ["120"], custom_id=f"hats:lt:{row.id}")
    assert (await env.bot.games.lobby(row.id)).settings["turn_timer"] == 120
    del bob
