"""Every AI choice is a legal move, whatever the deal, seats and levels (R7–R14)."""

from ai_support import play_ai_game
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game

LEVELS = st.sampled_from(["easy", "normal", "hard"])


@settings(max_examples=40, deadline=None)
@given(
    seats=st.integers(2, 4),
    game_seed=st.integers(0, 2**32),
    ai_seed=st.integers(0, 2**32),
    levels=st.lists(LEVELS, min_size=4, max_size=4),
)
def test_ai_games_stay_legal_and_finish(seats, game_seed, ai_seed, levels):
    game = play_ai_game(seats, game_seed, levels[:seats], [ai_seed + s for s in range(seats)])
    assert game.result is not None  # R14: every seat took its 8 turns
    assert all(t == 8 for t in game.turns_taken)
    # The steps the AIs chose rebuild the same game (they were applied as they are).
    assert Game.replay(game.config, game.steps).snapshot() == game.snapshot()


def test_default_hard_budget_plays_legal_moves_in_every_mode():
    for seats in (2, 3, 4):
        levels = ["hard", "normal", "easy", "normal"][:seats]
        game = play_ai_game(seats, 40 + seats, levels, [9, 8, 7, 6][:seats], budget=None)
        assert game.result is not None
