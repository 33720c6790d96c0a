"""Whole games played only through slash commands and clicks by simulated players."""

from __future__ import annotations

import random

from engine import Game
from tests.bot.helpers import bot_messages, open_and_start, play_one


async def test_two_player_game_to_the_end_by_dm_controls(world):
    session = await open_and_start(world, 2)
    assert session is not None and session.game.seats == 2
    rng = random.Random(5)
    while not session.game.is_over:
        before = session.version
        await play_one(world, session, rng)
        assert session.version == before + 1
    # the engine replays the stored steps to the same final state
    steps = await world.env.bot.store.steps.load_steps(session.id)
    assert len(steps) == session.version
    final = bot_messages(world.env, world.channel)[-1]
    assert final.attachments and final.attachments[0].filename.endswith(".json")
    assert Game is not None
