"""Issue 29.17: the hand DM's texts stay within a line budget on a 360 px phone, in every language.

A proxy for ``scripts/phone_fit.py`` (Chromium, minutes per language): at 360 px the message's
text column holds about :data:`PHONE_CHARS` characters of Discord's font per line, and the issue's
worst realistic state names players with 20 characters.
"""

from __future__ import annotations

import re
import textwrap

import pytest
from render_support import LANGUAGES, TRANSLATOR, random_game_states, seat_labels

from cogs.render.events import describe_event
from cogs.render.hand import hand_texts
from engine import Game, GameConfig

PHONE_CHARS = 30
"""Characters per line of message text at 360 px (measured on phone_fit's screenshots)."""
NAME = "Bruno Bertolucci Vay"
"""A display name of 20 characters (issue 29's worst realistic state)."""


def phone_lines(text: str) -> int:
    """How many lines ``text`` takes on the phone, mentions shown as 20-character names."""
    text = re.sub(r"<@!?\d+>", NAME, text).replace("**", "")
    return sum(len(textwrap.wrap(line, PHONE_CHARS)) or 1 for line in text.split("\n"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_discard_that_reshuffles_the_deck_takes_at_most_four_lines(lang):
    tr = TRANSLATOR.for_locale(lang)
    for game in random_game_states(3, 8):
        if any(e.reshuffled for e in game.events):
            break
    else:
        pytest.fail("no reshuffle happened")
    ev = next(e for e in game.events if e.reshuffled)
    viewer = (ev.seat + 1) % 3  # another player: the public sentence, with a name
    line = describe_event(ev, seat_labels(3), tr, viewer=viewer)
    assert phone_lines(line) <= 4, line


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("seats", "budget"), [(3, 2), (4, 3)])
def test_what_to_do_at_turn_start_takes_at_most_two_or_three_lines(lang, seats, budget):
    tr = TRANSLATOR.for_locale(lang)
    game = Game.new(GameConfig(seats, 2))
    texts = hand_texts(
        game.observation(game.active), seat_labels(seats), tr, game_id=1, channel="#hats"
    )
    assert phone_lines(texts.next) <= budget, texts.next


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_chosen_card_leaves_the_head_in_one_line(lang):
    tr = TRANSLATOR.for_locale(lang)
    game = Game.new(GameConfig(3, 2))
    seat = game.active
    card = game.hands[seat][0]
    texts = hand_texts(
        game.observation(seat), seat_labels(3), tr, game_id=1, channel="#hats", selected=card
    )
    assert "\n" not in texts.head and phone_lines(texts.head) == 1, texts.head
