"""The Discord API budget: per-channel edit limit, calls per step, no user look-ups (issue 11)."""

from __future__ import annotations

import random

import pytest

from cogs.render.common import card_short
from tests.bot import rest_log
from tests.bot.helpers import open_and_start, play_one


@pytest.fixture
def bot_options():
    # Discord's per-channel edit budget on (the other bot tests turn it off)
    return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": 5}


def table_text(world, session):
    table = session.message("table")
    message = next(m for m in world.channel.history() if m.id == table.message_id)
    embed = message.embeds[0]
    return "\n".join([embed.description or ""] + [f.value for f in embed.fields])


async def test_fast_game_never_edits_a_channel_more_than_5_times_in_5_seconds(world):
    env = world.env
    log = rest_log.install(env)
    session = await open_and_start(world, 3)
    rng = random.Random(11)
    while not session.game.is_over:
        await play_one(world, session, rng)
        await env.advance_time(0.25)  # moves back to back: 4 steps per simulated second
    await env.advance_time(10)
    most = rest_log.edits_per_window(log.calls, 5.0)
    assert most and max(most.values()) <= 5, most
    # the table channel was held back (coalesced), yet the last edit shows the last state
    table = session.message("table")
    edits = [c for c in log.calls if c.method == "PATCH" and c.path.endswith(str(table.message_id))]
    assert len(edits) < session.version
    for card in session.game.board:
        assert card_short(card) in table_text(world, session)


async def test_three_player_game_by_dm_controls_stays_within_the_rate_budget(world):
    env = world.env
    log = rest_log.install(env)
    session = await open_and_start(world, 3)
    rng = random.Random(12)
    per_step = []
    while not session.game.is_over:
        mark = len(log.calls)
        before = session.version
        await env.advance_time(10)
        await play_one(world, session, rng)
        limited = [c for c in log.calls[mark:] if not c.free]
        if session.game.is_over:  # the final scores are one more post
            limited = limited[:-1]
        per_step.append(len(limited))
        per_step.extend([0] * (session.version - before - 1))
    assert max(per_step) <= 3
    assert sum(per_step) / len(per_step) <= 1.5
    routes = {c.route for c in log.calls}
    assert not any(r.startswith("GET /users/") for r in routes)
    dm_opens = [c for c in log.calls if c.route == "POST /users/@me/channels"]
    assert len(dm_opens) <= 3  # one DM channel per player, opened once
