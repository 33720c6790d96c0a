"""The public table message: what everyone at the table may see ("Who may see what")."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine import Card, Observation
from texts.common import (
    COOKIE,
    NO_CARDS,
    TEAM_NAMES,
    TEAM_SEATS,
    TURNS,
    SeatLabel,
    ai_level_name,
    black_hats_text,
    board_text,
    collection_text,
    seat_display_name,
    seat_label,
    seat_mention,
    seat_name,
    team_of,
    type_name,
)
from texts.events import AUTO_MARK, event_lines
from texts.i18n import Tr
from texts.limits import ALT_MAX, fit_alt

__all__ = [
    "ALT_MAX",
    "TableTexts",
    "card_words",
    "fit_alt",
    "piles_text",
    "table_alt_text",
    "table_texts",
    "turn_text",
]

ACTIVE_MARK = "▶️"


def turn_text(obs: Observation, seats: Sequence[SeatLabel], tr: Tr) -> str:
    """The round and whose turn it is, or the pending partner swap (R10, R14); public."""
    if obs.is_over:
        return tr("The game is over.")
    lines = [
        tr(
            "Round {round}/{rounds}: it's {who}'s turn.",
            round=obs.round,
            rounds=TURNS,
            who=seat_mention(seats, obs.active_seat, tr),
        )
    ]
    if obs.pending_swap is not None:
        lines.append(
            tr(
                "{offerer} offered {partner} a card swap; waiting for {partner}'s answer.",
                offerer=seat_mention(seats, obs.pending_swap.offerer, tr),
                partner=seat_mention(seats, obs.pending_swap.partner, tr),
            )
        )
    return "\n".join(lines)


RECENT_LINES = 2
"""What just happened on the table: this many last events (each a line, wrapped on a phone:
at most 3 lines there in most cases; issue 18 asks for at most 3)."""


@dataclass(frozen=True, slots=True)
class TableTexts:
    """The texts of the public table message (Components V2), from the public observation.

    ``head``: the game, the round and whose turn (with a pending swap, who must answer).
    ``recent``: the last :data:`RECENT_LINES` events in public words ("" before the first).
    ``state``: with pictures off, the board and the players in compact text; None with
    pictures (the picture shows them). ``alt``: the picture's full text description (alt
    text, at most :data:`ALT_MAX` characters), public information only.
    """

    head: str
    recent: str
    state: str | None
    alt: str


def card_words(card: Card, tr: Tr) -> str:
    """A card for a screen reader: ``red 5`` (translated type name, R1)."""
    return f"{type_name(card.type, tr)} {card.value}"


def _cards_words(cards: Sequence[Card], tr: Tr) -> str:
    by_type = sorted(cards, key=lambda c: c.id)
    return ", ".join(card_words(c, tr) for c in by_type) or NO_CARDS


def piles_text(obs: Observation, tr: Tr, sep: str = " · ") -> str:
    """The draw deck's and discard pile's sizes in one line (R4, R9), joined by ``sep``.

    Only meaningful with 2–3 seats: with 4 both piles are always empty (R4, R10).
    """
    return (
        tr.plural("Draw deck: {n} card", "Draw deck: {n} cards", obs.deck_size)
        + sep
        + tr.plural("Discard pile: {n} card", "Discard pile: {n} cards", obs.discard_size)
    )


def table_alt_text(obs: Observation, seats: Sequence[SeatLabel], tr: Tr) -> str:
    """The table picture in words (its alt text) from the PUBLIC observation.

    The round and whose turn (R14), the tea table slot by slot (R2), per player the team
    (R5), the cookie (R13), hand size, face-up collection (R1) and black hat count (R8), and
    the piles with 2–3 seats (R4). Cut to :data:`ALT_MAX` characters. Raises ValueError for
    a seat's observation.
    """
    if obs.viewer is not None:
        raise ValueError("table_alt_text needs the public observation (viewer None)")
    lines = [_plain_turn(obs, seats, tr)]
    board = ", ".join(f"{i} {card_words(c, tr)}" for i, c in enumerate(obs.board, start=1))
    lines.append(f"{tr('Tea table')}: {board}")
    for seat in range(obs.seats):
        lines.append(_seat_words(obs, seats, tr, seat))
    if obs.seats != TEAM_SEATS:
        lines.append(piles_text(obs, tr, ". "))
    return fit_alt("\n".join(lines))


def _plain_turn(obs: Observation, seats: Sequence[SeatLabel], tr: Tr) -> str:
    """The turn line with plain names (alt texts: mentions are not read out)."""
    if obs.is_over:
        return tr("The game is over.")
    text = tr(
        "Round {round}/{rounds}: it's {who}'s turn.",
        round=obs.round,
        rounds=TURNS,
        who=seat_name(seats, obs.active_seat, tr),
    )
    if obs.pending_swap is not None:
        text += " " + tr(
            "{offerer} offered {partner} a card swap; waiting for {partner}'s answer.",
            offerer=seat_name(seats, obs.pending_swap.offerer, tr),
            partner=seat_name(seats, obs.pending_swap.partner, tr),
        )
    return text


def _seat_words(obs: Observation, seats: Sequence[SeatLabel], tr: Tr, seat: int) -> str:
    name = seat_display_name(seats, seat, tr)
    team = team_of(obs.teams, seat)
    if team is not None:
        name = tr("{name} ({team})", name=name, team=tr(TEAM_NAMES[team]))
    parts = [
        tr.plural("{n} card in hand", "{n} cards in hand", obs.hand_sizes[seat]),
        tr("Collection: {cards}", cards=_cards_words(obs.collections[seat], tr)),
        tr("Black hats: {hats}", hats=obs.black_hat_counts[seat]),
    ]
    text = f"{name}: " + "; ".join(parts) + "."
    if obs.cookie == seat:
        who = seat_display_name(seats, seat, tr)
        text += " " + tr("{cookie} {who} holds the cookie.", cookie=COOKIE, who=who)
    return text


def _away_lines(obs: Observation, seats: Sequence[SeatLabel], tr: Tr) -> list[str]:
    """One line per away player: the AI plays for them (the picture does not say it)."""
    out = []
    for seat in range(obs.seats):
        label = seat_label(seats, seat)
        if label is not None and label.away:
            level = ai_level_name(label.ai_level or "normal", tr)
            away = tr("{mark} Away: the AI ({level}) plays for them.", mark=AUTO_MARK, level=level)
            out.append(f"{seat_mention(seats, seat, tr)} · {away}")
    return out


def _compact_state(obs: Observation, seats: Sequence[SeatLabel], tr: Tr) -> str:
    """The board and one line per player, for servers with pictures off."""
    lines = [board_text(obs.board)]
    for seat in range(obs.seats):
        marks = ""
        if obs.active_seat == seat and not obs.is_over:
            marks += ACTIVE_MARK + " "
        if obs.cookie == seat:
            marks += COOKIE + " "
        name = seat_mention(seats, seat, tr)
        team = team_of(obs.teams, seat)
        if team is not None:
            name = tr("{name} ({team})", name=name, team=tr(TEAM_NAMES[team]))
        hand = tr.plural("{n} card in hand", "{n} cards in hand", obs.hand_sizes[seat])
        kept = []  # no unlabelled "— · —" (issue 29): what is there, or that nothing is
        if obs.collections[seat]:
            kept.append(collection_text(obs.collections[seat]))
        if obs.black_hat_counts[seat]:
            kept.append(black_hats_text(obs.black_hat_counts[seat]))
        collected = " · ".join(kept) or tr("no cards collected yet")
        lines.append(f"{marks}{name} · {collected} · {hand}")
    if obs.seats != TEAM_SEATS:
        lines.append(piles_text(obs, tr))
    return "\n".join(lines)


def table_texts(
    obs: Observation,
    seats: Sequence[SeatLabel],
    tr: Tr,
    *,
    game_id: int,
    pictures: bool = True,
    auto_played: Collection[int] = (),
) -> TableTexts:
    """The V2 table's texts from the PUBLIC observation (``obs.viewer`` None).

    With ``pictures`` the picture carries the board and the players, so the text says only
    whose turn and what just happened; without, :attr:`TableTexts.state` shows them in
    compact text. ``auto_played``: event numbers the AI played for an absent human (💤).
    Raises ValueError for a seat's observation.
    """
    if obs.viewer is not None:
        raise ValueError("table_texts needs the public observation (viewer None)")
    title = tr("Hats: game #{game_id}", game_id=game_id)
    head = [f"**{title}** · {turn_text(obs, seats, tr)}", *_away_lines(obs, seats, tr)]
    lines = event_lines(
        obs.events, seats, tr, viewer=None, last=RECENT_LINES, auto_played=auto_played
    )
    if any(line.startswith(AUTO_MARK) for line in lines):  # the lines shown, not the events
        lines.insert(
            0,
            tr("Recent moves ({mark}: played by the AI for an absent player)", mark=AUTO_MARK),
        )
    return TableTexts(
        head="\n".join(head),
        recent="\n".join(f"-# {line}" for line in lines),
        state=None if pictures else _compact_state(obs, seats, tr),
        alt=table_alt_text(obs, seats, tr),
    )
