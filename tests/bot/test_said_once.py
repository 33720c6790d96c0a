"""Facts said once (issue 29 point 12), under simcord with the real catalogs.

- a partner's swap offer DM says the offer once (its head), not again as a move line; the
  answer collapses it to "Swap done: …";
- ``/hats stats`` says the rating once: its number once, the word once (the heading);
- the end: every human's own last hand DM says that their last turn is over and where the
  scores will be (it is collapsed anyway, by the interaction response or the due edit), the
  last mover's says the game is over once, and the end sends no DM at all.
"""

from __future__ import annotations

import random
import re

import pytest

from engine import ActionKind
from tests.bot.helpers import (
    act_on_hand,
    custom_ids,
    dm_of,
    message_text,
    open_and_start,
    play_one,
    v2_texts,
)
from tests.bot.language_support import set_client_locales

SWAP_TIMEOUT = 60


def player_of(world, session, seat):
    user_id = session.seats[seat].user_id
    return next(p for p in world.players if p.user.id == user_id)


def hand_dm(player):
    for message in reversed(dm_of(player).history()):
        if any(c.startswith(("hats:hs:", "hats:h:")) for c in custom_ids(message)):
            return message
    raise AssertionError("no hand DM")


def fresh(player, message):
    return next(m for m in dm_of(player).history() if m.id == message.id)


@pytest.mark.parametrize(
    "bot_options",
    [
        {
            "turn_timer": None,
            "ai_delay": 0.0,
            "swap_timeout": float(SWAP_TIMEOUT),
            "edit_limit": None,
        }
    ],
)
async def test_the_swap_offer_is_said_once_and_its_answer_reads_swap_done(world):
    session = await open_and_start(world, 4)
    game = session.game
    offerer = game.to_move
    offer = next(a for a in game.legal_actions(offerer) if a.kind is ActionKind.OFFER_SWAP)
    await act_on_hand(
        session,
        player_of(world, session, offerer),
        hand_dm(player_of(world, session, offerer)),
        offer,
    )
    partner = game.to_move
    assert partner != offerer and game.pending_offer is not None
    player = player_of(world, session, partner)
    dm = hand_dm(player)
    text = "\n".join(v2_texts(dm))
    assert text.count("offers you a card swap") == 1, text
    assert "offered you a card swap" not in text, text
    answer = next(a for a in game.legal_actions(partner) if a.kind is ActionKind.ANSWER_SWAP)
    await act_on_hand(session, player, dm, answer)
    collapsed = "\n".join(v2_texts(fresh(player, dm)))
    assert collapsed.startswith("Swap done: You gave "), collapsed
    assert collapsed.count("You gave ") == 1, collapsed


async def _rated_game(world, seed):
    session = await open_and_start(world, 2)
    rng = random.Random(seed)
    while not session.game.is_over:
        await play_one(world, session, rng)
    await world.env.bot.store.history.process_pending()
    return session


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_stats_say_the_rating_once(world, monkeypatch, locale):
    alice = world.players[0]
    set_client_locales(monkeypatch, {alice.user.id: locale})
    await _rated_game(world, 3)
    rating = await world.env.bot.store.history.rating(alice.user.id, world.guild.id)
    assert rating is not None
    tr = world.env.bot.get_cog("HistoryCog").tr_for(alice.user.id)
    result = await alice.slash(world.channel, "hats stats")
    text = message_text(result.response.message)
    from texts.history import rating_text

    shown = rating_text(rating.ordinal, tr)
    assert len(re.findall(rf"(?<![\d.,]){re.escape(shown)}(?![\d.,])", text)) == 1, text
    word = tr("Rating")
    assert text.count(word) == 1, text  # the heading, not again in the lines below it


async def test_every_human_learns_the_end_from_their_own_hand_dm_and_no_end_dm_is_sent(world):
    session = await open_and_start(world, 3)
    game = session.game
    rng = random.Random(8)
    channel = session.channel_mention
    while sum(game.turns_taken) < 3 * 8 - 1:
        await play_one(world, session, rng)
    counts = {p.user.id: len(dm_of(p).history()) for p in world.players[:3]}
    last = player_of(world, session, game.to_move)
    while not game.is_over:
        await play_one(world, session, rng)
    await world.env.advance_time(1)
    assert {p.user.id: len(dm_of(p).history()) for p in world.players[:3]} == counts
    for seat in range(3):
        player = player_of(world, session, seat)
        newest = dm_of(player).history()[-1]  # their last turn's hand DM, collapsed
        text = "\n".join(v2_texts(newest)) or newest.content
        sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s", text) if s.strip()]
        assert len(sentences) == len(set(sentences)), text
        assert channel in text, text
        if player is last:
            assert text.count("is over") == 1, text
        else:
            assert "That was your last turn" in text, text
