"""Listing legal actions (R7–R11), shared by :class:`~engine.game.Game` and observations.

The lists are built from interned action tables (``engine.actions``), so they allocate only the
list itself. Order is stable: exchanges (hand order, then slot), black hats, discards or swap
offers, end turn; while a partner swap offer waits: the partner's answers (hand order) then
decline, and the offerer's withdraw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

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
)
from engine.cards import ALL_CARDS, Card
from engine.errors import IllegalExchange, IllegalMove, MainActionDone, OptionalActionUsed

if TYPE_CHECKING:
    from engine.observation import Observation

__all__ = [
    "CAN_TAKE",
    "active_seat_actions",
    "active_seat_actions_by_id",
    "answer_actions",
    "answer_actions_by_id",
    "card_choices",
    "legal_actions_for",
]

CAN_TAKE: tuple[tuple[bool, ...], ...] = tuple(
    tuple(c.type is b.type or c.value > b.value for b in ALL_CARDS) for c in ALL_CARDS
)
"""``CAN_TAKE[card.id][taken.id]``: may ``card`` be exchanged for ``taken`` (R7)."""


def active_seat_actions(
    hand: Sequence[Card],
    board: Sequence[Card],
    seats: int,
    main_done: bool,
    optional_used: bool,
) -> list[Action]:
    """The legal actions of the seat whose turn it is, with no swap offer waiting (R7–R11).

    ``hand`` in canonical card order, ``board`` slot 1 first. Exchanges need R7; the optional
    action is a discard with 2–3 seats (R9) or a swap offer with 4 (R10); ending the turn
    needs the main action first (R11). The same list as :func:`active_seat_actions_by_id`.
    """
    return active_seat_actions_by_id(
        [c.id for c in hand], [b.id for b in board], seats, main_done, optional_used
    )


def active_seat_actions_by_id(
    hand: Sequence[int],
    board: Sequence[int],
    seats: int,
    main_done: bool,
    optional_used: bool,
) -> list[Action]:
    """:func:`active_seat_actions` with the hand and the board as card ids (bytes work)."""
    out: list[Action] = []
    if not main_done:
        append = out.append
        for cid in hand:
            ok = CAN_TAKE[cid]
            row = EXCHANGES[cid]
            for slot, bid in enumerate(board, 1):
                if ok[bid]:
                    append(row[slot])
        out.extend([BLACK_HATS[c] for c in hand])
    if not optional_used:
        table = OFFERS if seats == 4 else DISCARDS
        out.extend([table[c] for c in hand])
    if main_done:
        out.append(END_TURN)
    return out


def answer_actions(hand: Sequence[Card]) -> list[Action]:
    """The partner's replies to a waiting swap offer: give any hand card, or decline (R10)."""
    return answer_actions_by_id([c.id for c in hand])


def answer_actions_by_id(hand: Sequence[int]) -> list[Action]:
    """:func:`answer_actions` with the hand as card ids (bytes work)."""
    out: list[Action] = [ANSWERS[c] for c in hand]
    out.append(DECLINE)
    return out


def legal_actions_for(observation: Observation) -> list[Action]:
    """The legal actions of ``observation.viewer``, computed from what that seat sees.

    Equals ``game.legal_actions(viewer)`` for the game the observation came from (same order).
    Empty for the public view (viewer None), after the end, and for seats that cannot act.
    """
    obs = observation
    viewer = obs.viewer
    if viewer is None or obs.result is not None or obs.hand is None:
        return []
    pending = obs.pending_swap
    if pending is not None:
        if viewer == pending.partner:
            return answer_actions(obs.hand)
        return [WITHDRAW] if viewer == pending.offerer else []
    if viewer != obs.active_seat:
        return []
    return active_seat_actions(obs.hand, obs.board, obs.seats, obs.main_done, obs.optional_used)


def card_choices(observation: Observation, card: Card) -> list[tuple[Action, IllegalMove | None]]:
    """What ``observation.viewer`` could do with ``card`` now, each with why it is refused.

    For the seat whose turn it is (no swap offer waiting): an exchange onto every slot (R7),
    the black hat (R8), then the discard (R9, 2–3 seats) or the swap offer (R10, 4 seats);
    the error is None for a legal action, else the IllegalMove that :meth:`Game.apply` would
    raise (IllegalExchange, MainActionDone, OptionalActionUsed). For the partner answering an
    offer: giving ``card`` (legal). Empty otherwise (not this seat's move, card not in hand).
    The legal ones are exactly the actions of :func:`legal_actions_for` that play ``card``.
    """
    obs = observation
    legal = [a for a in legal_actions_for(obs) if getattr(a, "card", None) is card]
    if obs.hand is None or card not in obs.hand or obs.result is not None:
        return []
    if obs.pending_swap is not None or obs.viewer != obs.active_seat:
        return [(a, None) for a in legal]
    out: list[tuple[Action, IllegalMove | None]] = []
    ok = CAN_TAKE[card.id]
    main_done: IllegalMove | None = MainActionDone() if obs.main_done else None
    for slot, taken in enumerate(obs.board, 1):
        why = main_done
        if why is None and not ok[taken.id]:
            why = IllegalExchange(card, slot, taken)
        out.append((EXCHANGES[card.id][slot], why))
    out.append((BLACK_HATS[card.id], main_done))
    table = OFFERS if obs.seats == 4 else DISCARDS
    out.append((table[card.id], OptionalActionUsed() if obs.optional_used else None))
    return out
