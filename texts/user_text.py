"""User-controlled text as data: names, nicknames, channel names, team messages (issue 19.2).

What users type is shown, never interpreted. Every such text passes through here where it
enters the bot's messages:

- :func:`plain_text`: the text as it may be drawn or put where Discord renders no markdown
  (pictures, select and button labels, autocomplete choices): Unicode NFC, control and
  bidirectional formatting characters removed, whitespace collapsed, cut to a length; empty
  when nothing visible is left (a name of spaces, zero-width or "blank" characters).
- :func:`markdown_text`: the same text for places that render markdown (message content,
  embed titles, field names and values, Components V2 text): ``discord.utils.escape_markdown``
  (``**x**``, ``[x](url)``, ``||x||``, ``# x`` show as typed), ``escape_mentions`` (no
  ``@everyone``, no ``<@id>`` ping), and isolated from the text around it with U+2068 FIRST
  STRONG ISOLATE … U+2069 POP DIRECTIONAL ISOLATE, so a right-to-left name cannot reorder the
  rest of its line (Unicode UAX #9, X5c/X6a).
- :func:`seat_names`: the names of one game's seats: a fallback (``Player 2``) for a name with
  nothing visible, and equal names told apart (``Ana``, ``Ana (2)``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from texts.limits import CONTENT_MAX, text_len

__all__ = [
    "ISOLATE_END",
    "ISOLATE_START",
    "NAME_MAX",
    "SeatName",
    "markdown_text",
    "plain_text",
    "quoted",
    "seat_names",
    "user_text",
    "with_user_text",
]

NAME_MAX = 32
"""Characters of a name kept (Discord's display names and nicknames are at most 32)."""
ISOLATE_START = "\u2068"
"""U+2068 FIRST STRONG ISOLATE: opens a user text's own direction."""
ISOLATE_END = "\u2069"
"""U+2069 POP DIRECTIONAL ISOLATE: closes it (and any embedding or override left open)."""
ELLIPSIS = "…"

_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Explicit directional formatting characters (UAX #9): dropped, the isolate replaces them."""
_INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me"})
"""Characters that show nothing on their own (spaces, format, unassigned, combining marks)."""
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
"""Letters drawn as nothing (Hangul fillers, the blank Braille pattern, Khmer inherent vowels),
often used for "empty" names."""


def _visible(ch: str) -> bool:
    return unicodedata.category(ch) not in _INVISIBLE_CATEGORIES and ch not in _BLANK_LETTERS


def plain_text(raw: str | None, limit: int = NAME_MAX) -> str:
    """``raw`` cleaned for display as plain text, at most ``limit`` characters (``…`` marks a cut).

    Empty when ``raw`` is None or shows nothing. Never interprets anything: markdown stays
    as typed (escape it with :func:`markdown_text` where markdown renders).
    """
    if not raw:
        return ""
    text = unicodedata.normalize("NFC", raw)
    text = "".join(
        " " if unicodedata.category(ch) == "Cc" else ch for ch in text if ch not in _BIDI_CONTROLS
    )
    text = " ".join(text.split())
    if not any(_visible(ch) for ch in text):
        return ""
    if len(text) > limit:
        text = text[: max(limit - 1, 0)].rstrip() + ELLIPSIS
    return text


_URL = r"(?P<url><[^: >]+:/[^ >]+>|(?:https?|steam)://[^\s<]+[^<.,:;\"'\]\s])"
"""A link Discord shows as a link (``<scheme:/x>`` or a bare http(s)/steam URL): left as typed."""
_MARKUP = r"(?P<markdown>[_\\~|*`]|^>(?:>>)?\s|\[.+\]\(.+\)|^#{1,3}|^\s*-)"
"""What Discord's markdown reads as markup: emphasis, spoiler and code marks, block quotes,
masked links, headings and list bullets (Discord's "Markdown Text 101" help article)."""
_ESCAPE = re.compile(f"(?:{_URL}|{_MARKUP})", re.MULTILINE)
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")


def escape_markdown(text: str) -> str:
    """``text`` with each markdown mark behind a backslash, so Discord shows it as typed.

    Links are left alone (their ``_`` stay). The same result as discord.py's
    ``discord.utils.escape_markdown`` (checked by tests/render/test_user_text_escape.py);
    written here because the words' layer imports no Discord library.
    """
    return _ESCAPE.sub(lambda m: m.group("url") or "\\" + m.group("markdown"), text)


def escape_mentions(text: str) -> str:
    """``text`` with ``@everyone``, ``@here`` and ``@id`` broken by a zero-width space.

    As ``discord.utils.escape_mentions``: a mention in a user's name never pings.
    """
    return _MENTION.sub("@\u200b\\1", text)


def markdown_text(plain: str) -> str:
    """``plain`` (from :func:`plain_text`) escaped for markdown and mentions, bidi-isolated.

    The result is ``len(plain)`` to ``2 * len(plain) + 2`` characters long (each markdown
    character gains a backslash).
    """
    return f"{ISOLATE_START}{escape_mentions(escape_markdown(plain))}{ISOLATE_END}"


def quoted(raw: str | None, limit: int = 60) -> str:
    """What a user typed, echoed back in quotes (``'red 9'``): cleaned, escaped, isolated.

    For answers that repeat a wrong input; at most ``limit`` characters inside the quotes.
    """
    return f"'{user_text(raw, limit)}'"


def user_text(raw: str | None, limit: int) -> str:
    """A user's free text (a team message) for a markdown place, at most ``limit`` characters.

    Cleaned (:func:`plain_text`), escaped and isolated (:func:`markdown_text`); cut before
    escaping as far as needed so that the escaped text fits ``limit`` (Discord's limits count
    the escapes too; lengths in UTF-16 units, as ``texts.limits`` counts). ``limit``
    must be at least 4.
    """
    keep = limit
    while True:
        plain = plain_text(raw, keep)
        text = markdown_text(plain)
        over = text_len(text) - limit
        if over <= 0:
            return text
        keep -= max(1, (over + 1) // 2)


def with_user_text(
    sentence: Callable[[str], str], raw: str | None, limit: int = CONTENT_MAX
) -> str:
    """``sentence(quoted)`` with the user's ``raw`` text quoted safely, within ``limit``.

    ``sentence`` builds the whole message around the quoted text (a translated sentence);
    the text is cut (:func:`user_text`) so that the message fits Discord's ``limit``
    (message content: 2000 characters).
    """
    room = limit - text_len(sentence(""))
    return sentence(user_text(raw, max(room, 4)))


@dataclass(frozen=True, slots=True)
class SeatName:
    """A seat's name, two ways: ``text`` for markdown places, ``plain`` for pictures and labels."""

    text: str
    plain: str


def seat_names(raw: Sequence[str | None], fallback: Callable[[int], str]) -> list[SeatName]:
    """The names of one game's seats (``raw[i]``: seat i's raw name, None for an AI or unknown).

    A name that shows nothing becomes ``fallback(seat)`` (``Player 2``, ``AI 2``: the bot's own
    words, not escaped). Names equal after cleaning (case ignored) are told apart by their
    order of seats: ``Ana``, ``Ana (2)``; a suffix that would collide takes the next number.
    """
    cleaned = [plain_text(name) for name in raw]
    plain = [name or fallback(seat) for seat, name in enumerate(cleaned)]
    taken = {name.casefold() for name in plain}
    seen: set[str] = set()
    out = []
    for seat, name in enumerate(plain):
        key = name.casefold()
        if key in seen:
            number = 2
            while f"{name} ({number})".casefold() in taken:
                number += 1
            name = f"{name} ({number})"
            taken.add(name.casefold())
        seen.add(key)
        out.append(SeatName(markdown_text(name) if cleaned[seat] else name, name))
    return out
