"""Layout as data: where each element of a picture goes, before anything is painted.

:func:`table_layout`, :func:`hand_layout` and :func:`end_layout` turn an observation into a
:class:`Layout`: a canvas size and a tuple of positioned elements (frozen dataclasses). The
painter (:mod:`pictures.paint`) only draws what a layout holds, so the tests check the layout
itself: every element inside the canvas, no two leaf elements overlapping, and no card a
viewer may not see (a :class:`CardFace` exists only for cards of the observation's board,
collections, the viewer's own hand or, at the end, the revealed favourites; a black hat is a
:class:`BlackHatCard`, which has no face at all).

Units are pixels of the full-size picture (:data:`WIDTH` wide, height as needed). Texts are
measured with the real font and cut to fit with ``…``.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import BlackHat, Card, Exchange, HatType, Observation
from pictures.fonts import BOLD, REGULAR, measure
from pictures.text import N_, Translate, drawable, fit_text

__all__ = [
    "MARGIN",
    "MIN_PHONE_TEXT",
    "PHONE_WIDTH",
    "TURNS",
    "WIDTH",
    "BlackHatCard",
    "Box",
    "CardFace",
    "Element",
    "HandBack",
    "Icon",
    "IconKind",
    "Layout",
    "Panel",
    "SlotBadge",
    "Text",
    "Tone",
    "end_layout",
    "hand_layout",
    "table_layout",
]

WIDTH = 800
"""Width of the hand picture in pixels."""
PHONE_WIDTH = 480
"""Width of the table picture: Discord shows a media gallery about 235 px wide on a 360 px
phone (measured in simcord's preview), so a 24 px text here reads about 11.7 px there."""
MIN_PHONE_TEXT = 23
"""The smallest text size on the table picture: at least 11 px when shown 235 px wide."""
MARGIN = 20
TURNS = 8
"""Turns each seat takes, hence rounds in a game (R14)."""

TEAM_NAMES = (N_("Team A"), N_("Team B"))
"""The two teams of a 4-seat game (R5): seats 0+2, then 1+3 (the same msgids as the embeds)."""


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle: left ``x``, top ``y``, width ``w``, height ``h`` (pixels, ints)."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        """The right edge, x + w."""
        return self.x + self.w

    @property
    def bottom(self) -> int:
        """The bottom edge, y + h."""
        return self.y + self.h

    def overlaps(self, other: Box) -> bool:
        """True when the two rectangles share area (touching edges do not count)."""
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def inside(self, other: Box) -> bool:
        """True when this rectangle lies within ``other`` (edges included)."""
        return (
            self.x >= other.x
            and self.y >= other.y
            and self.right <= other.right
            and self.bottom <= other.bottom
        )


class Tone(enum.Enum):
    """How strongly an element stands out; the painter maps tones to colours."""

    NORMAL = "normal"
    MUTED = "muted"
    ACTIVE = "active"  # whose turn it is / legal / the winner
    TEAM_A = "team_a"
    TEAM_B = "team_b"


class IconKind(enum.Enum):
    """Small drawn icons (no emoji font needed)."""

    TURN = "turn"  # ▶ whose turn it is
    COOKIE = "cookie"  # the cookie holder (R13)
    TROPHY = "trophy"  # a winner (R19)
    DECK = "deck"  # the draw deck
    DISCARD = "discard"  # the discard pile


@dataclass(frozen=True, slots=True)
class Panel:
    """A background behind a group of elements (a player's area); not a leaf."""

    box: Box
    tone: Tone = Tone.NORMAL


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text, already cut to fit its box; ``size`` in pixels."""

    box: Box
    text: str
    size: int
    bold: bool = False
    tone: Tone = Tone.NORMAL


@dataclass(frozen=True, slots=True)
class CardFace:
    """A face-up card: its hat (colour, silhouette, symbol) and value (R1).

    Taller than wide: a board card; wider than tall: a chip (collections, hand rows).
    ``turned_down``: a slot turned face down at the end (R15), drawn faded and crossed.
    """

    box: Box
    card: Card
    turned_down: bool = False


@dataclass(frozen=True, slots=True)
class BlackHatCard:
    """A card played face down as a black hat (R8). It holds no card: its face never shows."""

    box: Box


@dataclass(frozen=True, slots=True)
class HandBack:
    """The back of a hand card (a hand size is shown next to it)."""

    box: Box


@dataclass(frozen=True, slots=True)
class Icon:
    """A small drawn icon."""

    box: Box
    kind: IconKind


@dataclass(frozen=True, slots=True)
class SlotBadge:
    """A round badge with a slot number 1–6 (R2): a slot a hand card may be exchanged with."""

    box: Box
    slot: int


Element = Panel | Text | CardFace | BlackHatCard | HandBack | Icon | SlotBadge


@dataclass(frozen=True, slots=True)
class Layout:
    """A picture as data: ``width`` × ``height`` pixels and its elements, in paint order."""

    width: int
    height: int
    elements: tuple[Element, ...]

    @property
    def canvas(self) -> Box:
        """The whole picture as a box."""
        return Box(0, 0, self.width, self.height)

    def leaves(self) -> list[Element]:
        """Every element but panels (these must not overlap each other)."""
        return [e for e in self.elements if not isinstance(e, Panel)]

    def cards(self) -> list[Card]:
        """Every card whose face the picture shows."""
        return [e.card for e in self.elements if isinstance(e, CardFace)]

    def texts(self) -> list[str]:
        """Every text the picture shows."""
        return [e.text for e in self.elements if isinstance(e, Text)]


@dataclass
class _Builder:
    elements: list[Element] = field(default_factory=list)

    def add(self, element: Element) -> Element:
        self.elements.append(element)
        return element

    def text(
        self,
        x: int,
        y: int,
        text: str,
        size: int,
        *,
        max_w: int,
        bold: bool = False,
        tone: Tone = Tone.NORMAL,
        h: int | None = None,
        right: bool = False,
    ) -> Text | None:
        """A line of text with its left edge at ``x`` (its right edge, with ``right``).

        Its box is the measured width (after cutting to ``max_w``) and ``h`` or 1.4 × size.
        Returns None (and adds nothing) when not even ``…`` fits.
        """
        weight = BOLD if bold else REGULAR
        shown = fit_text(text, size, max_w, weight)
        if not shown:
            return None
        w = min(max_w, int(measure(shown, size, weight)) + 1)
        box = Box(x - w if right else x, y, w, h or round(size * 1.4))
        element = Text(box, shown, size, bold, tone)
        self.elements.append(element)
        return element

    def layout(self, height: int, width: int = WIDTH) -> Layout:
        return Layout(width, height, tuple(self.elements))


def _name(names: Sequence[str], seat: int) -> str:
    """The drawable part of a seat's name; ``#2`` when nothing of it can be drawn."""
    name = drawable(names[seat]) if 0 <= seat < len(names) else ""
    return name or f"#{seat + 1}"


def _team(teams: Sequence[Sequence[int]] | None, seat: int) -> int | None:
    """0 for Team A, 1 for Team B (R5), None without teams."""
    return next((index for index, team in enumerate(teams or ()) if seat in team), None)


def _turn_line(obs: Observation, names: Sequence[str], tr: Translate) -> str:
    """The round and whose turn it is (R14), "your turn" for the viewer; or the game's end."""
    if obs.is_over:
        return tr("The game is over.")
    if obs.viewer is not None and obs.active_seat == obs.viewer:
        return tr("Round {round}/{rounds}: it's your turn.", round=obs.round, rounds=TURNS)
    return tr(
        "Round {round}/{rounds}: it's {who}'s turn.",
        round=obs.round,
        rounds=TURNS,
        who=_name(names, obs.active_seat),
    )


_TEAM_TONES = (Tone.TEAM_A, Tone.TEAM_B)


def _board(
    b: _Builder,
    board: Sequence[Card],
    y: int,
    title: str,
    *,
    max_card_w: int,
    face_up: Sequence[int] | None = None,
    width: int = WIDTH,
    title_size: int = 22,
) -> int:
    """The tea table: a title, slot numbers 1–6 and the cards (R2); returns the next y."""
    b.text(MARGIN, y, title, title_size, max_w=width - 2 * MARGIN, bold=True, tone=Tone.MUTED)
    y += round(title_size * 1.55)
    n = max(1, len(board))
    gap = 12 if width >= WIDTH else 8
    avail = width - 2 * MARGIN
    cw = min(max_card_w, (avail - gap * (n - 1)) // n)
    ch = round(cw * 1.3)
    x0 = MARGIN + (avail - (n * cw + (n - 1) * gap)) // 2
    up = set(face_up) if face_up is not None else None
    for i, card in enumerate(board):
        x = x0 + i * (cw + gap)
        number = str(i + 1)
        tw = int(measure(number, 26, BOLD)) + 1
        b.add(Text(Box(x + (cw - tw) // 2, y, tw, 34), number, 26, True, Tone.MUTED))
        down = up is not None and (i + 1) not in up
        b.add(CardFace(Box(x, y + 36, cw, ch), card, turned_down=down))
    return y + 36 + ch + 16


CHIP_H = 46
"""Height of a chip (a face-up card in a collection or a favourite hat) on the phone pictures."""
CHIP_W = 60
"""Width of a chip: wider than 1.3 × its height, so the painter puts the hat beside the number
(never over it) and the number is 23 px (issue 29)."""
CHIP_GAP = 4
GROUP_GAP = 8
CHIP_ROW = CHIP_H + 6
"""Height of one row of chips, the gap below included."""


def _chip_places(
    cards: Sequence[Card], max_w: int, *, w: int = CHIP_W, h: int = CHIP_H
) -> list[tuple[Card, int, int]]:
    """Where each chip of ``cards`` goes: ``(card, x, row)`` from the left edge, row 0 first.

    Grouped by type (R1 order), values ascending; a row holds what fits ``max_w`` and the next
    chips wrap to a new row, so no chip leaves its panel however many cards (issue 29).
    """
    groups: dict[HatType, list[Card]] = {}
    for card in sorted(cards, key=lambda c: c.id):
        groups.setdefault(card.type, []).append(card)
    places = []
    x = row = 0
    for g, group in enumerate(groups.values()):
        if g and x:
            x += GROUP_GAP - CHIP_GAP
        for card in group:
            if x and x + w > max_w:
                x, row = 0, row + 1
            places.append((card, x, row))
            x += w + CHIP_GAP
    return places


def _chip_rows(cards: Sequence[Card], max_w: int) -> int:
    """How many rows of chips :func:`_chips` needs for ``cards`` in ``max_w`` (1 for none)."""
    return max((row for _, _, row in _chip_places(cards, max_w)), default=0) + 1


def _chips(b: _Builder, cards: Sequence[Card], x: int, y: int, max_w: int) -> int:
    """Face-up cards as chips (:data:`CHIP_W` × :data:`CHIP_H`), wrapped in rows of ``max_w``.

    Returns the bottom y of the last row; an empty list is ``—``.
    """
    if not cards:
        b.text(x, y, "—", 26, max_w=max_w, h=CHIP_H, tone=Tone.MUTED)
        return y + CHIP_H
    bottom = y
    for card, dx, row in _chip_places(cards, max_w):
        top = y + row * CHIP_ROW
        b.add(CardFace(Box(x + dx, top, CHIP_W, CHIP_H), card))
        bottom = top + CHIP_H
    return bottom


def _count(
    b: _Builder,
    kind: type[BlackHatCard] | type[HandBack],
    x: int,
    y: int,
    h: int,
    label: str,
    size: int = 24,
) -> int:
    """An icon (black hat or card back) and a label to its right; returns the right x."""
    iw = round(h * 0.72)
    b.add(kind(Box(x, y, iw, h)))
    element = b.text(x + iw + 6, y, label, size, max_w=400, h=h)
    return element.box.right if element else x + iw


def _count_width(h: int, label: str, size: int = 24) -> int:
    return round(h * 0.72) + 6 + int(measure(label, size)) + 1


def _team_letter(tr: Translate, team: int) -> str:
    """The team's letter (``A``/``B``): the last word of its translated name (R5)."""
    words = tr(TEAM_NAMES[team]).split()
    return words[-1] if words else "AB"[team]


def _name_row(
    b: _Builder,
    obs_names: Sequence[str],
    seat: int,
    x: int,
    y: int,
    right: int,
    *,
    teams: Sequence[Sequence[int]] | None,
    turn: bool,
    cookie: bool,
    trophy: bool = False,
    prefix: str | None = None,
    tr: Translate,
) -> None:
    """Markers, team letter, name (cut to fit) and cookie on one 40 px row up to ``right``.

    The team (R5) is its letter in the team's colour beside the panel's team stripe; the
    full team names are the alt text's (and the end picture's team lines), so the name keeps
    the room (issue 29: "mar…" beside the cookie).
    """
    h = 40
    if prefix:
        element = b.text(x, y, prefix, 28, max_w=80, bold=True, h=h)
        x = (element.box.right if element else x) + 8
    if turn:
        b.add(Icon(Box(x, y + 6, 28, 28), IconKind.TURN))
        x += 36
    if trophy:
        b.add(Icon(Box(x, y + 4, 32, 32), IconKind.TROPHY))
        x += 40
    team = _team(teams, seat)
    if team is not None:
        letter = b.text(
            x, y, _team_letter(tr, team), 28, max_w=40, bold=True, tone=_TEAM_TONES[team], h=h
        )
        x = (letter.box.right if letter else x) + 10
    cookie_w = 40 if cookie else 0
    name_w = max(60, right - x - cookie_w)
    element = b.text(x, y, _name(obs_names, seat), 28, max_w=name_w, bold=True, h=h)
    x = (element.box.right if element else x) + 8
    if cookie:
        b.add(Icon(Box(x, y + 5, 30, 30), IconKind.COOKIE))


def table_layout(obs: Observation, names: Sequence[str], tr: Translate) -> Layout:
    """The public table picture from the PUBLIC observation (``obs.viewer`` None).

    :data:`PHONE_WIDTH` wide, no text under :data:`MIN_PHONE_TEXT` px (readable on a phone).
    Shows the tea table with slot numbers (R2; once the game is over, the slots turned face
    down by the clean-up faded and crossed, R15), the draw deck and discard pile sizes (2–3
    seats; with 4 they are always empty, R4), and per player: turn marker (the round's active
    player, R14; the message says whose turn in words), name, cookie (R13), team (R5),
    hand size (a card back and ``×n``), face-up collection grouped by type (R1) and black hat
    count (R8). ``names``: one plain display name per seat.
    Raises ValueError for a seat's observation, which would show that seat's hand.
    """
    if obs.viewer is not None or obs.hand is not None:
        raise ValueError("table_layout needs the public observation (viewer None)")
    width = PHONE_WIDTH
    b = _Builder()
    y = MARGIN  # no turn line: the message's text says whose turn it is (with a mention)
    face_up = obs.result.face_up_slots if obs.result is not None else None
    y = _board(
        b,
        obs.board,
        y,
        tr("Tea table"),
        max_card_w=124,
        face_up=face_up,
        width=width,
        title_size=MIN_PHONE_TEXT + 1,
    )
    if obs.seats < 4:
        deck = tr.plural("Draw deck: {n} card", "Draw deck: {n} cards", obs.deck_size)
        discard = tr.plural("Discard pile: {n} card", "Discard pile: {n} cards", obs.discard_size)
        for kind, label in ((IconKind.DECK, deck), (IconKind.DISCARD, discard)):
            b.add(Icon(Box(MARGIN, y + 2, 28, 34), kind))
            b.text(MARGIN + 36, y, label, 24, max_w=width - 2 * MARGIN - 36, h=38)
            y += 40
        y += 8
    for seat in range(obs.seats):
        y = _seat_panel(b, obs, names, seat, y, tr, width) + 8
    return b.layout(y - 8 + MARGIN, width)


def _seat_panel(
    b: _Builder,
    obs: Observation,
    names: Sequence[str],
    seat: int,
    y: int,
    tr: Translate,
    width: int = WIDTH,
) -> int:
    pad = 10
    team = _team(obs.teams, seat)
    left = MARGIN + pad + (8 if team is not None else 0)
    right = width - MARGIN - pad
    rows = _chip_rows(obs.collections[seat], right - left)
    h = pad + 40 + 6 + rows * CHIP_ROW - 6 + pad
    active = obs.active_seat == seat and not obs.is_over  # as the turn line above (R10, R14)
    tone = Tone.ACTIVE if active else Tone.NORMAL
    b.add(Panel(Box(MARGIN, y, width - 2 * MARGIN, h), tone))
    hand = f"×{obs.hand_sizes[seat]}"  # beside a card back; the alt text says it in words
    hand_w = _count_width(40, hand, 26)
    blacks = f"×{obs.black_hat_counts[seat]}"
    black_w = _count_width(40, blacks, 26)
    counts_x = right - hand_w - 10 - black_w
    _name_row(
        b,
        names,
        seat,
        left,
        y + pad,
        counts_x - 12,
        teams=obs.teams,
        turn=active,
        cookie=obs.cookie == seat,
        tr=tr,
    )
    _count(b, BlackHatCard, counts_x, y + pad, 40, blacks, 26)
    _count(b, HandBack, right - hand_w, y + pad, 40, hand, 26)
    _chips(b, obs.collections[seat], left, y + pad + 46, right - left)
    return y + h


def hand_layout(obs: Observation, names: Sequence[str], tr: Translate) -> Layout:
    """The private hand picture of seat ``obs.viewer`` from its own observation.

    Shows the tea table with slot numbers (R2) and the viewer's hand (R4); whose turn it is
    is said by the message's text (issue 18: nothing said twice). While the viewer's main
    action is open, each hand card is followed by the slots it may be exchanged with (R7), or
    by a black hat when it can only be played face down (R8).
    Raises ValueError for the public observation.
    """
    me = obs.viewer
    if me is None or obs.hand is None:
        raise ValueError("hand_layout needs a seat's own observation (viewer set)")
    b = _Builder()
    y = MARGIN
    y = _board(b, obs.board, y, tr("Tea table"), max_card_w=110)
    legal = obs.legal_actions()
    slots: dict[Card, list[int]] = {}
    black: set[Card] = set()
    for action in legal:
        if isinstance(action, Exchange):
            slots.setdefault(action.card, []).append(action.slot)
        elif isinstance(action, BlackHat):
            black.add(action.card)
    marks = bool(black)
    if marks:
        b.text(
            MARGIN,
            y,
            tr("Next to each card: the slots it can take."),
            22,
            max_w=WIDTH - 2 * MARGIN,
            tone=Tone.MUTED,
            h=32,
        )
        y += 40
    cols = 2 if marks else 4  # room for the slot badges, else more cards a row
    col_w = (WIDTH - 2 * MARGIN - 16 * (cols - 1)) // cols
    chip_w, chip_h, row_h = (84, 64, 76) if marks else (120, 88, 100)
    badge, badge_gap = 40, 6
    for i, card in enumerate(obs.hand):
        col, line = i % cols, i // cols
        x = MARGIN + col * (col_w + 16)
        top = y + line * row_h
        b.add(CardFace(Box(x, top, chip_w, chip_h), card))
        bx = x + chip_w + 10
        by = top + (chip_h - badge) // 2
        if marks and slots.get(card):
            for slot in slots[card]:
                b.add(SlotBadge(Box(bx, by, badge, badge), slot))
                bx += badge + badge_gap
        elif marks and card in black:
            b.add(BlackHatCard(Box(bx, top + 4, round((chip_h - 8) * 0.72), chip_h - 8)))
    rows = (len(obs.hand) + cols - 1) // cols
    y += rows * row_h if rows else 0
    if not obs.hand:
        b.text(MARGIN, y, "—", 26, max_w=100, tone=Tone.MUTED)
        y += 40
    return b.layout(y - (row_h - chip_h if rows else 0) + MARGIN)


def end_layout(obs: Observation, names: Sequence[str], tr: Translate, *, game_id: int) -> Layout:
    """The end picture from any observation of a finished game (``obs.result`` set).

    :data:`PHONE_WIDTH` wide, no text under :data:`MIN_PHONE_TEXT` px. Shows the tea table
    after clean-up with the turned-down slots faded and crossed (R15), then the players in
    the game's one ranking (``result.order`` and ``result.places``, :func:`engine.standings`:
    R19 with every tie-break; with 4 seats by team, R20: partners together under their
    team's place, every winner with a trophy):
    rank, trophy for the winners, name, cookie (R13), team (R5), the total (R16–R18), the
    favourite hat, the black hat count and the face-up collection; with 4 seats the team
    totals, winning team first (R20). The game and its winner are the message's text.
    Raises ValueError while the game is still running.
    """
    result = obs.result
    if result is None:
        raise ValueError("end_layout needs a finished game (obs.result set)")
    del game_id  # the message's text names the game
    width = PHONE_WIDTH
    b = _Builder()
    y = MARGIN
    y = _board(
        b,
        result.board,
        y,
        tr("Tea table after clean-up"),
        max_card_w=124,
        face_up=result.face_up_slots,
        width=width,
        title_size=MIN_PHONE_TEXT + 1,
    )
    winners = set(result.winners)
    order = result.order  # the game's one ranking (engine.standings, R19/R20)
    for seat in order:
        rank = result.places[seat]
        y = _score_panel(b, obs, names, seat, rank, seat in winners, y, tr, width) + 6
    if obs.teams and result.team_totals is not None:
        order_teams = sorted(range(2), key=lambda i: order.index(obs.teams[i][0]))
        for index in order_teams:  # the winning team first, as the panels
            team, total = obs.teams[index], result.team_totals[index]
            tone = _TEAM_TONES[index]
            points = tr.plural("{n} point", "{n} points", total)
            right = b.text(
                width - MARGIN, y, points, 26, max_w=160, bold=True, tone=tone, h=36, right=True
            )
            end = right.box.x - 12 if right else width - MARGIN
            name = b.text(
                MARGIN, y, tr(TEAM_NAMES[index]), 26, max_w=140, bold=True, tone=tone, h=36
            )
            x = (name.box.right if name else MARGIN) + 10
            members = " & ".join(_name(names, s) for s in team)
            b.text(x, y, members, 24, max_w=max(0, end - x), h=36)
            y += 40
        y += 8
    return b.layout(y - 8 + MARGIN, width)


def _score_panel(
    b: _Builder,
    obs: Observation,
    names: Sequence[str],
    seat: int,
    rank: int,
    winner: bool,
    y: int,
    tr: Translate,
    width: int = WIDTH,
) -> int:
    """One player's result panel; returns its bottom y.

    Rank, 🏆, name, 🍪, team and total; favourite hat and black hat count; the face-up
    collection (the breakdown in words is the alt text's).
    """
    result = obs.result
    assert result is not None
    score = result.scores[seat]
    pad = 8
    team = _team(obs.teams, seat)
    left = MARGIN + pad + (8 if team is not None else 0)
    right = width - MARGIN - pad
    rows = _chip_rows(result.collections[seat], right - left)
    h = pad + 40 + 4 + CHIP_H + 6 + rows * CHIP_ROW - 6 + pad
    b.add(Panel(Box(MARGIN, y, width - 2 * MARGIN, h), Tone.ACTIVE if winner else Tone.NORMAL))
    total = tr.plural("{n} point", "{n} points", score.total)
    total_w = min(160, int(measure(total, 26, BOLD)) + 1)
    _name_row(
        b,
        names,
        seat,
        left,
        y + pad,
        right - total_w - 12,
        teams=obs.teams,
        turn=False,
        cookie=result.cookie == seat,
        trophy=winner,
        prefix=f"{rank}.",
        tr=tr,
    )
    b.text(right, y + pad, total, 26, max_w=total_w, bold=True, h=40, right=True)
    row = y + pad + 44
    blacks = f"×{score.black_hats}"
    black_w = _count_width(40, blacks, 26)
    label = b.text(
        left, row, tr("Favourite hat"), 24, max_w=right - left - black_w - CHIP_W - 20, h=CHIP_H
    )
    x = (label.box.right if label else left) + 8
    b.add(CardFace(Box(x, row, CHIP_W, CHIP_H), result.favourites[seat]))
    _count(b, BlackHatCard, right - black_w, row + 4, 40, blacks, 26)
    _chips(b, result.collections[seat], left, row + CHIP_H + 6, right - left)
    return y + h
