"""The greedy gains equal the change of the estimated score, move by move (R13, R15–R18)."""

import random

from ai_support import sim_from_game
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, GameConfig
from engine.ai.evaluate import BLACK_HAT_SLOT, Evaluator, favourite_estimate
from engine.ai.sim import NUM_TYPES, worth_of
from engine.scoring import COOKIE_POINTS


def _estimate(sim, seat, spite):
    """Brute force: team collection + own favourite + team cookie − spite × opponents'."""
    worth = worth_of(sim.board)

    def coll(s):
        return sim.blacks[s] + sum(sim.counts[s][t] * worth[t] for t in range(NUM_TYPES))

    team = sim.team_of(seat)
    opponents = [s for s in range(sim.seats) if s not in team]
    units = 1 if sim.seats == 4 else len(opponents)
    mine = sum(coll(s) for s in team) + favourite_estimate(sim.hands[seat], sim.sums[seat])
    mine += COOKIE_POINTS if sim.cookie in team else 0
    theirs = sum(coll(s) + (COOKIE_POINTS if sim.cookie == s else 0) for s in opponents)
    return mine - spite * theirs / units


@settings(max_examples=60, deadline=None)
@given(
    seats=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    turns=st.integers(0, 30),
    spite=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_gains_match_the_brute_force_estimate(seats, seed, turns, spite):
    rng = random.Random(seed)
    game = Game.new(GameConfig(seats, seed))
    while sum(game.turns_taken) < min(turns, seats * 8 - 1) or game.main_done:
        seat = game.to_move
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    if game.pending_offer is not None:
        return
    sim = sim_from_game(game)
    seat = sim.active
    before = _estimate(sim, seat, spite)
    gains = Evaluator(sim, seat, spite).main_gains()
    legal_mains = {
        (a.card.id, getattr(a, "slot", BLACK_HAT_SLOT))
        for a in game.legal_actions(seat)
        if a.kind.is_main
    }
    assert {(card, slot) for _g, card, slot in gains} == legal_mains  # R7, R8
    for gain, card, slot in gains:
        after = sim.copy()
        if slot == BLACK_HAT_SLOT:
            after.do_black_hat(card)
        else:
            after.do_exchange(card, slot)
        assert abs(gain - (_estimate(after, seat, spite) - before)) < 1e-9, (card, slot)
