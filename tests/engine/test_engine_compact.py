"""The compact forms a game keeps (issue 21): card ids, the event log, the deal.

They round-trip: what a game hands out (cards, Steps, Events, the setup) is what was put in,
and a game in progress holds almost nothing the cyclic garbage collector must scan.
"""

import dataclasses
import gc

import pytest
from engine_testkit import play_steps
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ALL_CARDS, ActionKind, Event, Game, GameConfig, RandomPolicy
from engine.compact import (
    card_ids,
    card_list,
    card_tuple,
    event_from_record,
    event_record,
    events_of,
    events_seen_by,
    step_of_record,
    steps_of,
)
from engine.events import make_event
from tests.heapwalk import existing_ids, own_tracked

SEATS = st.sampled_from([2, 3, 4])
SEEDS = st.integers(0, 2**63)
CARDS = st.sampled_from(ALL_CARDS)
MAYBE_CARD = st.none() | CARDS
MAYBE_SEAT = st.none() | st.integers(0, 3)

EVENTS = st.builds(
    Event,
    number=st.integers(0, 10_000),
    seat=st.integers(0, 3),
    kind=st.sampled_from(list(ActionKind)),
    card=MAYBE_CARD,
    slot=st.none() | st.integers(1, 6),
    took=MAYBE_CARD,
    drew=MAYBE_CARD,
    reshuffled=st.booleans(),
    partner=MAYBE_SEAT,
    received=MAYBE_CARD,
    cookie=MAYBE_SEAT,
    turn_ended=st.booleans(),
    game_over=st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(event=EVENTS)
def test_an_event_round_trips_through_its_record(event):
    record = event_record(event)
    assert len(record) == 8
    assert event_from_record(event.number, record) == event
    numbered = [dataclasses.replace(event, number=n) for n in range(3)]
    assert events_of(record * 3) == numbered  # the number is the record's position
    for viewer in (None, 0, 1, 2, 3):  # hidden cards are hidden as Event.seen_by hides them
        assert events_seen_by(record * 3, viewer) == tuple(e.seen_by(viewer) for e in numbered)
    fields = [getattr(event, f.name) for f in dataclasses.fields(Event)]
    assert make_event(*fields) == event


@settings(max_examples=100, deadline=None)
@given(cards=st.lists(CARDS, max_size=42))
def test_cards_round_trip_through_their_ids(cards):
    ids = card_ids(cards)
    assert isinstance(ids, bytes) and len(ids) == len(cards)
    assert card_list(ids) == cards and card_tuple(ids) == tuple(cards)
    assert all(a is b for a, b in zip(card_list(bytearray(ids)), cards, strict=True))


@settings(max_examples=15, deadline=None)
@given(seats=SEATS, seed=SEEDS, policy_seed=SEEDS)
def test_steps_and_events_read_back_as_applied(seats, seed, policy_seed):
    """Every step of a random game: ``steps`` and ``events`` are what was applied/returned."""
    game = Game.new(GameConfig(seats, seed))
    dealt = game.setup
    policy = RandomPolicy(policy_seed)
    applied, returned = [], []
    while not game.is_over:
        step = policy.choose_step(game)
        returned.append(game.apply(step.seat, step.action))
        applied.append(step)
        assert game.step_count == len(applied)
    log = game._log
    assert game.steps == applied and steps_of(log) == applied
    assert game.events == returned and events_of(log) == returned
    for number, event in enumerate(returned):
        record = log[8 * number : 8 * number + 8]
        assert bytes(record) == event_record(event)
        assert step_of_record(record) == applied[number]
    # The deal reads back as dealt, and replaying the steps rebuilds the same game.
    assert game.setup == dealt
    again = Game.replay(game.config, game.steps)
    assert again.snapshot() == game.snapshot() and again.events == returned


@settings(max_examples=15, deadline=None)
@given(seats=SEATS, seed=SEEDS, policy_seed=SEEDS, last=st.integers(0, 8))
def test_an_observation_of_the_last_events_is_the_tail_of_the_full_one(
    seats, seed, policy_seed, last
):
    """``observation(seat, last_events=n)`` holds the last n events of the full observation,
    numbered as there, each as that viewer may see it (the Activity's view frames use it)."""
    game = Game.new(GameConfig(seats, seed))
    policy = RandomPolicy(policy_seed)
    while not game.is_over:
        for viewer in [None, *range(seats)]:
            full = game.observation(viewer).events
            tail = game.observation(viewer, last_events=last).events
            assert tail == (full[-last:] if last else ())
        step = policy.choose_step(game)
        game.apply(step.seat, step.action)


@pytest.mark.parametrize(("seats", "steps"), [(2, 30), (3, 45), (4, 45)])
def test_a_game_in_progress_holds_two_tracked_objects(seats, steps):
    """Issue 21: cards, steps and events live in bytes, so the collector has little to scan.

    After a collection, a game part-way through (reshuffles, or offers and withdrawals,
    included) holds only itself and its config, however many steps it took.
    """
    Game.new(GameConfig(seats, 0)).observation(0)  # first-use work done before the count
    existing, shared = existing_ids()
    game = Game.new(GameConfig(seats, 11))
    for _ in zip(range(steps), play_steps(game, policy_seed=3), strict=False):
        pass
    assert game.step_count == steps and not game.is_over
    kinds = {e.kind for e in game.events}
    assert any(e.reshuffled for e in game.events) or ActionKind.WITHDRAW_SWAP in kinds
    gc.collect()
    own = own_tracked(game, shared)
    assert sorted(type(o).__name__ for o in own) == ["Game", "GameConfig"]
    del existing


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, n=st.integers(0, 42))
def test_r9_a_shuffle_order_drawn_ahead_is_the_shuffle(seed, n):
    """R9: the order of n indexes drawn now is the order a shuffle of n cards would take."""
    from engine.chance import SeededChance

    cards = list(ALL_CARDS[:n])
    ahead, now = SeededChance(seed), SeededChance(seed)
    assert [cards[i] for i in ahead.order(n)] == now.shuffle(cards)
    assert ahead.seat(4) == now.seat(4)  # and they drew the same


@settings(max_examples=15, deadline=None)
@given(seats=st.sampled_from([2, 3]), seed=SEEDS, policy_seed=SEEDS)
def test_r9_reshuffles_without_the_rng_are_the_seeds(seats, seed, policy_seed):
    """R9: Game.new keeps no RNG; its reshuffles are the ones the seed's chance draws.

    The same game played with the orders drawn at the deal, with them dropped (the seed's
    chance drawn again at each reshuffle) and with the RNG kept (a SeededChance dealt as
    Game.new deals) ends the same, reshuffles included.
    """
    from engine.chance import SeededChance
    from engine.setup import deal

    config = GameConfig(seats, seed)
    ahead = Game.new(config)
    assert ahead._chance is None and all(len(o) == len(ahead.deck) + 1 for o in ahead._orders)
    redrawn = Game.new(config)
    redrawn._orders = ()
    chance = SeededChance(seed)
    kept = Game(config, deal(config, chance), chance)
    for _ in play_steps(ahead, policy_seed):
        pass
    for step in ahead.steps:
        redrawn.apply(step.seat, step.action)
        kept.apply(step.seat, step.action)
    assert ahead.snapshot() == redrawn.snapshot() == kept.snapshot()
    assert ahead.record_turns() == redrawn.record_turns() == kept.record_turns()
