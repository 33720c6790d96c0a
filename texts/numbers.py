"""Numbers in the reader's language: lists of slots, signed changes, points with plurals.

Lists come from Babel's CLDR list patterns (``babel.lists.format_list``: "1, 2, 4 oder 5",
"1 e 5"), so no sentence concatenates its own commas and conjunctions. Counts of points go
through ``Tr.plural`` (ngettext) with the count's absolute value, so "−1 punto" and "−1 point"
take the singular like "1 point" (CLDR plural rules are defined on absolute values).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from babel import Locale, UnknownLocaleError
from babel.lists import format_list

from texts.i18n import Tr

__all__ = ["MINUS", "number", "points_text", "signed", "slot_list"]

MINUS = "\u2212"
"""U+2212 MINUS SIGN: a negative number reads ``−3``, not a hyphen ``-3``."""

_NEGATED_STYLE = {"it": "standard"}
"""Per language, the CLDR list style after a negation ("not on slot 1, 2 or 5"): most
languages say "or" (de "nicht auf Feld 1 oder 5"), Italian says "and" ("non nelle posizioni
1 e 5"). Languages not listed use ``or``."""


def slot_list(slots: Sequence[int], tr: Tr, *, negated: bool = False) -> str:
    """Slot numbers as a list in ``tr``'s language: ``1, 2 and 4`` (``negated``: ``1, 2 or 4``).

    ``negated``: the list follows a "not" (the slots a card may not take, R7), so it joins
    with the language's "or" (or its "and" where that reads naturally, :data:`_NEGATED_STYLE`).
    An empty list gives "".
    """
    if not slots:
        return ""
    style = _NEGATED_STYLE.get(tr.locale, "or") if negated else "standard"
    return _joined(tuple(slots), style, tr.locale)


@functools.lru_cache(maxsize=4096)
def _joined(slots: tuple[int, ...], style: str, language: str) -> str:
    """``format_list`` of ``slots`` (remembered: a few hundred lists cover every game)."""
    try:
        locale = Locale.parse(language)
    except (UnknownLocaleError, ValueError):  # a test's made-up language: English lists
        locale = Locale.parse("en")
    return format_list([str(s) for s in slots], style=style, locale=locale)


def signed(n: int) -> str:
    """A whole-number change with its sign: ``+3``, ``−3`` (U+2212), ``0``."""
    if n < 0:
        return f"{MINUS}{-n}"
    return f"+{n}" if n > 0 else "0"


def number(n: int) -> str:
    """A whole number, negative ones with U+2212: ``5``, ``−2``."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def points_text(n: int, tr: Tr) -> str:
    """``n`` points in ``tr``'s language with the right plural form: ``1 point``, ``−1 point``."""
    return tr.plural("{n} point", "{n} points", abs(n), n=number(n))
