"""The coach's words in every language (issue 29 point 10), from the real catalogs.

Numbers take their plural form from the count without its sign ("−1 punto", not "−1 puntos");
no sentence says that discards are gone for good (R9: the discard pile becomes the next draw
deck); a hint says why; a drop reads "(−3)" with a real minus sign.
"""

from __future__ import annotations

import re

import pytest

from coach import Hint, Note, NoteKind, Reason
from engine import Card, Discard, HatType
from tests.i18n.catalog_checks import read_catalog
from texts.coach import coach_lines, hint_line
from texts.common import SeatLabel
from texts.i18n import Translator

TRANSLATOR = Translator.load()
LANGS = ("en", "de", "es", "fr", "it")
RED2 = Card(HatType.RED, 2)
BLUE5 = Card(HatType.BLUE, 5)
SEATS = [SeatLabel(0, 1, None, "me"), SeatLabel(1, None, "normal", "AI 1")]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "−1 point "),
        ("de", "−1 Punkt "),
        ("es", "−1 punto "),
        ("fr", "−1 point "),
        ("it", "−1 punto "),
    ],
)
def test_minus_one_point_is_singular(lang, words):
    tr = TRANSLATOR.for_locale(lang)
    note = Note(NoteKind.FAVOURITE, card=RED2, value=-1)
    (line,) = coach_lines([note], SEATS, tr)
    assert words in line, line
    last = Note(NoteKind.LAST_TURN, card=RED2, took=BLUE5, value=-1, total=2)
    (line,) = coach_lines([last], SEATS, tr)
    assert "−1 " in line and "2 " in line


@pytest.mark.parametrize("lang", LANGS)
def test_a_drop_has_a_minus_sign_and_a_reason(lang):
    tr = TRANSLATOR.for_locale(lang)
    notes = [
        Note(NoteKind.SCORE, value=-3, total=16),
        Note(NoteKind.WORTH_CHANGED, card=BLUE5, slot=None, value=0, total=3, count=1),
    ]
    score, why = coach_lines(notes, SEATS, tr)
    assert "(−3)" in score and "16" in score
    assert "🟦" in why and "0" in why


FOR_GOOD = {
    "en": r"(?i)for good|forever",
    "de": r"(?i)für immer|endgültig",
    "es": r"(?i)para siempre|definitivamente",
    "fr": r"(?i)pour de bon|définitivement|pour toujours",
    "it": r"(?i)per sempre|definitivamente",
}


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_says_discards_are_gone_for_good(lang):
    """R9: a discarded card comes back when the draw deck runs out."""
    from texts.i18n import LOCALES_DIR

    path = (
        LOCALES_DIR / "messages.pot"
        if lang == "en"
        else LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po"
    )
    for m in read_catalog(path):
        texts = [m.id] if lang == "en" else [m.string]
        for text in texts:
            for t in [text] if isinstance(text, str) else list(text):
                assert not re.search(FOR_GOOD[lang], t), t
    tr = TRANSLATOR.for_locale(lang)
    (line,) = coach_lines([Note(NoteKind.DISCARD)], SEATS, tr)
    assert tr("The discard pile was shuffled into a new draw deck.")
    assert len(line) > 40


@pytest.mark.parametrize("lang", LANGS)
def test_a_hint_says_what_and_why_and_its_gain_in_points(lang):
    tr = TRANSLATOR.for_locale(lang)
    because = {"en": "because", "de": "denn", "es": "porque", "fr": "car", "it": "perché"}[lang]
    for reason in (Reason.NO_SLOT, Reason.WEAKEST, Reason.DRAW):
        line = hint_line(Hint(Discard(RED2), None, reason), tr)
        assert "🟥" in line and because in line, line
    line = hint_line(Hint(Discard(RED2), -1, Reason.WEAKEST), tr)
    singular = {"en": "point.", "de": "Punkt.", "es": "punto.", "fr": "point.", "it": "punto."}
    assert line.endswith(f"−1 {singular[lang]}"), line
