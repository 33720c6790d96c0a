"""Issue 29.9: a practice game's DMs never point to "Game #1 in #<the DM's own id>".

A practice game kept in the learner's DMs has the DM as its channel; its hand messages say
nothing about where the game is (there is nowhere else to go), under simcord.
"""

from __future__ import annotations

import random

from tests.bot.helpers import dm_of, message_text, play_one


async def test_practice_hand_dms_do_not_name_the_dm_as_the_games_channel(world):
    alice = world.players[0]
    await alice.slash(world.channel, "hats learn")
    dm = dm_of(alice)
    session = await world.env.bot.games.session_in_channel(dm.id)
    assert session is not None and session.practice
    rng = random.Random(9)
    for _ in range(4):
        await play_one(world, session, rng)
    texts = [message_text(m) for m in dm.history()]
    assert len(texts) >= 2
    for text in texts:
        assert f"<#{dm.id}>" not in text and f"/{dm.id})" not in text, text
        assert f"Game #{session.id} in" not in text, text
