"""Helpers for the AI tests: full-state SimStates and AI-played games."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import Game, GameConfig
from engine.ai import HardBudget, make_ai
from engine.ai.sim import NO_SEAT, SimState
from engine.chance import SeededChance
from engine.setup import Setup

FAST_HARD = HardBudget(determinizations=3, candidates=3, depth_rounds=2)
"""A small search budget so hard games stay quick in tests."""


def sim_from_game(game: Game) -> SimState:
    """The whole position of ``game`` as a SimState (tests only: AIs never see a Game)."""
    return SimState(
        seats=game.seats,
        board=[c.id for c in game.board],
        hands=[[c.id for c in h] for h in game.hands],
        collections=[[c.id for c in cs] for cs in game.collections],
        blacks=[len(b) for b in game.black_hats],
        deck=[c.id for c in reversed(game.deck)],
        discard=[c.id for c in game.discard_pile],
        cookie=NO_SEAT if game.cookie is None else game.cookie,
        active=game.active,
        turns_done=sum(game.turns_taken),
        main_done=game.main_done,
        optional_used=game.optional_used,
        rng=random.Random(0),
    )


def play_ai_game(
    seats: int,
    game_seed: int,
    levels: Sequence[str],
    ai_seeds: Sequence[int],
    budget: HardBudget | None = FAST_HARD,
    max_steps: int = 2000,
) -> Game:
    """Play a whole game with one AI per seat, asserting every choice is legal."""
    game = Game.new(GameConfig(seats, game_seed))
    pairs = zip(levels, ai_seeds, strict=True)
    ais = [make_ai(level, seed, budget=budget) for level, seed in pairs]
    for _ in range(max_steps):
        seat = game.to_move
        if seat is None:
            return game
        legal = game.legal_actions(seat)
        action = ais[seat].choose(game.observation(seat), legal)
        assert action in legal, (seat, action, legal)
        game.apply(seat, action)
    raise AssertionError("the game did not end: an AI loops")


def twin_game(game: Game, viewer: int, seed: int) -> Game:
    """The same deal as seen by ``viewer``: other hands and the deck dealt differently."""
    setup = game.setup
    hidden = [c for s, h in enumerate(setup.hands) if s != viewer for c in h] + list(setup.deck)
    random.Random(seed).shuffle(hidden)
    hands, pos = [], 0
    for s, hand in enumerate(setup.hands):
        if s == viewer:
            hands.append(hand)
        else:
            hands.append(tuple(sorted(hidden[pos : pos + 9], key=lambda c: c.id)))
            pos += 9
    twin_setup = Setup(
        setup.types, setup.board, tuple(hands), tuple(hidden[pos:]), setup.start_seat
    )
    return Game(game.config, twin_setup, SeededChance(seed))
