"""The pictures' layouts as data: everything placed inside the canvas, nothing overlapping,
readable sizes, labels through the translator, long names cut, on real game states."""

from __future__ import annotations

import io
import itertools
import re

import pytest
from picture_support import (
    EN,
    LONG_NAMES,
    SHORT_NAMES,
    LongTr,
    full_collection_state,
    states,
    translators,
)
from PIL import Image

from pictures import (
    PHONE_WIDTH,
    WIDTH,
    end_layout,
    hand_layout,
    render_end,
    render_hand,
    render_table,
)
from pictures.layout import (
    MIN_PHONE_TEXT,
    BlackHatCard,
    CardFace,
    HandBack,
    Layout,
    Panel,
    SlotBadge,
    Text,
    table_layout,
)
from pictures.text import ELLIPSIS

SEATS = (2, 3, 4)


def layouts_of(game, names, tr) -> list[tuple[str, Layout]]:
    """The table, every seat's hand and (at the end) the end layout of one state."""
    out = [("table", table_layout(game.public_view(), names, tr))]
    out += [(f"hand{s}", hand_layout(game.observation(s), names, tr)) for s in range(game.seats)]
    if game.is_over:
        out.append(("end", end_layout(game.public_view(), names, tr, game_id=123456)))
    return out


def assert_well_placed(layout: Layout) -> None:
    assert layout.width in (WIDTH, PHONE_WIDTH)
    canvas = layout.canvas
    for element in layout.elements:
        assert element.box.w > 0 and element.box.h > 0, element
        assert element.box.inside(canvas), element
    leaves = layout.leaves()
    for a, b in itertools.combinations(leaves, 2):
        assert not a.box.overlaps(b.box), (a, b)
    panels = [e for e in layout.elements if isinstance(e, Panel)]
    for a, b in itertools.combinations(panels, 2):
        assert not a.box.overlaps(b.box), (a, b)


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("names", [SHORT_NAMES, LONG_NAMES], ids=["short", "long"])
def test_every_element_is_inside_the_canvas_and_none_overlap(seats, names):
    for game in states(seats, seed=seats):
        for tr in translators():
            for kind, layout in layouts_of(game, names[:seats], tr):
                try:
                    assert_well_placed(layout)
                except AssertionError as exc:
                    raise AssertionError(f"{kind} in {tr.locale}, step {len(game.steps)}") from exc


@pytest.mark.parametrize("seats", SEATS)
def test_full_collections_fit_every_card(seats):
    game = full_collection_state(seats)
    names = LONG_NAMES[:seats]
    table = table_layout(game.public_view(), names, LongTr())
    assert_well_placed(table)
    shown = sorted(c.id for c in table.cards())
    expected = sorted(c.id for c in game.board) + sorted(
        c.id for col in game.collections for c in col
    )
    assert shown == sorted(expected)
    end = end_layout(game.public_view(), names, LongTr(), game_id=1)
    assert_well_placed(end)
    result = game.result
    assert sorted(c.id for c in end.cards()) == sorted(
        [c.id for c in result.board]
        + [c.id for c in result.favourites]
        + [c.id for col in result.collections for c in col]
    )


@pytest.mark.parametrize("seats", SEATS)
def test_table_shows_the_board_numbers_counts_and_turn(seats):
    game = states(seats, seed=11)[1]
    obs = game.public_view()
    layout = table_layout(obs, SHORT_NAMES[:seats], EN)
    texts = layout.texts()
    board = [e for e in layout.elements if isinstance(e, CardFace) and e.box.h > e.box.w]
    assert [e.card for e in board] == list(obs.board)
    assert [str(n) for n in range(1, len(obs.board) + 1)] == [t for t in texts if t.isdigit()]
    assert texts[0] == "Tea table"  # whose turn: the message's text says it, not twice
    counts = [t for t in texts if t.startswith("×")]
    for seat in range(seats):
        assert SHORT_NAMES[seat] in texts
        # black hats, then the hand size beside a card back (the alt text has the words)
        assert counts[2 * seat : 2 * seat + 2] == [
            f"×{obs.black_hat_counts[seat]}",
            f"×{obs.hand_sizes[seat]}",
        ]
    assert sum(isinstance(e, HandBack) for e in layout.elements) == seats
    piles = [t for t in texts if t.startswith(("Draw deck", "Discard pile"))]
    if seats == 4:
        assert piles == []  # always empty with 4 seats (R4): not shown
        # each player's team as its letter in the team's colour (the alt text names it)
        letters = [e for e in layout.elements if isinstance(e, Text) and e.text in ("A", "B")]
        assert [e.text for e in letters] == ["A", "B", "A", "B"]
        assert {e.tone.value for e in letters} == {"team_a", "team_b"}
    else:
        assert len(piles) == 2
        assert f"Draw deck: {obs.deck_size} cards" in piles or obs.deck_size == 1


def test_hand_marks_the_legal_slots_of_each_card():
    game = states(3, seed=5)[1]
    seat = game.to_move
    obs = game.observation(seat)
    layout = hand_layout(obs, SHORT_NAMES[:3], EN)
    chips = [e for e in layout.elements if isinstance(e, CardFace) and e.box.w > e.box.h]
    assert [e.card for e in chips] == list(obs.hand)
    badges = [e for e in layout.elements if isinstance(e, SlotBadge)]
    blacks = [e for e in layout.elements if isinstance(e, BlackHatCard)]
    for chip in chips:

        def beside(marks, chip=chip):
            return [
                b
                for b in marks
                if b.box.y >= chip.box.y
                and b.box.bottom <= chip.box.bottom
                and chip.box.right < b.box.x < chip.box.right + 290
            ]

        legal = sorted(
            a.slot
            for a in game.legal_actions(seat)
            if getattr(a, "slot", None) and a.card is chip.card
        )
        assert sorted(b.slot for b in beside(badges)) == legal
        assert bool(beside(blacks)) == (not legal)  # only a black hat is possible (R8)
    # Not this seat's turn: no marks at all.
    other = (seat + 1) % 3
    quiet = hand_layout(game.observation(other), SHORT_NAMES[:3], EN)
    assert not any(isinstance(e, SlotBadge | BlackHatCard) for e in quiet.elements)


def test_end_lists_players_by_rank_with_their_totals():
    game = states(3, seed=9)[-1]
    result = game.result
    layout = end_layout(game.public_view(), SHORT_NAMES[:3], EN, game_id=42)
    texts = layout.texts()
    assert texts[0] == "Tea table after clean-up"  # the game and winner: the message's text
    ranked = [t for t in texts if re.fullmatch(r"\d\.", t)]
    assert ranked[0] == "1."
    order = [t for t in texts if t in SHORT_NAMES]
    totals = [result.scores[SHORT_NAMES.index(n)].total for n in order]
    assert totals == sorted(totals, reverse=True)  # 3 seats: the winners score most
    assert SHORT_NAMES.index(order[0]) in result.winners
    for score in result.scores:  # the breakdown in words is the alt text's
        assert f"{score.total} point{'s' if score.total != 1 else ''}" in texts
    turned = [e for e in layout.elements if isinstance(e, CardFace) and e.turned_down]
    down = [s for s in range(1, len(result.board) + 1) if s not in result.face_up_slots]
    assert [e.card for e in turned] == [result.board[s - 1] for s in down]


@pytest.mark.parametrize("seats", SEATS)
def test_long_names_are_cut_with_an_ellipsis_and_labels_are_translated(seats):
    game = states(seats, seed=3)[-1]
    names = LONG_NAMES[:seats]
    tr = LongTr()
    for kind, layout in layouts_of(game, names, tr):
        for text in layout.texts():
            if text.startswith("Ü") or re.fullmatch(r"[\d.×—]+|[AB]", text):
                continue  # a translated label, a number, a count, a team's letter
            base = text.removesuffix(ELLIPSIS)
            assert any(n.startswith(base) for n in names) or " & " in text, (kind, text)
        if kind in ("table", "end"):  # these show the names
            assert any(t.endswith(ELLIPSIS) for t in layout.texts()), kind


PHONE_GALLERY = 235
"""Width in CSS px at which Discord shows a V2 media gallery picture on a 360 px phone
(measured in simcord's preview with headless Chromium)."""


def test_text_is_readable_on_a_phone():
    """The table and end pictures are shown 235 px wide on a 360 px phone: every text there
    is at least 11 px and every card face at least 20 px. The hand picture (800 px) keeps
    texts of 22 px and more, cards of 40 px and more."""
    for seats in SEATS:
        game = full_collection_state(seats)
        for kind, layout in layouts_of(game, LONG_NAMES[:seats], EN):
            if kind in ("table", "end"):
                scale = PHONE_GALLERY / layout.width
                for e in layout.elements:
                    if isinstance(e, Text):
                        assert e.size * scale >= 11, e
                    if isinstance(e, CardFace):
                        assert min(e.box.w, e.box.h) * scale >= 20, e
                continue
            for e in layout.elements:
                if isinstance(e, Text):
                    assert e.size >= 22, e
                if isinstance(e, CardFace | BlackHatCard):
                    assert min(e.box.w, e.box.h) >= 40, e


@pytest.mark.parametrize("seats", SEATS)
def test_pngs_have_the_layout_size(seats):
    game = states(seats, seed=2)[-1]
    names = LONG_NAMES[:seats]
    for png, layout in (
        (render_table(game.public_view(), names, EN), table_layout(game.public_view(), names, EN)),
        (render_hand(game.observation(0), names, EN), hand_layout(game.observation(0), names, EN)),
        (
            render_end(game.public_view(), names, EN, game_id=1),
            end_layout(game.public_view(), names, EN, game_id=1),
        ),
    ):
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG"
        assert image.size == (layout.width, layout.height)
        assert len(png) < 300_000  # small enough to upload on every edit


def test_characters_the_font_lacks_are_left_out_of_names():
    game = states(2, seed=1)[0]
    layout = table_layout(game.public_view(), ("🎩 Zoë 中", "🎩🎩"), EN)
    texts = layout.texts()
    assert "Zoë" in texts and "#2" in texts
    assert not any("🎩" in t or "中" in t for t in texts)


def test_the_last_table_shows_the_turned_down_slots():
    for seed in range(40):
        game = states(3, seed=seed)[-1]
        result = game.result
        down = [s for s in range(1, len(result.board) + 1) if s not in result.face_up_slots]
        if down:
            break
    layout = table_layout(game.public_view(), SHORT_NAMES[:3], EN)
    turned = [e.card for e in layout.elements if isinstance(e, CardFace) and e.turned_down]
    assert turned == [result.board[s - 1] for s in down]
    assert layout.texts()[0] == "Tea table"  # the message says the game is over


TWENTY = (
    "marianne_dupont_2000",
    "Bruno Bertolucci Xx1",
    "Chiara Fontanellina1",
    "Dmitri Ivanovich Pp1",
)
"""Four display names of 20 characters (issue 29's worst realistic state)."""


def big_collection_state(seats: int, at_least: int) -> object:
    """A finished random game where some seat holds ``at_least`` face-up cards."""
    for seed in range(400):
        game = states(seats, seed)[-1]
        if max(len(c) for c in game.collections) >= at_least:
            return game
    raise AssertionError(f"no random game with {at_least} cards in a collection")


def panel_of(layout: Layout, element) -> Panel | None:
    """The player panel whose rows hold ``element`` (by its vertical middle)."""
    middle = element.box.y + element.box.h // 2
    return next(
        (p for p in layout.elements if isinstance(p, Panel) and p.box.y <= middle < p.box.bottom),
        None,
    )


@pytest.mark.parametrize("seats", SEATS)
def test_chips_stay_inside_their_panel_and_never_hide_their_number(seats):
    # issue 29: with 8+ cards the end picture's chips ran out of their panel; with 6 or fewer
    # they were as tall as wide, and the painter drew the hat over the number
    game = big_collection_state(seats, 8 if seats < 4 else 7)
    for layout in (
        table_layout(game.public_view(), TWENTY[:seats], EN),
        end_layout(game.public_view(), TWENTY[:seats], EN, game_id=1),
    ):
        assert_well_placed(layout)
        for face in (e for e in layout.elements if isinstance(e, CardFace)):
            w, h = face.box.w, face.box.h
            # a card (hat below the number) or a chip (hat beside it); never in between
            assert h >= round(1.3 * w) or w >= round(1.3 * h), face
            if w > h:  # a chip: its number is drawn half its height tall
                assert h // 2 >= MIN_PHONE_TEXT, face
            panel = panel_of(layout, face)
            if panel is not None:
                assert face.box.inside(panel.box), (face, panel)


@pytest.mark.parametrize("seats", SEATS)
def test_twenty_character_names_keep_most_of_their_letters_beside_the_cookie(seats):
    # issue 29: the 4-player table cut "marianne…" to "mar…" beside the cookie
    for game in states(seats, seed=4):
        obs = game.public_view()
        for tr in translators()[:-1]:
            layouts = [table_layout(obs, TWENTY[:seats], tr)]
            if game.is_over:
                layouts.append(end_layout(obs, TWENTY[:seats], tr, game_id=1))
            for layout in layouts:
                texts = [t for t in layout.texts() if len(t) > 3]
                shown = [t for t in texts if any(n.startswith(t[:4]) for n in TWENTY)]
                assert len(shown) >= seats
                for text in shown:
                    if text.count(" & "):
                        continue  # the end picture's team line
                    assert len(text.removesuffix(ELLIPSIS)) >= 9, (tr.locale, text)
