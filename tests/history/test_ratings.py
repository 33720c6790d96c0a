"""Rating updates agree with openskill's own Plackett–Luce computation on fixed results."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from history.ratings import (
    AI_RATINGS,
    GLOBAL,
    Outcome,
    Rating,
    SeatOutcome,
    apply_outcome,
    match_of,
    recompute,
)

LIB = PlackettLuce()


def _fresh():
    return LIB.rating()


def _after(book, user, guild=7, seats=0):
    return book[((guild, seats), user)]


def _close(rating, lib):
    assert rating.mu == pytest.approx(lib.mu, abs=1e-12)
    assert rating.sigma == pytest.approx(lib.sigma, abs=1e-12)


def test_two_players_winner_up_loser_down_as_the_library_says():
    book = {}
    out = Outcome(1, 7, (SeatOutcome(10, None, 1), SeatOutcome(20, None, 2)))
    changes = apply_outcome(book, out)
    [[a], [b]] = LIB.rate([[_fresh()], [_fresh()]], ranks=[1.0, 2.0])
    _close(_after(book, 10), a)
    _close(_after(book, 20), b)
    assert _after(book, 10).mu > 25 > _after(book, 20).mu
    # four scopes per human: server and global, all seat counts and 2 seats
    assert {c.scope for c in changes} == {(7, 0), (7, 2), (GLOBAL, 0), (GLOBAL, 2)}
    assert _after(book, 10, GLOBAL, 2) == _after(book, 10)
    assert (_after(book, 10).games, _after(book, 10).wins) == (1, 1)
    assert (_after(book, 20).games, _after(book, 20).wins) == (1, 0)


def test_three_players_with_a_tie_for_first():
    book = {}
    out = Outcome(1, 7, (SeatOutcome(1, None, 2), SeatOutcome(2, None, 1), SeatOutcome(3, None, 1)))
    apply_outcome(book, out)
    lib = LIB.rate([[_fresh()], [_fresh()], [_fresh()]], ranks=[2.0, 1.0, 1.0])
    for user, [r] in zip((1, 2, 3), lib, strict=True):
        _close(_after(book, user), r)
    assert _after(book, 2).mu == pytest.approx(_after(book, 3).mu)  # tied: same change
    assert _after(book, 2).wins == _after(book, 3).wins == 1


def test_second_game_starts_from_the_first_games_ratings():
    book = {}
    apply_outcome(book, Outcome(1, 7, (SeatOutcome(1, None, 1), SeatOutcome(2, None, 2))))
    apply_outcome(
        book,
        Outcome(2, 7, (SeatOutcome(1, None, 2), SeatOutcome(2, None, 1), SeatOutcome(3, None, 3))),
    )
    [[a], [b]] = LIB.rate([[_fresh()], [_fresh()]], ranks=[1.0, 2.0])
    lib = LIB.rate([[a], [b], [_fresh()]], ranks=[2.0, 1.0, 3.0])
    for user, [r] in zip((1, 2, 3), lib, strict=True):
        _close(_after(book, user), r)
    # the 3-seat scope only saw the second game
    lib3 = LIB.rate([[_fresh()], [_fresh()], [_fresh()]], ranks=[2.0, 1.0, 3.0])
    _close(_after(book, 1, 7, 3), lib3[0][0])


def test_four_players_rate_two_teams_of_partners():
    book = {}
    seats = (
        SeatOutcome(1, None, 1, team=0),
        SeatOutcome(2, None, 2, team=1),
        SeatOutcome(3, None, 1, team=0),
        SeatOutcome(4, None, 2, team=1),
    )
    apply_outcome(book, Outcome(1, 7, seats))
    [[a, c], [b, d]] = LIB.rate([[_fresh(), _fresh()], [_fresh(), _fresh()]], ranks=[1.0, 2.0])
    for user, r in ((1, a), (3, c), (2, b), (4, d)):
        _close(_after(book, user), r)
    assert match_of(Outcome(1, 7, seats)).teams == ((1, 3), (2, 4))


def test_teams_shared_win_moves_nobody_much_and_equally():
    seats = tuple(SeatOutcome(u, None, 1, team=u % 2) for u in (2, 1, 4, 3))
    book = {}
    apply_outcome(book, Outcome(1, 7, seats))
    [[x, _], [y, _]] = LIB.rate([[_fresh(), _fresh()], [_fresh(), _fresh()]], ranks=[1.0, 1.0])
    _close(_after(book, 2), x)
    _close(_after(book, 1), y)


def test_ai_seats_are_fixed_strength_pseudo_players():
    seats = (SeatOutcome(1, None, 2), SeatOutcome(None, "hard", 1), SeatOutcome(2, None, 3))
    book = {}
    changes = apply_outcome(book, Outcome(1, 7, seats))
    hard = AI_RATINGS["hard"]
    lib = LIB.rate(
        [[_fresh()], [LIB.rating(mu=hard.mu, sigma=hard.sigma)], [_fresh()]], ranks=[2.0, 1.0, 3.0]
    )
    _close(_after(book, 1), lib[0][0])
    _close(_after(book, 2), lib[2][0])
    assert {c.user_id for c in changes} == {1, 2}  # the AI is never stored nor changed
    assert AI_RATINGS["hard"] == hard


def test_beating_an_expert_ai_is_worth_more_than_beating_a_hard_one():
    def gain(level):
        seats = (SeatOutcome(1, None, 1), SeatOutcome(None, level, 2), SeatOutcome(2, None, 3))
        book = {}
        apply_outcome(book, Outcome(1, 7, seats))
        return _after(book, 1).mu - _fresh().mu

    assert AI_RATINGS["expert"].mu > AI_RATINGS["hard"].mu  # rated above hard (BENCHMARKS.md)
    assert gain("expert") > gain("hard") > gain("easy")


def test_one_human_against_ais_is_not_rated():
    seats = (SeatOutcome(1, None, 1), SeatOutcome(None, "easy", 2), SeatOutcome(None, "hard", 3))
    book = {}
    assert match_of(Outcome(1, 7, seats)) is None
    assert apply_outcome(book, Outcome(1, 7, seats)) == [] and book == {}


def test_a_kicked_player_loses_even_when_their_seat_won():
    # seat 0 was kicked; the AI that took the seat over won it (place 1)
    seats = (SeatOutcome(1, None, 1, kicked=True), SeatOutcome(2, None, 2), SeatOutcome(3, None, 3))
    book = {}
    apply_outcome(book, Outcome(1, 7, seats))
    lib = LIB.rate([[_fresh()], [_fresh()], [_fresh()]], ranks=[4.0, 2.0, 3.0])
    _close(_after(book, 1), lib[0][0])
    assert _after(book, 1).wins == 0 and _after(book, 1).mu < 25


def test_a_kicked_partner_is_a_team_of_their_own_ranked_last():
    seats = (
        SeatOutcome(1, None, 1, team=0),
        SeatOutcome(2, None, 2, team=1),
        SeatOutcome(3, None, 1, team=0, kicked=True),
        SeatOutcome(4, None, 2, team=1),
    )
    match = match_of(Outcome(1, 7, seats))
    assert match.teams == ((1,), (2, 4), (3,))
    assert match.ranks == (1, 2, 3)


def test_recompute_gives_the_incremental_book():
    outs = [
        Outcome(1, 7, (SeatOutcome(1, None, 1), SeatOutcome(2, None, 2))),
        Outcome(2, 8, (SeatOutcome(2, None, 1), SeatOutcome(1, None, 1))),
    ]
    book = {}
    for o in outs:
        apply_outcome(book, o)
    assert recompute(outs) == book
    assert Rating().ordinal == pytest.approx(0.0)
