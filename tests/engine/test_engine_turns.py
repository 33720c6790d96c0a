"""R7–R12 and R14: exchanges, black hats, discards and reshuffles, partner swaps, turn ends."""

import pytest
from engine_testkit import C, make_game, random_game

from engine import (
    AnswerSwap,
    BlackHat,
    DeclineSwap,
    Discard,
    EndTurn,
    Exchange,
    Game,
    GameConfig,
    OfferSwap,
    WithdrawSwap,
    exchange_allowed,
)
from engine.actions import ActionKind
from engine.errors import GameOver, IllegalExchange, MainActionNeeded, OptionalActionUsed

BOARD = "red3 blue5 green1 yellow6 purple2 brown4"


# ----------------------------------------------------------------------------- R7 exchange
@pytest.mark.parametrize(
    ("card", "slot", "taken"),
    [
        ("red1", 1, "red3"),  # same type, lower value
        ("red6", 1, "red3"),  # same type, higher value
        ("orange4", 1, "red3"),  # other type, strictly higher
        ("blue6", 2, "blue5"),
        ("orange2", 3, "green1"),
    ],
)
def test_r7_legal_exchanges_move_both_cards(card, slot, taken):
    game = make_game(3, board=BOARD, hands=[card])
    event = game.apply(0, Exchange(C(card), slot))
    assert game.board[slot - 1] is C(card)
    assert game.collections[0] == [C(taken)]
    assert C(card) not in game.hands[0]
    assert (event.kind, event.card, event.slot, event.took) == (
        ActionKind.EXCHANGE,
        C(card),
        slot,
        C(taken),
    )
    assert game.main_done and not event.turn_ended  # the optional action is still open


@pytest.mark.parametrize(
    ("card", "slot", "reason"),
    [
        ("orange3", 1, "equal_value"),  # equal values of different types
        ("orange5", 2, "equal_value"),
        ("orange2", 1, "not_higher"),
        ("orange1", 3, "equal_value"),
        ("orange4", 2, "not_higher"),
    ],
)
def test_r7_illegal_exchanges_raise_with_reason(card, slot, reason):
    game = make_game(3, board=BOARD, hands=[card])
    before = game.snapshot()
    with pytest.raises(IllegalExchange) as info:
        game.apply(0, Exchange(C(card), slot))
    assert info.value.reason == reason == info.value.params["reason"]
    assert info.value.code == "illegal_exchange"
    assert game.snapshot() == before


def test_r7_exchange_allowed_matches_the_rule_for_every_pair():
    from engine import ALL_CARDS

    for card in ALL_CARDS:
        for taken in ALL_CARDS:
            if card is taken:
                continue
            expected = card.type is taken.type or card.value > taken.value
            assert exchange_allowed(card, taken) is expected


# ----------------------------------------------------------------------------- R8 black hat
def test_r8_black_hat_goes_face_down_into_the_collection():
    game = make_game(3, board=BOARD, hands=["orange2"])
    event = game.apply(0, BlackHat(C("orange2")))
    assert game.black_hats[0] == [C("orange2")]
    assert game.collections[0] == []
    assert C("orange2") not in game.hands[0]
    assert event.kind is ActionKind.BLACK_HAT and game.main_done
    public = game.public_view()
    assert public.black_hat_counts == (1, 0, 0)
    assert public.events[-1].card is None  # that it happened is public, not the card
    assert game.observation(0).own_black_hats == (C("orange2"),)
    assert game.observation(1).own_black_hats == ()
    assert game.cookie == 0  # black counts as a type for the cookie (R13)


# ----------------------------------------------------------------------------- R9 discard
def test_r9_discard_puts_the_card_on_the_pile_and_draws_the_top_card():
    game = make_game(3, board=BOARD, hands=["orange2"], deck="purple6 brown1")
    event = game.apply(0, Discard(C("orange2")))
    assert game.discard_pile == [C("orange2")]
    assert event.drew is C("purple6") and C("purple6") in game.hands[0]
    assert game.deck[0] is C("brown1") and len(game.deck) == 8
    assert len(game.hands[0]) == 9
    assert game.optional_used and not game.main_done and not event.turn_ended
    assert not event.reshuffled


@pytest.mark.parametrize("seats", [2, 3])
def test_r9_empty_deck_reshuffles_the_whole_pile_with_the_card_just_discarded(seats):
    """R9 decision: the discard pile, the new discard included, becomes the deck, then draw."""
    game = Game.new(GameConfig(seats, 21))
    deck_size = len(game.deck)
    for _ in range(deck_size):  # empty the deck: a discard and a black hat every turn
        seat = game.active
        game.apply(seat, Discard(game.hands[seat][0]))
        game.apply(seat, BlackHat(game.hands[seat][0]))
    assert game.deck == [] and len(game.discard_pile) == deck_size
    pile = list(game.discard_pile)
    seat = game.active
    card = game.hands[seat][-1]
    event = game.apply(seat, Discard(card))
    assert event.reshuffled
    assert game.discard_pile == []
    new_deck = game.record_turns()[-1]["steps"][-1]["reshuffled"]
    assert sorted(new_deck) == sorted(c.code for c in [*pile, card])
    assert new_deck[0] == event.drew.code  # the draw happens after the shuffle
    assert [c.code for c in game.deck] == new_deck[1:]
    assert event.drew in game.hands[seat]


def test_r9_reshuffle_of_a_single_card_draws_it_back():
    game = Game.new(GameConfig(2, 4))
    for _ in range(7):
        seat = game.active
        game.apply(seat, Discard(game.hands[seat][0]))
        game.apply(seat, BlackHat(game.hands[seat][0]))
    # Another discard reshuffles: the pile holds 8 cards, the deck gets 7 after the draw.
    seat = game.active
    game.apply(seat, Discard(game.hands[seat][0]))
    assert len(game.deck) == 7 and game.discard_pile == []


# ----------------------------------------------------------------------------- R10 swap
def _four_seats():
    return make_game(4, board=BOARD, hands=["red1 red2", "orange1", "blue1 blue2", "green2"])


def test_r10_swap_exchanges_one_card_each_way():
    game = _four_seats()
    offer = game.apply(0, OfferSwap(C("red1")))
    assert game.to_move == 2 and game.pending_offer is C("red1")
    assert offer.partner == 2 and not game.optional_used
    answer = game.apply(2, AnswerSwap(C("blue1")))
    assert C("blue1") in game.hands[0] and C("red1") not in game.hands[0]
    assert C("red1") in game.hands[2] and C("blue1") not in game.hands[2]
    assert [len(h) for h in game.hands] == [9, 9, 9, 9]
    assert game.optional_used and game.to_move == 0 and game.pending_offer is None
    assert (answer.seat, answer.card, answer.partner, answer.received) == (
        2,
        C("blue1"),
        0,
        C("red1"),
    )
    assert game.record_turns()[0]["steps"] == [
        {"kind": "swap", "card": "red1", "partner": 2, "received": "blue1"}
    ]


@pytest.mark.parametrize("refuse", ["decline", "withdraw"])
def test_r10_declined_or_withdrawn_swap_changes_nothing_and_keeps_the_optional(refuse):
    game = _four_seats()
    hands = [list(h) for h in game.hands]
    game.apply(0, OfferSwap(C("red1")))
    if refuse == "decline":
        game.apply(2, DeclineSwap())
    else:
        game.apply(0, WithdrawSwap())
    assert game.hands == hands
    assert not game.optional_used and game.pending_offer is None and game.to_move == 0
    assert game.record_turns() == []  # not a step of the record
    # The optional action is still open: offer again, this time it is answered.
    game.apply(0, OfferSwap(C("red2")))
    game.apply(2, AnswerSwap(C("blue2")))
    assert game.optional_used


def test_r10_swap_after_the_main_action_ends_the_turn():
    game = _four_seats()
    game.apply(0, BlackHat(C("red2")))
    game.apply(0, OfferSwap(C("red1")))
    event = game.apply(2, AnswerSwap(C("blue1")))
    assert event.turn_ended and game.active == 1 and game.turns_taken == [1, 0, 0, 0]


def test_r10_decline_after_the_main_action_leaves_the_turn_open():
    game = _four_seats()
    game.apply(0, BlackHat(C("red2")))
    game.apply(0, OfferSwap(C("red1")))
    event = game.apply(2, DeclineSwap())
    assert not event.turn_ended and game.active == 0
    assert game.legal_actions(0)[-1] == EndTurn()


def test_r10_partner_does_not_see_the_offered_card_before_answering():
    game = _four_seats()
    game.apply(0, OfferSwap(C("red1")))
    partner_view = game.observation(2)
    assert partner_view.pending_swap.card is None
    assert partner_view.events[-1].card is None
    assert game.observation(0).pending_swap.card is C("red1")
    assert game.public_view().pending_swap.card is None


# ----------------------------------------------------------------------------- R11 turn end
def test_r11_turn_ends_by_itself_after_main_and_optional():
    game = make_game(3, board=BOARD, hands=["orange2 orange3"])
    assert not game.apply(0, Discard(C("orange2"))).turn_ended
    event = game.apply(0, BlackHat(C("orange3")))
    assert event.turn_ended and game.active == 1 and not game.main_done


def test_r11_optional_after_main_ends_the_turn():
    game = make_game(3, board=BOARD, hands=["orange2 orange3"])
    game.apply(0, BlackHat(C("orange3")))
    assert game.active == 0
    assert game.apply(0, Discard(C("orange2"))).turn_ended and game.active == 1


def test_r11_player_may_end_the_turn_straight_after_the_main_action():
    game = make_game(3, board=BOARD, hands=["orange3"])
    game.apply(0, BlackHat(C("orange3")))
    event = game.apply(0, EndTurn())
    assert event.turn_ended and game.active == 1 and game.turns_taken == [1, 0, 0]
    assert game.record_turns() == [{"seat": 0, "steps": [{"kind": "black_hat", "card": "orange3"}]}]


def test_r11_end_turn_needs_the_main_action_and_one_optional_a_turn():
    game = make_game(3, board=BOARD, hands=["orange2 orange3"])
    with pytest.raises(MainActionNeeded):
        game.apply(0, EndTurn())
    game.apply(0, Discard(C("orange2")))
    with pytest.raises(OptionalActionUsed):
        game.apply(0, Discard(C("orange3")))


# ----------------------------------------------------------------------------- R12
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_r12_cards_change_hands_only_by_partner_swap(seats):
    """R12: a hand gains only the seat's own draws and swap receipts; collections only grow."""
    for seed in range(4):
        game = random_game(seats, seed, policy_seed=seed + 100)
        replay = Game.new(game.config)
        swaps = 0
        for step, event in zip(game.steps, game.events, strict=True):
            hands = [set(h) for h in replay.hands]
            collections = [list(c) for c in replay.collections]
            replay.apply(step.seat, step.action)
            for seat in range(seats):
                allowed = set()
                if event.kind is ActionKind.DISCARD and event.seat == seat:
                    allowed = {event.drew}
                elif event.kind is ActionKind.ANSWER_SWAP and seat == event.seat:
                    allowed = {event.received}  # the answering partner gets the offered card
                elif event.kind is ActionKind.ANSWER_SWAP and seat == event.partner:
                    allowed = {event.card}  # the offerer gets the card given back
                assert set(replay.hands[seat]) - hands[seat] <= allowed
                assert replay.collections[seat][: len(collections[seat])] == collections[seat]
            swaps += event.kind is ActionKind.ANSWER_SWAP
        assert replay.snapshot() == game.snapshot()
        assert (swaps > 0) == (seats == 4)


# ----------------------------------------------------------------------------- R14 the end
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_r14_game_ends_after_eight_turns_each_with_one_favourite(seats):
    game = random_game(seats, seed=seats, policy_seed=7)
    assert game.turns_taken == [8] * seats
    assert [len(h) for h in game.hands] == [1] * seats
    assert game.result.favourites == tuple(h[0] for h in game.hands)
    assert game.to_move is None and game.is_over and game.legal_actions(game.active) == []
    assert game.events[-1].game_over and game.events[-1].turn_ended
    assert sum(e.game_over for e in game.events) == 1
    with pytest.raises(GameOver):
        game.apply(game.active, EndTurn())


def test_r14_round_counts_one_to_eight():
    game = Game.new(GameConfig(3, 1))
    rounds = []
    while not game.is_over:
        rounds.append(game.round)
        seat = game.active
        game.apply(seat, BlackHat(game.hands[seat][0]))
        game.apply(seat, EndTurn())
    assert rounds == [r for r in range(1, 9) for _ in range(3)]
    assert game.round == 8
