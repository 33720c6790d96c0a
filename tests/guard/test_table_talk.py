"""The table-talk guard (R10): what it blocks and what ordinary talk it lets through."""

from __future__ import annotations

import pytest

from texts.table_talk import HitKind, check_table_talk

ORDINARY = [
    # English
    "one moment",
    "I'll take the one on the left",
    "give me five minutes",
    "two more rounds to go",
    "the two of us can still win",
    "nice move, partner",
    "take the middle card from the tea table",
    "I think you should make a black hat",
    "the due date is tomorrow",
    "good luck, have fun",
    "I am ok with whatever you choose",
    "keep the cookie away from them",
    "play slot 10 is not a thing",
    "that was a clever one",
    "should I swap?",
    # French
    "un moment s'il te plaît",
    "je suis très content",
    "on joue encore une fois",
    "bien joué, continue comme ça",
    "j'ai mal au dos",
    # German
    "einen Moment bitte",
    "wir haben noch drei Runden",
    "gut gemacht",
    "ich nehme die Karte ganz links",
    # Spanish
    "un momento por favor",
    "dos minutos y vuelvo",
    "buena jugada, compañero",
    "tengo una idea",
    # Italian
    "un momento",
    "tu sei forte",
    "ottima mossa",
    "prendi la carta a sinistra",
]

BLOCKED = [
    # (message, kind, meaning)
    ("I have a red one", HitKind.COLOUR, "red"),
    ("the BLUE is useful", HitKind.COLOUR, "blue"),
    ("greens are rare", HitKind.COLOUR, "green"),
    ("that one is reddish", HitKind.COLOUR, "red"),
    ("red-ish", HitKind.COLOUR, "red"),
    ("purple", HitKind.COLOUR, "purple"),
    ("brown hats everywhere", HitKind.COLOUR, "brown"),
    ("j'ai un rouge", HitKind.COLOUR, "red"),
    ("les vertes", HitKind.COLOUR, "green"),
    ("prends le marron", HitKind.COLOUR, "brown"),
    ("le violet est là", HitKind.COLOUR, "purple"),
    ("jaune", HitKind.COLOUR, "yellow"),
    ("ich habe einen roten", HitKind.COLOUR, "red"),
    ("der Rote ist gut", HitKind.COLOUR, "red"),
    ("grün", HitKind.COLOUR, "green"),
    ("gruen", HitKind.COLOUR, "green"),
    ("lila", HitKind.COLOUR, "purple"),
    ("Rothut", HitKind.COLOUR, "red"),
    ("braune Karte", HitKind.COLOUR, "brown"),
    ("tengo un rojo", HitKind.COLOUR, "red"),
    ("las amarillas", HitKind.COLOUR, "yellow"),
    ("morado", HitKind.COLOUR, "purple"),
    ("marrón", HitKind.COLOUR, "brown"),
    ("azul", HitKind.COLOUR, "blue"),
    ("ho un rosso", HitKind.COLOUR, "red"),
    ("le rosse", HitKind.COLOUR, "red"),
    ("il viola", HitKind.COLOUR, "purple"),
    ("marrone", HitKind.COLOUR, "brown"),
    ("arancione", HitKind.COLOUR, "orange"),
    ("giallo", HitKind.COLOUR, "yellow"),
    ("r-e-d", HitKind.COLOUR, "red"),
    ("r.e.d", HitKind.COLOUR, "red"),
    ("R E D", HitKind.COLOUR, "red"),
    ("it is a b l u e one", HitKind.COLOUR, "blue"),
    ("ＲＥＤ", HitKind.COLOUR, "red"),
    ("🟥", HitKind.COLOUR, "red"),
    ("take the 🟦 one", HitKind.COLOUR, "blue"),
    ("💚", HitKind.COLOUR, "green"),
    ("I have a 5", HitKind.NUMBER, "5"),
    ("5️⃣", HitKind.NUMBER, "5"),
    ("my 2s are useless", HitKind.NUMBER, "2"),
    ("#3", HitKind.NUMBER, "3"),
    ("the five", HitKind.NUMBER, "5"),
    ("my six is good", HitKind.NUMBER, "6"),
    ("five?", HitKind.NUMBER, "5"),
    ("number four", HitKind.NUMBER, "4"),
    ("f i v e", HitKind.NUMBER, "5"),
    ("le cinq", HitKind.NUMBER, "5"),
    ("numéro deux", HitKind.NUMBER, "2"),
    ("eine Fünf", HitKind.NUMBER, "5"),
    ("die Zahl drei", HitKind.NUMBER, "3"),
    ("el cuatro", HitKind.NUMBER, "4"),
    ("valor seis", HitKind.NUMBER, "6"),
    ("il tre", HitKind.NUMBER, "3"),
    ("valore sei", HitKind.NUMBER, "6"),
    ("uno", HitKind.NUMBER, "1"),
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_sentences_pass(text):
    verdict = check_table_talk(text)
    assert verdict.allowed, verdict.hits
    assert verdict.hits == ()


@pytest.mark.parametrize(("text", "kind", "meaning"), BLOCKED)
def test_card_names_are_blocked(text, kind, meaning):
    verdict = check_table_talk(text)
    assert not verdict.allowed
    assert (kind, meaning) in {(h.kind, h.meaning) for h in verdict.hits}, verdict.hits


def test_every_hit_is_reported_once_in_order():
    verdict = check_table_talk("red, red and blue 5")
    assert [(h.kind, h.meaning) for h in verdict.hits] == [
        (HitKind.COLOUR, "red"),
        (HitKind.COLOUR, "blue"),
        (HitKind.NUMBER, "5"),
    ]


def test_longer_numbers_are_not_card_numbers():
    assert check_table_talk("we have played 10 games and 2026 is a good year").allowed
    assert check_table_talk("we have played 10 games, 3 wins").allowed  # a count, public
    assert not check_table_talk("we have played 10 games, I have a 3").allowed


def test_empty_and_odd_input_never_raises():
    for text in ("", " ", "\u200b", "🎩" * 500, "a" * 5000):
        assert check_table_talk(text).allowed
