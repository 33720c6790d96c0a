"""The compact layout (pictures off) reads on a phone: no unlabelled "— · —", and a slot's
keycap never breaks away from its card (issue 29.15)."""

from __future__ import annotations

import random
import re

import pytest
from render_support import TRANSLATOR

from engine import Game, GameConfig
from texts import SeatLabel
from texts.common import SLOT_KEYCAPS, board_text
from texts.table import table_texts


def fresh_game(seats: int) -> Game:
    return Game.new(GameConfig(seats, 5))


def labels(seats: int) -> list[SeatLabel]:
    return [SeatLabel(s, 100 + s, None, f"P{s}") for s in range(seats)]


@pytest.mark.parametrize("lang", ["en", "de", "es", "fr", "it"])
def test_an_empty_collection_is_said_in_words(lang):
    tr = TRANSLATOR.for_locale(lang)
    game = fresh_game(3)  # at the deal nobody has collected anything
    texts = table_texts(game.public_view(), labels(3), tr, game_id=1, pictures=False)
    assert "— · —" not in texts.state
    assert texts.state.count(tr("no cards collected yet")) == 3


def test_a_keycap_and_its_card_share_an_unbreakable_space():
    rng = random.Random(3)
    game = fresh_game(3)
    for _ in range(20):
        game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
    text = board_text(game.board)
    for keycap in SLOT_KEYCAPS:
        assert not re.search(re.escape(keycap) + r"[ \t]", text), text
        assert keycap + "\u00a0" in text
