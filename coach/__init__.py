"""The coach: teaches Hats while a newcomer plays (no Discord, no I/O, pure like the engine).

- :mod:`coach.explain`: the notes a learner's move (or their turn's start) deserves (R7–R9,
  R13–R19), as facts
  (:class:`Note`) that the Discord layer words in the learner's language;
- :mod:`coach.hint`: a suggested move for a seat, from its own observation only;
- :mod:`coach.lesson`: practice deals whose first rounds show the rules at work;
- :mod:`coach.replay`: the notes of a learner's latest move, recomputed from the game's steps.
"""

from coach.explain import (
    EARLY_TURNS,
    MAX_NOTES,
    TURN_START_NOTES,
    explain_end,
    explain_step,
    explain_turn_start,
)
from coach.hint import HINT_LEVEL, Hint, Reason, suggest
from coach.lesson import (
    LEARNER,
    LESSON_ROUNDS,
    LESSON_SEATS,
    LESSON_SEEDS,
    Moment,
    find_lesson_seeds,
    lesson_config,
    lesson_moments,
)
from coach.notes import TEACHING, Note, NoteKind
from coach.replay import latest_notes

__all__ = [
    "EARLY_TURNS",
    "HINT_LEVEL",
    "LEARNER",
    "LESSON_ROUNDS",
    "LESSON_SEATS",
    "LESSON_SEEDS",
    "MAX_NOTES",
    "TEACHING",
    "TURN_START_NOTES",
    "Hint",
    "Moment",
    "Note",
    "NoteKind",
    "Reason",
    "explain_end",
    "explain_step",
    "explain_turn_start",
    "find_lesson_seeds",
    "latest_notes",
    "lesson_config",
    "lesson_moments",
    "suggest",
]
