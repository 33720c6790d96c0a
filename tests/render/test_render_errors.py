"""Illegal moves in words: every engine error code gets its own explanation."""

from __future__ import annotations

import pytest
from render_support import EN, FR, seat_labels

import engine.errors as errors_module
from engine import Game, GameConfig, IllegalMove
from engine.actions import (
    ANSWERS,
    BLACK_HATS,
    DECLINE,
    DISCARDS,
    END_TURN,
    EXCHANGES,
    OFFERS,
)
from texts import card_short, illegal_move_text

GENERIC = "That move is not allowed."


def _raise(game: Game, seat: int, action) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        game.apply(seat, action)
    return info.value


def _all_errors() -> dict[str, tuple[IllegalMove, int]]:
    """One real error per code, produced by the engine; value: (error, seats in the game)."""
    out: dict[str, tuple[IllegalMove, int]] = {}
    g3 = Game.new(GameConfig(3, 2))
    a = g3.active
    other = (a + 1) % 3
    out["not_your_turn"] = (_raise(g3, other, BLACK_HATS[g3.hands[other][0].id]), 3)
    missing = next(c for c in g3.board)  # a board card is in nobody's hand
    out["card_not_in_hand"] = (_raise(g3, a, BLACK_HATS[missing.id]), 3)
    out["main_action_needed"] = (_raise(g3, a, END_TURN), 3)
    out["not_in_this_mode"] = (_raise(g3, a, OFFERS[g3.hands[a][0].id]), 3)
    out["no_pending_swap"] = (_raise(g3, a, DECLINE), 3)
    out["unknown_seat"] = (_raise(g3, 7, END_TURN), 3)
    g3.apply(a, DISCARDS[g3.hands[a][0].id])
    out["optional_action_used"] = (_raise(g3, a, DISCARDS[g3.hands[a][0].id]), 3)
    g3.apply(a, BLACK_HATS[g3.hands[a][0].id])  # main + optional: the turn ends
    b = g3.active
    g3.apply(b, BLACK_HATS[g3.hands[b][0].id])
    out["main_action_done"] = (_raise(g3, b, BLACK_HATS[g3.hands[b][0].id]), 3)

    g2 = Game.new(GameConfig(2, 3))
    out["invalid_slot"] = (_raise(g2, g2.active, EXCHANGES[g2.hands[g2.active][-1].id][6]), 2)

    g4 = Game.new(GameConfig(4, 4))
    s = g4.active
    g4.apply(s, OFFERS[g4.hands[s][0].id])
    out["swap_pending"] = (_raise(g4, s, BLACK_HATS[g4.hands[s][1].id]), 4)
    g4.apply((s + 2) % 4, ANSWERS[g4.hands[(s + 2) % 4][0].id])

    for seed in range(50):
        game = Game.new(GameConfig(3, seed))
        seat = game.active
        for card in game.hands[seat]:
            for slot, taken in enumerate(game.board, start=1):
                bad = card.type is not taken.type and card.value <= taken.value
                key = "equal" if card.value == taken.value else "lower"
                if bad and f"illegal_exchange:{key}" not in out:
                    out[f"illegal_exchange:{key}"] = (
                        _raise(game, seat, EXCHANGES[card.id][slot]),
                        3,
                    )
        if "illegal_exchange:equal" in out and "illegal_exchange:lower" in out:
            break

    over = Game.new(GameConfig(2, 1))
    while not over.is_over:
        seat = over.to_move
        over.apply(seat, over.legal_actions(seat)[0])
    out["game_over"] = (_raise(over, 0, END_TURN), 2)
    return out


ERRORS = _all_errors()


def test_every_engine_error_code_is_covered_here():
    codes = {
        cls.code
        for cls in vars(errors_module).values()
        if isinstance(cls, type) and issubclass(cls, IllegalMove) and cls is not IllegalMove
    }
    made = {err.code for err, _ in ERRORS.values()}
    assert codes == made


@pytest.mark.parametrize("key", sorted(ERRORS))
def test_each_error_has_its_own_words(key):
    err, seats = ERRORS[key]
    text = illegal_move_text(err, EN, seat_labels(seats))
    assert text and text != GENERIC
    assert "{" not in text  # every placeholder filled


def test_error_texts_are_all_different():
    texts = [illegal_move_text(e, EN, seat_labels(s)) for e, s in ERRORS.values()]
    assert len(set(texts)) == len(texts)


def test_not_your_turn_names_whose_turn_it_is():
    err, seats = ERRORS["not_your_turn"]
    who = err.params["waiting_for"]
    assert f"<@{1001 + who}>" in illegal_move_text(err, EN, seat_labels(seats))


def test_illegal_exchange_says_why():
    equal, _ = ERRORS["illegal_exchange:equal"]
    lower, _ = ERRORS["illegal_exchange:lower"]
    eq_text = illegal_move_text(equal, EN, seat_labels(3))
    low_text = illegal_move_text(lower, EN, seat_labels(3))
    assert "different colours with the same number never exchange" in eq_text
    assert "same colour" in low_text and "higher than" in low_text
    p = lower.params
    from engine.cards import card_from_code

    taken = card_from_code(p["taken"])
    assert card_short(taken) in low_text and f"slot {p['slot']}" in low_text
    assert f"({taken.type.value})" in low_text and f"higher than {taken.value}." in low_text


def test_swap_pending_names_the_partner_and_mode_errors_suggest_the_right_action():
    err, _ = ERRORS["swap_pending"]
    text = illegal_move_text(err, EN, seat_labels(4))
    assert f"<@{1001 + err.params['partner']}>" in text and "withdraw" in text
    mode, _ = ERRORS["not_in_this_mode"]
    assert "discard a card and draw one instead" in illegal_move_text(mode, EN, seat_labels(3))


def test_unknown_code_gets_a_generic_sentence():
    assert illegal_move_text(IllegalMove("odd"), EN, seat_labels(2)) == GENERIC


def test_french_error():
    err, seats = ERRORS["not_your_turn"]
    assert illegal_move_text(err, FR, seat_labels(seats)).startswith("Ce n’est pas à toi")
