"""Text in pictures: the translator protocol and fitting a text into a width.

Every label a picture shows goes through a :class:`Translate` (``texts.i18n.Tr`` is one), so
each language works; only names, numbers and ``×`` are drawn as they are.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

from pictures.fonts import REGULAR, font, measure

__all__ = ["ELLIPSIS", "N_", "Translate", "drawable", "fit_text"]

ELLIPSIS = "…"


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction without translating it; returns it unchanged."""
    return msgid


class Translate(Protocol):
    """Translates and formats one language's texts (``texts.i18n.Tr`` fits this)."""

    def __call__(self, msgid: str, /, **params: Any) -> str:
        """``msgid`` translated, ``{placeholders}`` filled from ``params``."""
        ...

    def plural(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The form for count ``n`` (``{n}`` is filled), translated and formatted."""
        ...


def fit_text(text: str, size: int, width: float, weight: int = REGULAR) -> str:
    """``text`` as it is if it fits ``width`` pixels (Noto Sans, ``size`` px), else cut with ``…``.

    Returns ``""`` when not even the ellipsis fits. Cuts by characters (binary search on the
    measured width), so accents and wide letters are measured, not guessed.
    """
    if width <= 0:
        return ""
    if measure(text, size, weight) <= width:
        return text
    if measure(ELLIPSIS, size, weight) > width:
        return ""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(text[:mid].rstrip() + ELLIPSIS, size, weight) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


_NOTDEF = "\U0010fffd"
"""A private-use character no font has: the font draws its "missing glyph" box for it."""


def _glyph(ch: str) -> tuple[tuple[int, int], bytes]:
    mask = font(28).getmask(ch)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    return _glyph(ch) != _glyph(_NOTDEF)


def drawable(text: str) -> str:
    """``text`` without the characters the font cannot draw (emoji, CJK…), spaces collapsed.

    Noto Sans covers Latin with every accent, Greek and Cyrillic; a name such as
    ``"🎩 Zoë"`` is drawn as ``"Zoë"`` rather than with a missing-glyph box.
    """
    kept = "".join(ch for ch in text if ch.isspace() or _has_glyph(ch))
    return " ".join(kept.split())
