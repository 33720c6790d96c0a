"""What happened at each step, and who may see which part of it ("Who may see what")."""

from __future__ import annotations

from dataclasses import dataclass, fields

from engine.actions import ActionKind
from engine.cards import Card

__all__ = ["Event", "cards_visible", "make_event"]

_EXCHANGE = ActionKind.EXCHANGE
_ANSWER_SWAP = ActionKind.ANSWER_SWAP


def cards_visible(kind: ActionKind, seat: int, partner: int | None, viewer: int | None) -> bool:
    """Whether ``viewer`` (a seat, None for the public) may see the cards of an event.

    Exchanges are public (R7). A black hat's face, a discard and its draw, an offer's card
    are the acting ``seat``'s alone (R8, R9, R10); both partners see a completed swap's cards.
    """
    if kind is _EXCHANGE:
        return True
    if viewer is None:
        return False
    if kind is _ANSWER_SWAP:
        return viewer in (seat, partner)
    return viewer == seat


@dataclass(frozen=True, slots=True)
class Event:
    """The outcome of one applied step.

    ``number``: the step's 0-based index. ``seat``: who acted. ``card``: the card played,
    discarded, offered, or (answer_swap) given back by the answering partner. ``slot``/``took``:
    an exchange's slot (1-based) and taken card (R7). ``drew``: the card drawn after a discard;
    ``reshuffled``: the discard pile became the deck first (R9). ``partner``: the other side of
    a swap (R10); ``received``: what ``seat`` received in a swap. ``cookie``: the holder after the
    step (R13). ``turn_ended``/``game_over``: what the step closed (R11, R14).

    Use :meth:`seen_by` before showing an event to anyone: it hides what that viewer may not see.
    """

    number: int
    seat: int
    kind: ActionKind
    card: Card | None = None
    slot: int | None = None
    took: Card | None = None
    drew: Card | None = None
    reshuffled: bool = False
    partner: int | None = None
    received: Card | None = None
    cookie: int | None = None
    turn_ended: bool = False
    game_over: bool = False

    def visible_to(self, viewer: int | None) -> bool:
        """True when ``viewer`` (a seat, or None for the public) may see this event's cards.

        Exchanges are public (R7). A black hat's face, a discard and its draw, an offer's card
        are the acting seat's alone (R8, R9, R10); both partners see a completed swap's cards.
        """
        return cards_visible(self.kind, self.seat, self.partner, viewer)

    def seen_by(self, viewer: int | None) -> Event:
        """Return the event as ``viewer`` may see it: hidden cards become None."""
        if cards_visible(self.kind, self.seat, self.partner, viewer):
            return self
        return make_event(
            self.number,
            self.seat,
            self.kind,
            None,
            self.slot,
            self.took,
            None,
            self.reshuffled,
            self.partner,
            None,
            self.cookie,
            self.turn_ended,
            self.game_over,
        )


_FIELDS = tuple(f.name for f in fields(Event))
assert Event.__slots__ == _FIELDS, "make_event sets Event's fields by its slots, in order"
(
    _set_number,
    _set_seat,
    _set_kind,
    _set_card,
    _set_slot,
    _set_took,
    _set_drew,
    _set_reshuffled,
    _set_partner,
    _set_received,
    _set_cookie,
    _set_turn_ended,
    _set_game_over,
) = (getattr(Event, name).__set__ for name in _FIELDS)
_new = object.__new__


def make_event(
    number: int,
    seat: int,
    kind: ActionKind,
    card: Card | None,
    slot: int | None,
    took: Card | None,
    drew: Card | None,
    reshuffled: bool,
    partner: int | None,
    received: Card | None,
    cookie: int | None,
    turn_ended: bool,
    game_over: bool,
) -> Event:
    """``Event(...)`` with every field given: an equal Event, about four times faster.

    The frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``; this
    sets the slots directly (Event has no ``__post_init__``). The engine builds one Event per
    step, and one per event of every observation (from its compact event log).
    """
    event = _new(Event)
    _set_number(event, number)
    _set_seat(event, seat)
    _set_kind(event, kind)
    _set_card(event, card)
    _set_slot(event, slot)
    _set_took(event, took)
    _set_drew(event, drew)
    _set_reshuffled(event, reshuffled)
    _set_partner(event, partner)
    _set_received(event, received)
    _set_cookie(event, cookie)
    _set_turn_ended(event, turn_ended)
    _set_game_over(event, game_over)
    return event
