"""Discord's text limits, and helpers that keep a text within them.

Lengths here are counted in UTF-16 code units, which is never less than the code-point count
discord.py and Discord use, so a text that fits here fits both. The Components V2 limit of
4,000 characters of text in a whole message (:data:`V2_TEXT_MAX`) is kept by the renderers
and the layouts that assemble their texts (:mod:`cogs.hand_layout`); every picture's alt text
by :func:`fit_alt`.
"""

from __future__ import annotations

__all__ = [
    "ALT_MAX",
    "BUTTON_LABEL_MAX",
    "CHOICE_NAME_MAX",
    "CHOICE_VALUE_MAX",
    "CONTENT_MAX",
    "SELECT_LABEL_MAX",
    "V2_TEXT_MAX",
    "fit_alt",
    "fit_lines",
    "text_len",
    "truncate",
]

CONTENT_MAX = 2000
"""Message content, characters."""
CHOICE_NAME_MAX = 100
"""An autocomplete or command choice's name; Discord rejects the whole answer if one is longer."""
CHOICE_VALUE_MAX = 100
"""An autocomplete choice's string value."""
BUTTON_LABEL_MAX = 80
SELECT_LABEL_MAX = 100
"""A select option's label (and its description, also 100)."""
V2_TEXT_MAX = 4000
"""Components V2: the text of all text displays of one message together, characters (Discord
API, Components reference: 4,000 characters of text content per message; simcord rejects a
message whose text displays exceed it)."""
ALT_MAX = 1024
"""A picture's alt text: an attachment's ``description`` and a media gallery item's
``description`` (Discord API, Components reference, "Media Gallery Item Structure": "Alt text
for the media, max 1024 characters"; simcord validates the same). discord.py 2.7's
``MediaGalleryItem`` docstring still says 256, from before Discord documented the limit."""

ELLIPSIS = "…"


def text_len(text: str | None) -> int:
    """Length of ``text`` in UTF-16 code units (0 for None)."""
    if not text:
        return 0
    return len(text.encode("utf-16-le")) // 2


def truncate(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` UTF-16 units, ending with ``…`` when cut."""
    if text_len(text) <= limit:
        return text
    out = []
    used = 0
    budget = limit - 1
    for ch in text:
        width = 2 if ord(ch) > 0xFFFF else 1
        if used + width > budget:
            break
        out.append(ch)
        used += width
    return "".join(out).rstrip() + ELLIPSIS


def fit_alt(text: str) -> str:
    """``text`` cut to :data:`ALT_MAX` (UTF-16 units), ending ``…`` when cut."""
    return truncate(text, ALT_MAX)


def fit_lines(lines: list[str], limit: int, *, keep: str = "last") -> str:
    """Join ``lines`` with newlines, dropping whole lines until the text fits ``limit``.

    ``keep="last"`` drops the oldest (first) lines, ``"first"`` the last ones. A single line
    that is still too long is truncated.
    """
    chosen = list(lines)
    while len(chosen) > 1 and text_len("\n".join(chosen)) > limit:
        chosen.pop(0 if keep == "last" else -1)
    return truncate("\n".join(chosen), limit)
