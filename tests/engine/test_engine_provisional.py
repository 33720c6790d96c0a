"""The provisional score shown on the table: public information only (R15, R16, R18)."""

from engine_testkit import random_game, random_state
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, GameConfig
from engine.scoring import provisional_scores

SETTINGS = settings(max_examples=25, deadline=None)


def public_provisional(game: Game) -> tuple[int, ...]:
    obs = game.public_view()
    return provisional_scores(obs.board, obs.collections, obs.black_hat_counts, obs.cookie)


@SETTINGS
@given(seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**63), policy=st.integers(0, 2**63))
def test_at_the_end_provisional_equals_total_minus_favourite(seats, seed, policy):
    game = random_game(seats, seed, policy)
    expected = tuple(s.total - s.favourite for s in game.result.scores)
    assert public_provisional(game) == expected


@SETTINGS
@given(
    seats=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**63),
    policy=st.integers(0, 2**63),
    cut=st.integers(0, 60),
)
def test_provisional_depends_on_public_information_only(seats, seed, policy, cut):
    """Computed from the public view alone (no hand, no black hat face): never negative, the
    cookie holder has at least 5, every black hat counts 1."""
    game = random_state(seats, seed, policy, cut)
    scores = public_provisional(game)
    assert len(scores) == seats and all(s >= 0 for s in scores)
    obs = game.public_view()
    assert obs.hand is None and obs.own_black_hats is None
    if obs.cookie is not None:
        assert scores[obs.cookie] >= 5
    for seat in range(seats):
        # every black hat is worth exactly 1, whatever its hidden face
        assert scores[seat] >= obs.black_hat_counts[seat]


def test_provisional_on_an_empty_start_is_zero():
    game = Game.new(GameConfig(3, 7))
    assert public_provisional(game) == (0, 0, 0)
