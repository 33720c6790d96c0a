"""The AI's fast position model plays by the engine's rules (R7–R20)."""

import random

from ai_support import sim_from_game
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ActionKind, Game, GameConfig
from engine.ai.sim import NO_SEAT, cookie_after
from engine.cookie import cookie_holder


def _state_matches(sim, game):
    assert sim.board == [c.id for c in game.board]
    assert [sorted(h) for h in sim.hands] == [sorted(c.id for c in h) for h in game.hands]
    assert sim.blacks == [len(b) for b in game.black_hats]
    assert sim.cookie == (NO_SEAT if game.cookie is None else game.cookie)
    if not game.is_over:  # the engine leaves the last seat active at the end
        assert sim.active == game.active
    assert sim.turns_done == sum(game.turns_taken)
    assert sim.values == [sorted(c.value for c in cs) for cs in game.collections]


@settings(max_examples=25, deadline=None)
@given(seats=st.integers(2, 4), seed=st.integers(0, 10**6), policy=st.integers(0, 10**6))
def test_sim_follows_the_engine_step_by_step(seats, seed, policy):
    # R7–R14 step by step, then R15–R20 at the end: same cookie, same totals, same winners.
    rng = random.Random(policy)
    game = Game.new(GameConfig(seats, seed))
    sim = sim_from_game(game)
    while not game.is_over:
        seat = game.to_move
        action = rng.choice(game.legal_actions(seat))
        before_deck = len(game.deck)
        game.apply(seat, action)
        kind = action.kind
        if kind is ActionKind.EXCHANGE:
            sim.do_exchange(action.card.id, action.slot)
        elif kind is ActionKind.BLACK_HAT:
            sim.do_black_hat(action.card.id)
        elif kind is ActionKind.DISCARD:
            drew = sim.do_discard(action.card.id)
            if before_deck:  # no reshuffle: the same card comes off the same deck
                assert drew == game.events[-1].drew.id
            else:  # the two shuffles differ: carry on from the engine's deck
                sim.hands = [[c.id for c in h] for h in game.hands]
                sim.deck = [c.id for c in reversed(game.deck)]
                sim.discard = [c.id for c in game.discard_pile]
        elif kind is ActionKind.ANSWER_SWAP:
            offered = game.events[-1].received
            sim.do_swap(offered.id, action.card.id)
        if game.events[-1].turn_ended:
            sim.end_turn()
        _state_matches(sim, game)
    assert sim.is_over
    totals = sim.totals()
    assert totals == [s.total for s in game.result.scores]
    assert sim.winners(totals) == list(game.result.winners)


@settings(max_examples=300, deadline=None)
@given(
    cols=st.lists(st.lists(st.integers(0, 41), max_size=5, unique=True), min_size=2, max_size=4),
    blacks=st.lists(st.integers(0, 2), min_size=4, max_size=4),
    holder=st.integers(-1, 3),
)
def test_cookie_matches_the_engine_rule(cols, blacks, holder):
    # R13 with its tie-breaks, including complete ties and empty collections.
    from engine.cards import ALL_CARDS

    seats = len(cols)
    holder = holder if holder < seats else NO_SEAT
    cards = [[ALL_CARDS[i] for i in c] for c in cols]
    blacks = blacks[:seats]
    expected = cookie_holder(cards, blacks, None if holder == NO_SEAT else holder)
    pairs = zip(cards, blacks, strict=True)
    distinct = [len({c.type for c in cs}) + (1 if b else 0) for cs, b in pairs]
    values = [sorted(c.value for c in cs) for cs in cards]
    got = cookie_after(distinct, values, holder)
    assert got == (NO_SEAT if expected is None else expected)
