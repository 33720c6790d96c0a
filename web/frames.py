"""Reading a client's JSON safely: its size is checked before parsing and its nesting bounded.

A WebSocket frame or an API body is outside input. ``json.loads`` recurses once per nested
array or object, so 2 kB of ``[[[[…]]]]`` raised ``RecursionError`` out of the handler (a dead
WebSocket, an HTTP 500). :func:`parse_json` refuses such text before ``json.loads`` sees it:
longer than ``max_chars`` raises :class:`TooBig`, nested deeper than ``max_depth`` or not
JSON raises :class:`BadJSON`. The nesting is measured with one regular-expression pass over the
structural characters (strings skipped, escapes included), linear in the text's length.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_DEPTH", "BadJSON", "TooBig", "depth", "parse_json", "snowflake"]

MAX_DEPTH = 16
"""Nesting a client's JSON may have (the protocol's deepest frame, ``act``, has 2)."""

_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


class TooBig(ValueError):
    """The text is longer than allowed (nothing parsed)."""


class BadJSON(ValueError):
    """The text is not JSON, or nested deeper than allowed (nothing parsed)."""


def depth(text: str, limit: int) -> int:
    """The deepest nesting of arrays and objects in ``text``, counting stops past ``limit``.

    Brackets inside strings do not count. Malformed text is measured as far as it goes (the
    parser refuses it afterwards).
    """
    level = deepest = 0
    for match in _STRUCTURE.finditer(text):
        char = match.group()[0]
        if char in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > limit:
                    return deepest
        elif char in "]}":
            level -= 1
    return deepest


def parse_json(text: str | bytes, *, max_chars: int, max_depth: int = MAX_DEPTH) -> Any:
    """``text``'s JSON value.

    Raises TooBig when ``text`` has more than ``max_chars`` characters (bytes: UTF-8 decoded
    first), BadJSON when it is not JSON (also not UTF-8) or nests deeper than ``max_depth``.
    """
    if len(text) > max_chars:
        raise TooBig(f"{len(text)} > {max_chars} characters")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJSON("not UTF-8") from None
    if depth(text, max_depth) > max_depth:
        raise BadJSON(f"nested deeper than {max_depth}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise BadJSON("not JSON") from None


def snowflake(value: object, *, text_only: bool = False) -> int | None:
    """A Discord id (a snowflake) sent as a string of at most 20 digits, else None.

    A non-negative int is taken too (a client may send a number), unless ``text_only`` (as
    Discord's own API writes ids: strings).
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value >= 0 and not text_only:
        return value
    if isinstance(value, str) and value.isdecimal() and len(value) <= 20:
        return int(value)
    return None
