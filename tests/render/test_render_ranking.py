"""Issue 29.1: one ranking everywhere (R19, R20 with every tie-break, engine.standings).

A 3-player end where the losers tie on total and black hats and the cookie separates them,
the cookie holder sitting after the other: the end texts, the alt text, the store's places,
the coach's place and ``/hats history`` all say the same order, which seat order would not.
"""

from __future__ import annotations

from coach.explain import explain_end
from coach.notes import NoteKind
from data import SeatRow, entries_from_game
from data.history import SeatSummary
from engine import Game
from engine.cards import card_from_code
from engine.scoring import score_game
from tests.render.render_support import EN, TRANSLATOR, finished_game, seat_labels
from texts.end import end_alt_text, end_texts
from texts.history import players_text

BOARD = "red1 orange2 yellow3 green4 blue5 purple6"  # every type worth its slot; brown 0


def cards(text: str):
    return [card_from_code(c) for c in text.split()]


def crafted_end() -> Game:
    """A finished 3-seat game whose result is: seat 1 wins with 8; seats 0 and 2 have 6
    points and one black hat each; seat 2 holds the cookie, so it is second and seat 0 third."""
    game = finished_game(3, 1)
    game.result = score_game(
        cards(BOARD),
        [cards("purple2"), cards("purple3 blue2"), cards("red2")],
        [cards("red3"), [], cards("red4")],
        cards("brown1 brown3 brown1"),  # favourites of a type nobody collects: minus the value
        2,
        None,
    )
    return game


def test_the_crafted_end_is_the_case_seat_order_gets_wrong():
    result = crafted_end().result
    assert [(s.total, s.black_hats) for s in result.scores] == [(6, 1), (8, 0), (6, 1)]
    assert result.winners == (1,) and result.cookie == 2
    assert result.order == (1, 2, 0) and result.places == (3, 1, 2)


def test_end_texts_alt_text_store_coach_and_history_share_the_ranking():
    game = crafted_end()
    obs = game.public_view()
    labels = seat_labels(3)
    names = [label.plain_name for label in labels]
    for lang in TRANSLATOR.languages:
        tr = TRANSLATOR.for_locale(lang)
        results = end_texts(obs, labels, tr, game_id=7, pictures=False).results
        rows = [r for r in results.splitlines() if r[:1].isdigit() and r[1:3] == ". "]
        assert [r[:3] for r in rows] == ["1. ", "2. ", "3. "], rows
        assert ["<@1002>" in rows[0], "<@1003>" in rows[1], "<@1001>" in rows[2]] == [True] * 3
        alt = end_alt_text(obs, labels, tr, game_id=7)
        lines = [next((n for n in names if n in line), None) for line in alt.splitlines()]
        assert [n for n in lines if n] == ["Player1", "Player2", "Player0"], alt
    entries = entries_from_game(game, [SeatRow(1, s, 10 + s, None, False, 0) for s in range(3)])
    assert [e.place for e in entries] == [3, 1, 2]
    for seat, place in ((0, 3), (1, 1), (2, 2)):
        (final,) = [n for n in explain_end(game.result, seat) if n.kind is NoteKind.FINAL]
        assert final.total == place
    summaries = [
        SeatSummary(
            s, 10 + s, None, game.result.scores[s].total, s == 1, 1 if s != 1 else 0, s == 2
        )
        for s in range(3)
    ]
    text = players_text(summaries, EN)
    assert text.index("<@11>") < text.index("<@12>") < text.index("<@10>"), text
