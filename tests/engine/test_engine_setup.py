"""R2–R6: the board, the deal for 2, 3 and 4 seats, teams and the starting seat."""

import itertools
from collections import Counter

import pytest
from engine_testkit import C, cards, make_game, random_game

from engine import (
    ALL_CARDS,
    BlackHat,
    Discard,
    Exchange,
    Game,
    GameConfig,
    HatType,
    partner_of,
    teams_for,
)
from engine.config import TURNS_PER_SEAT
from engine.errors import InvalidSlot
from engine.setup import deal


class _IdentityChance:
    """Chance that never shuffles and always draws seat 1 (to see the deal's order)."""

    def removed_types(self, count):
        return list(HatType)[-count:]

    def shuffle(self, cards):
        return list(cards)

    def seat(self, seats):
        return 1


@pytest.mark.parametrize(
    ("seats", "slots", "cards", "deck"), [(2, 5, 30, 7), (3, 6, 42, 9), (4, 6, 42, 0)]
)
def test_r3_r4_deal_sizes(seats, slots, cards, deck):
    """R3, R4: board of 5 or 6 slots, 9 cards a hand, 7/9/0 in the deck, empty discard pile."""
    for seed in range(20):
        game = Game.new(GameConfig(seats, seed))
        assert len(game.board) == slots == game.slots
        assert [len(h) for h in game.hands] == [9] * seats
        assert len(game.deck) == deck
        assert game.discard_pile == []
        everything = Counter([*game.board, *game.deck, *(c for h in game.hands for c in h)])
        assert sum(everything.values()) == len(everything) == cards
        assert set(everything) == {c for c in ALL_CARDS if c.type in game.setup.types}


def test_r3_two_seats_remove_two_whole_types_at_random():
    removed_sets = set()
    for seed in range(40):
        game = Game.new(GameConfig(2, seed))
        types = game.setup.types
        assert len(types) == 5
        assert list(types) == [t for t in HatType if t in types]  # canonical order
        removed_sets.add(frozenset(HatType) - frozenset(types))
    assert len(removed_sets) > 5  # the removed pair depends on the seed


@pytest.mark.parametrize("seats", [3, 4])
def test_r3_three_and_four_seats_use_every_type(seats):
    assert Game.new(GameConfig(seats, 5)).setup.types == tuple(HatType)


def test_r4_board_filled_in_slot_order_then_hands_then_deck():
    setup = deal(GameConfig(3, 0), _IdentityChance())
    assert setup.board == ALL_CARDS[:6]
    assert setup.hands == (ALL_CARDS[6:15], ALL_CARDS[15:24], ALL_CARDS[24:33])
    assert setup.deck == ALL_CARDS[33:]
    assert setup.start_seat == 1


def test_r2_slots_are_numbered_from_one_left_to_right():
    """R2: slot k is board[k-1]; an exchange onto slot 6 takes the rightmost card."""
    game = make_game(3, board="red1 red2 red3 red4 red5 blue1", hands=["blue6"])
    event = game.apply(0, Exchange(C("blue6"), 6))
    assert event.took == C("blue1") and game.board[5] == C("blue6")
    assert game.board[:5] == cards("red1 red2 red3 red4 red5")


def test_r2_r3_two_seats_have_no_sixth_slot():
    game = make_game(2, hands=["blue6"])
    with pytest.raises(InvalidSlot):
        game.apply(0, Exchange(game.hands[0][-1], 6))


def test_r5_teams_sit_opposite():
    assert teams_for(4) == ((0, 2), (1, 3))
    assert teams_for(3) is None and teams_for(2) is None
    assert [partner_of(s, 4) for s in range(4)] == [2, 3, 0, 1]
    assert partner_of(0, 3) is None
    assert Game.new(GameConfig(4, 1)).teams == ((0, 2), (1, 3))


def test_r5_turns_alternate_between_teams():
    game = random_game(4, seed=3, policy_seed=4)
    seats = [turn["seat"] for turn in game.record_turns()]
    assert len(seats) == 4 * TURNS_PER_SEAT
    assert all(a % 2 != b % 2 for a, b in itertools.pairwise(seats))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_r6_start_seat_is_drawn_from_the_seed(seats):
    starts = {Game.new(GameConfig(seats, seed)).active for seed in range(60)}
    assert starts == set(range(seats))
    assert Game.new(GameConfig(seats, 9)).active == Game.new(GameConfig(seats, 9)).active


def test_r6_chosen_start_seat_keeps_the_rest_of_the_seeded_chance():
    """R6, R9: picking the start seat changes nothing else (deal and reshuffles alike)."""
    for seed in range(10):
        drawn = Game.new(GameConfig(3, seed))
        chosen = Game.new(GameConfig(3, seed, start_seat=drawn.active))
        assert chosen.setup == drawn.setup
        for game in (drawn, chosen):  # discard every turn: the 10th discard reshuffles
            for _ in range(12):
                seat = game.active
                game.apply(seat, Discard(game.hands[seat][0]))
                game.apply(seat, BlackHat(game.hands[seat][-1]))
        assert any(e.reshuffled for e in drawn.events)
        assert chosen.snapshot() == drawn.snapshot()


def test_r6_other_start_seat_plays_first():
    game = Game.new(GameConfig(4, 2, start_seat=3))
    assert game.active == game.to_move == 3
