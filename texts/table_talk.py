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
- **Colour words used figuratively pass**: a colour word inside a fixed phrase of the same
  language ("out of the blue", "red flag", "green light", "grünes Licht", "rote Zahlen",
  "luz verde", "príncipe azul", "feu vert", "rire jaune", "al verde", "forza Viola") is not a
  hit (list: ``_IDIOMS``).
- **Card numbers as digits**: a digit 1–6 standing alone (not part of 10 or 2026), keycap
  emoji (``5️⃣``) and full-width digits included, is a card number unless it is public
  information (R2, R14): right after a slot, round, turn, seat, player, option or time word
  ("slot 2", "Runde 3", "posición 4", "manche 5", "turno 6", "at 5", "a las 3"), right before
  a unit or a counted thing ("1 sec", "5 min", "3 points", "2 more rounds", "5 Minuten",
  "2 cappelli neri"), linked by "and"/"to"/"bis"/"y"/"à"/"e" to such a number ("slots 1 and
  2", "rondas 3 a 5"), a time of day ("la 1 de la mañana", "sono le 2", "5pm", "1 h"), a
  score (``2v2``) or an ordinal (``2nd``, ``3e``, ``1ª``, ``2. Feld``). Plurals (``5s``,
  ``1er und 2er``), ``x2`` and digits inside words (``r3d``) are card numbers.
- **Card numbers as words** (one–six in the five languages: one/two/…, un/une/deux/…,
  eins/zwei/…, uno/una/dos/…, uno/due/tre/…) only where they name a card rather than count
  things: (a) the whole message is number words (``five?``, ``cinq !``); (b) next to a
  number or value noun (``number five``, ``numéro cinq``, ``Zahl drei``, ``valore sei``);
  (c) for two–six, right after an article, possessive or demonstrative of the same language
  that makes the number a noun (``the five``, ``my six``, ``le cinq``, ``un six``,
  ``eine Fünf``, ``el cuatro``, ``il tre``), unless "of"/"de"/"di"/"von" or a counted thing
  follows (``the two of us``, ``the two rounds``); (d) next to a colour word (``red five``,
  ``grüne sechs``); (e) after another number (``deux cinq``, ``due cinque``) or "a pair of"
  (``paire de six``); (f) plural value nouns (``fives``, ``Sechser``, ``cincos``).
  So "the due date" (English ``the`` + Italian ``due``) and "le dos" (French back) pass.

What is let through (ordinary talk): every sentence without the words above, e.g. "take slot
2", "I will wait for round 3", "hold on 1 sec", "blue sky thinking", "one moment", "un
momento", "give me five minutes", "wir haben noch drei Runden", "je suis très content"
(``très`` is not Spanish ``tres``), "tu sei forte" (Italian ``sei`` = "you are" is never caught
on its own), "dos minutos", "make a black hat" (black hats are a public action, not a type).

Not caught (known limits, documented for players): paraphrases ("the colour of blood",
"sky-coloured"), leetspeak with other digits (``r0t``), other languages, idioms not in the
list, a bare "the one", and numbers written in words inside arithmetic ("two plus three").
The guard is a reminder of R10, not a proof of honesty. Its precision and recall per
language on a labelled set are in BENCHMARKS.md (``scripts/bench_guard.py``).
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Callable
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
        "rotlich",
        "rotliche",
        "rotlichen",
        "rotlicher",
        "rojizo",
        "rojiza",
        "rojizos",
        "rojizas",
        "rougeatre",
        "rougeatres",
        "rossiccio",
        "rossiccia",
        "rossicci",
        "rossicce",
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
        "orangene",
        "orangenen",
        "orangener",
        "orangenes",
        "orangenem",
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
        "amarillento",
        "amarillenta",
        "jaunatre",
        "giallastro",
        "giallastra",
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
        "verdoso",
        "verdosa",
        "verdatre",
        "verdastro",
        "verdastra",
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
        "azulado",
        "azulada",
        "bleuatre",
        "bluastro",
        "bluastra",
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
    "fr": frozenset(("le", "la", "un", "mon", "ton", "son", "ce", "cet", "notre", "votre")),
    "de": frozenset(("der", "die", "das", "eine", "meine", "deine", "seine", "ihre", "diese",
                     "unsere")),
    "es": frozenset(("el", "un", "mi", "tu", "su", "ese", "este", "nuestro")),
    "it": frozenset(("il", "lo", "un", "mio", "tuo", "suo", "miei", "tuoi", "suoi", "quel",
                     "quello", "questo")),
}  # fmt: skip
_HAT_SUFFIXES = ("hut", "hute", "hats", "hat")
_OF_WORDS = frozenset(("of", "de", "d", "des", "di", "von", "del", "degli", "dei"))

_KEYCAP = re.compile(r"([0-9])\ufe0f?\u20e3")
_SPELLED = re.compile(r"(?<![^\W\d_])((?:[^\W\d_][\s.\-_*·/]+){2,}[^\W\d_])(?![^\W\d_])")
_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_DIGIT = re.compile(r"(?<![0-9])[1-6](?![0-9])")
_WORD = re.compile(r"[^\W_]+")

# ------------------------------------------------ colour words that are not about a card
# Fixed phrases (accent-free tokens) in which a colour word means something else; "*" stands
# for any one or two words. A colour token inside a match is not a hit.
_IDIOMS: tuple[tuple[str, ...], ...] = (
    # en
    ("out", "of", "the", "blue"), ("feeling", "blue"), ("feel", "blue"), ("felt", "blue"),
    ("blue", "moon"), ("blue", "sky"), ("blue", "skies"), ("red", "flag"), ("red", "flags"),
    ("red", "herring"), ("green", "light"), ("red", "handed"), ("green", "with", "envy"),
    ("in", "the", "red"), ("paint", "the", "town", "red"), ("red", "carpet"),
    ("green", "thumb"), ("true", "blue"), ("red", "letter"), ("see", "red"),
    ("seeing", "red"), ("saw", "red"), ("black", "and", "blue"), ("blue", "chip"),
    ("red", "tape"), ("code", "red"), ("red", "alert"), ("orange", "juice"),
    ("eating", "an", "orange"), ("eat", "an", "orange"), ("ate", "an", "orange"),
    # de
    ("mach", "*", "blau"), ("machen", "*", "blau"), ("blau", "machen"), ("blaues", "wunder"),
    ("blaue", "wunder"), ("roten", "zahlen"), ("rote", "zahlen"), ("rote", "faden"),
    ("roten", "faden"), ("grunes", "licht"), ("grune", "licht"), ("grunen", "bereich"),
    ("grun", "hinter", "den", "ohren"), ("gelb", "vor", "neid"), ("grun", "vor", "neid"),
    ("rot", "gesehen"), ("rot", "sehen"), ("sieht", "rot"), ("grunen", "zweig"),
    ("dasselbe", "in", "grun"), ("blaue", "vom", "himmel"), ("esse", "eine", "orange"),
    ("isst", "eine", "orange"),
    # es
    ("pusieron", "verde"), ("puso", "verde"), ("poner", "verde"), ("numeros", "rojos"),
    ("luz", "verde"), ("que", "marron"), ("menudo", "marron"), ("como", "el", "marron"),
    ("comerse", "el", "marron"), ("media", "naranja"), ("principe", "azul"),
    ("sangre", "azul"), ("rojo", "de", "verguenza"), ("puso", "rojo"), ("prensa", "amarilla"),
    ("puso", "morado"), ("ponerse", "morado"), ("rojo", "vivo"), ("viejo", "verde"),
    ("chiste", "verde"), ("chistes", "verdes"), ("como", "una", "naranja"), ("vino", "tinto"),
    # fr
    ("rire", "jaune"), ("ri", "jaune"), ("rit", "jaune"), ("peur", "bleue"),
    ("cordon", "bleu"), ("fleur", "bleue"), ("feu", "vert"), ("dans", "le", "rouge"),
    ("vu", "rouge"), ("voir", "rouge"), ("vois", "rouge"), ("des", "vertes", "et", "des"),
    ("main", "verte"), ("vert", "de", "rage"), ("vin", "rouge"), ("mange", "une", "orange"),
    ("tapis", "rouge"), ("ligne", "rouge"), ("poisson", "rouge"), ("fait", "marron"),
    # it
    ("al", "verde"), ("principe", "azzurro"), ("sangue", "blu"), ("luce", "verde"),
    ("guardo", "un", "giallo"), ("libro", "giallo"), ("film", "giallo"),
    ("verde", "d", "invidia"), ("verde", "di", "rabbia"), ("diventato", "rosso"),
    ("diventata", "rossa"), ("pollice", "verde"), ("forza", "azzurri"), ("forza", "viola"),
    ("vino", "rosso"), ("zona", "rossa"), ("cartellino", "rosso"), ("pagine", "gialle"),
    ("viola", "la"), ("viola", "il"), ("viola", "le"), ("viola", "i"), ("viola", "lo"),
    ("viola", "gli"),
)  # fmt: skip

# ------------------------------------------------ numbers that are public information
# Slots, rounds, turns, seats and times are public (R2, R14): a digit right after one of these
# words, or right before a unit or a counted thing, is not a card number.
_PUBLIC_BEFORE = frozenset(
    (
        "slot", "slots", "round", "rounds", "turn", "turns", "seat", "player", "position",
        "place", "spot", "step", "option", "plan", "rank", "top", "game", "level", "move",
        "worth", "at",
        "feld", "felder", "runde", "runden", "zug", "platz", "spieler", "spiel", "stufe",
        "um",
        "posicion", "posiciones", "ronda", "rondas", "turno", "asiento", "puesto", "jugador",
        "opcion", "partida", "paso", "vale", "las",
        "emplacement", "emplacements", "manche", "manches", "tour", "siege", "joueur",
        "partie", "etape", "vaut",
        "posizione", "posizioni", "posto", "giocatore", "opzione", "partita", "passo",
        "alle",
    )
)  # fmt: skip
_PUBLIC_AFTER = _PUBLIC_BEFORE - {"at", "um", "las", "alle", "vale", "vaut", "worth", "top"}
_UNITS = frozenset(
    (
        "s", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes", "h", "hr",
        "hour", "hours", "am", "pm", "oclock", "points", "point", "pts", "games", "times",
        "more", "players", "cards", "black", "wins", "options", "moves", "in",
        "sek", "sekunde", "sekunden", "minute", "minuten", "stunde", "stunden", "uhr", "punkte",
        "punkt", "spiele", "mal", "mehr", "karten", "schwarze", "moglichkeiten", "zugen",
        "zuge",
        "seg", "segundo", "segundos", "minuto", "minutos", "hora", "horas", "puntos", "partidas",
        "veces", "mas", "cartas", "sombreros", "opciones", "turnos", "seguidas", "seguidos",
        "secondes", "seconde", "heure", "heures", "parties", "fois", "plus", "cartes",
        "chapeaux", "tours",
        "secondi", "secondo", "minuti", "ora", "ore", "punti", "partite", "volte", "piu",
        "carte", "cappelli", "opzioni", "turni",
    )
)  # fmt: skip
_TIME_OF_DAY = frozenset(
    ("manana", "tarde", "noche", "matin", "soir", "notte", "mattina", "pomeriggio", "sera")
)
_OF_TIME = frozenset(("de", "di", "du", "del", "della"))
_FROM = frozenset(("from", "von", "de", "da", "dal", "du"))
_TIME_PAIRS = frozenset((("sono", "le"), ("son", "las"), ("es", "la")))
_LAST_AFTER = frozenset(("in", "encore", "noch", "ancora", "otra", "again"))
_LINKS = frozenset(
    ("and", "or", "to", "und", "oder", "bis", "y", "o", "a", "et", "ou", "e", "da", "al")
)
_VERSUS = frozenset(("against", "vs", "v", "gegen", "contra", "contre", "contro"))
_IN_A_ROW = (("in", "a", "row"), ("di", "fila"), ("de", "suite"), ("in", "folge"))
_ORDINAL = re.compile(r"^[1-6](?:st|nd|rd|th|e|eme|re|ere|er|a|o)$")
_PUBLIC_SUFFIX = re.compile(r"^[1-6](?:am|pm|h|hr|min|mins|sec|secs)$|^[1-6]v[1-6]$")
_CONJUNCTIONS = frozenset(("and", "or", "und", "oder", "et", "ou", "y", "e", "o"))

# ------------------------------------------------ number words that describe a card
_PLURAL_NUMBERS: dict[str, str] = {
    "twos": "2", "threes": "3", "fours": "4", "fives": "5", "sixes": "6",
    "einser": "1", "einsen": "1", "zweier": "2", "dreier": "3", "dreien": "3", "vierer": "4",
    "vieren": "4", "funfer": "5", "funfen": "5", "fuenfer": "5", "fuenfen": "5",
    "sechser": "6", "sechsen": "6",
    "doses": "2", "treses": "3", "cuatros": "4", "cincos": "5", "seises": "6",
}  # fmt: skip
_PAIR_WORDS = frozenset(("pair", "paire", "paar", "par", "coppia"))


_Adder = Callable[["HitKind", str, str], None]
"""check_table_talk's local ``add(kind, matched text, meaning)``."""


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


_IDIOMS_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _idiom in _IDIOMS:
    _IDIOMS_BY_FIRST.setdefault(_idiom[0], []).append(_idiom)
_LONGEST_COLOUR = max(len(w) for w in _COLOUR_OF)


def _idiom_positions(tokens: list[str]) -> set[int]:
    """Positions of ``tokens`` inside a phrase of :data:`_IDIOMS` (a colour used figuratively).

    Linear in the number of tokens: only the phrases starting with each token are tried.
    """
    covered: set[int] = set()
    for start, token in enumerate(tokens):
        for idiom in _IDIOMS_BY_FIRST.get(token, ()):
            matched = _match_at(tokens, start, idiom)
            if matched is not None:
                covered.update(matched)
    return covered


def _match_at(tokens: list[str], start: int, idiom: tuple[str, ...]) -> list[int] | None:
    positions: list[int] = []
    i = start
    for part in idiom:
        if part == "*":
            continue
        gap = 3 if positions and idiom[idiom.index(part) - 1] == "*" else 1
        for j in range(i, min(i + gap, len(tokens))):
            if tokens[j] == part:
                positions.append(j)
                i = j + 1
                break
        else:
            return None
        if len(positions) == 1 and positions[0] != start:
            return None
    return positions


def _digit_is_public(words: list[str], i: int) -> bool:
    """Whether the lone digit ``words[i]`` counts or places something public (not a card)."""
    before = words[i - 1] if i > 0 else ""
    after = words[i + 1] if i + 1 < len(words) else ""
    if before in _PUBLIC_BEFORE or after in _PUBLIC_AFTER or after in _UNITS:
        return True
    later = words[i + 2] if i + 2 < len(words) else ""
    if (after in _OF_TIME and later in _TIME_OF_DAY) or (after, later) == ("o", "clock"):
        return True
    if before in _FROM and i >= 2 and words[i - 2] in _PUBLIC_BEFORE:  # "slots from 3 to 5"
        return True
    if i >= 2 and (words[i - 2], before) in _TIME_PAIRS:
        return True
    if i == len(words) - 1 and before in _LAST_AFTER:
        return True
    if (before in _VERSUS and i >= 2 and words[i - 2].isdigit()) or (
        after in _VERSUS and later.isdigit()
    ):  # "2 against 2", "es 2 contra 2": teams or a score
        return True
    return any(tuple(words[i + 1 : i + 1 + len(p)]) == p for p in _IN_A_ROW)


def _token_digit(token: str, nxt: str) -> str | None:
    """The card value a token with a digit names, or None when it is public / not a card.

    ``"5"``, ``"5s"``, ``"x2"``, ``"r3d"`` name a value; ordinals (``2nd``, ``3e``, ``1ª``),
    times (``5pm``, ``1h``) and ``2v2`` do not. German ``5er`` ("a five") is a value unless a
    word other than "and"/"or" follows (French ``1er coup``: "first move").
    """
    if _PUBLIC_SUFFIX.match(token):
        return None
    if _ORDINAL.match(token):
        if token.endswith("er") and (not nxt or nxt in _CONJUNCTIONS):
            return token[0]
        return None
    match = _DIGIT.search(token)
    return match.group(0) if match and not token.isdigit() else None


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
    letters = re.findall(r"[^\W\d_]+", flat)
    figurative = _idiom_positions(letters)
    colour_at: set[int] = set()
    for index, token in enumerate(letters):
        if index in figurative:
            continue
        if token in _COLOUR_OF:
            colour_at.add(index)
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
            for end in range(start + 3, min(len(joined), start + _LONGEST_COLOUR) + 1):
                word = joined[start:end]
                if word in _COLOUR_OF:
                    add(HitKind.COLOUR, match.group(1).strip(), _COLOUR_OF[word])
        if joined in _NUMBER_WORDS and joined not in _ONE_WORDS:
            add(HitKind.NUMBER, match.group(1).strip(), _NUMBER_WORDS[joined])

    _digit_hits(flat, add)
    _word_hits(norm, letters, colour_at, add)
    return TalkVerdict(not hits, tuple(hits))


def _digit_hits(flat: str, add: _Adder) -> None:
    """Card values written with digits: a lone 1–6 unless it is public (slot, round, time)."""
    words = _WORD.findall(flat.replace("'", " "))
    lone = [i for i, w in enumerate(words) if w.isdigit() and _DIGIT.fullmatch(w)]
    public = {i for i in lone if _digit_is_public(words, i)}
    # "slots 1 and 2", "rounds 3 to 5": a digit linked to a public one is public too; links
    # join i and i + 2, so one pass each way covers every chain.
    for order in (lone, lone[::-1]):
        for i in order:
            for j in (i - 2, i + 2):
                if i not in public and j in public and words[(i + j) // 2] in _LINKS:
                    public.add(i)
    for i, word in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if i in lone:
            if i not in public:
                add(HitKind.NUMBER, word, word)
        elif not word.isdigit() and (value := _token_digit(word, nxt)) is not None:
            add(HitKind.NUMBER, word, value)


def _word_hits(norm: str, letters: list[str], colour_at: set[int], add: _Adder) -> None:
    """Card values written as words, only where they name a card (see the module docstring)."""
    tokens = [t.split("'")[-1] for t in _TOKEN.findall(norm)]
    words = [t for t in tokens if not t.isdigit()]
    flat_words = [_strip_accents(w) for w in words]
    colour_words = {letters[i] for i in colour_at}
    only_numbers = bool(words) and all(w in _NUMBER_WORDS for w in words)
    for i, word in enumerate(words):
        plain = flat_words[i]
        if plain in _PLURAL_NUMBERS:
            add(HitKind.NUMBER, word, _PLURAL_NUMBERS[plain])
            continue
        value = _NUMBER_WORDS.get(word)
        if value is None:
            continue
        before = words[i - 1] if i > 0 else ""
        after = words[i + 1] if i + 1 < len(words) else ""
        counted = _strip_accents(after) in _UNITS or _strip_accents(after) in _PUBLIC_AFTER
        next_to_noun = (before in _NUMBER_NOUNS or after in _NUMBER_NOUNS) and not (
            word in _ONE_WORDS and after in _OF_WORDS
        )
        as_noun = (
            word not in _ONE_WORDS
            and after not in _OF_WORDS
            and not counted
            and any(
                word in _NUMBERS[lang] and before in dets for lang, dets in _DETERMINERS.items()
            )
        )
        article = word in _ONE_WORDS and after in _NUMBER_WORDS  # "eine Fünf": the article
        coloured = (i > 0 and flat_words[i - 1] in colour_words) or (
            word not in _ONE_WORDS  # "un bleu": an article, not a value
            and i + 1 < len(words)
            and flat_words[i + 1] in colour_words
        )
        after_count = (
            word not in _ONE_WORDS and before in _NUMBER_WORDS and not counted
        )  # "deux cinq", "due cinque": a count, then the value
        pair = i >= 2 and before in _OF_WORDS and words[i - 2] in _PAIR_WORDS
        if (
            (only_numbers and not article)
            or next_to_noun
            or as_noun
            or coloured
            or after_count
            or pair
        ):
            add(HitKind.NUMBER, word, value)
