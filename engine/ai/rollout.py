"""Playing a searched move on a sampled position, then the game on, greedily (R7–R20).

Shared by the hard and expert AIs. A *plan* is the move under test, ``(kind, card, slot)``:

- ``(MAIN, card, slot)``: an exchange on ``slot`` (R7), or a black hat when ``slot`` is
  :data:`~engine.ai.evaluate.BLACK_HAT_SLOT` (R8); then the turn ends (R11).
- ``(DISCARD_FIRST, card, 0)``: discard ``card`` and draw (R9), then the greedy main action
  with the new hand, then the turn ends.
- ``(END, -1, 0)``: end the turn (main action already done, R11).
- ``(DISCARD_AFTER, card, 0)``: discard and draw after the main action, which ends the turn.
- ``(OFFER_FIRST, card, 0)``: offer ``card`` to the partner (4 seats, R10), who gives back the
  hand card it values least (:func:`least_kept`, the normal AI's answer); then the greedy main
  action with the new hand, then the turn ends.
- ``(OFFER_AFTER, card, 0)``: the same swap after the main action, which ends the turn.
- ``(ANSWER, card, 0)``: the searching seat answers its partner's pending offer with ``card``
  (R10); the offered card is taken to be the offerer's least valued one. The offerer then
  makes its greedy main action (unless made already) and ends its turn.
- ``(DECLINE, -1, 0)``: the searching seat declines the offer (R10); the offerer goes on as above.

:func:`rollout_value` then lets every seat play the greedy move of
:class:`~engine.ai.evaluate.Evaluator` (its own hand and the public cards, with ``spite``) for
some rounds or to the end, and scores the result for the searching seat: the final margin over
the best opponent (the other team with 4 seats, R20) plus a bonus for a win (R19), or the
estimated margin when the rollout stops early.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.ai.evaluate import BLACK_HAT_SLOT, Evaluator, favourite_estimate
from engine.ai.sim import SimState, worth_of
from engine.config import TURNS_PER_SEAT
from engine.scoring import COOKIE_POINTS

__all__ = [
    "ANSWER",
    "DECLINE",
    "DISCARD_AFTER",
    "DISCARD_FIRST",
    "END",
    "MAIN",
    "OFFER_AFTER",
    "OFFER_FIRST",
    "Plan",
    "estimate",
    "final_value",
    "least_kept",
    "margin",
    "play_main",
    "play_plan",
    "rollout_stop",
    "rollout_value",
]

MAIN = "main"
DISCARD_FIRST = "discard_first"
END = "end"
DISCARD_AFTER = "discard_after"
OFFER_FIRST = "offer_first"
OFFER_AFTER = "offer_after"
ANSWER = "answer"
DECLINE = "decline"

Plan = tuple[str, int, int]
"""``(kind, card id, slot)``: a move to search (see the module docstring)."""


def margin(state: SimState, seat: int, values: Sequence[float]) -> float:
    """``seat``'s value (its team's with 4 seats, R20) minus the best opponent's (team's)."""
    if state.seats == 4:
        mine = values[seat] + values[(seat + 2) % 4]
        other = values[(seat + 1) % 4] + values[(seat + 3) % 4]
        return mine - other
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def estimate(state: SimState, seat: int) -> float:
    """Estimated margin of ``seat`` over the best opponent if the game ended now (R15–R20)."""
    worth = worth_of(state.board)
    values = []
    for s in range(state.seats):
        v = state.collection_points(s, worth)
        v += favourite_estimate(state.hands[s], state.sums[s])
        if state.cookie == s:
            v += COOKIE_POINTS
        values.append(v)
    return margin(state, seat, values)


def least_kept(state: SimState, seat: int) -> int:
    """The hand card ``seat`` values least to keep (the card the normal AI gives away, R10).

    :meth:`~engine.ai.evaluate.Evaluator.keep_value` without spite, ties to the lower id.
    """
    return Evaluator(state, seat).by_keep()[0]


def play_main(state: SimState, card: int, slot: int) -> None:
    """Make the active seat's main action; the turn stays open (R11).

    An exchange of ``card`` on ``slot`` (R7), or ``card`` as a black hat (R8) when ``slot`` is
    :data:`~engine.ai.evaluate.BLACK_HAT_SLOT`. Trusts its input, as the ``do_*`` methods do.
    """
    if slot == BLACK_HAT_SLOT:
        state.do_black_hat(card)
    else:
        state.do_exchange(card, slot)


def final_value(
    state: SimState,
    seat: int,
    win_bonus: float,
    margin_of: Callable[[SimState, int, Sequence[float]], float] = margin,
) -> float:
    """What a rollout that stopped at ``state`` is worth to ``seat``, in points.

    Over (R14): ``margin_of`` the end totals (R15–R20; default :func:`margin`) plus
    ``win_bonus`` for a win or a shared win (R19, R20). Not over: the estimated margin
    (:func:`estimate`), no bonus.
    """
    if not state.is_over:
        return estimate(state, seat)
    totals = state.totals()
    result = margin_of(state, seat, totals)
    return result + (win_bonus if seat in state.winners(totals) else 0.0)


def play_plan(state: SimState, seat: int, plan: Plan, spite: float) -> None:
    """Play ``plan`` for ``seat`` of ``state`` and end the current turn (R7–R11).

    ``seat`` is the active seat, except for ``ANSWER``/``DECLINE``: then it is the partner
    answering the active seat's offer (R10), and the active seat finishes its turn greedily.
    """
    kind, card, slot = plan
    if kind in (ANSWER, DECLINE):
        offerer = state.active
        if kind == ANSWER:
            state.do_swap(least_kept(state, offerer), card)
        if not state.main_done:
            card, slot = Evaluator(state, offerer, spite).best_main()
            kind = MAIN
    elif kind == DISCARD_FIRST:
        state.do_discard(card)
        card, slot = Evaluator(state, seat, spite).best_main()
        kind = MAIN
    elif kind == DISCARD_AFTER:
        state.do_discard(card)
    elif kind == OFFER_FIRST:
        state.do_swap(card, least_kept(state, (seat + 2) % 4))
        card, slot = Evaluator(state, seat, spite).best_main()
        kind = MAIN
    elif kind == OFFER_AFTER:
        state.do_swap(card, least_kept(state, (seat + 2) % 4))
    if kind == MAIN:
        play_main(state, card, slot)
    state.end_turn()


def rollout_stop(state: SimState, depth_rounds: int | None) -> int:
    """The ``turns_done`` at which a rollout from ``state`` stops.

    The end of the game (R14), or ``depth_rounds`` rounds on when that comes first.
    """
    stop = state.seats * TURNS_PER_SEAT
    if depth_rounds is not None:
        stop = min(stop, state.turns_done + depth_rounds * state.seats)
    return stop


def rollout_value(
    state: SimState,
    seat: int,
    spite: float,
    depth_rounds: int | None,
    win_bonus: float,
    spread: int = 1,
) -> float:
    """Play ``state`` on greedily and score it for ``seat`` (see the module docstring).

    ``depth_rounds``: rounds to play before estimating (None: to the end, R14). ``spread``
    > 1: the other seats play one of their ``spread`` best moves, drawn by ``state.rng``
    (a searching opponent is not a greedy one); ``seat`` itself stays greedy. Mutates
    ``state``. Returns points (margin, plus ``win_bonus`` for a win or a shared win).
    """
    stop = rollout_stop(state, depth_rounds)
    while state.turns_done < stop:
        active = state.active
        if spread > 1 and active != seat:
            gains = Evaluator(state, active, spite).main_gains()
            gains.sort(key=lambda g: -g[0])
            _gain, card, slot = gains[int(state.rng.random() * min(spread, len(gains)))]
        else:
            card, slot = Evaluator(state, active, spite).best_main()
        play_main(state, card, slot)
        state.end_turn()
    return final_value(state, seat, win_bonus)
