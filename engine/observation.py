"""What one seat, or the public, may see of a game ("Who may see what", R21)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action
from engine.cards import Card, HatType
from engine.events import Event
from engine.legal import legal_actions_for
from engine.scoring import GameResult

__all__ = ["Observation", "PendingSwapView"]


@dataclass(frozen=True, slots=True)
class PendingSwapView:
    """A partner swap offer waiting for an answer (R10).

    ``card`` is the offered card for the offerer's own view, None for everyone else.
    """

    offerer: int
    partner: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything ``viewer`` may see; ``viewer`` None is the public view (table, spectators).

    Public: board, face-up collections, black hat and hand counts, deck and discard sizes,
    the cookie, whose turn, the round, the public part of every event. The viewer alone:
    ``hand``, ``own_black_hats`` and the hidden parts of their own events. After the end,
    ``result`` reveals everything of R21.

    Shapes: per-seat tuples have one entry per seat; ``board`` is slot 1 first; ``round`` is
    1–8 (R14); ``to_move`` is the seat that must act now, None once the game is over.
    """

    viewer: int | None
    seats: int
    teams: tuple[tuple[int, int], tuple[int, int]] | None
    types: tuple[HatType, ...]
    board: tuple[Card, ...]
    hand: tuple[Card, ...] | None
    own_black_hats: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    collections: tuple[tuple[Card, ...], ...]
    black_hat_counts: tuple[int, ...]
    deck_size: int
    discard_size: int
    cookie: int | None
    active_seat: int
    to_move: int | None
    round: int
    turns_taken: tuple[int, ...]
    main_done: bool
    optional_used: bool
    pending_swap: PendingSwapView | None
    events: tuple[Event, ...]
    result: GameResult | None

    @property
    def is_over(self) -> bool:
        """True once the game has ended (R14)."""
        return self.result is not None

    def legal_actions(self) -> list[Action]:
        """The viewer's legal actions, as ``game.legal_actions(viewer)`` lists them (R7–R11).

        Empty for the public view, after the end and when the viewer cannot act.
        """
        return legal_actions_for(self)
