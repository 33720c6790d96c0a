"""Illegal moves (R7–R14, "not your turn", unknown seats): each raises its own error and
changes nothing at all."""

import dataclasses

import pytest
from engine_testkit import C, make_game, random_game

from engine import (
    AnswerSwap,
    BlackHat,
    DeclineSwap,
    Discard,
    EndTurn,
    Exchange,
    IllegalMove,
    OfferSwap,
    WithdrawSwap,
)
from engine.errors import (
    CardNotInHand,
    GameOver,
    IllegalExchange,
    InvalidSlot,
    MainActionDone,
    MainActionNeeded,
    NoPendingSwap,
    NotInThisMode,
    NotYourTurn,
    OptionalActionUsed,
    SwapPending,
    UnknownSeat,
)

BOARD = "red3 blue5 green1 yellow6 purple2 brown4"


def three(**kwargs):
    return make_game(3, board=BOARD, hands=["orange3 orange2 red6 orange5", "red1"], **kwargs)


def four():
    return make_game(4, board=BOARD, hands=["orange3 orange2", "red1", "red2", "red4"])


def offered():
    game = four()
    game.apply(0, OfferSwap(C("orange3")))
    return game


def main_done(game):
    game.apply(0, BlackHat(C("orange2")))
    return game


def discarded(game):
    game.apply(0, Discard(C("orange2")))
    return game


def over():
    return random_game(3, seed=1, policy_seed=2)


# (id, rule, build the game, seat, action, error class, error params to check)
CASES = [
    ("not_your_turn", "R11", three, 1, BlackHat(C("red1")), NotYourTurn, {"waiting_for": 0}),
    ("card_not_in_hand", "R7", three, 0, Exchange(C("red1"), 1), CardNotInHand, {"card": "red1"}),
    ("black_hat_not_in_hand", "R8", three, 0, BlackHat(C("red1")), CardNotInHand, {}),
    ("discard_not_in_hand", "R9", three, 0, Discard(C("red1")), CardNotInHand, {}),
    ("equal_value", "R7", three, 0, Exchange(C("orange3"), 1), IllegalExchange,
     {"reason": "equal_value", "taken": "red3", "slot": 1}),
    ("not_higher", "R7", three, 0, Exchange(C("orange2"), 1), IllegalExchange,
     {"reason": "not_higher"}),
    ("slot_zero", "R2", three, 0, Exchange(C("red6"), 0), InvalidSlot, {"slot": 0}),
    ("slot_seven", "R2", three, 0, Exchange(C("red6"), 7), InvalidSlot, {"slot": 7}),
    ("slot_six_with_2_seats", "R3", lambda: make_game(2, hands=["blue6"]), 0,
     Exchange(C("blue6"), 6), InvalidSlot, {"slots": 5}),
    ("main_action_done", "R7", lambda: main_done(three()), 0, Exchange(C("red6"), 1),
     MainActionDone, {}),
    ("second_black_hat", "R8", lambda: main_done(three()), 0, BlackHat(C("red6")),
     MainActionDone, {}),
    ("main_action_needed", "R11", three, 0, EndTurn(), MainActionNeeded, {}),
    ("main_needed_after_discard", "R11", lambda: discarded(three()), 0, EndTurn(),
     MainActionNeeded, {}),
    ("optional_used", "R11", lambda: discarded(three()), 0, Discard(C("orange3")),
     OptionalActionUsed, {}),
    ("discard_with_4_seats", "R9", four, 0, Discard(C("orange3")), NotInThisMode,
     {"kind": "discard", "seats": 4}),
    ("swap_with_3_seats", "R10", three, 0, OfferSwap(C("orange3")), NotInThisMode,
     {"kind": "offer_swap", "seats": 3}),
    ("swap_with_2_seats", "R10", lambda: make_game(2, hands=["blue6"]), 0,
     OfferSwap(C("blue6")), NotInThisMode, {"seats": 2}),
    ("offer_not_in_hand", "R10", four, 0, OfferSwap(C("red1")), CardNotInHand, {}),
    ("answer_without_offer", "R10", four, 2, AnswerSwap(C("red2")), NoPendingSwap, {}),
    ("decline_without_offer", "R10", four, 2, DeclineSwap(), NoPendingSwap, {}),
    ("withdraw_without_offer", "R10", four, 0, WithdrawSwap(), NoPendingSwap, {}),
    ("answer_with_3_seats", "R10", three, 1, AnswerSwap(C("red1")), NoPendingSwap, {}),
    ("swap_pending_exchange", "R10", offered, 0, Exchange(C("orange2"), 3), SwapPending,
     {"partner": 2}),
    ("swap_pending_end_turn", "R10", offered, 0, EndTurn(), SwapPending, {}),
    ("swap_pending_offer_again", "R10", offered, 0, OfferSwap(C("orange2")), SwapPending, {}),
    ("bystander_during_offer", "R10", offered, 1, DeclineSwap(), NotYourTurn,
     {"waiting_for": 2}),
    ("bystander_withdraw", "R10", offered, 3, WithdrawSwap(), NotYourTurn, {"waiting_for": 2}),
    ("partner_withdraws", "R10", offered, 2, WithdrawSwap(), NotYourTurn, {"waiting_for": 0}),
    ("partner_plays_instead", "R10", offered, 2, BlackHat(C("red2")), NotYourTurn, {}),
    ("answer_not_in_hand", "R10", offered, 2, AnswerSwap(C("orange2")), CardNotInHand, {}),
    ("game_over", "R14", over, 0, EndTurn(), GameOver, {}),
    ("game_over_unknown_seat", "R14", over, 9, EndTurn(), GameOver, {}),
    ("unknown_seat", "R5", three, 3, EndTurn(), UnknownSeat, {"seat": 3}),
    ("negative_seat", "R5", four, -1, BlackHat(C("red1")), UnknownSeat, {"seat": -1}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "build", "seat", "action", "error", "params"),
    [case[1:] for case in CASES],
    ids=[f"{case[1]}-{case[0]}" for case in CASES],
)
def test_illegal_move_raises_its_error_and_changes_nothing(
    rule, build, seat, action, error, params
):
    """R2–R14: the error class, its code and params; snapshot, steps and events unchanged."""
    game = build()
    before = game.snapshot()
    steps, events = list(game.steps), list(game.events)
    record = game.record_turns()
    with pytest.raises(error) as info:
        game.apply(seat, action)
    exc = info.value
    assert type(exc) is error and isinstance(exc, IllegalMove)
    assert exc.code == error.code and exc.code != IllegalMove.code
    for key, value in params.items():
        assert exc.params[key] == value
    assert str(exc)
    assert game.snapshot() == before
    assert game.steps == steps and game.events == events and game.record_turns() == record
    assert action not in game.legal_actions(seat)


def test_r10_r11_every_error_code_is_distinct():
    codes = {case[5].code for case in CASES}
    assert len(codes) == len({case[5] for case in CASES}) == 12


def test_r9_failed_scripted_reshuffle_changes_nothing():
    """R9: a record whose reshuffle is wrong fails before the discard moves any card."""
    from engine import Game
    from engine.chance import ScriptedChance

    game = make_game(2, hands=["blue6"])
    # An empty draw deck forces a reshuffle the script does not have.
    scripted = Game(game.config, dataclasses.replace(game.setup, deck=()), ScriptedChance([]))
    before = scripted.snapshot()
    with pytest.raises(ValueError):
        scripted.apply(0, Discard(C("blue6")))
    assert scripted.snapshot() == before
