"""A full 3-player game by slash commands; no public message ever reveals a hidden card."""

from __future__ import annotations

import random
import re

from engine import ALL_CARDS
from tests.bot.helpers import (
    bot_messages,
    message_text,
    open_and_start,
    play_one,
)


def card_patterns(card) -> re.Pattern:
    emoji = card.type.emoji
    return re.compile(
        rf"(?<![a-z]){card.code}(?!\d)|{emoji}\ufe0f?[\s\u2060]?{card.value}(?!\d)"
        rf"|(?<![a-z]){card.type.value} {card.value}(?!\d)",  # alt text: "green 3"
        re.IGNORECASE,
    )


PATTERNS = {card: card_patterns(card) for card in ALL_CARDS}


def hidden_cards(game):
    hidden = set(game.deck) | set(game.discard_pile)
    for hand in game.hands:
        hidden |= set(hand)
    for hats in game.black_hats:
        hidden |= set(hats)
    return hidden


def assert_no_leak(world, game):
    hidden = hidden_cards(game)
    for message in bot_messages(world.env, world.channel):
        text = message_text(message)
        for card in hidden:
            assert not PATTERNS[card].search(text), f"{card.code} leaked in: {text!r}"


async def test_three_player_game_by_slash_commands_reveals_no_hidden_card(world):
    session = await open_and_start(world, 3)
    rng = random.Random(11)
    assert_no_leak(world, session.game)
    # the scanner does see cards the way the table prints them
    table_text = message_text(bot_messages(world.env, world.channel)[-1])
    assert all(PATTERNS[c].search(table_text) for c in session.game.board)
    while not session.game.is_over:
        before = session.version
        await play_one(world, session, rng, via_slash=True)
        assert session.version == before + 1
        if not session.game.is_over:
            assert_no_leak(world, session.game)
    # the table became the final result: the engine's scores (its alt text has them all)
    await world.env.advance_time(1)
    result = session.game.result
    end = session.message("end").message_id
    final = next(m for m in bot_messages(world.env, world.channel) if m.id == end)
    text = message_text(final)
    for score in result.scores:
        assert str(score.total) in text


async def test_a_live_game_is_replayed_to_nobody_not_even_its_players(world):
    """A replay shows every hand, so it exists only of a finished game (cogs.scope, R21)."""
    session = await open_and_start(world, 3)
    rng = random.Random(4)
    for _ in range(4):
        await play_one(world, session, rng)
    posted = len(bot_messages(world.env, world.channel))
    hidden = hidden_cards(session.game)
    for player in world.players:  # the three players and two onlookers
        refused = await player.slash(world.channel, "hats replay", game=session.id)
        text = refused.response.content
        assert refused.ephemeral and f"#{session.id}" in text
        assert not any(PATTERNS[card].search(text) for card in hidden)
    assert len(bot_messages(world.env, world.channel)) == posted  # nothing in the channel
    assert_no_leak(world, session.game)
