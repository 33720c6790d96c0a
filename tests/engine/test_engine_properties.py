"""Properties of random games (2, 3, 4 seats), checked after every step: card conservation
(R1–R4, R12), hand and collection sizes (R7–R10, R14), the cookie (R13), hidden information
("Who may see what", R21), replays and records, determinism."""

import json
from dataclasses import fields

from engine_testkit import card_places, main_actions_taken
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, GameConfig, Observation, RandomPolicy, Step, from_record, to_record
from engine.actions import ActionKind
from engine.cookie import cookie_holder

SEATS = st.sampled_from([2, 3, 4])
SEEDS = st.integers(0, 2**63)
SETTINGS = settings(max_examples=20, deadline=None)

# Observation fields that may hold cards, and how each is checked in check_observation.
CARD_FIELDS = {"board", "hand", "own_black_hats", "collections", "pending_swap", "events", "result"}


def check_observation(game: Game, viewer: int | None) -> None:
    """Nothing of another seat's hand, black hat faces, discards, draws or swaps."""
    obs: Observation = game.observation(viewer)
    names = {f.name for f in fields(Observation)}
    card_like = {name for name in names if _holds_cards(getattr(obs, name)) or name in CARD_FIELDS}
    assert card_like <= CARD_FIELDS, f"unchecked fields that hold cards: {card_like - CARD_FIELDS}"
    assert obs.board == tuple(game.board)
    assert obs.collections == tuple(tuple(c) for c in game.collections)
    assert obs.hand_sizes == tuple(len(h) for h in game.hands)
    assert obs.black_hat_counts == tuple(len(b) for b in game.black_hats)
    assert (obs.deck_size, obs.discard_size) == (len(game.deck), len(game.discard_pile))
    assert obs.cookie == game.cookie and obs.to_move == game.to_move
    if viewer is None:
        assert obs.hand is None and obs.own_black_hats is None
    else:
        assert obs.hand == tuple(game.hands[viewer])
        assert obs.own_black_hats == tuple(game.black_hats[viewer])
    if obs.pending_swap is not None:
        shown = obs.pending_swap.card
        assert shown == (game.pending_offer if viewer == game.active else None)
    assert obs.result is game.result  # None until the end (R21)
    assert len(obs.events) == len(game.events)
    for seen, full in zip(obs.events, game.events, strict=True):
        if full.kind is ActionKind.EXCHANGE:
            assert seen == full  # public (R7)
            continue
        # A swap's cards are the partners'; a black hat (R8), discard (R9) or offer (R10)
        # is the acting seat's alone.
        swap = full.kind is ActionKind.ANSWER_SWAP
        allowed = {full.seat, full.partner} if swap else {full.seat}
        if viewer in allowed:
            assert seen == full
        else:
            assert seen.card is None and seen.drew is None and seen.received is None
            assert (seen.number, seen.seat, seen.kind, seen.cookie) == (
                full.number,
                full.seat,
                full.kind,
                full.cookie,
            )


def _holds_cards(value) -> bool:
    from engine import Card

    if isinstance(value, Card):
        return True
    if isinstance(value, tuple):
        return any(_holds_cards(v) for v in value)
    return False


def check_step(game: Game, previous_cookie: int | None) -> None:
    places = card_places(game)
    expected = 30 if game.seats == 2 else 42
    assert sum(places.values()) == len(places) == expected  # each card in exactly one place
    assert set(places) == {c for c in places if c.type in game.setup.types}
    for seat in range(game.seats):
        mains = main_actions_taken(game, seat)
        assert len(game.hands[seat]) == 9 - mains
        assert len(game.collections[seat]) + len(game.black_hats[seat]) == mains
        assert game.hands[seat] == sorted(game.hands[seat], key=lambda c: c.id)
    assert game.cookie == cookie_holder(
        game.collections, [len(b) for b in game.black_hats], previous_cookie
    )
    if game.pending_offer is not None:
        assert game.pending_offer in game.hands[game.active]


def play(seats: int, seed: int, policy_seed: int, check: bool = True) -> Game:
    game = Game.new(GameConfig(seats, seed))
    policy = RandomPolicy(policy_seed)
    if check:
        check_step(game, None)
    while not game.is_over:
        previous_cookie = game.cookie
        step = policy.choose_step(game)
        game.apply(step.seat, step.action)
        if check:
            check_step(game, previous_cookie)
            for viewer in [None, *range(seats)]:
                check_observation(game, viewer)
    return game


@SETTINGS
@given(seats=SEATS, seed=SEEDS, policy_seed=SEEDS)
def test_r1_r14_invariants_hold_after_every_step(seats, seed, policy_seed):
    """R1–R4, R7–R14, "Who may see what": conservation, sizes, cookie, observations."""
    game = play(seats, seed, policy_seed)
    assert game.turns_taken == [8] * seats


@SETTINGS
@given(seats=SEATS, seed=SEEDS, policy_seed=SEEDS)
def test_r14_replay_and_record_rebuild_the_same_game(seats, seed, policy_seed):
    """R3–R14: Game.replay and from_record(to_record(g)) after JSON give the same final state."""
    game = play(seats, seed, policy_seed, check=False)
    snapshot = game.snapshot()
    assert Game.replay(game.config, game.steps).snapshot() == snapshot
    steps = [Step.from_dict(json.loads(json.dumps(s.to_dict()))) for s in game.steps]
    assert Game.replay(game.config, steps).snapshot() == snapshot
    text = json.dumps(to_record(game))
    rebuilt = from_record(json.loads(text))
    assert rebuilt.snapshot() == snapshot
    assert json.dumps(to_record(rebuilt)) == text
    # The record's config (start seat written out) replays the same steps to the same game.
    assert Game.replay(rebuilt.config, rebuilt.steps).snapshot() == snapshot


@SETTINGS
@given(seats=SEATS, seed=SEEDS, policy_seed=SEEDS, cut=st.integers(0, 120))
def test_r3_r9_determinism_same_seed_and_steps_same_state(seats, seed, policy_seed, cut):
    """R3–R6, R9: same seed and moves, same game; a copy continues exactly like the original."""
    first = play(seats, seed, policy_seed, check=False)
    second = play(seats, seed, policy_seed, check=False)
    assert first.snapshot() == second.snapshot() and first.steps == second.steps
    assert first.events == second.events
    # Copy part-way through and finish both the same way.
    game = Game.replay(first.config, first.steps[: min(cut, len(first.steps))])
    copy = game.copy()
    for step in first.steps[len(game.steps) :]:
        game.apply(step.seat, step.action)
        copy.apply(step.seat, step.action)
    assert game.snapshot() == copy.snapshot() == first.snapshot()
    assert game.record_turns() == copy.record_turns() == first.record_turns()
