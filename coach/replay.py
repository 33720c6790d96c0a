"""The coach's notes of a game in progress, recomputed from its steps (nothing stored).

The coach is pure and deterministic, so the notes it gave a learner can be found again by
replaying the game's steps: a practice game needs no coach state in the store, and it works
after a restart like any game. The replay hands :func:`coach.explain_step` only the learner's
observations and each event as the learner saw it (``Event.seen_by``).
"""

from __future__ import annotations

from coach.explain import explain_step, explain_turn_start
from coach.notes import Note, NoteKind
from engine import Event, Game, Observation

__all__ = ["latest_notes"]


def latest_notes(game: Game, seat: int) -> tuple[Note, ...]:
    """The coach's notes for ``seat`` now: on their latest move, or at the start of their turn.

    ``game``: the live engine game (only its config and steps are read: it is replayed on a
    copy). While nobody else has moved since ``seat``'s latest run of steps, the notes of the
    newest of those steps that earned notes (an exchange, a black hat, a discard: R7–R9, R13,
    R16), so the notes stay on the hand message until the turn is over, also when the turn
    ends by itself after the main action; the rule notes already said earlier in the game are
    left out as :func:`explain_step` says. When others have moved since and it is ``seat``'s
    turn: :func:`explain_turn_start` over those moves (how they changed the score; the last
    turn ahead). Otherwise ``()``. Cost: one replay of the game (about 100 steps for 3
    players). Raises ValueError for a seat outside the game.
    """
    if not 0 <= seat < game.seats:
        raise ValueError(f"no seat {seat} in a {game.seats}-seat game")
    steps = game.steps
    run_start = len(steps)
    while run_start > 0 and steps[run_start - 1].seat == seat:
        run_start -= 1
    turn_start = run_start == len(steps) and game.to_move == seat and not game.is_over
    since = len(steps)  # the others' steps after the seat's last one
    while turn_start and since > 0 and steps[since - 1].seat != seat:
        since -= 1
    replay = Game.new(game.config)
    seen: set[NoteKind] = set()
    latest: tuple[Note, ...] = ()
    others: list[tuple[Observation, Event, Observation]] = []
    for number, step in enumerate(steps):
        if step.seat != seat:
            if number < since:
                replay.apply(step.seat, step.action)
                continue
            before = replay.observation(seat)
            event = replay.apply(step.seat, step.action)
            others.append((before, event.seen_by(seat), replay.observation(seat)))
            continue
        before = replay.observation(seat)
        event = replay.apply(step.seat, step.action)
        notes = explain_step(before, event.seen_by(seat), replay.observation(seat), seen=seen)
        seen.update(note.kind for note in notes)
        if notes and number >= run_start:
            latest = notes
    if turn_start:
        return explain_turn_start(others, replay.observation(seat))
    return latest
