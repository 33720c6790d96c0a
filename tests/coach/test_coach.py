"""The coach: what it says after a learner's move, hints, and the practice deals."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parents[1] / "ai"))
from ai_support import twin_game

from coach import (
    EARLY_TURNS,
    LESSON_SEEDS,
    MAX_NOTES,
    TEACHING,
    Moment,
    NoteKind,
    explain_end,
    explain_step,
    find_lesson_seeds,
    lesson_config,
    lesson_moments,
    suggest,
)
from engine import ActionKind, BlackHat, Exchange, Game, GameConfig, RandomPolicy
from engine.scoring import provisional_scores

SETTINGS = settings(max_examples=25, deadline=None)


def play_with_coach(seed: int, seats: int = 3, learner: int = 0):
    """Play a random game; yield (before, event, after, notes) for every learner step."""
    game = Game.new(GameConfig(seats, seed))
    policy = RandomPolicy(seed)
    seen: set[NoteKind] = set()
    while not game.is_over:
        step = policy.choose_step(game)
        before = game.observation(learner)
        event = game.apply(step.seat, step.action)
        after = game.observation(learner)
        notes = explain_step(before, event.seen_by(learner), after, seen=seen)
        seen.update(n.kind for n in notes)
        yield before, event, after, notes
    return game


def visible_cards(obs):
    """Every card the learner may see in an observation."""
    cards = set(obs.board) | set(obs.hand or ()) | set(obs.own_black_hats or ())
    for collection in obs.collections:
        cards |= set(collection)
    return cards


@SETTINGS
@given(st.integers(0, 2**40), st.sampled_from([2, 3, 4]))
def test_notes_are_few_true_and_only_of_what_the_learner_sees(seed, seats):
    for before, event, after, notes in play_with_coach(seed, seats):
        assert len(notes) <= MAX_NOTES
        if event.seat != 0:
            assert notes == ()
            continue
        allowed = visible_cards(before) | visible_cards(after)
        for note in notes:
            for card in (note.card, note.took):
                assert card is None or card in allowed, (note, event)
            if note.kind is NoteKind.SCORE:
                score = provisional_scores(
                    after.board, after.collections, after.black_hat_counts, after.cookie
                )[0]
                old = provisional_scores(
                    before.board, before.collections, before.black_hat_counts, before.cookie
                )[0]
                assert (note.total, note.value) == (score, score - old)
            if note.kind is NoteKind.COOKIE_GAINED:
                assert after.cookie == 0 != before.cookie
            if note.kind is NoteKind.COOKIE_LOST:
                assert before.cookie == 0 != after.cookie


def test_an_exchange_says_which_rule_allowed_it_and_what_the_card_could_not_take():
    game = Game.new(GameConfig(3, 11, start_seat=0))
    before = game.observation(0)
    same = next(
        a
        for a in game.legal_actions(0)
        if isinstance(a, Exchange) and a.card.type is before.board[a.slot - 1].type
    )
    event = game.apply(0, same)
    notes = explain_step(before, event.seen_by(0), game.observation(0))
    assert notes[0].kind is NoteKind.EXCHANGE_SAME_TYPE
    assert (notes[0].card, notes[0].took, notes[0].slot) == (same.card, event.took, same.slot)
    assert notes[1].kind is NoteKind.SCORE
    forbidden = [n for n in notes if n.kind is NoteKind.SLOTS_FORBIDDEN]
    for note in forbidden:  # each named slot really refused that card (R7)
        for slot in note.slots:
            taken = before.board[slot - 1]
            assert taken.type is not same.card.type and taken.value >= same.card.value


def test_later_turns_say_only_what_is_new():
    """After the first turns a rule already explained is not explained again."""
    for seed in range(40):
        steps = list(play_with_coach(seed))
        late = [
            (b, notes)
            for b, e, _a, notes in steps
            if e.seat == 0 and b.turns_taken[0] >= EARLY_TURNS
        ]
        said: list[NoteKind] = []
        for _b, e, _a, notes in steps:
            if e.seat != 0:
                continue
            for note in notes:
                if note.kind in TEACHING and said.count(note.kind) and _b.turns_taken[0] >= 2:
                    raise AssertionError(f"{note.kind} explained twice late, seed {seed}")
                said.append(note.kind)
        assert late  # the learner played late turns in every game


def test_a_black_hat_note_names_the_card_only_to_its_owner():
    game = Game.new(GameConfig(3, 5, start_seat=1))
    card = game.observation(1).hand[0]
    before0, before1 = game.observation(0), game.observation(1)
    event = game.apply(1, BlackHat(card))
    mine = explain_step(before1, event.seen_by(1), game.observation(1))
    assert mine[0].kind is NoteKind.BLACK_HAT and mine[0].card is card
    assert explain_step(before0, event.seen_by(0), game.observation(0)) == ()


def test_the_end_explains_favourite_turned_down_slots_and_place():
    for seed in range(10):
        game = Game.new(GameConfig(3, seed))
        policy = RandomPolicy(seed)
        while not game.is_over:
            step = policy.choose_step(game)
            game.apply(step.seat, step.action)
        result = game.result
        for seat in range(3):
            favourite, turned, final = explain_end(result, seat)
            assert favourite.card is result.favourites[seat]
            assert favourite.value == result.scores[seat].favourite
            assert set(turned.slots).isdisjoint(result.face_up_slots)
            assert len(turned.slots) + len(result.face_up_slots) == len(result.board)
            assert final.value == result.scores[seat].total
            assert (final.total == 1) == (seat in result.winners)


def test_a_hint_is_legal_repeatable_and_depends_only_on_the_observation():
    game = Game.new(GameConfig(3, 21))
    policy = RandomPolicy(1)
    for _ in range(12):
        seat = game.to_move
        obs, legal = game.observation(seat), game.legal_actions(seat)
        hint = suggest(obs, legal, seed=99)
        assert hint.action in legal
        assert suggest(obs, legal, seed=99) == hint
        if hint.action.kind.is_main:
            assert isinstance(hint.gain, int)
        else:
            assert hint.gain is None
        step = policy.choose_step(game)
        game.apply(step.seat, step.action)


def test_a_hint_is_the_same_whatever_the_hidden_cards():
    """Two games that differ only in what the seat cannot see get the same hint for it."""
    for seed in range(6):
        game = Game.new(GameConfig(3, seed))
        seat = game.to_move
        twin = twin_game(game, seat, seed + 100)
        assert twin.observation(seat) == game.observation(seat)
        assert twin.hands != game.hands  # the hidden cards really differ
        legal = game.legal_actions(seat)
        assert suggest(twin.observation(seat), legal, seed=3) == suggest(
            game.observation(seat), legal, seed=3
        )


def test_every_lesson_seed_shows_every_moment():
    for seed in LESSON_SEEDS:
        assert lesson_moments(seed) == frozenset(Moment), seed
        assert lesson_config(seed).start_seat == 0
    assert find_lesson_seeds(2) == LESSON_SEEDS[:2]


def test_a_plain_seed_misses_a_moment():
    """The search rejects deals: most seeds lack a black hat in the first rounds."""
    missing = [s for s in range(20) if lesson_moments(s) != frozenset(Moment)]
    assert missing


def test_a_discard_is_explained_once_then_only_named():
    """A learner who discards every turn hears the rule early on, then only what they drew."""
    game = Game.new(GameConfig(2, 0, start_seat=0))
    policy = RandomPolicy(0)
    kinds = []
    seen: set[NoteKind] = set()
    while not game.is_over:
        seat = game.to_move
        legal = game.legal_actions(seat)
        discard = next((a for a in legal if a.kind is ActionKind.DISCARD), None)
        action = discard if seat == 0 and discard is not None else policy.choose(game, seat)
        before = game.observation(0)
        event = game.apply(seat, action)
        notes = explain_step(before, event.seen_by(0), game.observation(0), seen=seen)
        seen.update(n.kind for n in notes)
        if event.seat == 0 and event.kind is ActionKind.DISCARD:
            kinds.append((before.turns_taken[0], notes[0].kind))
            assert notes[0].card is action.card and notes[0].took is event.drew
    assert [k for t, k in kinds if t < EARLY_TURNS] == [NoteKind.DISCARD] * EARLY_TURNS
    late = [k for t, k in kinds if t >= EARLY_TURNS]
    assert late and set(late) == {NoteKind.DREW}
