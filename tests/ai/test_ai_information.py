"""An AI is handed only its seat's observation; hidden cards cannot change its choice."""

import inspect
import random

import pytest
from ai_support import twin_game

from engine import BlackHat, Discard, EndTurn, Game, GameConfig, Observation
from engine.ai import AiLevel, EasyAi, HardAi, NormalAi, make_ai


@pytest.mark.parametrize("cls", [EasyAi, NormalAi, HardAi])
def test_choose_takes_an_observation_and_legal_actions_only(cls):
    params = list(inspect.signature(cls.choose).parameters)
    assert params == ["self", "observation", "legal"]


@pytest.mark.parametrize("level", list(AiLevel))
def test_an_ai_refuses_the_game_and_the_public_view(level):
    game = Game.new(GameConfig(3, 2))
    seat = game.to_move
    ai = make_ai(level, 1)
    with pytest.raises(TypeError):
        ai.choose(game, game.legal_actions(seat))
    with pytest.raises(ValueError):
        ai.choose(game.public_view(), game.legal_actions(seat))


def _hidden_move(game: Game, seat: int, rng: random.Random):
    """A move of ``seat`` whose cards the viewer does not see (R8, R9), else end the turn."""
    if game.main_done:
        return EndTurn()
    if not game.optional_used and game.seats < 4 and rng.random() < 0.4:
        return Discard(rng.choice(game.hands[seat]))
    return BlackHat(rng.choice(game.hands[seat]))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_same_observation_from_different_hidden_cards_gives_the_same_choice(seats):
    checked = 0
    for seed in range(4):
        a = Game.new(GameConfig(seats, 300 + seed))
        viewer = (a.to_move + 1) % seats  # opponents play first, hiding what they do
        b = twin_game(a, viewer, seed)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while a.to_move != viewer:
            a.apply(a.to_move, _hidden_move(a, a.to_move, rng_a))
            b.apply(b.to_move, _hidden_move(b, b.to_move, rng_b))
        assert a.snapshot() != b.snapshot()  # the hidden cards differ...
        obs = a.observation(viewer)
        assert isinstance(obs, Observation)
        assert b.observation(viewer) == obs  # ...but the viewer sees the same
        legal = a.legal_actions(viewer)
        assert b.legal_actions(viewer) == legal
        for level in AiLevel:
            assert make_ai(level, seed).choose(obs, legal) == make_ai(level, seed).choose(
                b.observation(viewer), b.legal_actions(viewer)
            )
        checked += 1
    assert checked == 4
