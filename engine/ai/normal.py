"""The normal AI: greedy on the immediate change of its expected score (R7–R20).

Main action (R7, R8): the one of highest gain for the seat (the team with 4 seats), see
:mod:`engine.ai.evaluate`. Optional action: discard (R9) or offer a partner swap (R10) the hand
card worth least to keep, only when an unknown card is worth more on average by a margin;
done before the main action so the new card can be played at once. Swap answer (R10, blind:
the offered card is hidden): give the card worth least to keep unless it beats an unknown card
on average, else decline.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, ActionKind
from engine.ai.base import ActionIndex, check_inputs, decision_rng, offer_refused_this_turn
from engine.ai.determinize import public_state
from engine.ai.evaluate import Evaluator
from engine.ai.knowledge import Knowledge, knowledge_of
from engine.observation import Observation

__all__ = [
    "NormalAi",
    "answer_card",
    "best_main_tied",
    "normal_choice",
    "optional_card",
    "swap_choice",
]

OPTIONAL_MARGIN = 0.5
"""Points an unknown card must beat the worst hand card by, on average, to discard or offer."""
ANSWER_MARGIN = -0.5
"""Same for answering a swap offer (the partner asked, so a small loss is accepted)."""


def _worst_and_expectation(
    ev: Evaluator, know: Knowledge, pool_excludes: frozenset[int]
) -> tuple[int, float | None]:
    """The hand card worth least to keep, and how much more an unknown card is worth on average.

    The second item is None when no unknown card is left to draw or receive.
    """
    worst = ev.by_keep()[0]
    pool = [c for c in know.unknown if c not in pool_excludes]
    if not pool:
        return worst, None
    expect = sum(ev.draw_value(x, worst) for x in pool) / len(pool)
    return worst, expect - ev.keep_value(worst)


def optional_card(ev: Evaluator, know: Knowledge, margin: float = OPTIONAL_MARGIN) -> int | None:
    """The hand card (id) to discard or offer now, or None to keep the hand (R9, R10).

    The card worth least to keep goes when an unknown card is worth ``margin`` points more on
    average. Cards known to lie in the discard pile cannot be drawn and are left out.
    """
    if len(ev.hand) < 2:
        return None
    worst, edge = _worst_and_expectation(ev, know, know.in_discard)
    return worst if edge is not None and edge > margin else None


def answer_card(ev: Evaluator, know: Knowledge, margin: float = ANSWER_MARGIN) -> int | None:
    """The hand card (id) to give back to an offering partner, or None to decline (R10)."""
    worst, edge = _worst_and_expectation(ev, know, frozenset())
    return worst if edge is not None and edge > margin else None


def best_main_tied(ev: Evaluator, rng: random.Random) -> tuple[int, int]:
    """The main action ``(card, slot)`` of highest gain; ``rng`` breaks exact ties."""
    gains = ev.main_gains()
    top = max(g[0] for g in gains)
    best = [g for g in gains if g[0] >= top - 1e-9]
    _gain, card, slot = best[0] if len(best) == 1 else rng.choice(best)
    return card, slot


def normal_choice(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    """The normal AI's choice for ``obs``; ``rng`` only breaks ties between equal gains."""
    viewer = check_inputs(obs, legal)
    if len(legal) == 1:
        return legal[0]
    index = ActionIndex(legal)
    kinds = index.kinds
    ev = Evaluator(public_state(obs), viewer)
    know = knowledge_of(obs)
    if ActionKind.DECLINE_SWAP in kinds:
        card = answer_card(ev, know)
        chosen = index.get(ActionKind.ANSWER_SWAP, card) if card is not None else None
        return chosen or index.get(ActionKind.DECLINE_SWAP) or legal[0]
    optional_kind = ActionKind.OFFER_SWAP if obs.seats == 4 else ActionKind.DISCARD
    if optional_kind in kinds and not (
        optional_kind is ActionKind.OFFER_SWAP and offer_refused_this_turn(obs)
    ):
        card = optional_card(ev, know)
        if card is not None:
            chosen = index.get(optional_kind, card)
            if chosen is not None:
                return chosen
    if not obs.main_done:
        card, slot = best_main_tied(ev, rng)
        chosen = index.main(card, slot)
        if chosen is not None:
            return chosen
    return index.get(ActionKind.END_TURN) or legal[0]


def swap_choice(
    obs: Observation, legal: Sequence[Action], know: Knowledge, rng: random.Random
) -> Action | None:
    """The normal AI's choice when a searching AI leaves partner swaps to it (R10), else None.

    That is a swap answer (or decline), or, before anything else in the turn, the swap offer
    the normal AI would make (not after a declined offer). ``know``: the viewer's knowledge.
    """
    viewer = check_inputs(obs, legal)
    kinds = {a.kind for a in legal}
    if ActionKind.DECLINE_SWAP in kinds:
        return normal_choice(obs, legal, rng)
    if (
        ActionKind.OFFER_SWAP in kinds
        and not offer_refused_this_turn(obs)
        and optional_card(Evaluator(public_state(obs), viewer), know) is not None
    ):
        return normal_choice(obs, legal, rng)
    return None


class NormalAi:
    """The normal level (see the module docstring); ``seed`` breaks ties between equal gains."""

    level = "normal"

    def __init__(self, seed: int) -> None:
        """An AI whose choices depend only on ``seed`` and the observation."""
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """Pick an action of ``legal`` (see :class:`engine.ai.base.Player`)."""
        check_inputs(observation, legal)
        rng = decision_rng(self._rng, self.seed, observation)
        return normal_choice(observation, legal, rng)
