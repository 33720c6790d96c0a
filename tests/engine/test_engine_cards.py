"""R1: the 42 hat cards, their codes and emoji, and parsing typed card names."""

import copy
import pickle

import pytest

from engine import ALL_CARDS, BLACK_HAT_EMOJI, Card, CardParseError, HatType, parse_card
from engine.cards import card_from_code


def test_r1_deck_is_seven_types_of_six_values():
    assert len(ALL_CARDS) == 42
    assert len(set(ALL_CARDS)) == 42
    for hat_type in HatType:
        assert sorted(c.value for c in ALL_CARDS if c.type is hat_type) == [1, 2, 3, 4, 5, 6]


def test_r1_canonical_type_order_and_emoji():
    assert [t.value for t in HatType] == [
        "red", "orange", "yellow", "green", "blue", "purple", "brown"
    ]  # fmt: skip
    assert "".join(t.emoji for t in HatType) == "🟥🟧🟨🟩🟦🟪🟫"
    assert BLACK_HAT_EMOJI == "⬛"
    assert [t.index for t in HatType] == list(range(7))


def test_r1_card_codes_and_labels():
    card = Card.of(HatType.RED, 5)
    assert card.code == "red5" == str(card)
    assert card.short == "🟥5"
    assert card.label == "🟥 5 · red"
    assert [c.id for c in ALL_CARDS] == list(range(42))
    assert all(card_from_code(c.code) is c for c in ALL_CARDS)


def test_r1_cards_are_interned_values():
    """R1: one instance per card, so equality, identity and hashing agree."""
    card = Card(HatType.BLUE, 3)
    assert card is Card.of(HatType.BLUE, 3) is card_from_code("blue3")
    assert copy.copy(card) is card and copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert card != Card(HatType.BLUE, 4)
    assert len({card, Card(HatType.BLUE, 3)}) == 1


@pytest.mark.parametrize("value", [0, 7, -1])
def test_r1_values_are_one_to_six(value):
    with pytest.raises(ValueError):
        Card(HatType.RED, value)
    with pytest.raises(ValueError):
        Card.of(HatType.RED, value)


@pytest.mark.parametrize(
    "text",
    ["red5", "Red 5", "RED5", "  red 5  ", "🟥5", "🟥 5", "🟥️5", "🟥 5 · red", "5 red", "5red"],
)
def test_r1_parse_card_accepts_typed_forms(text):
    assert parse_card(text) is Card.of(HatType.RED, 5)


def test_r1_parse_card_every_card_by_code_emoji_and_label():
    for card in ALL_CARDS:
        assert parse_card(card.code) is card
        assert parse_card(card.short) is card
        assert parse_card(card.label) is card


@pytest.mark.parametrize(
    "text",
    ["", "   ", "red", "5", "red7", "red0", "black1", "pink3", "🟥", "⬛5", "red55", "5 red 5",
     "blue5 red", "r5", "red-five", "6 6"],
)  # fmt: skip
def test_r1_parse_card_rejects_junk(text):
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    assert info.value.text == text
    assert isinstance(info.value, ValueError)


def test_r1_card_from_code_is_exact():
    with pytest.raises(CardParseError):
        card_from_code("Red5")
