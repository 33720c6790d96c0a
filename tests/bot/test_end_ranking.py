"""Issue 29.1 through the real bot: the end message's rating lines and the end picture's alt
text list the players in the game's one ranking (``GameResult.order``, R19/R20)."""

from __future__ import annotations

import re

from tests.bot.helpers import alt_texts, bot_messages, play_to_end, v2_texts


async def test_rating_lines_and_alt_text_follow_the_ranking(world):
    session = await play_to_end(world, 3, 5)
    result = session.game.result
    users = [session.seats[s].user_id for s in result.order]
    assert users != sorted(users)  # this game's ranking is not the seat (join) order
    end = bot_messages(world.env, world.channel)[-1]
    text = "\n".join(v2_texts(end))
    rating = text[text.index("Rating on this server") :]
    assert [int(u) for u in re.findall(r"<@(\d+)>", rating)] == users
    (alt,) = [a for a in alt_texts(end) if "Tea table after clean-up" in a]
    places = [line.split(". ", 1)[0] for line in alt.splitlines()[2:]]
    assert places == [str(result.places[s]) for s in result.order]
