r"""Reading the ``custom_id`` of a persistent control: templates with bounded ids, one parser.

Every ``DynamicItem`` of the bot (a :class:`cogs.errors.GuardedItem`) reads its custom_id with
:func:`fields`, and its template is checked by :func:`check_template` when its class is
defined (issue 29.3), so no control can hand the store a number it cannot hold:

- an id in a template is :data:`ID`, at most 19 digits (the largest int64 has 19); no digit run
  in a template is unbounded (``\d+``, ``\d*``, ``\d{1,}``) or longer than 19 digits;
- :func:`fields` turns every all-digit group into an int, and one over the store's int64 range
  into 0, which names no row (ids count from 1): it is answered like any stale control.

A ``hats:`` custom_id that matches no template gets the same answer
(:func:`cogs.errors.answer_unknown_control`).
"""

from __future__ import annotations

import enum
import re
from typing import Any

from cogs.scope import in_id_range

__all__ = ["ID", "MAX_DIGITS", "bounded_id", "check_template", "choice", "fields"]

MAX_DIGITS = 19
"""Digits of the largest int64 (9223372036854775807): the longest id a template accepts."""
ID = rf"\d{{1,{MAX_DIGITS}}}"
"""A row id in a template: digits, at most as many as the largest int64 has."""

_DIGIT_RUN = re.compile(r"(?:\\d|\[0-9\])(?P<q>[+*]|\{(?P<low>\d*)(?P<comma>,?)(?P<high>\d*)\})?")


def bounded_id(text: str) -> int:
    """An id read from a custom_id: the number, or 0 (no row) when out of the int64 range."""
    value = int(text)
    return value if in_id_range(value) else 0


def choice(values: type[enum.StrEnum]) -> str:
    """A template alternative of an enum's values (``join|leave|...``): nothing else matches."""
    return "|".join(sorted((v.value for v in values), key=len, reverse=True))


def check_template(pattern: str) -> None:
    """Raise TypeError when a template's digit run is unbounded or longer than :data:`ID`.

    ``pattern``: a DynamicItem template (regex source). Called for every GuardedItem class
    when it is defined, so a new control cannot forget the bound (issue 29.3).
    """
    for run in _DIGIT_RUN.finditer(pattern):
        q = run["q"]
        if q is None:
            continue
        if q in "+*" or (run["comma"] and not run["high"]):
            raise TypeError(f"template {pattern!r}: unbounded digits {run[0]!r}; use {ID!r}")
        high = int(run["high"] or run["low"] or 0)
        if high > MAX_DIGITS:
            raise TypeError(f"template {pattern!r}: {run[0]!r} is longer than an int64 id")


def fields(match: re.Match[str] | Any) -> dict[str, Any]:
    """A matched custom_id's named groups: digits as bounded ints (:func:`bounded_id`).

    Groups of digits only become ints (0 when beyond the store's int64 range); other groups
    stay strings; groups that did not take part are None. ``match``: the template's match
    that discord.py hands to ``DynamicItem.from_custom_id``.
    """
    out: dict[str, Any] = {}
    for name, value in match.groupdict().items():
        if value is not None and value.isascii() and value.isdigit():
            out[name] = bounded_id(value)
        else:
            out[name] = value
    return out
