"""R13: who holds the cookie, with every tie-break, from cookie_holder and in real games."""

from engine_testkit import C, cards, make_game

from engine import BlackHat, EndTurn, Exchange
from engine.cookie import cookie_holder, distinct_types


def holder(face_up: list[str], black_hats: list[int], previous: int | None = None):
    return cookie_holder([cards(f) if f else [] for f in face_up], black_hats, previous)


def test_r13_cookie_starts_on_the_napkin_and_empty_collections_never_hold_it():
    assert make_game(3).cookie is None
    assert holder(["", "", ""], [0, 0, 0]) is None
    assert holder(["", "", ""], [0, 0, 0], previous=1) is None


def test_r13_most_distinct_types_wins_whatever_the_values():
    assert holder(["red6 blue6 green6", "red1 orange1", ""], [0, 0, 0]) == 0
    assert holder(["red1 red2 red3", "blue6 green6", ""], [0, 0, 0]) == 1


def test_r13_black_hats_count_as_one_type_together():
    assert distinct_types(cards("red1"), 3) == 2
    assert distinct_types([], 1) == 1
    assert distinct_types(cards("red1 red2"), 0) == 1
    # Three black hats are one type: 2 types against 3 types.
    assert holder(["red1", "blue6 green6 yellow6"], [3, 0]) == 1
    # One black hat adds a type: 3 against 2.
    assert holder(["red6 blue6", "green1 yellow1"], [1, 0]) == 0


def test_r13_tie_lowest_value_wins():
    assert holder(["red2 blue5", "green3 yellow1"], [0, 0]) == 1
    assert holder(["red1 blue5", "green3 yellow2", "orange4 purple1"], [0, 0, 0], 0) == 2
    assert holder(["red1 blue5", "green3 yellow2", "orange4 purple2"], [0, 0, 0]) == 0


def test_r13_tie_on_lowest_compares_second_lowest_then_third():
    assert holder(["red1 blue5", "green1 yellow4"], [0, 0]) == 1
    assert holder(["red1 blue2 green6", "orange1 yellow2 purple5"], [0, 0]) == 1
    assert holder(["red1 blue2 green5", "orange1 yellow2 purple6"], [0, 0]) == 0


def test_r13_running_out_of_values_loses():
    # Both have two types; seat 1 has a third value to compare, seat 0 runs out.
    assert holder(["red1 blue2", "orange1 yellow2 yellow6"], [0, 0]) == 1
    # A seat with only black hats has no values at all.
    assert holder(["", "red6"], [2, 0]) == 1


def test_r13_black_hat_values_never_compare():
    """Seat 0's black hat is a 1, but only face-up values compare: 4 against 2."""
    face_up = [cards("red4"), cards("green2 yellow5")]
    assert cookie_holder(face_up, [1, 0], None) == 1
    # Same position in a real game: seat 0's black hat card is blue1.
    game = make_game(
        2,
        board="red6 green1 yellow4 orange3 blue6",
        hands=["blue1 red5", "green3 yellow6"],
    )
    game.apply(0, BlackHat(C("blue1")))
    game.apply(0, EndTurn())
    game.apply(1, Exchange(C("green3"), 2))  # takes green1
    game.apply(1, EndTurn())
    game.apply(0, Exchange(C("red5"), 1))  # takes red6: 2 types, values [6]
    game.apply(0, EndTurn())
    assert game.cookie == 0  # 2 types against 1
    game.apply(1, Exchange(C("yellow6"), 3))  # takes yellow4: 2 types, values [1, 4]
    assert game.cookie == 1


def test_r13_complete_tie_holder_keeps_it():
    assert holder(["red2 blue4", "green2 yellow4"], [0, 0], previous=1) == 1
    assert holder(["red2 blue4", "green2 yellow4"], [0, 0], previous=0) == 0
    assert holder(["", ""], [1, 1], previous=1) == 1  # black hats only: no values either side


def test_r13_complete_tie_without_the_holder_goes_to_the_napkin():
    assert holder(["red2 blue4", "green2 yellow4", "orange1"], [0, 0, 0], previous=2) is None
    assert holder(["red2 blue4", "green2 yellow4"], [0, 0], previous=None) is None
    # The holder is tied on types but lost on values: not among the completely tied.
    assert holder(["red2 blue4", "green2 yellow4", "orange3 purple4"], [0, 0, 0], 2) is None


def test_r13_cookie_in_game_after_collection_steps():
    game = make_game(
        3, board="red1 orange1 yellow1 green1 blue1 purple1", hands=["red2", "", "orange2"]
    )
    game.apply(0, Exchange(C("red2"), 1))  # takes red1
    assert game.cookie == 0
    assert game.apply(0, EndTurn()).cookie == 0
    assert game.apply(1, game.legal_actions(1)[-1]).cookie == 0  # a discard moves nothing
    # One type each, but seat 1's only card is a black hat: no value, it runs out and loses.
    assert game.apply(1, BlackHat(game.hands[1][0])).cookie == 0
    # Seat 2 takes orange1: a complete tie with seat 0 ([1] against [1]); the holder keeps it.
    assert game.apply(2, Exchange(C("orange2"), 2)).cookie == 0
