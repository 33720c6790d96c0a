"""Cards as players type them, in any of the five languages: ``rot5``, ``rojo 5``, ``🟥5``.

The engine's :func:`engine.parse_card` reads the English codes (``red5``, ``Red 5``), emoji
(``🟥5``) and the autocomplete's names (``🟥 5 · rouge``); this adds the colour words of
English, German, Spanish, French and Italian (case and accents ignored: ``grün5``,
``grun 5``, ``marrón 3``, ``5 rosso``), taken from the table-talk guard's word list
(:func:`texts.table_talk.colour_of_word`) so both always agree on what names a colour.
"""

from __future__ import annotations

import re
import unicodedata

from engine import Card, CardParseError, HatType, parse_card
from texts.table_talk import colour_of_word

__all__ = ["fold", "parse_card_text"]

_WORD_VALUE = re.compile(r"^\s*(?P<word>[^\W\d_]+)\s*[-_:·.]?\s*(?P<value>[1-6])\s*$")
_VALUE_WORD = re.compile(r"^\s*(?P<value>[1-6])\s*[-_:·.]?\s*(?P<word>[^\W\d_]+)\s*$")


def fold(text: str) -> str:
    """``text`` casefolded, NFKC-normalised and without accents (for matching typed input)."""
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def parse_card_text(text: str) -> Card:
    """The card ``text`` names, in any of the five languages (R1).

    Raises engine.CardParseError (with the text as typed) when it names no card.
    """
    try:
        return parse_card(text)
    except CardParseError:
        pass
    folded = fold(text).replace("\ufe0f", "")
    for pattern in (_WORD_VALUE, _VALUE_WORD):
        match = pattern.match(folded)
        if match:
            hat = colour_of_word(match["word"])
            if hat is not None:
                return Card.of(HatType(hat), int(match["value"]))
    raise CardParseError(text)
