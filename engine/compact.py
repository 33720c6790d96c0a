"""Compact encodings of a game's cards, steps and events, which the garbage collector skips.

A live game keeps its state in ``bytes``/``bytearray`` (Python's cyclic garbage collector does
not track them) rather than in lists of objects, so a process holding thousands of cached
games has few objects for each full collection to scan (issue 21). The views the engine hands
out (lists of :class:`~engine.cards.Card`, :class:`~engine.actions.Step`,
:class:`~engine.events.Event`) are built from these encodings on access.

- A card is its ``Card.id`` (0–41, R1); :data:`NONE` (255) stands for "no card" or "no seat".
- A step and its event are one record of :data:`RECORD_SIZE` bytes (the event log):
  byte 0 ``seat | kind << 2 | reshuffled << 5 | turn_ended << 6 | game_over << 7`` (``kind``
  the index of the :class:`~engine.actions.ActionKind` in :data:`KINDS`), then ``card``,
  ``slot`` (0: none), ``took``, ``drew``, ``partner``, ``received``, ``cookie``. The event's
  ``number`` is the record's position; the step is the event's seat and the action its kind,
  card and slot name (an event's seat is always the seat that acted).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from itertools import combinations

from engine.actions import (
    ANSWERS,
    BLACK_HATS,
    DECLINE,
    DISCARDS,
    END_TURN,
    EXCHANGES,
    OFFERS,
    WITHDRAW,
    Action,
    ActionKind,
    Step,
)
from engine.cards import ALL_CARDS, Card, HatType
from engine.config import MAX_SEATS
from engine.events import Event, cards_visible, make_event

__all__ = [
    "CARD_OF",
    "CODE_OF",
    "KINDS",
    "KIND_INDEX",
    "NONE",
    "RECORD",
    "RECORD_SIZE",
    "SEAT_OF",
    "card_ids",
    "card_list",
    "card_tuple",
    "event_from_record",
    "event_record",
    "events_of",
    "events_seen_by",
    "interned_types",
    "step_of_record",
    "steps_of",
]

NONE = 255
"""The byte for "no card" / "no seat" (None) in a record."""
RECORD = struct.Struct("8B")
"""One step's record: head, card, slot, took, drew, partner, received, cookie (see above)."""
RECORD_SIZE = RECORD.size
KINDS: tuple[ActionKind, ...] = tuple(ActionKind)
"""Action kinds by their 3-bit index in a record's head byte."""
KIND_INDEX: dict[ActionKind, int] = {k: i for i, k in enumerate(KINDS)}
CARD_OF: tuple[Card | None, ...] = (*ALL_CARDS, *(None,) * (256 - len(ALL_CARDS)))
"""Card by byte: ``CARD_OF[card.id] is card``; every other byte (:data:`NONE`) gives None."""
CODE_OF: tuple[str, ...] = tuple(c.code for c in ALL_CARDS)
"""Card code by id: ``CODE_OF[card.id] == card.code`` (R1)."""
SEAT_OF: tuple[int | None, ...] = (*range(MAX_SEATS), *(None,) * (256 - MAX_SEATS))
"""Seat by byte: 0–3 themselves, every other byte (:data:`NONE`) None."""
_HEAD_KEY = struct.Struct("3B5x")  # head, card, slot: what names a step

_card_at = ALL_CARDS.__getitem__


def card_ids(cards: Iterable[Card]) -> bytes:
    """The ids of ``cards`` in order, one byte each (R1)."""
    return bytes([c.id for c in cards])


def card_list(ids: Iterable[int]) -> list[Card]:
    """The cards of ``ids`` (bytes of card ids), a new list in order."""
    return list(map(_card_at, ids))


def card_tuple(ids: Iterable[int]) -> tuple[Card, ...]:
    """The cards of ``ids`` (bytes of card ids), a tuple in order."""
    return tuple(map(_card_at, ids))


def _byte(card: Card | None) -> int:
    return NONE if card is None else card.id


def event_record(event: Event) -> bytes:
    """The record of ``event`` (its number excluded: that is the record's position).

    Raises ValueError when a field does not fit (a seat outside 0–3, a slot outside 1–6).
    """
    if not 0 <= event.seat < MAX_SEATS:
        raise ValueError(f"seat must be 0–{MAX_SEATS - 1}, got {event.seat}")
    if event.slot is not None and not 1 <= event.slot <= 6:
        raise ValueError(f"slot must be 1–6, got {event.slot}")
    head = (
        event.seat
        | KIND_INDEX[event.kind] << 2
        | event.reshuffled << 5
        | event.turn_ended << 6
        | event.game_over << 7
    )
    return RECORD.pack(
        head,
        _byte(event.card),
        event.slot or 0,
        _byte(event.took),
        _byte(event.drew),
        NONE if event.partner is None else event.partner,
        _byte(event.received),
        NONE if event.cookie is None else event.cookie,
    )


def event_from_record(number: int, record: Sequence[int]) -> Event:
    """The event numbered ``number`` from its record (8 ints, or 8 bytes)."""
    head, card, slot, took, drew, partner, received, cookie = record
    return make_event(
        number,
        head & 3,
        KINDS[head >> 2 & 7],
        CARD_OF[card],
        slot or None,
        CARD_OF[took],
        CARD_OF[drew],
        bool(head & 32),
        SEAT_OF[partner],
        CARD_OF[received],
        SEAT_OF[cookie],
        bool(head & 64),
        bool(head & 128),
    )


def events_of(log: bytes | bytearray) -> list[Event]:
    """Every event of an event log (records back to back), numbered from 0."""
    return [event_from_record(n, r) for n, r in enumerate(RECORD.iter_unpack(log))]


def events_seen_by(log: bytes | bytearray, viewer: int | None, start: int = 0) -> tuple[Event, ...]:
    """Every event of an event log as ``viewer`` may see it (``Event.seen_by``), in one pass.

    A card ``viewer`` may not see (:func:`~engine.events.cards_visible`) is None: the card
    played, discarded, offered or given, the card drawn and the card received. ``start``:
    the first event's number (the earlier ones are left out; they keep their numbers).
    """
    out = []
    append = out.append
    start = max(0, start)
    records = RECORD.iter_unpack(log[start * RECORD_SIZE :] if start else log)
    for number, (head, card, slot, took, drew, partner, received, cookie) in enumerate(
        records, start
    ):
        seat = head & 3
        kind = KINDS[head >> 2 & 7]
        partner_seat = SEAT_OF[partner]
        if not cards_visible(kind, seat, partner_seat, viewer):
            card = drew = received = NONE
        append(
            make_event(
                number,
                seat,
                kind,
                CARD_OF[card],
                slot or None,
                CARD_OF[took],
                CARD_OF[drew],
                bool(head & 32),
                partner_seat,
                CARD_OF[received],
                SEAT_OF[cookie],
                bool(head & 64),
                bool(head & 128),
            )
        )
    return tuple(out)


def _step_key(head: int, card: int, slot: int) -> int:
    return (head & 31) | card << 5 | slot << 13


def _interned_steps() -> dict[int, Step]:
    actions: list[tuple[Action, int, int]] = [
        (EXCHANGES[c.id][slot], c.id, slot) for c in ALL_CARDS for slot in range(1, 7)
    ]
    for table in (BLACK_HATS, DISCARDS, OFFERS, ANSWERS):
        actions.extend((table[c.id], c.id, 0) for c in ALL_CARDS)
    actions.extend((a, NONE, 0) for a in (DECLINE, WITHDRAW, END_TURN))
    return {
        _step_key(seat | KIND_INDEX[action.kind] << 2, card, slot): Step(seat, action)
        for seat in range(MAX_SEATS)
        for action, card, slot in actions
    }


_STEPS = _interned_steps()
"""One shared Step per seat and interned action (``engine.actions``), by record key."""


def step_of_record(record: Sequence[int]) -> Step:
    """The step a record stands for: the event's seat and the action of its kind, card, slot.

    The Step is shared (Steps are frozen values). Raises KeyError for a record that names no
    action.
    """
    return _STEPS[_step_key(record[0], record[1], record[2])]


def steps_of(log: bytes | bytearray) -> list[Step]:
    """Every step of an event log, in order (shared Step objects, a new list)."""
    steps, key = _STEPS, _step_key
    return [steps[key(h, c, s)] for h, c, s in _HEAD_KEY.iter_unpack(log)]


_TYPE_SETS: dict[tuple[HatType, ...], tuple[HatType, ...]] = {
    kept: kept
    for size in (len(HatType) - 2, len(HatType))
    for kept in combinations(tuple(HatType), size)
}


def interned_types(types: tuple[HatType, ...]) -> tuple[HatType, ...]:
    """The one shared tuple equal to ``types`` when it is a deal's (R3), else ``types``."""
    return _TYPE_SETS.get(types, types)
