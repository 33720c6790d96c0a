"""Style rules of the translations that a native review found broken once (issue 18).

Each check returns a list of problems (empty: fine), so the tests can show every mistake at
once and the self-tests can feed known-bad sentences. Not checked here: completeness and
placeholders (:mod:`tests.i18n.catalog_checks`), Discord's naming rules
(tests/bot/test_command_localizations.py).

Rules:

* French typography: a narrow no-break space (U+202F) before ``: ; ! ? »`` and after ``«``.
* No double period: no ``..`` and no translation ending in a period where the English does not
  (an abbreviation such as "Sek." then meets the period of the sentence around it: "Sek..").
* Terms: the rulebooks' words and the ones chosen for the bot, as :data:`BANNED` (words that
  must not appear) and :data:`REQUIRED` (translations that must read a given way).

Placeholders, Discord mentions and timestamps (``<...>``), code, URLs, emoji shortcodes and
command paths (``/hats hand``, kept in English so they become command mentions) are left out
of every rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from tests.i18n.catalog_checks import read_catalog

NNBSP = "\u202f"
"""Narrow no-break space: French typography before ``: ; ! ? »`` and after ``«``."""

DOMAINS = ("messages", "commands")
NAME_CONTEXTS = ("command name", "option name")

PROTECTED = re.compile(
    r"\{[^{}]*\}"  # str.format placeholders (a format spec may hold a colon)
    r"|<[^<>]*>"  # mentions, command mentions, timestamps <t:…:R>
    r"|`[^`]*`"  # markdown code
    r"|https?://\S+"
    r"|:[A-Za-z0-9_+-]+:"  # emoji shortcodes
    r"|/hats(?: [a-z]+){1,2}"  # English command paths, turned into command mentions
)
"""Spans of a translation that are not prose: no style rule looks inside them."""

BANNED: dict[str, list[tuple[str, str]]] = {
    "de": [
        (r"\bseit jeher\b", '"all time" is "insgesamt"'),
        (r"\b(?:Min|Sek|Std)\.", 'durations use "min" and "s" (no period)'),
    ],
    "es": [
        (
            r"\b(?:vosotr[oa]s|vuestr[oa]s?|os)\b|\w(?:áis|éis)\b",
            "no vosotros: the texts also reach Latin America",
        ),
        (r"(?i)\basientos?\b", 'a seat is a "plaza"'),
    ],
    "fr": [
        (r"\bfavori(?:te)?s?\b", "the rulebook's term is « chapeau préféré »"),
        (r"\b(?:fait|fais|faire) un chapeau noir", "the rulebook says « créer un chapeau noir »"),
    ],
    "it": [
        (r"(?i)\b(?:lobby|lobbies|host|round|replay|privacy|DM)\b", "no English word in Italian"),
    ],
}
"""Per language: (regular expression, why) of words no translation may use."""

_ANY_LANGUAGE = [
    # LANGUAGE_NAMES are capitalised autonyms: "en Français", "in Italiano" are wrong
    (r"\b(?:in|en|auf)\s+\{language\}", "name the language after a colon, not after a preposition"),
]

_TURNED = "Slot {slots} was turned face down: a lower slot has the same colour."
REQUIRED: dict[tuple[str, str | None, str], str] = {
    ("de", None, _TURNED): r"^Die Karten? auf (?:den )?Feld",
    ("fr", None, _TURNED): r"^(?:La carte de l’emplacement|Les cartes des emplacements) ",
    ("de", None, "all time"): r"^insgesamt$",
    ("es", None, "Join"): r"^Unirse$",
    ("it", None, "Join"): r"^Entra$",
    ("fr", "command name", "record"): r"^export$",
    ("fr", "command name", "replay"): r"^revoir$",
    ("fr", None, "Favourite hat"): r"^Chapeau préféré$",
}
"""(language, msgctxt, msgid) -> a regular expression every form of its translation matches."""


def prose(text: str) -> str:
    """``text`` with every :data:`PROTECTED` span replaced by U+0000 (kept as one character)."""
    return PROTECTED.sub("\0", text)


def french_spacing_problems(text: str) -> list[str]:
    """Where ``text`` lacks U+202F before ``: ; ! ? »`` or after ``«`` (``?!`` may touch)."""
    bare = prose(text)
    problems = []
    for m in re.finditer(r"[:;!?»]", bare):
        before = bare[m.start() - 1] if m.start() else ""
        if before != NNBSP and not (before in "!?" and m.group() in "!?"):
            problems.append(f"no U+202F before {m.group()!r} in {bare[: m.end()][-25:]!r}")
    for m in re.finditer("«", bare):
        if bare[m.end() : m.end() + 1] != NNBSP:
            problems.append(f"no U+202F after '«' in {bare[m.start() :][:25]!r}")
    return problems


def double_period_problems(msgid: str, text: str) -> list[str]:
    """A ``..`` in ``text``, or a final period the English ``msgid`` does not have."""
    problems = []
    if re.search(r"(?<!\.)\.\.(?!\.)", text):
        problems.append(f"double period in {text!r}")
    if text.rstrip().endswith(".") and not msgid.rstrip().endswith("."):
        problems.append(
            f"{text!r} ends with a period the English has not: the sentence around it adds "
            "its own (write abbreviations without a period, e.g. min, s)"
        )
    return problems


def term_problems(lang: str, text: str) -> list[str]:
    """The :data:`BANNED` words (and the rules for every language) found in ``text``."""
    bare = prose(text)
    problems = []
    for pattern, why in BANNED.get(lang, []):
        for m in re.finditer(pattern, bare):
            problems.append(f"{m.group()!r} in {text!r}: {why}")
    for pattern, why in _ANY_LANGUAGE:
        if re.search(pattern, text):
            problems.append(f"{text!r}: {why}")
    return problems


def style_problems(
    lang: str, context: str | None, msgid: str, text: str, english: str | None = None
) -> list[str]:
    """Every rule above for one translated string (``context``: the msgctxt or None).

    ``english`` is the English form ``text`` translates (a plural form), default ``msgid``.
    """
    problems = double_period_problems(english or msgid, text) + term_problems(lang, text)
    if lang == "fr" and context not in NAME_CONTEXTS:
        problems += french_spacing_problems(text)
    key = (lang, context, msgid)
    if key in REQUIRED and not re.search(REQUIRED[key], text):
        problems.append(f"{text!r} should match {REQUIRED[key]!r}")
    return problems


def translations(locales: Path, lang: str) -> Iterator[tuple[str | None, str, str, str]]:
    """(msgctxt, msgid, English form, translated form) of every translated string of ``lang``.

    ``msgid`` is the singular for every plural form (the key of :data:`REQUIRED`).
    """
    for domain in DOMAINS:
        catalog = read_catalog(locales / lang / "LC_MESSAGES" / f"{domain}.po", locale=lang)
        for m in catalog:
            if not m.id:
                continue
            ids = [m.id] if isinstance(m.id, str) else list(m.id)
            strings = [m.string] if isinstance(m.string, str) else list(m.string)
            for i, text in enumerate(strings):
                if text:
                    yield m.context, ids[0], ids[min(i, len(ids) - 1)], text


def catalog_style_problems(locales: Path, lang: str) -> list[str]:
    """Every style problem of ``lang``'s catalogs under ``locales``, and REQUIRED ones missing."""
    problems: list[str] = []
    seen = set()
    for context, msgid, english, text in translations(locales, lang):
        seen.add((lang, context, msgid))
        problems += style_problems(lang, context, msgid, text, english)
    problems += [f"missing: {key!r}" for key in REQUIRED if key[0] == lang and key not in seen]
    return problems
