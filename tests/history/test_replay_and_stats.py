"""Replays rebuild every turn of a recorded game; stats summarise a player's games."""

from __future__ import annotations

import pytest

from engine import Game, GameConfig, RandomPolicy, play_out, to_record
from history.replay import Replay
from history.stats import PlayerGame, summarize, trend


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_replay_points_are_the_deal_each_turn_and_the_end(seats):
    game = Game.new(GameConfig(seats, 40 + seats))
    play_out(game, RandomPolicy(seats))
    replay = Replay(to_record(game))
    assert replay.last == 8 * seats  # R14: 8 turns per seat
    start = replay.at(0)
    assert start.game.steps == [] and start.turn_events == 0
    assert start.game.hands == Game.new(GameConfig(seats, 40 + seats)).hands
    end = replay.at(replay.last)
    assert end.game.snapshot() == game.snapshot() and end.game.result == game.result
    assert replay.at(10_000).index == replay.last and replay.at(-3).index == 0
    for index in range(1, replay.last + 1):
        point = replay.at(index)
        assert sum(point.game.turns_taken) == index and point.turn_events >= 1


def test_summary_of_a_players_games():
    games = [
        PlayerGame(1, 2, 10.0, 10, 4, 5, 19, 1, True, "red"),
        PlayerGame(2, 3, 20.0, 6, 2, 0, 8, 3, False, "blue"),
        PlayerGame(3, 3, 30.0, 14, 5, 0, 19, 0, True, "red"),
    ]
    s = summarize(games)
    assert (s.games, s.wins) == (3, 2) and s.win_rate == pytest.approx(2 / 3)
    assert s.by_seats == {2: (1, 1), 3: (2, 1)}
    assert s.mean_total == pytest.approx(46 / 3) and s.mean_cookie == pytest.approx(5 / 3)
    assert s.black_hats_per_game == pytest.approx(4 / 3) and s.cookie_kept == 1
    assert s.best == (1, 19)  # the earlier of two equal totals
    assert s.favourite_type == "red"
    assert summarize([]).games == 0 and summarize([]).best is None
    assert trend([(0.0, 1.0), (1.0, 3.5)]) == pytest.approx(3.5) and trend([]) is None


def test_team_games_are_summed_up_by_team_and_partner():
    games = [
        PlayerGame(1, 4, 10.0, 10, 4, 5, 19, 1, True, "red", partner=7, team_total=30),
        PlayerGame(2, 4, 20.0, 6, 2, 0, 8, 3, False, "blue", partner=None, team_total=20),
        PlayerGame(3, 4, 30.0, 4, 1, 0, 5, 0, True, "red", partner=7, team_total=26),
        PlayerGame(4, 3, 40.0, 4, 1, 0, 5, 0, False, "red"),
    ]
    team = summarize(games).team
    assert (team.games, team.wins) == (3, 2)
    assert team.mean_own == pytest.approx(32 / 3) and team.mean_team == pytest.approx(76 / 3)
    assert team.partners == ((7, 2, 2), (None, 1, 0))  # most games together first
    assert summarize(games[3:]).team is None
