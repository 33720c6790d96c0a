"""The expert AI: a function of (seed, observation), blind to hidden cards, within its budget,
reading the other seats' public moves (R7–R20, "Who may see what")."""

import dataclasses
import math
import random

import pytest
from ai_support import FAST_EXPERT, FAST_HARD, play_ai_game

from engine import ActionKind, Game, GameConfig, Step
from engine.ai import AiLevel, ExpertAi, ExpertBudget, make_ai
from engine.ai.determinize import deal
from engine.ai.expert import deal_weights, rollout_turns
from engine.ai.inference import HandReader
from engine.ai.knowledge import knowledge_of
from engine.chance import SeededChance
from engine.setup import Setup
from engine.setup import deal as deal_setup

SMALL = ExpertBudget(turns=900, quick_turns=90)


def _play_until(seats: int, seed: int, viewer_turns: int) -> tuple[Game, int]:
    """A hard-AI game stopped when seat 0 must choose its main action of turn ``viewer_turns``."""
    game = Game.new(GameConfig(seats, seed))
    ais = [make_ai(AiLevel.HARD, seed * 10 + s, budget=FAST_HARD) for s in range(seats)]
    while True:
        seat = game.to_move
        if (
            seat == 0
            and game.turns_taken[0] == viewer_turns
            and not game.main_done
            and game.pending_offer is None
        ):
            return game, 0
        game.apply(seat, ais[seat].choose(game.observation(seat), game.legal_actions(seat)))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_same_observation_and_seed_give_the_same_move(seats):
    game, seat = _play_until(seats, 70 + seats, 3)
    obs, legal = game.observation(seat), game.legal_actions(seat)
    kept = ExpertAi(5, SMALL)
    first = kept.choose(obs, legal)
    assert first in legal
    assert ExpertAi(5, SMALL).choose(obs, legal) == first  # a fresh AI
    assert kept.choose(obs, legal) == first  # the same AI asked again
    assert make_ai("expert", 5, budget=SMALL).choose(obs, legal) == first


def _seen_cards(obs) -> set[int]:
    """Every card the viewer sees or saw: public cards, its own cards, its own events."""
    seen = {c.id for c in obs.board} | {c.id for c in obs.hand} | {c.id for c in obs.own_black_hats}
    for cards in obs.collections:
        seen |= {c.id for c in cards}
    for event in obs.events:
        for card in (event.card, event.took, event.drew, event.received):
            if card is not None:
                seen.add(card.id)
    return seen


def _hidden_twin(game: Game, viewer: int, seed: int) -> Game:
    """The same game with every card the viewer never saw moved to another such place.

    The hidden cards are permuted in the deal and in every step (a black hat, a discard or a
    swap made with a card the viewer never saw uses its image), so the twin's steps are the
    same moves on other cards and the viewer's observation is the same.
    """
    obs = game.observation(viewer)
    seen = _seen_cards(obs)
    hidden = [c for c in game.setup.board + game.setup.deck if c.id not in seen]
    hidden += [c for hand in game.setup.hands for c in hand if c.id not in seen]
    hidden.sort(key=lambda c: c.id)
    image = hidden[:]
    random.Random(seed).shuffle(image)
    swap = dict(zip(hidden, image, strict=True))

    def moved(card):
        return swap.get(card, card)

    setup = game.setup
    hands = tuple(tuple(sorted(map(moved, hand), key=lambda c: c.id)) for hand in setup.hands)
    twin_setup = Setup(
        setup.types,
        tuple(map(moved, setup.board)),
        hands,
        tuple(map(moved, setup.deck)),
        setup.start_seat,
    )
    chance = SeededChance(game.config.seed)
    deal_setup(game.config, chance)  # the same draws as the original deal, so reshuffles match
    twin = Game(game.config, twin_setup, chance)
    for step in game.steps:
        action = step.action
        card = getattr(action, "card", None)
        if card is not None:
            action = dataclasses.replace(action, card=moved(card))
        twin.apply(step.seat, action)
    return twin


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_hidden_cards_never_change_the_choice(seats):
    for seed in range(2):
        game, viewer = _play_until(seats, 90 + seed * 7 + seats, 4)
        twin = _hidden_twin(game, viewer, seed)
        assert twin.snapshot() != game.snapshot()  # other hands, deck and black hats...
        obs = game.observation(viewer)
        assert twin.observation(viewer) == obs  # ...that the viewer cannot tell apart
        legal = game.legal_actions(viewer)
        assert ExpertAi(seed, SMALL).choose(obs, legal) == ExpertAi(seed, SMALL).choose(
            twin.observation(viewer), twin.legal_actions(viewer)
        )


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_search_stays_within_its_budget(seats):
    # Seat 0 is an expert with a small budget for a whole game against hard AIs; every one of
    # its decisions simulates at most its budget of turns (counted, not timed).
    budget = ExpertBudget(turns=300, quick_turns=40)
    game = Game.new(GameConfig(seats, 40 + seats))
    expert = ExpertAi(1, budget)
    others = [make_ai(AiLevel.HARD, s, budget=FAST_HARD) for s in range(seats)]
    searched = {"main": 0, "after": 0, "answer": 0}
    while not game.is_over:
        seat = game.to_move
        obs, legal = game.observation(seat), game.legal_actions(seat)
        if seat != 0:
            game.apply(seat, others[seat].choose(obs, legal))
            continue
        action = expert.choose(obs, legal)
        stats = expert.stats
        work = stats.rollouts * rollout_turns(obs, None) + stats.deals * stats.moments
        assert stats.turns == work
        if obs.pending_swap is not None:  # answering the partner's offer (R10): quick
            kind, limit = "answer", budget.quick_turns
        elif obs.main_done:
            kind, limit = "after", budget.quick_turns
        else:
            kind, limit = "main", budget.turns
        if stats.rollouts:
            searched[kind] += 1
            assert stats.turns <= limit
            assert stats.candidates > 1 and stats.deals * stats.candidates >= stats.rollouts
        game.apply(seat, action)
    assert searched["main"] >= 4
    if seats == 4:  # the partner (a hard AI) offers swaps: the expert searches its answers
        assert searched["answer"] >= 1
    assert seats == 4 or searched["after"] >= 4  # end the turn or discard (R9, R11)
    assert ExpertAi(1, SMALL).stats.rollouts == 0  # nothing before the first decision


def test_swaps_follow_the_normal_rules_when_not_searched():
    # With swaps=False a 4-seat expert leaves offers and answers to the normal AI's rules
    # (no rollout); with the default it searches them (R10).
    plain = ExpertBudget(turns=300, quick_turns=40, swaps=False)
    game = Game.new(GameConfig(4, 44))
    others = [make_ai(AiLevel.HARD, s, budget=FAST_HARD) for s in range(4)]
    searched_answers = unsearched_answers = 0
    while not game.is_over:
        seat = game.to_move
        obs, legal = game.observation(seat), game.legal_actions(seat)
        if seat == 0 and obs.pending_swap is not None:
            off = ExpertAi(1, plain)
            on = ExpertAi(1, ExpertBudget(turns=300, quick_turns=40))
            off.choose(obs, legal)
            on.choose(obs, legal)
            unsearched_answers += off.stats.rollouts == 0
            searched_answers += on.stats.rollouts > 0
        game.apply(seat, others[seat].choose(obs, legal))
    assert unsearched_answers >= 1 and searched_answers == unsearched_answers


def test_a_swap_answer_is_searched_quickly_and_only_with_the_viewers_cards():
    # The partner's answer to an offer (R10) is a quick decision: searched within
    # quick_turns, among declining and giving one of the cards worth least to keep; the
    # offered card is hidden from it, so the choice is the same whatever was offered.
    budget = ExpertBudget(turns=3000, quick_turns=300)
    choices = set()
    for offer_index in (-2, -3):
        game = Game.new(GameConfig(4, 3))
        offerer = game.to_move
        offer = game.legal_actions(offerer)[offer_index]
        assert offer.kind is ActionKind.OFFER_SWAP
        game.apply(offerer, offer)
        partner = game.to_move
        assert partner == (offerer + 2) % 4
        ai = ExpertAi(1, budget)
        action = ai.choose(game.observation(partner), game.legal_actions(partner))
        assert action.kind in (ActionKind.ANSWER_SWAP, ActionKind.DECLINE_SWAP)
        assert 0 < ai.stats.turns <= budget.quick_turns
        assert ai.stats.candidates == 1 + budget.offers
        choices.add(action)
    assert len(choices) == 1


def test_inference_puts_weight_on_the_deals_that_explain_the_public_moves():
    # Over positions of hard-AI games, deals weighted by the other seats' main actions (R7, R8)
    # hold more of their real hand cards than unweighted deals.
    weighted_sum = unweighted_sum = 0.0
    for seats, seed in ((2, 5), (3, 6), (3, 8), (4, 7)):
        game, viewer = _play_until(seats, seed, 5)
        obs = game.observation(viewer)
        know = knowledge_of(obs)
        reader = HandReader(obs, spite=0.5, top=5, slope=0.5)
        assert reader.moments > 0
        rng = random.Random(seed)
        logs, right = [], []
        for _ in range(120):
            state, faces = deal(obs, rng, know)
            logs.append(reader.log_weight(state, faces))
            right.append(
                sum(
                    len(set(state.hands[s]) & {c.id for c in game.hands[s]})
                    for s in range(seats)
                    if s != viewer
                )
            )
        weights = [math.exp(w - max(logs)) for w in logs]
        weighted_sum += sum(w * r for w, r in zip(weights, right, strict=True)) / sum(weights)
        unweighted_sum += sum(right) / len(right)
    assert weighted_sum > unweighted_sum + 0.5


def test_deal_weights_keep_an_effective_sample():
    logs = [0.0] + [-30.0] * 99  # one deal would take all the weight
    weights = deal_weights(logs, floor=0.5)
    ess = sum(weights) ** 2 / sum(w * w for w in weights)
    assert ess >= 0.5 * 100 * 0.99
    assert weights[0] == max(weights)  # the likeliest deal still weighs most
    assert deal_weights([0.0, -1.0], floor=0.1) == [1.0, math.exp(-1.0)]  # untempered
    assert deal_weights([-math.inf, -math.inf], floor=0.5) == [1.0, 1.0]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_expert_games_stay_legal_and_finish(seats):
    levels = ["expert", "hard", "expert", "normal"][:seats]
    game = play_ai_game(seats, 60 + seats, levels, [3, 4, 5, 6][:seats])
    assert game.result is not None and all(t == 8 for t in game.turns_taken)
    assert Game.replay(game.config, [Step(s.seat, s.action) for s in game.steps]).is_over
    assert FAST_EXPERT.turns < ExpertBudget().turns
