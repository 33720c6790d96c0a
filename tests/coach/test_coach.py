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
    TURN_START_NOTES,
    Moment,
    NoteKind,
    Reason,
    explain_end,
    explain_step,
    explain_turn_start,
    find_lesson_seeds,
    lesson_config,
    lesson_moments,
    suggest,
)
from engine import (
    ActionKind,
    BlackHat,
    Exchange,
    Game,
    GameConfig,
    RandomPolicy,
    exchange_allowed,
)
from engine.ai import ExpertBudget
from engine.scoring import favourite_score, provisional_scores

SETTINGS = settings(max_examples=25, deadline=None)
SMALL = ExpertBudget(turns=300, quick_turns=40)
"""A small expert search for the hint tests."""


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
        hint = suggest(obs, legal, seed=99, budget=SMALL)
        assert hint.action in legal
        assert suggest(obs, legal, seed=99, budget=SMALL) == hint
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
        assert suggest(twin.observation(seat), legal, seed=3, budget=SMALL) == suggest(
            game.observation(seat), legal, seed=3, budget=SMALL
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


def test_a_discard_is_explained_early_then_left_to_its_move_line():
    """A learner who discards every turn hears the rule early on; later the move's own line
    ("You discarded 🟥2 and drew 🟦5.") says it all, so the coach says nothing (said once)."""
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
            kinds.append((before.turns_taken[0], tuple(n.kind for n in notes)))
    assert [k for t, k in kinds if t < EARLY_TURNS] == [(NoteKind.DISCARD,)] * EARLY_TURNS
    late = [k for t, k in kinds if t >= EARLY_TURNS]
    assert late and set(late) == {()}


# ---------------------------------------------------------------- issue 29 point 10


def _score(obs, seat=0):
    return provisional_scores(obs.board, obs.collections, obs.black_hat_counts, obs.cookie)[seat]


@SETTINGS
@given(st.integers(0, 2**40), st.sampled_from([2, 3, 4]))
def test_a_score_that_drops_is_explained(seed, seats):
    """After every exchange whose score change is below what the taken card brings, the
    notes say why: a type whose cards score less now (R15, R16) or the cookie lost (R13)."""
    explained = 0
    for before, event, after, _notes in play_with_coach(seed, seats):
        if event.seat != 0 or event.kind is not ActionKind.EXCHANGE:
            continue
        notes = explain_step(before, event.seen_by(0), after)  # nothing said yet: all of them
        (score,) = [n for n in notes if n.kind is NoteKind.SCORE]
        if score.value >= 0:
            continue
        kinds = [n.kind for n in notes]
        assert kinds[kinds.index(NoteKind.SCORE) + 1] in (
            NoteKind.WORTH_CHANGED,
            NoteKind.COOKIE_LOST,
            NoteKind.COOKIE_LOST_TIE,
        ), (notes, event)
        for note in notes:
            if note.kind is NoteKind.WORTH_CHANGED:
                assert note.card in before.collections[0] and note.value != note.total
        explained += 1


def test_a_card_worth_0_is_explained_every_time():
    """Taking a card whose type is face up nowhere (R16: it scores 0) is said each time,
    also late in the game, while the slot-worth rule is said only early."""
    found = 0
    for seed in range(60):
        for before, event, after, notes in play_with_coach(seed):
            if event.seat != 0 or event.kind is not ActionKind.EXCHANGE:
                continue
            took = event.took
            if any(after.board[s - 1].type is took.type for s in range(1, len(after.board) + 1)):
                continue
            kinds = [n.kind for n in notes]
            assert NoteKind.WORTH_NOTHING in kinds or len(notes) == MAX_NOTES, notes
            found += before.turns_taken[0] >= EARLY_TURNS
    assert found


def _others_since(game, seat=0):
    """Play from ``game`` until it is ``seat``'s turn again; the others' steps as it saw them."""
    steps = []
    while not game.is_over and game.to_move != seat:
        mover = game.to_move
        action = RandomPolicy(len(game.steps)).choose(game, mover)
        before = game.observation(seat)
        event = game.apply(mover, action)
        steps.append((before, event.seen_by(seat), game.observation(seat)))
    return steps


def test_a_jump_caused_by_the_others_moves_is_said_at_the_turn_start():
    said = 0
    for seed in range(30):
        game = Game.new(GameConfig(3, seed, start_seat=0))
        policy = RandomPolicy(seed)
        while not game.is_over:
            if game.to_move == 0:
                game.apply(0, policy.choose(game, 0))
                continue
            steps = _others_since(game)
            if game.is_over:
                break
            now = game.observation(0)
            notes = explain_turn_start(steps, now)
            assert len(notes) <= TURN_START_NOTES
            delta = _score(now) - _score(steps[0][0])
            by_others = [n for n in notes if n.kind is NoteKind.SCORE_BY_OTHERS]
            if delta:
                (note,) = by_others
                assert (note.value, note.total) == (delta, _score(now))
                movers = {e.seat for b, e, a in steps if _score(a) != _score(b)}
                assert note.seat == (movers.pop() if len(movers) == 1 else None)
                said += 1
            else:
                assert not by_others
    assert said


def test_the_last_turn_is_announced_before_it_is_played():
    """At the start of the learner's 8th turn (R14) the coach says that the card they keep
    becomes their favourite hat, and what each of their two cards would score (R17)."""
    for seed in range(10):
        game = Game.new(GameConfig(3, seed, start_seat=0))
        policy = RandomPolicy(seed)
        while game.turns_taken[0] < 7 or game.to_move != 0:
            if game.to_move == 0 and not game.observation(0).main_done:
                early = explain_turn_start((), game.observation(0))  # not the last turn yet
                assert all(n.kind is not NoteKind.LAST_TURN for n in early)
            step = policy.choose_step(game)
            game.apply(step.seat, step.action)
        now = game.observation(0)
        notes = explain_turn_start((), now)
        assert notes[0].kind is NoteKind.LAST_TURN
        first, second = now.hand
        mine = now.collections[0]
        assert (notes[0].card, notes[0].took) == (first, second)
        assert notes[0].value == favourite_score(mine, first)
        assert notes[0].total == favourite_score(mine, second)


def test_a_hint_says_why():
    """Every black hat and discard hint has a reason; exchange reasons are true facts."""
    reasons = set()
    for seed in range(12):
        game = Game.new(GameConfig(3, seed))
        policy = RandomPolicy(seed)
        while not game.is_over:
            seat = game.to_move
            obs, legal = game.observation(seat), game.legal_actions(seat)
            hint = suggest(obs, legal, seed=5, budget=SMALL)
            if hint.action.kind in (ActionKind.BLACK_HAT, ActionKind.DISCARD):
                assert hint.reason is not None, hint
            if hint.reason is Reason.TAKES:
                assert hint.card is obs.board[hint.action.slot - 1] and hint.value > 0
            if hint.reason is Reason.NO_SLOT:
                assert not any(exchange_allowed(hint.action.card, b) for b in obs.board)
            reasons.add(hint.reason)
            step = policy.choose_step(game)
            game.apply(step.seat, step.action)
    assert {Reason.TAKES, Reason.DRAW} <= reasons or {Reason.TAKES, Reason.WEAKEST} <= reasons
