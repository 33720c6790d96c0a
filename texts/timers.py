"""The words of the turn timer and of seats the AI takes over: away, back, removed.

Each function takes the reader's :class:`~texts.i18n.Tr` and plain values (mentions already
formatted by the caller) and returns one sentence; the chat surface lays it out.
"""

from __future__ import annotations

from texts.common import duration_text
from texts.i18n import Tr

__all__ = [
    "away_dm_text",
    "away_text",
    "back_answer_text",
    "back_text",
    "removed_answer_text",
    "removed_text",
    "timer_option_label",
]


def away_text(player: str, tr: Tr) -> str:
    """The channel line once ``player`` (a mention) missed enough turns to be called away."""
    return tr(
        "{player} seems to be away: the AI plays for them until they make a move "
        "again (or use /hats back).",
        player=player,
    )


def away_dm_text(missed: int, game: int, tr: Tr) -> str:
    """The DM to a player called away after ``missed`` turns in a row in game ``game``."""
    return tr(
        "You missed {n} turns in a row, so the AI now plays for you in game "
        "#{game}. Make any move or use /hats back to take your seat back.",
        n=missed,
        game=game,
    )


def back_text(player: str, tr: Tr) -> str:
    """The channel line once ``player`` (a mention), called away, plays again."""
    return tr("{player} is back and plays their own seat again.", player=player)


def back_answer_text(tr: Tr, *, was_away: bool) -> str:
    """The answer to ``/hats back``: the seat is taken back, or it was never away."""
    if was_away:
        return tr("You play your own seat again.")
    return tr("You were not away; nothing changed.")


def removed_answer_text(player: str, tr: Tr) -> str:
    """The host's answer after removing ``player`` (a mention) from the game."""
    return tr("{player} was removed; an AI plays their seat.", player=player)


def removed_text(player: str, game: int, tr: Tr) -> str:
    """The channel line after the host removed ``player`` (a mention) from game ``game``."""
    return tr(
        "The host removed {player} from game #{game}; an AI plays their seat now.",
        player=player,
        game=game,
    )


def timer_option_label(seconds: int, tr: Tr) -> str:
    """The lobby's timer select option for ``seconds`` per turn (0: no timer); short."""
    if seconds:
        return tr("⏱️ {time} per turn", time=duration_text(seconds, tr))
    return tr("⏱️ No turn timer")
