"""Colour words in every language: the guard blocks them, typed cards accept them (R1, R10)."""

from __future__ import annotations

import pytest

from cogs.card_input import parse_card_text
from engine import ALL_CARDS, Card, CardParseError, HatType
from texts.common import TYPE_NAMES
from texts.i18n import Translator
from texts.table_talk import HitKind, check_table_talk, colour_of_word

# The colour names of the project glossary (GLOSSARY.md, "Hat types"), per language.
_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("red", "orange", "yellow", "green", "blue", "purple", "brown"),
    "de": ("rot", "orange", "gelb", "grün", "blau", "lila", "braun"),
    "es": ("rojo", "naranja", "amarillo", "verde", "azul", "morado", "marrón"),
    "fr": ("rouge", "orange", "jaune", "vert", "bleu", "violet", "marron"),
    "it": ("rosso", "arancione", "giallo", "verde", "blu", "viola", "marrone"),
}  # fmt: skip
GLOSSARY: dict[str, dict[HatType, str]] = {
    lang: dict(zip(HatType, words, strict=True)) for lang, words in _WORDS.items()
}


def _catalog_names() -> list[tuple[str, HatType, str]]:
    """Every catalog's own name of every hat type (what players read on cards)."""
    translator = Translator.load()
    return [
        (lang, hat, translator.for_locale(lang)(TYPE_NAMES[hat]))
        for lang in translator.languages
        for hat in HatType
    ]


ALL_NAMES = [(lang, hat, word) for lang, words in GLOSSARY.items() for hat, word in words.items()]


@pytest.mark.parametrize(("lang", "hat", "word"), ALL_NAMES + _catalog_names())
def test_the_guard_blocks_every_colour_name(lang, hat, word):
    for text in (word, word.upper(), f"take the {word} one", f"{word}-ish"):
        verdict = check_table_talk(text)
        assert not verdict.allowed, (lang, text)
        assert (HitKind.COLOUR, hat.value) in {(h.kind, h.meaning) for h in verdict.hits}
    assert colour_of_word(word) == hat.value


@pytest.mark.parametrize(("lang", "hat", "word"), ALL_NAMES + _catalog_names())
def test_typed_cards_accept_every_colour_name(lang, hat, word):
    card = Card.of(hat, 5)
    for text in (f"{word}5", f"{word} 5", f"{word.title()} 5", f"5 {word}", f"{word}-5"):
        assert parse_card_text(text) is card, (lang, text)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("rot5", "red5"),
        ("rojo 5", "red5"),
        ("rouge5", "red5"),
        ("rosso 5", "red5"),
        ("red5", "red5"),
        ("🟥5", "red5"),
        ("🟥 5 · rot", "red5"),
        ("grün 3", "green3"),
        ("grun3", "green3"),
        ("GRÜN 3", "green3"),
        ("marrón 2", "brown2"),
        ("marron2", "brown2"),
        ("marrone 6", "brown6"),
        ("lila1", "purple1"),
        ("morado 4", "purple4"),
        ("violet 4", "purple4"),
        ("blu 1", "blue1"),
        ("azul1", "blue1"),
        ("gelb 2", "yellow2"),
        ("amarillo 2", "yellow2"),
        ("naranja 6", "orange6"),
        ("arancione 6", "orange6"),
    ],
)
def test_lenient_card_input_in_five_languages(text, code):
    assert parse_card_text(text).code == code


@pytest.mark.parametrize("text", ["rot7", "rot", "5", "hut5", "", "schwarz 3", "rot 5 blau"])
def test_words_that_name_no_card_are_refused(text):
    with pytest.raises(CardParseError):
        parse_card_text(text)


def test_every_card_code_still_parses():
    for card in ALL_CARDS:
        assert parse_card_text(card.code) is card
