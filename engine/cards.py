"""Hat cards, hat types and their emoji (R1).

A card is a frozen, interned value: ``Card.of(HatType.RED, 5)`` always returns the same object,
so identity, equality and hashing agree. Cards are written ``<type><value>`` (``red5``).
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass, field
from typing import ClassVar

__all__ = [
    "ALL_CARDS",
    "VALUES",
    "Card",
    "CardParseError",
    "HatType",
    "card_from_code",
    "parse_card",
]

VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
"""The values every hat type has one card of (R1)."""


class HatType(enum.Enum):
    """The seven hat types in canonical order (R1). ``.value`` is the type id used in codes."""

    RED = "red"
    ORANGE = "orange"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    PURPLE = "purple"
    BROWN = "brown"

    @property
    def emoji(self) -> str:
        """The square emoji that stands for this type (R1)."""
        return _EMOJI[self]

    @property
    def index(self) -> int:
        """Position 0–6 in the canonical order (R1)."""
        return _TYPE_INDEX[self]


_EMOJI = {
    HatType.RED: "🟥",
    HatType.ORANGE: "🟧",
    HatType.YELLOW: "🟨",
    HatType.GREEN: "🟩",
    HatType.BLUE: "🟦",
    HatType.PURPLE: "🟪",
    HatType.BROWN: "🟫",
}
_TYPE_INDEX = {t: i for i, t in enumerate(HatType)}
BLACK_HAT_EMOJI = "⬛"
"""Emoji for a black hat, a card played face down into a collection (R8)."""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One hat card: a type and a value 1–6 (R1).

    ``id`` is 0–41 (``type.index * 6 + value - 1``), a dense index for tables. Cards are
    interned: ``Card(t, v)``, :meth:`Card.of` and :func:`card_from_code` all return the one
    instance of that card (copies and unpickling too), so equality is identity and is cheap.
    Raises ValueError when ``value`` is not 1–6 or ``type`` is not a :class:`HatType`.
    """

    type: HatType
    value: int
    id: int = field(init=False, repr=False)

    _interned: ClassVar[dict[tuple[HatType, int], Card]] = {}

    def __new__(cls, type: HatType, value: int) -> Card:
        """The interned instance (created once, when ALL_CARDS is built); ValueError if none."""
        card = cls._interned.get((type, value))
        if card is not None:
            return card
        if not isinstance(type, HatType) or value not in VALUES:
            raise ValueError(f"no card of type {type!r} and value {value!r}")
        card = object.__new__(cls)
        cls._interned[(type, value)] = card
        return card

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", self.type.index * 6 + self.value - 1)

    def __hash__(self) -> int:
        return self.id

    def __reduce__(self) -> tuple[object, tuple[HatType, int]]:
        return (Card.of, (self.type, self.value))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    @classmethod
    def of(cls, hat_type: HatType, value: int) -> Card:
        """The interned card of ``hat_type`` and ``value``; raises ValueError if value ∉ 1–6."""
        try:
            return cls._interned[(hat_type, value)]
        except KeyError:
            raise ValueError(f"card value must be 1–6, got {value!r}") from None

    @property
    def code(self) -> str:
        """The card's code, e.g. ``red5`` (R1)."""
        return _CODES[self.id]

    @property
    def label(self) -> str:
        """A short readable label, e.g. ``🟥 5 · red``."""
        return f"{self.type.emoji} {self.value} · {self.type.value}"

    @property
    def short(self) -> str:
        """A compact label for tables, e.g. ``🟥5``."""
        return f"{self.type.emoji}{self.value}"

    def __str__(self) -> str:
        return self.code


ALL_CARDS: tuple[Card, ...] = tuple(Card(t, v) for t in HatType for v in VALUES)
"""All 42 cards, indexed by ``Card.id`` (R1)."""
_CODES: tuple[str, ...] = tuple(f"{c.type.value}{c.value}" for c in ALL_CARDS)
_BY_CODE = {c.code: c for c in ALL_CARDS}


class CardParseError(ValueError):
    """Raised by :func:`parse_card` when text names no card; ``text`` is the input."""

    def __init__(self, text: str) -> None:
        super().__init__(f"{text!r} is not a card: write a type and a value, like red5 or 🟥5")
        self.text = text


def card_from_code(code: str) -> Card:
    """The card for an exact code such as ``red5``; raises CardParseError otherwise."""
    try:
        return _BY_CODE[code]
    except KeyError:
        raise CardParseError(code) from None


_TYPE_BY_WORD = {t.value: t for t in HatType} | {t.emoji: t for t in HatType}
_LENIENT = re.compile(r"^\s*(?P<type>[a-z]+|\S)\s*[-_:·.]?\s*(?P<value>[1-6])\s*$")
_LENIENT_VALUE_FIRST = re.compile(r"^\s*(?P<value>[1-6])\s*[-_:·.]?\s*(?P<type>[a-z]+|\S)\s*$")


def parse_card(text: str) -> Card:
    """Parse typed card input leniently: ``red5``, ``Red 5``, ``🟥5``, ``🟥 5 · red``, ``5 red``.

    Raises CardParseError when the text names no card of R1.
    """
    norm = unicodedata.normalize("NFC", text).strip().lower()
    norm = norm.replace("\ufe0f", "").replace("\u2060", "")  # emoji variant, word joiner
    exact = _BY_CODE.get(norm.replace(" ", ""))
    if exact is not None:
        return exact
    # The autocomplete name form "🟥 5 · red": keep the emoji and value.
    if "·" in norm:
        norm = norm.split("·", 1)[0]
    for pattern in (_LENIENT, _LENIENT_VALUE_FIRST):
        m = pattern.match(norm)
        if m:
            hat_type = _TYPE_BY_WORD.get(m["type"])
            if hat_type is not None:
                return Card.of(hat_type, int(m["value"]))
    raise CardParseError(text)
