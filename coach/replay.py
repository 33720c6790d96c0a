"""The coach's notes of a game in progress, recomputed from its steps (nothing stored).

The coach is pure and deterministic, so the notes it gave a learner can be found again by
replaying the game's steps: a practice game needs no coach state in the store, and it works
after a restart like any game. The replay hands :func:`coach.explain_step` only the learner's
observations and each event as the learner saw it (``Event.seen_by``).
"""

from __future__ import annotations

from coach.explain import explain_step
from coach.notes import Note, NoteKind
from engine import Game

__all__ = ["latest_notes"]


def latest_notes(game: Game, seat: int) -> tuple[Note, ...]:
    """The notes for ``seat``'s latest move, while nobody else has moved since (else ``()``).

    ``game``: the live engine game (only its config and steps are read: it is replayed on a
    copy). "Latest move" is the newest of ``seat``'s current run of steps that earned notes
    (an exchange, a black hat, a discard: R7–R9, R13, R16), so the notes stay on the hand
    message until the turn is over, also when the turn ends by itself after the main action.
    The rule notes already said earlier in the game are left out as :func:`explain_step` says.
    Cost: one replay of the game (about 100 steps for 3 players). Raises ValueError for a seat
    outside the game.
    """
    if not 0 <= seat < game.seats:
        raise ValueError(f"no seat {seat} in a {game.seats}-seat game")
    run_start = len(game.steps)
    while run_start > 0 and game.steps[run_start - 1].seat == seat:
        run_start -= 1
    replay = Game.new(game.config)
    seen: set[NoteKind] = set()
    latest: tuple[Note, ...] = ()
    for number, step in enumerate(game.steps):
        if step.seat != seat:
            replay.apply(step.seat, step.action)
            continue
        before = replay.observation(seat)
        event = replay.apply(step.seat, step.action)
        notes = explain_step(before, event.seen_by(seat), replay.observation(seat), seen=seen)
        seen.update(note.kind for note in notes)
        if notes and number >= run_start:
            latest = notes
    return latest
