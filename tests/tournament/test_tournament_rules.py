"""The pure tournament rules: table sizes, snake seeding, Swiss grouping, points, standings."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournament.oracle import groupings
from tournament import (
    MAX_ENTRANTS,
    Entrant,
    Seeded,
    TableResult,
    first_round,
    game_points,
    next_round,
    opponents_met,
    repeated_pairs,
    standings,
    table_sizes,
)

HALF = Fraction(1, 2)


# ----------------------------------------------------------------------------- table sizes
@pytest.mark.parametrize(
    ("players", "sizes"),
    [(2, (2,)), (3, (3,)), (4, (2, 2)), (5, (3, 2)), (6, (3, 3)), (7, (3, 2, 2)), (8, (3, 3, 2))],
)
def test_table_sizes_of_the_issue(players, sizes):
    assert table_sizes(players) == sizes


@given(st.integers(2, 200))
def test_table_sizes_seat_everyone_at_tables_of_2_or_3(players):
    sizes = table_sizes(players)
    assert sum(sizes) == players
    assert set(sizes) <= {2, 3}
    assert sizes.count(2) <= 2  # a remainder, never more
    assert list(sizes) == sorted(sizes, reverse=True)


@pytest.mark.parametrize("players", [-1, 0, 1])
def test_table_sizes_refuse_fewer_than_2(players):
    with pytest.raises(ValueError, match="at least 2"):
        table_sizes(players)


# ----------------------------------------------------------------------------- points
def test_points_at_a_table_of_3_are_1_half_0():
    assert game_points([2, 1, 3]) == (HALF, 1, 0)


def test_points_at_a_table_of_2_are_1_or_0_and_halves_for_a_shared_win():
    assert game_points([1, 2]) == (1, 0)
    assert game_points([1, 1]) == (HALF, HALF)


def test_points_count_half_per_tie():
    # two share the win (R19's last tie-break): each is ahead of one and tied with one
    assert game_points([1, 1, 3]) == (Fraction(3, 4), Fraction(3, 4), 0)
    assert game_points([1, 2, 2]) == (1, Fraction(1, 4), Fraction(1, 4))
    assert game_points([1, 1, 1]) == (HALF, HALF, HALF)


@given(st.lists(st.integers(1, 3), min_size=2, max_size=3))
def test_points_of_a_table_always_add_up_to_half_its_size(places):
    assert sum(game_points(places)) == Fraction(len(places), 2)


# ----------------------------------------------------------------------------- standings
def result(rnd, table, players, places, scores):
    return TableResult(rnd, table, tuple(players), tuple(places), tuple(scores))


def test_standings_order_by_points_then_buchholz_then_scores_then_signup():
    entrants = [Entrant(p, i) for i, p in enumerate([10, 20, 30, 40, 50])]
    results = [
        result(1, 1, [10, 20, 30], [1, 2, 3], [30, 20, 10]),
        result(1, 2, [40, 50], [1, 2], [25, 5]),
    ]
    table = standings(entrants, results)
    # 10 and 40 have 1 point; 10's opponents have 1/2 + 0, 40's opponent 0: 10 first by Buchholz
    assert [(s.player, s.points, s.buchholz) for s in table] == [
        (10, 1, HALF),
        (40, 1, 0),
        (20, HALF, 1),
        (30, 0, Fraction(3, 2)),
        (50, 0, 1),
    ]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5]


def test_standings_fall_back_to_game_scores_then_signup():
    entrants = [Entrant(1, 0), Entrant(2, 1), Entrant(3, 2), Entrant(4, 3)]
    results = [result(1, 1, [1, 2], [1, 1], [20, 20]), result(1, 2, [3, 4], [1, 1], [25, 20])]
    # all have 1/2 point and 1/2 Buchholz; 3 scored most, then 1, 2 and 4 by sign-up
    assert [s.player for s in standings(entrants, results)] == [3, 1, 2, 4]


def test_standings_keep_dropped_players_and_refuse_strangers():
    entrants = [Entrant(1, 0), Entrant(2, 1, dropped=True)]
    table = standings(entrants, [result(1, 1, [1, 2], [2, 1], [0, 9])])
    assert [(s.player, s.dropped, s.games) for s in table] == [(2, True, 1), (1, False, 1)]
    with pytest.raises(ValueError, match="unknown player 3"):
        standings(entrants, [result(1, 1, [1, 3], [1, 2], [0, 0])])


# ----------------------------------------------------------------------------- round 1
def test_round_one_deals_seeds_in_a_snake_with_provisional_ratings_last():
    entrants = [Seeded(p, rating, p >= 6, p) for p, rating in enumerate([50, 70, 60, 40, 30, 20])]
    entrants.append(Seeded(6, 99, True, 6))  # provisional: last despite the high rating
    # seeds: 1 (70), 2 (60), 0 (50), 3, 4, 5, 6 → tables 3+2+2
    assert first_round(entrants) == ((1, 5, 6), (2, 4), (0, 3))


def test_round_one_breaks_equal_ratings_by_signup():
    entrants = [Seeded(p, 10, False, 5 - p) for p in range(6)]
    assert first_round(entrants) == ((5, 2, 1), (4, 3, 0))


# ----------------------------------------------------------------------------- later rounds
def test_later_rounds_group_neighbours_in_the_standings_when_nobody_met():
    assert next_round([7, 3, 5, 1, 2, 6, 4], set()) == ((7, 3, 5), (1, 2), (6, 4))


def test_later_rounds_avoid_a_repeat_by_the_nearest_swap():
    met = opponents_met([result(1, 1, [1, 2], [1, 2], [0, 0])])
    # 1 and 2 met: 2 moves down to the second table, 3 and 4 move up
    assert next_round([1, 2, 3, 4, 5, 6], met) == ((1, 3, 4), (2, 5, 6))


def test_three_who_met_cannot_all_sit_apart_at_two_tables():
    met = opponents_met([result(1, 1, [1, 2, 3], [1, 2, 3], [0, 0, 0])])
    tables = next_round([1, 2, 3, 4, 5, 6], met)
    assert repeated_pairs(tables, met) == 1
    assert tables[0][0] == 1  # the leader keeps table 1


def test_repeats_are_allowed_only_when_no_grouping_avoids_them():
    # 3 players who already met: they must meet again
    met = opponents_met([result(1, 1, [1, 2, 3], [1, 2, 3], [0, 0, 0])])
    assert next_round([3, 1, 2], met) == ((3, 1, 2),)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_no_repeat_when_a_grouping_avoids_it_small_fields(data):
    n = data.draw(st.integers(2, 9), label="players")
    players = data.draw(st.permutations(range(n)), label="standings")
    all_pairs = [frozenset(p) for p in combinations(range(n), 2)]
    met = set(data.draw(st.lists(st.sampled_from(all_pairs), max_size=2 * n), label="met"))
    tables = next_round(players, met)
    best = min(repeated_pairs(g, met) for g in groupings(list(players), table_sizes(n)))
    assert sorted(p for t in tables for p in t) == list(range(n))
    assert sorted((len(t) for t in tables), reverse=True) == list(table_sizes(n))
    assert repeated_pairs(tables, met) == best


def play_tournament(n, rounds, data):
    """Rounds of ``n`` players: round 1 by seeds, then Swiss with places drawn by hypothesis."""
    entrants = [Entrant(p, p) for p in range(n)]
    seeded = [
        Seeded(p, data.draw(st.integers(0, 50)), data.draw(st.booleans()), p) for p in range(n)
    ]
    results: list[TableResult] = []
    tables = first_round(seeded)
    history = []
    for rnd in range(1, rounds + 1):
        if rnd > 1:
            order = [s.player for s in standings(entrants, results)]
            tables = next_round(order, opponents_met(results))
        history.append((tables, opponents_met(results)))
        for t, players in enumerate(tables, 1):
            places = data.draw(
                st.lists(st.integers(1, len(players)), min_size=len(players), max_size=len(players))
            )
            scores = data.draw(
                st.lists(st.integers(-10, 60), min_size=len(players), max_size=len(players))
            )
            results.append(TableResult(rnd, t, players, tuple(places), tuple(scores)))
    return history


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_64_entrants_over_7_rounds_everyone_seated_once_and_no_repeat(data):
    for tables, met in play_tournament(MAX_ENTRANTS, 7, data):
        seated = [p for t in tables for p in t]
        assert sorted(seated) == list(range(MAX_ENTRANTS))
        assert sorted((len(t) for t in tables), reverse=True) == list(table_sizes(MAX_ENTRANTS))
        assert repeated_pairs(tables, met) == 0  # 64 players, 7 rounds: always avoidable


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_field_every_round_seats_everyone_once_at_legal_tables(data):
    n = data.draw(st.integers(3, 20), label="players")
    for tables, _met in play_tournament(n, data.draw(st.integers(1, 7)), data):
        assert sorted(p for t in tables for p in t) == list(range(n))
        assert sorted((len(t) for t in tables), reverse=True) == list(table_sizes(n))
