"""Sampled positions agree with the observation and with what the seat knows."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, GameConfig
from engine.ai.determinize import determinize
from engine.ai.knowledge import knowledge_of


def _ids(cards):
    return {c.id for c in cards}


@settings(max_examples=40, deadline=None)
@given(
    seats=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 120),
    viewer_offset=st.integers(0, 3),
)
def test_knowledge_is_true_and_samples_fit_the_observation(seats, seed, steps, viewer_offset):
    rng = random.Random(seed)
    game = Game.new(GameConfig(seats, seed))
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_move
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    if game.is_over:
        return
    viewer = (game.to_move + viewer_offset) % seats
    obs = game.observation(viewer)
    know = knowledge_of(obs)
    # What the seat cannot see is exactly the others' hands and black hats, deck and pile.
    real_hidden = _ids(game.deck) | _ids(game.discard_pile)
    for s in range(seats):
        if s != viewer:
            real_hidden |= _ids(game.hands[s]) | _ids(game.black_hats[s])
    assert set(know.unknown) == real_hidden
    # What it believes it knows is true (R9 own discards, R10 cards given to the partner).
    assert know.in_discard <= _ids(game.discard_pile)
    if seats == 4:
        partner = (viewer + 2) % 4
        assert know.with_partner <= _ids(game.hands[partner]) | _ids(game.black_hats[partner])
    else:
        assert not know.with_partner
    for sample_seed in range(3):
        sim = determinize(obs, random.Random(sample_seed), know)
        assert sim.hands[viewer] == [c.id for c in obs.hand]
        assert [len(h) for h in sim.hands] == list(obs.hand_sizes)
        assert len(sim.deck) == obs.deck_size
        assert len(sim.discard) == obs.discard_size
        assert sim.board == [c.id for c in obs.board]
        placed = [c for s, h in enumerate(sim.hands) if s != viewer for c in h]
        placed += sim.deck + sim.discard
        assert len(placed) == len(set(placed))  # no card twice
        assert set(placed) <= set(know.unknown)  # only hidden cards are sampled
        assert know.in_discard <= set(sim.discard)
        if seats == 4:
            # Known partner cards are never dealt to an opponent.
            opponents = {c for s in ((viewer + 1) % 4, (viewer + 3) % 4) for c in sim.hands[s]}
            assert not know.with_partner & opponents


def test_samples_vary_with_the_rng():
    game = Game.new(GameConfig(3, 4))
    obs = game.observation(game.to_move)
    hands = {
        tuple(determinize(obs, random.Random(i)).hands[(obs.viewer + 1) % 3]) for i in range(5)
    }
    assert len(hands) > 1
