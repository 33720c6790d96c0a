"""The table-talk guard (R10) on the labelled sentences of tests/guard/sentences/: per language,
recall on real leaks at least what the guard had before issue 9, precision at least 0.95, and
at most a fifth of the false blocks it had (see BENCHMARKS.md, scripts/bench_guard.py)."""

from __future__ import annotations

import pytest

from scripts.bench_guard import LANGUAGES, load_sentences, score
from texts.table_talk import HitKind, check_table_talk

# The guard before issue 9 on the same sentences (scripts/bench_guard.py on main): recall and
# false blocks per language.
BEFORE = {
    "en": (0.938, 90),
    "de": (0.934, 83),
    "es": (0.933, 81),
    "fr": (0.906, 83),
    "it": (0.936, 79),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_labelled_set_is_large_and_has_both_kinds(lang):
    sentences = load_sentences(lang)
    assert len(sentences) >= 300
    leaks = sum(s.leak for s in sentences)
    assert leaks >= 120 and len(sentences) - leaks >= 150
    texts = [s.text for s in sentences]
    assert len(set(texts)) == len(texts), "duplicate sentences"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_guard_keeps_recall_and_cuts_false_blocks(lang):
    result = score(lang, load_sentences(lang))
    recall_before, false_before = BEFORE[lang]
    assert result.recall >= recall_before, [s.text for s in result.missed]
    assert result.false_blocks <= false_before * 0.2, [s.text for s in result.wrongly_blocked]
    assert result.precision >= 0.95


@pytest.mark.parametrize(
    "text",
    ["take slot 2", "I will wait for round 3", "hold on 1 sec", "blue sky thinking"],
)
def test_issue_sentences_pass(text):
    assert check_table_talk(text).allowed, check_table_talk(text).hits


def test_slot_number_is_public_but_the_spelled_card_number_is_caught():
    verdict = check_table_talk("I have the red five, take slot 2")
    found = {(h.kind, h.meaning) for h in verdict.hits}
    assert found == {(HitKind.COLOUR, "red"), (HitKind.NUMBER, "5")}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I have a 5", "5"),
        ("my 4 can take slot 2", "4"),
        ("everything I hold is 4 or 5", "4"),
        ("I have two fives", "5"),
        ("j'ai deux cinq", "5"),
        ("ich hab zwei Sechser", "6"),
        ("tengo dos cincos", "5"),
        ("ho una coppia di sei", "6"),
        ("6?", "6"),
    ],
)
def test_card_numbers_still_caught(text, value):
    verdict = check_table_talk(text)
    assert (HitKind.NUMBER, value) in {(h.kind, h.meaning) for h in verdict.hits}, verdict.hits
