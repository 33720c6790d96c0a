"""Buttons and menus fit Discord's limits in every language, the longest one included."""

from __future__ import annotations

import pytest
from render_support import (
    LANGUAGES,
    STRETCHED,
    TRANSLATOR,
    longest_language,
    random_game_states,
    template_msgids,
)

from cogs.controls import hand_rows
from texts import card_label

BUTTON_MAX = 80  # Discord: button label
PLACEHOLDER_MAX = 150  # Discord: select placeholder
OPTION_MAX = 100  # Discord: select option label / description

# Labels and placeholders the lobby, table and AI controls show (the hand's are drawn below).
LABELS = [
    "Join",
    "Leave",
    "Start",
    "Cancel",
    "Team A",
    "Team B",
    "Shuffle teams",
    "Remove AI",
    "Show my hand",
    "Rules",
    "Rematch",
    "AI: easy",
    "AI: normal",
    "AI: hard",
]
PLACEHOLDERS = ["Add an AI player (choose its level)"]
TRS = [*(TRANSLATOR.for_locale(lang) for lang in LANGUAGES), STRETCHED]
IDS = [*LANGUAGES, "stretched"]


def test_the_listed_controls_are_msgids():
    assert set(LABELS + PLACEHOLDERS) <= set(template_msgids())


@pytest.mark.parametrize("tr", TRS, ids=IDS)
def test_lobby_table_and_ai_controls_fit(tr):
    for msgid in LABELS:
        assert 0 < len(tr(msgid)) <= BUTTON_MAX, (tr.locale, msgid)
    for msgid in PLACEHOLDERS:
        assert 0 < len(tr(msgid)) <= PLACEHOLDER_MAX, (tr.locale, msgid)


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("tr", TRS, ids=IDS)
def test_hand_controls_fit_in_every_state(seats, tr):
    seen = 0
    for game in random_game_states(seats, 23):
        if game.is_over:
            break
        seat = game.to_move
        legal = game.legal_actions(seat)
        for selected in {getattr(a, "card", None) for a in legal} - {None}:
            rows = hand_rows(
                1,
                len(game.steps),
                game.hands[seat],
                legal,
                game.board,
                tr,
                selected=selected,
                card_label=lambda c: card_label(c, tr=tr),
            )
            assert all(len(row.children) <= 5 for row in rows)  # Discord: 5 per action row
            for item in (child for row in rows for child in row.children):
                inner = getattr(item, "item", item)
                assert not getattr(inner, "disabled", False)  # only legal actions are buttons
                if getattr(inner, "label", None) is not None:
                    assert len(inner.label) <= BUTTON_MAX, inner.label
                    seen += 1
                if getattr(inner, "placeholder", None) is not None:
                    assert len(inner.placeholder) <= PLACEHOLDER_MAX, inner.placeholder
                for option in getattr(inner, "options", ()):
                    assert len(option.label) <= OPTION_MAX, option.label
    assert seen > 50


def test_the_longest_language_is_among_those_tested():
    assert longest_language() in LANGUAGES
