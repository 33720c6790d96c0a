"""AI partners answer swap offers and do not loop on a declined offer (R10)."""

import pytest
from ai_support import quick_ai

from engine import ActionKind, Game, GameConfig, OfferSwap
from engine.ai import AiLevel


def _offer_pending(seed):
    game = Game.new(GameConfig(4, seed))
    offerer = game.to_move
    game.apply(offerer, OfferSwap(game.hands[offerer][0]))
    return game, offerer


@pytest.mark.parametrize("level", list(AiLevel))
def test_ai_partner_answers_or_declines_a_pending_offer(level):
    answered = 0
    for seed in range(12):
        game, offerer = _offer_pending(seed)
        partner = game.to_move
        assert partner == (offerer + 2) % 4
        legal = game.legal_actions(partner)
        action = quick_ai(level, seed).choose(game.observation(partner), legal)
        assert action.kind in (ActionKind.ANSWER_SWAP, ActionKind.DECLINE_SWAP)
        given = game.hands[offerer][0]
        game.apply(partner, action)
        assert game.pending_offer is None
        if action.kind is ActionKind.ANSWER_SWAP:
            answered += 1
            assert given in game.hands[partner]  # the swap happened
            assert action.card in game.hands[offerer]
    assert answered > 0  # partners do answer, not only decline


@pytest.mark.parametrize("level", list(AiLevel))
def test_ai_does_not_offer_again_after_a_decline(level):
    for seed in range(6):
        game, offerer = _offer_pending(seed)
        partner = game.to_move
        game.apply(partner, game.legal_actions(partner)[-1])  # decline
        assert game.to_move == offerer
        action = quick_ai(level, seed).choose(
            game.observation(offerer), game.legal_actions(offerer)
        )
        assert action.kind is not ActionKind.OFFER_SWAP
        assert action.kind.is_main
