"""Game settings that decide whether a game counts: practice games and hints (issue 20).

A game's settings (the JSON object stored with it, ``GameRow.settings``) may hold:

- :data:`PRACTICE` ``true``: a practice game (``/hats learn``): one learner against AI players.
  It is a normal stored game (it survives a restart), but it is never rated nor shown in
  history, stats or leaderboards, and it does not count as "playing" anywhere a player's live
  games are limited or counted (:func:`is_practice` is the one predicate for all of that).
- :data:`HINTS` ``true``: ``/hats hint`` may be asked; such a game is not rated
  (:func:`is_rated_kind`), though it stays in history like any finished game.
- :data:`ACTIVITY_ONLY` ``true``: a game of an Activity opened in a DM or group DM (issue 34.2):
  it lives in the Activity alone (no channel messages, no hand DMs) and is never rated
  (ratings, leaderboards and game nights are per server).

Both are written by :func:`data.jsoncodec.dumps` (compact JSON), so the stored text of a
practice game's settings always contains :data:`PRACTICE_JSON`; the history's SQL relies on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "ACTIVITY_ONLY",
    "HINTS",
    "LANGUAGE",
    "PRACTICE",
    "PRACTICE_JSON",
    "hints_allowed",
    "is_activity_only",
    "is_practice",
    "is_rated_kind",
    "not_practice_sql",
]

PRACTICE = "practice"
"""Settings key: ``true`` for a practice game (``/hats learn``)."""
HINTS = "hints"
"""Settings key: ``true`` when the lobby's host allowed ``/hats hint`` (lobby and game)."""
LANGUAGE = "language"
"""Settings key of a practice game: the learner's Discord locale (the coach's language)."""
ACTIVITY_ONLY = "activity_only"
"""Settings key: ``true`` for a DM or group DM Activity's lobby and game (unrated)."""
PRACTICE_JSON = f'"{PRACTICE}":true'
"""How :data:`PRACTICE` looks in the stored (compact JSON) settings text."""


def not_practice_sql(games: str = "g") -> str:
    """The SQL condition "not a practice game" on the ``games`` table aliased ``games``.

    The store's one rule for practice games (history, statistics, live-game limits): the SQL
    twin of :func:`is_practice`, reading the compact JSON settings (:data:`PRACTICE_JSON`).
    """
    return f"{games}.settings NOT LIKE '%{PRACTICE_JSON}%'"


def is_practice(settings: Mapping[str, Any]) -> bool:
    """True for a practice game's (or lobby's) settings: unrated, not in history, not "live"."""
    return settings.get(PRACTICE) is True


def hints_allowed(settings: Mapping[str, Any]) -> bool:
    """True when ``/hats hint`` answers in a game with these settings (practice or Hints on)."""
    return is_practice(settings) or settings.get(HINTS) is True


def is_activity_only(settings: Mapping[str, Any]) -> bool:
    """True for a DM or group DM Activity's lobby or game: no channel messages, no hand DMs."""
    return settings.get(ACTIVITY_ONLY) is True


def is_rated_kind(settings: Mapping[str, Any]) -> bool:
    """False for games that are never rated, whoever plays.

    Practice, hints allowed, or played in a DM or group DM Activity.
    """
    return not hints_allowed(settings) and not is_activity_only(settings)
