"""Discord's embed limits, and a last-resort trim that keeps an embed within them.

Limits (characters): title 256, description 4096, 25 fields, field name 256, field value
1024, footer 2048, author name 256, all text together 6000. Lengths here are counted in
UTF-16 code units, which is never less than the code-point count discord.py uses, so an embed
that passes here passes both. Renderers lay out their text to fit; :func:`fit_embed` only
guards against long names and long translations.
"""

from __future__ import annotations

import discord

__all__ = [
    "AUTHOR_MAX",
    "BUTTON_LABEL_MAX",
    "CHOICE_NAME_MAX",
    "CHOICE_VALUE_MAX",
    "CONTENT_MAX",
    "DESCRIPTION_MAX",
    "FIELDS_MAX",
    "FIELD_NAME_MAX",
    "FIELD_VALUE_MAX",
    "FOOTER_MAX",
    "SELECT_LABEL_MAX",
    "TITLE_MAX",
    "TOTAL_MAX",
    "embed_size",
    "fit_embed",
    "fit_lines",
    "text_len",
    "truncate",
]

TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
AUTHOR_MAX = 256
TOTAL_MAX = 6000

CONTENT_MAX = 2000
"""Message content, characters."""
CHOICE_NAME_MAX = 100
"""An autocomplete or command choice's name; Discord rejects the whole answer if one is longer."""
CHOICE_VALUE_MAX = 100
"""An autocomplete choice's string value."""
BUTTON_LABEL_MAX = 80
SELECT_LABEL_MAX = 100
"""A select option's label (and its description, also 100)."""

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


def fit_lines(lines: list[str], limit: int, *, keep: str = "last") -> str:
    """Join ``lines`` with newlines, dropping whole lines until the text fits ``limit``.

    ``keep="last"`` drops the oldest (first) lines, ``"first"`` the last ones. A single line
    that is still too long is truncated.
    """
    chosen = list(lines)
    while len(chosen) > 1 and text_len("\n".join(chosen)) > limit:
        chosen.pop(0 if keep == "last" else -1)
    return truncate("\n".join(chosen), limit)


def embed_size(embed: discord.Embed) -> int:
    """All the embed's text in UTF-16 units, as Discord totals it.

    Counts the title, description, field names and values, footer and author name.
    """
    size = text_len(embed.title) + text_len(embed.description)
    size += text_len(embed.footer.text) + text_len(embed.author.name)
    for f in embed.fields:
        size += text_len(f.name) + text_len(f.value)
    return size


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Trim ``embed`` in place to Discord's limits and return it.

    Extra fields beyond 25 are dropped; over-long texts are cut with ``…``; while the total
    exceeds 6000, the longest field value (else the description) is shortened.
    """
    if embed.title is not None:
        embed.title = truncate(embed.title, TITLE_MAX)
    if embed.description is not None:
        embed.description = truncate(embed.description, DESCRIPTION_MAX)
    if embed.footer.text:
        embed.set_footer(
            text=truncate(embed.footer.text, FOOTER_MAX), icon_url=embed.footer.icon_url
        )
    while len(embed.fields) > FIELDS_MAX:
        embed.remove_field(-1)
    for i, f in enumerate(embed.fields):
        name = truncate(f.name or "\u200b", FIELD_NAME_MAX)
        value = truncate(f.value or "\u200b", FIELD_VALUE_MAX)
        embed.set_field_at(i, name=name, value=value, inline=bool(f.inline))
    excess = embed_size(embed) - TOTAL_MAX
    while excess > 0:
        fields = embed.fields
        longest = max(range(len(fields)), key=lambda i: text_len(fields[i].value), default=None)
        if longest is not None and text_len(fields[longest].value) > 64:
            f = fields[longest]
            new_len = max(32, text_len(f.value) - excess)
            embed.set_field_at(
                longest, name=f.name, value=truncate(f.value or "", new_len), inline=bool(f.inline)
            )
        elif embed.description and text_len(embed.description) > 64:
            embed.description = truncate(
                embed.description, max(32, text_len(embed.description) - excess)
            )
        elif fields:
            embed.remove_field(-1)
        else:  # pragma: no cover - only titles and footers left, both already capped
            break
        excess = embed_size(embed) - TOTAL_MAX
    return embed
