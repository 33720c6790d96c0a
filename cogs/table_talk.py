"""The table-talk guard (R10): whether a team-chat message names a card's type, colour or number.

R10 lets partners talk but never name a card's type, colour or number. ``/hats team message``
runs every text through :func:`check_table_talk` first; a message with any hit is not
delivered and the sender is told privately what was caught. Pure function, no I/O.

What is caught (after Unicode NFKC normalisation, casefolding and, for colour words, removal
of accents, so ``ROUGE``, ``Rouge``, ``marron``/``marrón`` and full-width letters all match):

- **Type / colour words** of the seven hat types (R1) in English, French, German, Spanish and
  Italian, with their plural and gender forms: e.g. red/rouge/rot/rote/rojo/roja/rosso/rossa,
  orange/orangé/naranja/arancione, yellow/jaune/gelb/amarillo/giallo,
  green/vert/verte/grün/gruen/verde/verdi, blue/bleu/blau/azul/blu/azzurro,
  purple/violet/lila/violett/morado/púrpura/viola, brown/marron/brun/braun/marrón/marrone.
  A word is caught alone, inside a hyphenated compound (``red-ish``) or as the head of a
  hat compound (``Rothut``, ``bluehat``).
- **Spelled-out words** used to dodge the list: single letters separated by spaces, dots,
  hyphens, underscores or stars (``r-e-d``, ``R E D``, ``b.l.u.e``) are joined and checked.
- **Colour emoji**: the squares the bot prints (🟥🟧🟨🟩🟦🟪🟫), circles (🔴🟠🟡🟢🔵🟣🟤)
  and hearts (❤️🧡💛💚💙💜🤎).
- **Card numbers as digits**: any digit 1–6 standing alone (not part of a longer number such
  as 10 or 2026), including keycap emoji (``5️⃣``), full-width digits and spelled digits
  (``5.``, ``#3``, ``x2``). Digits are always caught, because slots and cards share the same
  numbers and the guard cannot tell them apart: say "the leftmost slot", not "slot 1".
- **Card numbers as words** (one–six in the five languages: one/two/…, un/une/deux/…,
  eins/zwei/…, uno/una/dos/…, uno/due/tre/…) only where they name a card rather than count
  things: (a) the whole message is number words (``five?``, ``cinq !``); (b) next to a
  number or value noun (``number five``, ``numéro cinq``, ``Zahl drei``, ``valore sei``);
  (c) for two–six, right after an article, possessive or demonstrative of the same language
  that makes the number a noun (``the five``, ``my six``, ``le cinq``, ``eine Fünf``,
  ``el cuatro``, ``il tre``), unless "of"/"de"/"di"/"von" follows (``the two of us``).
  So "the due date" (English ``the`` + Italian ``due``) and "le dos" (French back) pass.

What is let through (ordinary talk): every sentence without the words above, e.g. "one
moment", "un momento", "I'll take the one on the left", "give me five minutes", "wir haben
noch drei Runden", "je suis très content" (``très`` is not Spanish ``tres``), "tu sei forte"
(Italian ``sei`` = "you are" is never caught on its own), "dos minutos", "take the middle
card", "make a black hat" (black hats are a public action, not a type).

Not caught (known limits, documented for players): paraphrases ("the colour of blood",
"sky-coloured"), leetspeak (``r3d``), other languages, and numbers written in words inside
arithmetic ("two plus three"). The guard is a reminder of R10, not a proof of honesty.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass

__all__ = ["Hit", "HitKind", "TalkVerdict", "check_table_talk", "colour_of_word"]


class HitKind(enum.StrEnum):
    """What a hit names: a hat type/colour (R1) or a card number (values 1–6)."""

    COLOUR = "colour"
    NUMBER = "number"


@dataclass(frozen=True, slots=True)
class Hit:
    """One caught piece of a message: its kind, the text as written, and what it means.

    ``text``: the matched part of the (normalised) message; ``meaning``: the hat type
    (``"red"``…) or the card value as a string (``"5"``).
    """

    kind: HitKind
    text: str
    meaning: str


@dataclass(frozen=True, slots=True)
class TalkVerdict:
    """The guard's answer: ``allowed`` is True when ``hits`` is empty."""

    allowed: bool
    hits: tuple[Hit, ...]


# ---------------------------------------------------------------- word lists (accent-free)
_COLOURS: dict[str, tuple[str, ...]] = {
    "red": (
        "red",
        "reds",
        "reddish",
        "rouge",
        "rouges",
        "rot",
        "rote",
        "roter",
        "rotes",
        "roten",
        "rotem",
        "rojo",
        "roja",
        "rojos",
        "rojas",
        "rosso",
        "rossa",
        "rossi",
        "rosse",
    ),
    "orange": (
        "orange",
        "oranges",
        "orangey",
        "orangish",
        "orangee",
        "orangees",
        "oranger",
        "orangen",
        "oranges",
        "orangefarben",
        "naranja",
        "naranjas",
        "anaranjado",
        "anaranjada",
        "arancione",
        "arancioni",
        "arancio",
    ),
    "yellow": (
        "yellow",
        "yellows",
        "yellowish",
        "jaune",
        "jaunes",
        "gelb",
        "gelbe",
        "gelber",
        "gelbes",
        "gelben",
        "gelbem",
        "amarillo",
        "amarilla",
        "amarillos",
        "amarillas",
        "giallo",
        "gialla",
        "gialli",
        "gialle",
    ),
    "green": (
        "green",
        "greens",
        "greenish",
        "vert",
        "verte",
        "verts",
        "vertes",
        "grun",
        "gruen",
        "grune",
        "gruene",
        "gruner",
        "gruener",
        "grunes",
        "gruenes",
        "grunen",
        "gruenen",
        "verde",
        "verdes",
        "verdi",
    ),
    "blue": (
        "blue",
        "blues",
        "bluish",
        "bleu",
        "bleue",
        "bleus",
        "bleues",
        "blau",
        "blaue",
        "blauer",
        "blaues",
        "blauen",
        "blauem",
        "azul",
        "azules",
        "blu",
        "azzurro",
        "azzurra",
        "azzurri",
        "azzurre",
    ),
    "purple": (
        "purple",
        "purples",
        "violet",
        "violets",
        "purplish",
        "violette",
        "violettes",
        "pourpre",
        "pourpres",
        "mauve",
        "mauves",
        "lila",
        "violett",
        "violette",
        "violetter",
        "violettes",
        "violetten",
        "purpur",
        "morado",
        "morada",
        "morados",
        "moradas",
        "purpura",
        "violeta",
        "violetas",
        "viola",
        "viole",
        "porpora",
        "violetto",
        "violetta",
    ),
    "brown": (
        "brown",
        "browns",
        "brownish",
        "marron",
        "marrons",
        "brun",
        "brune",
        "bruns",
        "brunes",
        "braun",
        "braune",
        "brauner",
        "braunes",
        "braunen",
        "braunem",
        "marrones",
        "marrone",
        "marroni",
    ),
}
_COLOUR_OF: dict[str, str] = {w: t for t, words in _COLOURS.items() for w in words}

_EMOJI: dict[str, str] = {
    "🟥": "red", "🔴": "red", "❤": "red",
    "🟧": "orange", "🟠": "orange", "🧡": "orange",
    "🟨": "yellow", "🟡": "yellow", "💛": "yellow",
    "🟩": "green", "🟢": "green", "💚": "green",
    "🟦": "blue", "🔵": "blue", "💙": "blue",
    "🟪": "purple", "🟣": "purple", "💜": "purple",
    "🟫": "brown", "🟤": "brown", "🤎": "brown",
}  # fmt: skip

# Number words by language (casefolded, accents kept: "très" must not read as Spanish "tres").
_NUMBERS: dict[str, dict[str, str]] = {
    "en": {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6"},
    "fr": {"un": "1", "une": "1", "deux": "2", "trois": "3", "quatre": "4", "cinq": "5",
           "six": "6"},
    "de": {"eins": "1", "ein": "1", "eine": "1", "zwei": "2", "drei": "3", "vier": "4",
           "fünf": "5", "fuenf": "5", "funf": "5", "sechs": "6"},
    "es": {"uno": "1", "una": "1", "dos": "2", "tres": "3", "cuatro": "4", "cinco": "5",
           "seis": "6"},
    "it": {"uno": "1", "una": "1", "due": "2", "tre": "3", "quattro": "4", "cinque": "5",
           "sei": "6"},
}  # fmt: skip
_NUMBER_WORDS: dict[str, str] = {w: v for words in _NUMBERS.values() for w, v in words.items()}
_ONE_WORDS = frozenset(w for w, v in _NUMBER_WORDS.items() if v == "1")
_NUMBER_NOUNS = frozenset(
    (
        "number", "value",
        "numero", "numéro", "valeur", "chiffre",
        "nummer", "zahl", "wert", "ziffer",
        "número", "valor", "cifra",
        "valore",
    )
)  # fmt: skip
_DETERMINERS: dict[str, frozenset[str]] = {
    "en": frozenset(("a", "the", "my", "your", "his", "her", "this", "that", "our", "their")),
    "fr": frozenset(("le", "la", "mon", "ton", "son", "ce", "cet", "notre", "votre")),
    "de": frozenset(("der", "die", "das", "eine", "meine", "deine", "seine", "ihre", "diese",
                     "unsere")),
    "es": frozenset(("el", "un", "mi", "tu", "su", "ese", "este", "nuestro")),
    "it": frozenset(("il", "lo", "un", "mio", "tuo", "suo", "quel", "quello", "questo")),
}  # fmt: skip
_HAT_SUFFIXES = ("hut", "hute", "hats", "hat")
_OF_WORDS = frozenset(("of", "de", "d", "des", "di", "von", "del", "degli", "dei"))

_KEYCAP = re.compile(r"([0-9])\ufe0f?\u20e3")
_SPELLED = re.compile(r"(?<![^\W\d_])((?:[^\W\d_][\s.\-_*·/]+){2,}[^\W\d_])(?![^\W\d_])")
_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_DIGIT = re.compile(r"(?<![0-9])[1-6](?![0-9])")


def _strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def colour_of_word(word: str) -> str | None:
    """The hat type (``"red"``…, R1) a colour word names in any of the five languages, or None.

    Case and accents are ignored (``Grün``, ``grun``, ``marrón``); plural and gender forms
    count (``rote``, ``roja``). The same word list the guard catches, so the cogs' lenient
    card input (``rot5``, ``rojo 5``) and the guard agree on what a colour word is.
    """
    return _COLOUR_OF.get(_strip_accents(unicodedata.normalize("NFKC", word).casefold()))


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _KEYCAP.sub(r" \1 ", text)
    return text.replace("’", "'")


def check_table_talk(text: str) -> TalkVerdict:
    """Check one team-chat message against the table-talk rule (R10).

    ``text``: the message as typed (any length). Returns a :class:`TalkVerdict` whose hits are
    in order of appearance (colour words and emoji first, then numbers); ``allowed`` is False
    when anything names a hat type/colour or a card number (see the module docstring for
    exactly what is caught and what passes). Never raises.
    """
    norm = _normalise(text)
    hits: list[Hit] = []
    seen: set[tuple[HitKind, str]] = set()

    def add(kind: HitKind, matched: str, meaning: str) -> None:
        if (kind, matched) not in seen:
            seen.add((kind, matched))
            hits.append(Hit(kind, matched, meaning))

    # colours: words, hyphen compounds, spelled-out letters, emoji
    for ch in norm:
        if ch in _EMOJI:
            add(HitKind.COLOUR, ch, _EMOJI[ch])
    flat = _strip_accents(norm)
    for token in re.findall(r"[^\W\d_]+", flat):
        if token in _COLOUR_OF:
            add(HitKind.COLOUR, token, _COLOUR_OF[token])
            continue
        for suffix in _HAT_SUFFIXES:  # German-style compounds: "rothut", "bluehat"
            stem = token.removesuffix(suffix)
            if stem != token and stem in _COLOUR_OF:
                add(HitKind.COLOUR, token, _COLOUR_OF[stem])
                break
    for match in _SPELLED.finditer(flat):
        joined = re.sub(r"[^\w]|_", "", match.group(1))
        for start in range(len(joined)):
            for end in range(start + 2, len(joined) + 1):
                word = joined[start:end]
                if word in _COLOUR_OF and (end - start) >= 3:
                    add(HitKind.COLOUR, match.group(1).strip(), _COLOUR_OF[word])
        if joined in _NUMBER_WORDS and joined not in _ONE_WORDS:
            add(HitKind.NUMBER, match.group(1).strip(), _NUMBER_WORDS[joined])

    # numbers: digits always, words by context
    for match in _DIGIT.finditer(norm):
        add(HitKind.NUMBER, match.group(0), match.group(0))
    tokens = [t.split("'")[-1] for t in _TOKEN.findall(norm)]
    words = [t for t in tokens if not t.isdigit()]
    only_numbers = bool(words) and all(w in _NUMBER_WORDS for w in words)
    for i, word in enumerate(words):
        value = _NUMBER_WORDS.get(word)
        if value is None:
            continue
        before = words[i - 1] if i > 0 else ""
        after = words[i + 1] if i + 1 < len(words) else ""
        next_to_noun = before in _NUMBER_NOUNS or after in _NUMBER_NOUNS
        as_noun = (
            word not in _ONE_WORDS
            and after not in _OF_WORDS
            and any(
                word in _NUMBERS[lang] and before in dets for lang, dets in _DETERMINERS.items()
            )
        )
        article = (
            word in _ONE_WORDS and after in _NUMBER_WORDS
        )  # "eine Fünf": "eine" is the article
        if (only_numbers and not article) or next_to_noun or as_noun:
            add(HitKind.NUMBER, word, value)
    return TalkVerdict(not hits, tuple(hits))
