"""Pieces shared by every renderer: seat labels, card text, the board line, durations.

Cards are always written with :func:`card_token` (``🟥⁠5``, also :func:`card_short`) or
:func:`card_label` (``🟥 5 · red``, select options and autocomplete names only): a type emoji is
never followed by a digit anywhere else, so a test can search any rendered text for a card.
In message text a card is one unbreakable token: a WORD JOINER (U+2060) sits between the
symbol and the value (and after a black hat's ⬛), so a line never breaks inside a card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine import BLACK_HAT_EMOJI, Card, HatType
from texts.i18n import N_, Tr

__all__ = [
    "AI_LEVEL_NAMES",
    "COOKIE",
    "NO_CARDS",
    "SLOT_KEYCAPS",
    "TEAM_NAMES",
    "TEAM_SEATS",
    "TURNS",
    "WORD_JOINER",
    "SeatLabel",
    "board_text",
    "card_label",
    "card_short",
    "card_token",
    "cards_short",
    "collection_text",
    "command_mention",
    "duration_text",
    "seat_display_name",
    "seat_label",
    "seat_mention",
    "seat_name",
    "team_members",
    "type_name",
]

TURNS = 8
"""Turns each seat takes, hence rounds in a game (R14)."""

COOKIE = "🍪"
NO_CARDS = "—"
"""Shown where a list of cards is empty."""

NO_BREAK_SPACE = "\u00a0"
"""U+00A0: a space where no line may break (between a slot's keycap and its card)."""
WORD_JOINER = "\u2060"
"""U+2060: no line break here (Unicode UAX #14, class WJ); invisible, not a space."""

SLOT_KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣")
"""Slot numbers 1–6 as keycap emoji (R2)."""

TYPE_NAMES: dict[HatType, str] = {
    HatType.RED: N_("red"),
    HatType.ORANGE: N_("orange"),
    HatType.YELLOW: N_("yellow"),
    HatType.GREEN: N_("green"),
    HatType.BLUE: N_("blue"),
    HatType.PURPLE: N_("purple"),
    HatType.BROWN: N_("brown"),
}
"""The seven hat types' names (R1), as msgids."""

AI_LEVEL_NAMES: dict[str, str] = {
    "easy": N_("easy"),
    "normal": N_("normal"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}
"""AI levels as msgids; an unknown level is shown as it is."""

TEAM_SEATS = 4
"""Seats of a team game (R5); only then are there teams and no draw deck (R4)."""

TEAM_NAMES = (N_("Team A"), N_("Team B"))
"""The two teams of a 4-seat game (R5): seats 0+2, then 1+3."""


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """Who sits in a seat, for display.

    ``seat``: 0-based seat number. ``user_id``: the Discord user, None for an AI seat.
    ``ai_level``: ``"easy"``/``"normal"``/``"hard"``/``"expert"`` for an AI seat, or for a
    human seat the AI plays while the human is ``away``. ``name``: the display name for
    markdown places (embed titles and field names, where mentions do not render): a user's
    name comes escaped and bidi-isolated, told apart from equal names
    (``texts.user_text.seat_names``). ``plain``: the same name unescaped, for pictures and
    labels without markdown (select options, buttons); empty means ``name``.
    """

    seat: int
    user_id: int | None
    ai_level: str | None
    name: str
    away: bool = False
    plain: str = ""
    named: bool = False
    """Write the name, never a ``<@id>`` mention: for DMs, where another user's mention may
    not resolve (it reads "@unknown-user") and pings nobody anyway."""

    @property
    def is_ai(self) -> bool:
        """True for an AI seat (no Discord user)."""
        return self.user_id is None

    @property
    def plain_name(self) -> str:
        """The name without markdown escapes (pictures, select and button labels)."""
        return self.plain or self.name

    def mention(self) -> str:
        """``<@id>`` for a human (its name when ``named``), ``🤖 Name`` for an AI.

        The name is safe at its source (escaped, bidi-isolated: ``texts.user_text``).
        """
        if self.user_id is not None:
            return self.name if self.named else f"<@{self.user_id}>"
        return f"🤖 {self.name}"


def card_label(card: Card, *, tr: Tr | None = None) -> str:
    """A readable card label, ``🟥 5 · red`` (select options, autocomplete choice names).

    With ``tr`` the type name is translated (``🟥 5 · rouge``); engine.parse_card reads
    both forms back (it keeps the emoji and the value).
    """
    name = tr(TYPE_NAMES[card.type]) if tr is not None else card.type.value
    return f"{card.type.emoji} {card.value} · {name}"


def card_token(card: Card, *, black_hat: bool = False) -> str:
    """A card as one unbreakable token of text: ``🟥⁠5``, or ``⬛⁠🟥⁠5`` for a black hat's face.

    A WORD JOINER (U+2060, :data:`WORD_JOINER`) joins the symbol and the value, so no line
    ever breaks inside a card (issue 18). Use it wherever a card appears in message text
    (boards, collections, event lines, the end screen). ``black_hat``: the card lies face
    down in its owner's collection (R8): only for viewers who may see its face.
    """
    token = f"{card.type.emoji}{WORD_JOINER}{card.value}"
    return f"{BLACK_HAT_EMOJI}{WORD_JOINER}{token}" if black_hat else token


def card_short(card: Card) -> str:
    """A compact card, ``🟥⁠5`` (boards, collections, event lines): :func:`card_token`."""
    return card_token(card)


def cards_short(cards: Iterable[Card], sep: str = " ") -> str:
    """Cards as ``🟥5 🟦2``, or ``—`` when there are none."""
    text = sep.join(card_short(c) for c in cards)
    return text or NO_CARDS


def type_name(hat_type: HatType, tr: Tr) -> str:
    """The translated name of a hat type (``red``, ``rouge``), R1."""
    return tr(TYPE_NAMES[hat_type])


def seat_label(seats: Sequence[SeatLabel], seat: int) -> SeatLabel | None:
    """The label of ``seat`` (matched on ``SeatLabel.seat``), or None if missing."""
    if 0 <= seat < len(seats) and seats[seat].seat == seat:
        return seats[seat]
    for label in seats:
        if label.seat == seat:
            return label
    return None


def seat_mention(seats: Sequence[SeatLabel], seat: int | None, tr: Tr) -> str:
    """A seat as shown where mentions render (descriptions, field values)."""
    if seat is None:
        return tr("nobody")
    label = seat_label(seats, seat)
    if label is None:
        return tr("Seat {number}", number=seat + 1)
    return label.mention()


def seat_name(seats: Sequence[SeatLabel], seat: int, tr: Tr) -> str:
    """A seat's plain name (titles, field names, footers: mentions do not render there)."""
    label = seat_label(seats, seat)
    if label is None:
        return tr("Seat {number}", number=seat + 1)
    return label.name


def seat_display_name(seats: Sequence[SeatLabel], seat: int, tr: Tr) -> str:
    """A seat's plain name marked 🤖 for an AI seat (field names, where mentions do not render).

    Used where the name is the only place a seat is named, so an AI stays recognisable.
    """
    label = seat_label(seats, seat)
    name = seat_name(seats, seat, tr)
    return f"🤖 {name}" if label is not None and label.is_ai else name


def ai_level_name(level: str, tr: Tr) -> str:
    """An AI level for display, translated when known."""
    msgid = AI_LEVEL_NAMES.get(level)
    return tr(msgid) if msgid is not None else level


def board_text(board: Sequence[Card], *, face_up: Iterable[int] | None = None) -> str:
    """The tea table in one line: ``1️⃣ 🟥5 · 2️⃣ 🟦3 …`` (R2).

    With ``face_up`` (1-based slots, R15) the other slots are struck through.
    """
    up = set(face_up) if face_up is not None else None
    parts = []
    for slot, card in enumerate(board, start=1):
        text = card_short(card)
        if up is not None and slot not in up:
            text = f"~~{text}~~"
        # a NO-BREAK SPACE: a slot's keycap never ends a line without its card (issue 29)
        parts.append(f"{SLOT_KEYCAPS[slot - 1]}{NO_BREAK_SPACE}{text}")
    return "  ".join(parts)


def collection_text(cards: Iterable[Card]) -> str:
    """Face-up collection cards grouped by type in canonical order: ``🟥3 🟥5 · 🟦2``."""
    by_type: dict[HatType, list[Card]] = {}
    for card in sorted(cards, key=lambda c: c.id):
        by_type.setdefault(card.type, []).append(card)
    return " · ".join(cards_short(group) for group in by_type.values()) or NO_CARDS


def black_hats_text(count: int) -> str:
    """A number of face-down black hats: ``⬛ ×2`` (R8); ``—`` for none."""
    return f"{BLACK_HAT_EMOJI} ×{count}" if count else NO_CARDS


def team_members(
    teams: Sequence[Sequence[int]] | None, seats: Sequence[SeatLabel], tr: Tr
) -> list[tuple[str, str]]:
    """``[(team name, "<@a> & <@b>"), ...]`` for 4 seats (R5); empty without teams."""
    if not teams:
        return []
    out = []
    for index, team in enumerate(teams[:2]):
        members = " & ".join(seat_mention(seats, s, tr) for s in team) or NO_CARDS
        out.append((tr(TEAM_NAMES[index]), members))
    return out


def team_of(teams: Sequence[Sequence[int]] | None, seat: int) -> int | None:
    """The index (0 = Team A) of ``seat``'s team, or None without teams (R5)."""
    if not teams:
        return None
    for index, team in enumerate(teams):
        if seat in team:
            return index
    return None


def command_mention(path: str, tr: Tr) -> str:
    """A slash command for a text: ``command_mention("hats hand", tr)`` -> ``</hats hand:ID>``.

    ``path``: the command's English qualified name (``"hats settings pictures"``). The mention
    uses the id of the synced command tree (``HatsBot.sync_commands``); Discord shows it in
    each reader's language and runs it on a tap. Where no id is known (before the first
    sync), the name localized for ``tr``'s language from commands.po (``/hats mano``).
    """
    return tr.command(path)


def duration_text(seconds: float, tr: Tr) -> str:
    """A duration in words, from seconds: 90 → ``1 min 30 s``, 300 → ``5 minutes``."""
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours and not rest:
        return tr.plural("{n} hour", "{n} hours", hours)
    if hours:
        minutes += hours * 60
    if minutes and not secs:
        return tr.plural("{n} minute", "{n} minutes", minutes)
    if not minutes:
        return tr.plural("{n} second", "{n} seconds", secs)
    return tr("{minutes} min {seconds} s", minutes=minutes, seconds=secs)
