"""What happened at each step, and who may see which part of it ("Who may see what")."""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import ActionKind
from engine.cards import Card

__all__ = ["Event"]


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
        if self.kind is ActionKind.EXCHANGE:
            return True
        if viewer is None:
            return False
        if self.kind is ActionKind.ANSWER_SWAP:
            return viewer in (self.seat, self.partner)
        return viewer == self.seat

    def seen_by(self, viewer: int | None) -> Event:
        """Return the event as ``viewer`` may see it: hidden cards become None."""
        if self.visible_to(viewer):
            return self
        return Event(
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
