"""The coach's notes and hints in words, in every language."""

from __future__ import annotations

import pytest

from coach import Hint, Note, NoteKind, explain_end, explain_step
from engine import (
    BlackHat,
    Card,
    DeclineSwap,
    Discard,
    EndTurn,
    Exchange,
    Game,
    GameConfig,
    HatType,
    OfferSwap,
    RandomPolicy,
)
from texts.coach import coach_lines, hint_line
from texts.common import SeatLabel
from texts.i18n import Translator

LANGS = ["en", "de", "es", "fr", "it"]
RED5, BLUE2 = Card(HatType.RED, 5), Card(HatType.BLUE, 2)
SEATS = [SeatLabel(0, 1, None, "Ana"), SeatLabel(1, None, "normal", "Bot")]

ONE_OF_EACH = [
    Note(NoteKind.EXCHANGE_SAME_TYPE, card=RED5, took=Card(HatType.RED, 1), slot=2),
    Note(NoteKind.EXCHANGE_HIGHER, card=RED5, took=BLUE2, slot=3),
    Note(NoteKind.SLOTS_FORBIDDEN, card=BLUE2, slots=(1,)),
    Note(NoteKind.SLOTS_FORBIDDEN, card=BLUE2, slots=(1, 4)),
    Note(NoteKind.SCORE, value=3, total=7),
    Note(NoteKind.SCORE, value=-1, total=6),
    Note(NoteKind.SCORE, value=0, total=6),
    Note(NoteKind.SLOT_WORTH, card=BLUE2, slot=4, value=4),
    Note(NoteKind.SLOT_WORTH, card=BLUE2, slot=None, value=0),
    Note(NoteKind.BLACK_HAT, card=RED5),
    Note(NoteKind.DISCARD),  # the move's own line names the cards
    Note(NoteKind.WORTH_NOTHING, card=BLUE2),
    Note(NoteKind.WORTH_CHANGED, card=BLUE2, slot=None, value=0, total=3, count=1),
    Note(NoteKind.WORTH_CHANGED, card=BLUE2, slot=5, value=5, total=2, count=2),
    Note(NoteKind.COOKIE_GAINED_TIE, value=3),
    Note(NoteKind.COOKIE_LOST_TIE, seat=1),
    Note(NoteKind.SCORE_BY_OTHERS, value=-3, total=13, seat=1),
    Note(NoteKind.SCORE_BY_OTHERS, value=4, total=17, seat=None),
    Note(NoteKind.LAST_TURN, card=RED5, took=BLUE2, value=-1, total=6),
    Note(NoteKind.COOKIE_GAINED, value=4),
    Note(NoteKind.COOKIE_LOST, seat=1),
    Note(NoteKind.COOKIE_LOST, seat=None),
    Note(NoteKind.FAVOURITE, card=RED5, value=-2),
    Note(NoteKind.TURNED_DOWN, slots=()),
    Note(NoteKind.TURNED_DOWN, slots=(3,)),
    Note(NoteKind.TURNED_DOWN, slots=(3, 5)),
    Note(NoteKind.FINAL, value=31, total=1),
    Note(NoteKind.FINAL, value=22, total=2),
    Note(NoteKind.FINAL, value=21, total=3),
    Note(NoteKind.FINAL, value=1, total=4),
]


@pytest.fixture(scope="module")
def translator() -> Translator:
    return Translator.load()


def test_every_kind_of_note_has_a_sentence():
    assert {n.kind for n in ONE_OF_EACH} == set(NoteKind)


@pytest.mark.parametrize("lang", LANGS)
def test_every_note_reads_as_one_filled_line_in_each_language(translator, lang):
    tr = translator.for_locale(lang)
    english = coach_lines(ONE_OF_EACH, SEATS, translator.for_locale("en"))
    lines = coach_lines(ONE_OF_EACH, SEATS, tr)
    assert len(lines) == len(ONE_OF_EACH)
    for note, line, en in zip(ONE_OF_EACH, lines, english, strict=True):
        assert line and "{" not in line and "\n" not in line, (note, line)
        assert len(line) <= 160, line  # a short line on a phone
        if lang != "en":
            assert line != en, f"untranslated in {lang}: {en}"
        if note.kind is NoteKind.WORTH_CHANGED:  # about a type: its symbol
            assert note.card is not None and note.card.type.emoji in line
            continue
        for card in (note.card, note.took):
            if card is not None:
                assert f"{card.type.emoji}{card.value}" in line.replace("\u2060", "")
    assert "+3" in lines[4] and "7" in lines[4]
    assert "Bot" in lines[20]  # the cookie's new holder is named


@pytest.mark.parametrize("lang", LANGS)
def test_a_hint_names_the_move_and_its_expected_gain(translator, lang):
    tr = translator.for_locale(lang)
    hints = [
        Hint(Exchange(RED5, 3), 4),
        Hint(BlackHat(RED5), -1),
        Hint(Discard(BLUE2), None),
        Hint(OfferSwap(BLUE2), None),
        Hint(DeclineSwap(), None),
        Hint(EndTurn(), None),
    ]
    lines = [hint_line(h, tr) for h in hints]
    assert len(set(lines)) == len(lines)
    assert "+4" in lines[0] and "🟥5" in lines[0].replace("\u2060", "") and "3" in lines[0]
    assert "−1" in lines[1]  # U+2212
    assert all("{" not in line for line in lines)


def test_a_whole_game_of_notes_renders_in_french(translator):
    tr = translator.for_locale("fr")
    game = Game.new(GameConfig(2, 12))
    policy = RandomPolicy(12)
    seen: set[NoteKind] = set()
    said = 0
    while not game.is_over:
        step = policy.choose_step(game)
        before = game.observation(0)
        event = game.apply(step.seat, step.action)
        notes = explain_step(before, event.seen_by(0), game.observation(0), seen=seen)
        seen.update(n.kind for n in notes)
        for line in coach_lines(notes, SEATS, tr):
            assert line and "{" not in line
            said += 1
    assert said > 8
    assert len(coach_lines(explain_end(game.result, 0), SEATS, tr)) == 3
