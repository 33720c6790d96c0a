import random

from engine import Game, GameConfig, from_record, to_record


def test_random_games_finish_and_replay():
    rng = random.Random(3)
    for seats in (2, 3, 4):
        game = Game.new(GameConfig(seats, 11))
        while not game.is_over:
            seat = game.to_move
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        assert game.result is not None
        assert Game.replay(game.config, game.steps).snapshot() == game.snapshot()
        assert from_record(to_record(game)).snapshot() == game.snapshot()
