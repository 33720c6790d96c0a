"""R15–R21: board clean-up, collection and favourite scores, cookie, winners and teams."""

import pytest
from engine_testkit import C, cards, random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import TieBreak
from engine.scoring import (
    COOKIE_POINTS,
    collection_score,
    face_up_slots,
    favourite_score,
    score_game,
    standings,
)

TEAMS = ((0, 2), (1, 3))
BOARD = "red1 orange2 yellow3 green4 blue5 purple6"  # every type worth its slot; brown 0


def score(colls, blacks, favs, cookie, teams=None, board=BOARD):
    return score_game(
        cards(board),
        [cards(c) if c else [] for c in colls],
        [cards(b) if b else [] for b in blacks],
        [C(f) for f in favs],
        cookie,
        teams,
    )


# ----------------------------------------------------------------------------- R15
def test_r15_only_the_lowest_slot_of_a_repeated_type_stays_face_up():
    board = cards("green2 blue4 red6 green5 yellow3 green1")
    assert face_up_slots(board) == (1, 2, 3, 5)
    assert face_up_slots(cards("red1 orange2 yellow3 green4 blue5")) == (1, 2, 3, 4, 5)
    assert face_up_slots(cards("red1 red2 red3 red4 red5 red6")) == (1,)


# ----------------------------------------------------------------------------- R16
def test_r16_worked_example_collection_worth_14():
    """Rulebook: 3 + 0 + 0 + 5 + 5 + 0 + 0 + 1 = 14, the 1 being a black hat."""
    board = cards("green2 blue4 red6 green5 yellow3 green1")  # after R15: green 1, blue 2,
    # red 3, yellow 5; greens on slots 4 and 6 face down; orange, purple, brown absent.
    face_up = cards("red2 orange2 purple3 yellow4 yellow6 brown5 orange6")
    black_hats = cards("blue1")
    worths = [collection_score([c], 0, board) for c in face_up]
    assert worths == [3, 0, 0, 5, 5, 0, 0]
    assert collection_score(face_up, len(black_hats), board) == 14
    # The same position through the whole end-of-game scoring.
    result = score_game(board, [face_up, []], [black_hats, []], [C("red4"), C("red5")], None, None)
    assert result.scores[0].collection == 14
    assert result.face_up_slots == (1, 2, 3, 5)


def test_r16_face_down_board_cards_do_not_score():
    board = cards("green2 blue4 red6 green5 yellow3 green1")
    assert collection_score(cards("green3"), 0, board) == 1  # green's face-up slot is 1, not 4
    assert collection_score([], 3, board) == 3  # black hats are 1 each


# ----------------------------------------------------------------------------- R17
def test_r17_worked_example_favourite_worth_9():
    """Rulebook: two collection cards of the favourite's type, 6 and 5, favourite 2: 9."""
    face_up = cards("purple6 red3 purple5 blue1")
    assert favourite_score(face_up, C("purple2")) == 6 + 5 - 2 == 9
    result = score_game(
        cards(BOARD), [face_up, []], [cards("purple3"), []], [C("purple2"), C("red2")], None, None
    )
    assert result.scores[0].favourite == 9  # the black purple3 never matches


def test_r17_favourite_may_be_negative():
    assert favourite_score(cards("red1 blue2"), C("brown6")) == -6
    assert favourite_score([], C("red4")) == -4


# ----------------------------------------------------------------------------- R18, R19
def test_r18_r19_total_is_collection_plus_favourite_plus_cookie():
    result = score(
        ["green1 blue2", "orange1", "red3"], ["", "", ""], ["brown3", "brown1", "brown4"], 1
    )
    s0, s1, s2 = result.scores
    assert (s0.collection, s0.favourite, s0.cookie, s0.total) == (9, -3, 0, 6)
    assert (s1.collection, s1.favourite, s1.cookie, s1.total) == (2, -1, COOKIE_POINTS, 6)
    assert s2.total == 1 - 4
    assert COOKIE_POINTS == 5


def test_r19_highest_total_wins():
    result = score(
        ["green1 blue2", "orange1", "red3"], ["", "", ""], ["brown2", "brown1", "brown4"], None
    )
    assert result.winners == (0,) and result.tie_break is TieBreak.SCORE


def test_r19_tie_most_black_hats_wins_before_the_cookie():
    result = score(
        ["green1", "orange1", "red3"],
        ["brown5 brown6", "purple1", ""],
        ["brown1", "brown3", "brown4"],
        1,
    )
    assert [s.total for s in result.scores][:2] == [5, 5]
    assert [s.black_hats for s in result.scores] == [2, 1, 0]
    assert result.winners == (0,) and result.tie_break is TieBreak.BLACK_HATS


def test_r19_tie_on_black_hats_the_cookie_holder_wins():
    result = score(
        ["green1 blue2", "orange1", "red3"], ["", "", ""], ["brown3", "brown1", "brown4"], 1
    )
    assert [s.total for s in result.scores][:2] == [6, 6]
    assert result.winners == (1,) and result.tie_break is TieBreak.COOKIE


@pytest.mark.parametrize("cookie", [None, 2])
def test_r19_still_tied_is_a_shared_win(cookie):
    result = score(
        ["green1 blue2", "green2 blue3", "red3"], ["brown5", "brown6", ""],
        ["brown2", "purple2", "brown4"], cookie,
    )  # fmt: skip
    assert [s.total for s in result.scores][:2] == [8, 8]
    assert result.winners == (0, 1) and result.tie_break is TieBreak.SHARED


# ----------------------------------------------------------------------------- R20
def test_r20_team_total_is_the_sum_and_both_members_win():
    result = score(
        ["green1 blue2", "blue1", "red2", "red3"], ["", "", "", ""],
        ["brown1", "brown2", "purple1", "orange1"], None, TEAMS,
    )  # fmt: skip
    totals = [s.total for s in result.scores]
    assert result.team_totals == (totals[0] + totals[2], totals[1] + totals[3]) == (8, 3)
    assert result.winners == (0, 2) and result.tie_break is TieBreak.SCORE


def test_r20_tie_team_with_more_black_hats_wins():
    result = score(
        ["green1", "blue1", "red2", "red3"], ["brown5", "", "", ""],
        ["brown1", "brown2", "purple2", "orange1"], None, TEAMS,
    )  # fmt: skip
    assert result.team_totals == (3, 3)
    assert result.winners == (0, 2) and result.tie_break is TieBreak.BLACK_HATS


def test_r20_tie_team_holding_the_cookie_wins_even_without_the_best_player():
    result = score(
        ["green1 blue2", "blue1", "red2", "red3"], ["", "", "", ""],
        ["brown1", "brown2", "purple1", "orange1"], 3, TEAMS,
    )  # fmt: skip
    assert result.team_totals == (8, 8)
    assert max(result.scores, key=lambda s: s.total) is result.scores[0]
    assert result.winners == (1, 3) and result.tie_break is TieBreak.COOKIE


def test_r20_still_tied_teams_share_the_win():
    result = score(
        ["green1", "blue1", "red2", "red3"], ["", "", "", ""],
        ["brown1", "brown3", "purple2", "orange1"], None, TEAMS,
    )  # fmt: skip
    assert result.team_totals == (2, 2)
    assert result.winners == (0, 1, 2, 3) and result.tie_break is TieBreak.SHARED


# ----------------------------------------------------------------------------- R21
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_r21_the_end_reveals_everything(seats):
    game = random_game(seats, seed=11, policy_seed=seats)
    result = game.result
    for view in [game.public_view(), *(game.observation(s) for s in range(seats))]:
        assert view.result is result and view.is_over and view.to_move is None
    assert result.favourites == tuple(h[0] for h in game.hands)
    assert result.black_hats == tuple(tuple(b) for b in game.black_hats)
    assert result.collections == tuple(tuple(c) for c in game.collections)
    assert result.board == tuple(game.board)
    assert result.cookie == game.cookie
    assert (result.team_totals is None) == (seats != 4)
    record_end = result.to_record()
    assert list(record_end) == [
        "favorites", "board", "face_up_slots", "collections", "black_hats", "cookie", "scores",
        "team_totals", "winners",
    ]  # fmt: skip
    assert list(record_end["scores"][0]) == [
        "collection",
        "favorite",
        "cookie",
        "total",
        "black_hats",
    ]


# ----------------------------------------------------------------------------- the ranking
def test_r19_losers_rank_by_total_black_hats_then_the_cookie_not_by_seat():
    """Issue 29.1: every place follows the winning order, cookie tie-break included."""
    assert standings([20, 13, 23], [0, 0, 0], None, None) == ((2, 0, 1), (2, 3, 1))
    # seat 0 and 2 tied on total and black hats below the winner: the cookie ranks seat 2 first
    assert standings([10, 25, 10], [1, 0, 1], 2, None) == ((1, 2, 0), (3, 1, 2))
    # not separable: a shared place, seat order
    assert standings([10, 25, 10], [1, 0, 1], 1, None) == ((1, 0, 2), (2, 1, 2))
    # teams (R20): partners together under their team's place, inside by their own totals
    order, places = standings([5, 9, 12, 7], [0, 0, 0, 0], None, TEAMS)
    assert order == (2, 0, 1, 3) and places == (1, 2, 1, 2)
    order, places = standings([5, 9, 12, 8], [0, 1, 0, 0], None, TEAMS)  # 17 each: black hats
    assert order == (1, 3, 2, 0) and places == (2, 1, 2, 1)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(-10, 40), min_size=n, max_size=n),
            st.lists(st.integers(0, 3), min_size=n, max_size=n),
            st.one_of(st.none(), st.integers(0, n - 1)),
        )
    )
)
def test_the_ranking_agrees_with_the_winners_and_never_puts_a_better_entry_behind(game):
    totals, blacks, cookie = game
    n = len(totals)
    teams = TEAMS if n == 4 else None
    order, places = standings(totals, blacks, cookie, teams)
    assert sorted(order) == list(range(n))
    assert [places[s] for s in order] == sorted(places)  # best first
    if teams is None:
        entries = [(s,) for s in range(n)]
    else:
        entries = [tuple(t) for t in teams]
        assert {order[:2], order[2:]} <= {(0, 2), (2, 0), (1, 3), (3, 1)}  # partners together

    def key(e):
        return (sum(totals[s] for s in e), sum(blacks[s] for s in e), cookie in e)

    for a in entries:
        for b in entries:
            if key(a) > key(b):
                assert places[a[0]] < places[b[0]]
            if key(a) == key(b):
                assert places[a[0]] == places[b[0]]
