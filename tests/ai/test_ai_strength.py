"""Levels are ordered: hard beats easy, normal beats easy (fixed seeds: not flaky)."""

from ai_support import play_ai_game


def _wins(level, against, seats, games):
    wins = 0
    for i in range(games):
        me = i % seats
        levels = [level if s == me else against for s in range(seats)]
        game = play_ai_game(
            seats, 1000 + i, levels, [i * 10 + s for s in range(seats)], budget=None
        )
        wins += me in game.result.winners
    return wins


def test_hard_beats_easy_in_two_player_games():
    assert _wins("hard", "easy", 2, 10) >= 8


def test_normal_beats_easy_in_two_player_games():
    assert _wins("normal", "easy", 2, 20) >= 14
