"""Discord's limits (Components V2 text, alt texts) hold for worst-case games, names,
translations and notices."""

from __future__ import annotations

import pytest
from render_support import (
    EN,
    LANGUAGES,
    STRETCHED,
    TRANSLATOR,
    finished_game,
    random_game_states,
)

from cogs.hand_layout import HandMessage
from cogs.rules_layout import rules_views
from texts import LobbyInfo, SeatLabel
from texts.end import end_texts
from texts.hand import hand_alt_text, hand_texts
from texts.limits import fit_lines, text_len, truncate
from texts.lobby import lobby_texts
from texts.table import ALT_MAX, RECENT_LINES, fit_alt, table_texts

BIG_ID = 10**19 - 1  # the longest snowflake mention: <@ + 19 digits + >
NASTY = "_*~`|" * 6 + "🎩🎩"  # 32 characters; markdown escaping doubles most of them
OVERSIZED = "⚠️" * 3000  # a notice of 6,000 characters (2 code points, 2 UTF-16 units each)


def worst_labels(seats: int) -> list[SeatLabel]:
    out = []
    for s in range(seats):
        if s % 2:
            out.append(SeatLabel(s, None, "hard", NASTY))
        else:
            out.append(SeatLabel(s, BIG_ID - s, "normal", NASTY, away=True))
    return out


V2_TEXT_MAX = 4000
"""Components V2: at most 4,000 characters of text in the whole message."""


def assert_v2_text_fits(texts: list[str | None]) -> None:
    """The texts of one V2 message fit, counted as Discord and as discord.py count."""
    for measure in (len, text_len):
        assert sum(measure(t or "") for t in texts) <= V2_TEXT_MAX


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize(
    "tr",
    [*(TRANSLATOR.for_locale(lang) for lang in LANGUAGES), STRETCHED],
    ids=[*LANGUAGES, "stretched"],
)
def test_every_message_of_a_worst_case_game_fits(seats, tr):
    labels = worst_labels(seats)
    every_event = range(200)
    game = None
    for game in random_game_states(seats, 17):
        if game.is_over:
            break
        for pictures in (True, False):
            table = table_texts(
                game.public_view(),
                labels,
                tr,
                game_id=BIG_ID,
                pictures=pictures,
                auto_played=every_event,
            )
            assert_v2_text_fits([table.head, table.recent, table.state])
            assert len(table.alt) <= ALT_MAX  # the picture's description
        seat = game.to_move
        obs = game.observation(seat)
        hand = hand_texts(
            obs,
            labels,
            tr,
            game_id=BIG_ID,
            channel=f"<#{BIG_ID}>",
            selected=obs.hand[0] if obs.hand else None,
            notice=OVERSIZED,
            auto_played=every_event,
        )
        for picture in (True, False):  # the hand DM as sent: its layout's text displays
            view = HandMessage(hand, hand_alt_text(obs, tr), []).view(picture=picture)
            shown = [i.content for i in view.walk_children() if hasattr(i, "content")]
            assert_v2_text_fits(shown)
            assert hand.head in shown[0] and "⚠️" in shown[0]  # the notice, cut
        assert len(hand_alt_text(obs, tr)) <= 1024  # an attachment's description
    obs = game.public_view()
    for pictures in (True, False):
        end = end_texts(obs, labels, tr, game_id=BIG_ID, pictures=pictures, humans=1)
        assert_v2_text_fits([end.head, end.unrated, end.results])
        assert len(end.alt) <= 1024


def test_a_long_history_shows_only_the_newest_events():
    game = finished_game(4, 3)
    labels = worst_labels(4)
    obs = game.public_view()
    texts = table_texts(obs, labels, EN, game_id=1, auto_played=range(len(obs.events)))
    head, *moves = texts.recent.splitlines()
    assert "played by the AI" in head  # the 💤 explained once
    assert len(moves) == RECENT_LINES < len(obs.events)
    assert "The game is over." in moves[-1]  # the last event is kept


@pytest.mark.parametrize(
    "tr",
    [*(TRANSLATOR.for_locale(lang) for lang in LANGUAGES), STRETCHED],
    ids=[*LANGUAGES, "stretched"],
)
def test_lobby_and_rules_fit(tr):
    seats = tuple(worst_labels(4))
    lobby = LobbyInfo(BIG_ID, seats, settings={"x" * 200: "y" * 900}, status="s" * 5000)
    assert_v2_text_fits(lobby_texts(lobby, tr))
    for view in rules_views(tr):
        assert_v2_text_fits([i.content for i in view.walk_children() if hasattr(i, "content")])


def test_fit_alt_cuts_an_over_long_alt_text():
    assert fit_alt("a" * ALT_MAX) == "a" * ALT_MAX
    cut = fit_alt("a" * 5000)
    assert len(cut) == ALT_MAX and cut.endswith("…")


def test_truncate_counts_utf16_units():
    assert truncate("abc", 3) == "abc"
    cut = truncate("🟥" * 10, 7)  # each square is 2 UTF-16 units
    assert text_len(cut) <= 7 and cut.endswith("…") and cut.startswith("🟥🟥🟥")


def test_fit_lines_drops_oldest_first():
    lines = [f"line {i}" for i in range(100)]
    text = fit_lines(lines, 50)
    assert text.endswith("line 99") and "line 0\n" not in text
    assert fit_lines(lines, 50, keep="first").startswith("line 0")
