"""What ``/hats learn`` says around a practice game: where it is, its welcome, its buttons.

The coach's comments on the moves themselves are :mod:`texts.coach`.
"""

from __future__ import annotations

from texts.i18n import Tr

__all__ = [
    "another_lesson_line",
    "give_up_label",
    "given_up_text",
    "hint_button_label",
    "hints_toggle_label",
    "lesson_here_text",
    "lesson_in_dms_text",
    "lesson_in_thread_text",
    "practice_thread_name",
    "still_running_text",
    "welcome_text",
    "where_text",
]


def hint_button_label(tr: Tr) -> str:
    """The label of a hand's hint button."""
    return tr("What should I do?")


def another_lesson_line(tr: Tr) -> str:
    """The coach's last line at a practice game's end."""
    return tr("Another lesson? /hats learn deals a new game.")


def where_text(tr: Tr, thread: str | None) -> str:
    """Where a practice game is: the learner's DMs (``thread`` None) or a thread's mention."""
    if thread is None:
        return tr("in your DMs")
    return tr("in {thread}", thread=thread)


def give_up_label(tr: Tr) -> str:
    """The button that gives up a running practice game."""
    return tr("Give up this practice game")


def still_running_text(tr: Tr, game: int, where: str) -> str:
    """``/hats learn`` while a practice game runs (``where`` from :func:`where_text`)."""
    return tr(
        "Your practice game #{game} is still running {where}: carry on there, or "
        "give it up with the button below.",
        game=game,
        where=where,
    )


def lesson_in_dms_text(tr: Tr) -> str:
    """A new practice game that lives in the learner's DMs."""
    return tr(
        "Your practice game is in your DMs: you start, against two AI players. The "
        "coach comments on each of your moves."
    )


def lesson_in_thread_text(tr: Tr, thread: str) -> str:
    """A new practice game in a private thread (the learner's DMs are closed)."""
    return tr(
        "I cannot send you direct messages, so your practice game is in a private "
        "thread: {thread}. You start, against two AI players.",
        thread=thread,
    )


def lesson_here_text(tr: Tr) -> str:
    """A new practice game in messages only the learner sees (no DM, no thread)."""
    return tr(
        "I cannot send you direct messages nor open a private thread here, so your "
        "practice game is right here, in messages only you can see."
    )


def welcome_text(tr: Tr) -> str:
    """The first message of a practice game's place."""
    return tr(
        "Welcome to your Hats practice game! After each of your moves the coach says "
        "what it changed; press What should I do? for a hint. Nothing here counts for "
        "your rating."
    )


def practice_thread_name(tr: Tr) -> str:
    """The name of a practice game's private thread."""
    return tr("Hats practice")


def given_up_text(tr: Tr, game: int) -> str:
    """A practice game given up with its button."""
    return tr("Practice game #{game} given up. /hats learn starts a new one.", game=game)


def hints_toggle_label(tr: Tr, on: bool) -> str:
    """The lobby's Hints toggle (the host's), saying its state and what a press does."""
    return tr("Hints: on (turn off)") if on else tr("Hints: off (turn on)")
