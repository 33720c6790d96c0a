"""legal_actions (R7–R11): exactly the moves apply accepts, in a stable order, no duplicates."""

from engine_testkit import random_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, GameConfig, IllegalMove, RandomPolicy
from engine.actions import (
    ANSWERS,
    BLACK_HATS,
    DECLINE,
    DISCARDS,
    END_TURN,
    EXCHANGES,
    OFFERS,
    WITHDRAW,
    ActionKind,
)

ALL_ACTIONS = [
    *(a for row in EXCHANGES for a in row),  # slots 0–6: slot 0 is never legal
    *BLACK_HATS,
    *DISCARDS,
    *OFFERS,
    *ANSWERS,
    DECLINE,
    WITHDRAW,
    END_TURN,
]
KIND_RANK = {
    ActionKind.EXCHANGE: 0,
    ActionKind.BLACK_HAT: 1,
    ActionKind.DISCARD: 2,
    ActionKind.OFFER_SWAP: 2,
    ActionKind.END_TURN: 3,
    ActionKind.ANSWER_SWAP: 0,
    ActionKind.DECLINE_SWAP: 1,
    ActionKind.WITHDRAW_SWAP: 0,
}


def check_order(game: Game, seat: int, actions) -> None:
    assert len(set(actions)) == len(actions)  # no duplicates
    ranks = [KIND_RANK[a.kind] for a in actions]
    assert ranks == sorted(ranks)
    hand = game.hands[seat]
    exchanges = [(hand.index(a.card), a.slot) for a in actions if a.kind is ActionKind.EXCHANGE]
    assert exchanges == sorted(exchanges)
    for kind in (ActionKind.BLACK_HAT, ActionKind.DISCARD, ActionKind.OFFER_SWAP):
        of_kind = [hand.index(a.card) for a in actions if a.kind is kind]
        assert of_kind == sorted(of_kind)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**32),
    policy_seed=st.integers(0, 2**32),
    steps=st.integers(0, 90),
)
def test_r7_r11_legal_actions_are_exactly_the_accepted_moves(seats, seed, policy_seed, steps):
    """R7–R11: every listed action applies (on a copy); every unlisted one raises and changes
    nothing; the order is stable; observations list the same actions."""
    game = random_state(seats, seed, policy_seed, steps)
    before = game.snapshot()
    for seat in [*range(seats), seats, -1]:
        legal = game.legal_actions(seat)
        assert game.legal_actions(seat) == legal  # stable
        if 0 <= seat < seats:
            check_order(game, seat, legal)
            assert game.observation(seat).legal_actions() == legal
        else:
            assert legal == []
        listed = set(legal)
        for action in legal:
            copy = game.copy()
            copy.apply(seat, action)
            assert game.snapshot() == before  # the copy is independent
        for action in ALL_ACTIONS:
            if action in listed:
                continue
            try:
                game.apply(seat, action)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"seat {seat} could apply unlisted {action}")
        assert game.snapshot() == before
    assert game.public_view().legal_actions() == []


def test_r11_to_move_is_the_only_seat_with_actions_except_the_offerer():
    """R10, R11: one seat acts at a time; while an offer waits the offerer may only withdraw."""
    for seed in range(6):
        game = Game.new(GameConfig(4, seed))
        policy = RandomPolicy(seed)
        while not game.is_over:
            acting = {s for s in range(4) if game.legal_actions(s)}
            if game.pending_offer is None:
                assert acting == {game.to_move}
            else:
                assert acting == {game.to_move, game.active}
                assert game.legal_actions(game.active) == [WITHDRAW]
                assert game.legal_actions(game.to_move)[-1] == DECLINE
            step = policy.choose_step(game)
            game.apply(step.seat, step.action)
        assert all(game.legal_actions(s) == [] for s in range(4))
