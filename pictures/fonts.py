"""The font every picture uses: Noto Sans (SIL Open Font License 1.1), shipped on PyPI.

It comes from the ``fontpkg-noto-sans`` package (a variable font: weight 100–900), which
covers Latin with every accent, Greek and Cyrillic. Fonts are loaded once per (size, weight).
"""

from __future__ import annotations

from functools import lru_cache

from fontpkg.pil import truetype
from PIL import ImageFont

__all__ = ["BOLD", "FAMILY", "REGULAR", "font", "measure"]

FAMILY = "Noto Sans"
REGULAR = 400
BOLD = 700


@lru_cache(maxsize=64)
def font(size: int, weight: int = REGULAR) -> ImageFont.FreeTypeFont:
    """Noto Sans at ``size`` pixels and ``weight`` (400 regular, 700 bold), cached.

    Raises fontpkg's error when the font package is not installed.
    """
    return truetype(FAMILY, size, weight=weight)


@lru_cache(maxsize=8192)
def measure(text: str, size: int, weight: int = REGULAR) -> float:
    """Width in pixels of ``text`` in Noto Sans at ``size`` and ``weight`` (cached)."""
    return font(size, weight).getlength(text)
