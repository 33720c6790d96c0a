"""A hint for the seat to move: the AI's move for that seat, why, and the gain it aims for.

The hint sees only the asking seat's observation (the AI never sees the game), so it cannot
leak a hidden card. The move comes from :data:`HINT_LEVEL`'s AI with a seed of the caller's
choice, so the same question gets the same answer; the gain is the change in the seat's
expected score that the greedy evaluator gives that move (collection points by board slot,
R16; the cookie, R13/R18; the favourite hat estimate, R17), rounded to whole points. The
reason (:class:`Reason`) is a fact about the move that the seat can check on its own tea
table: what the taken card scores, the cookie it wins, a card that can take no slot.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from engine import (
    Action,
    ActionKind,
    BlackHat,
    Card,
    Discard,
    Exchange,
    HatType,
    Observation,
    exchange_allowed,
)
from engine.ai import AiLevel, ExpertBudget, make_ai
from engine.ai.determinize import public_state
from engine.ai.evaluate import BLACK_HAT_SLOT, Evaluator
from engine.cookie import cookie_holder
from engine.scoring import face_up_slots

__all__ = ["HINT_LEVEL", "Hint", "Reason", "suggest"]

HINT_LEVEL = AiLevel.EXPERT
"""The AI level whose move a hint suggests (the strongest level the engine has)."""


class Reason(enum.StrEnum):
    """Why a hint suggests its move: a fact the seat can check (the rule in brackets)."""

    COOKIE = "cookie"  # the move wins the cookie: most types, or the tie-break (R13)
    TAKES = "takes"  # exchange: the taken card then scores ``value`` (R16)
    SHOWS = "shows"  # exchange: the played card's type comes face up: your cards of it score
    NO_SLOT = "no_slot"  # black hat, discard: the card can take no slot of the board (R7)
    SURE_POINT = "sure_point"  # black hat: 1 point whatever the board becomes (R8, R16)
    WEAKEST = "weakest"  # discard: the hand card whose best main action gains the least (R9)
    DRAW = "draw"  # discard: a fresh card from the draw deck may do more (R9)
    KEEP = "keep"  # end turn: main action done, no card worth discarding (R11)


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move for the asking seat.

    ``action``: one of the seat's legal actions; ``gain``: the expected-score change it aims
    for (points, rounded; None for moves without one, such as ending the turn); ``reason``:
    why (None where no fact says it, e.g. a partner swap); ``card``: the card the reason names
    (the taken card for TAKES and COOKIE after an exchange, a collection card of the type
    that comes face up for SHOWS); ``value``: the points the reason names (TAKES, SHOWS: what
    each such card then scores).
    """

    action: Action
    gain: int | None
    reason: Reason | None = None
    card: Card | None = None
    value: int | None = None


def _worth(board: Sequence[Card], type_: HatType) -> int:
    """What a collection card of ``type_`` scores on ``board`` (R15, R16): a slot, or 0."""
    return next((s for s in face_up_slots(board) if board[s - 1].type is type_), 0)


def _best_gains(obs: Observation) -> dict[int, float]:
    """Each hand card's best main-action gain (card id -> points), by the greedy evaluator."""
    assert obs.viewer is not None
    best: dict[int, float] = {}
    for gain, card, _slot in Evaluator(public_state(obs), obs.viewer).main_gains():
        best[card] = max(gain, best.get(card, gain))
    return best


def _reason(
    obs: Observation, action: Action, legal: Sequence[Action]
) -> tuple[Reason | None, Card | None, int | None]:
    """Why ``action`` is a good move for the observation's seat: (reason, card, value)."""
    me = obs.viewer
    assert me is not None
    if isinstance(action, Exchange):
        took = obs.board[action.slot - 1]
        board = list(obs.board)
        board[action.slot - 1] = action.card
        collections = [list(c) for c in obs.collections]
        collections[me].append(took)
        if cookie_holder(collections, obs.black_hat_counts, obs.cookie) == me != obs.cookie:
            return Reason.COOKIE, took, None
        if worth := _worth(board, took.type):
            return Reason.TAKES, took, worth
        mine = [c for c in obs.collections[me] if c.type is action.card.type]
        before, after = _worth(obs.board, action.card.type), _worth(board, action.card.type)
        if mine and after > before:
            return Reason.SHOWS, mine[0], after
        return None, None, None
    cannot = isinstance(action, (BlackHat, Discard)) and not any(
        exchange_allowed(action.card, b) for b in obs.board
    )
    if cannot:
        return Reason.NO_SLOT, None, None
    if isinstance(action, BlackHat):
        blacks = list(obs.black_hat_counts)
        blacks[me] += 1
        if cookie_holder(obs.collections, blacks, obs.cookie) == me != obs.cookie:
            return Reason.COOKIE, None, None
        return Reason.SURE_POINT, None, None
    if isinstance(action, Discard):
        best = _best_gains(obs)
        mine = best.get(action.card.id)
        if mine is not None and len(set(best.values())) > 1 and mine == min(best.values()):
            return Reason.WEAKEST, None, None
        return Reason.DRAW, None, None
    if action.kind is ActionKind.END_TURN and any(a.kind is ActionKind.DISCARD for a in legal):
        return Reason.KEEP, None, None
    return None, None, None


def _main_gain(obs: Observation, action: Action) -> int | None:
    """The evaluator's gain of a main action (R7, R8) for the observation's seat."""
    if isinstance(action, Exchange):
        key = (action.card.id, action.slot)
    elif isinstance(action, BlackHat):
        key = (action.card.id, BLACK_HAT_SLOT)
    else:
        return None
    assert obs.viewer is not None
    for gain, card, slot in Evaluator(public_state(obs), obs.viewer).main_gains():
        if (card, slot) == key:
            return round(gain)
    return None


def suggest(
    obs: Observation,
    legal: Sequence[Action],
    seed: int,
    budget: ExpertBudget | None = None,
) -> Hint:
    """The hint for the seat whose observation ``obs`` is, among its ``legal`` actions.

    ``seed`` makes the AI's choice repeatable; ``budget``: the expert's search budget (None:
    its default, about 0.4 s of CPU for a main action; run it off the event loop). Positional
    and module-level, so a process pool can run it. Raises ValueError when ``obs`` is the
    public view or ``legal`` is empty (nothing to suggest).
    """
    if obs.viewer is None or not legal:
        raise ValueError("a hint needs a seat that has something to do")
    action = make_ai(HINT_LEVEL, seed, budget=budget).choose(obs, legal)
    gain = _main_gain(obs, action) if action.kind.is_main else None
    return Hint(action, gain, *_reason(obs, action, legal))
