"""The hard AI: determinized Monte Carlo rollouts over the most promising moves.

Candidates: for a main action (R7, R8), the best few by the greedy gain (with some weight on
the opponents' loss) plus discarding the hand card worth least to keep (R9); after the main
action, ending the turn (R11) and that discard. Every candidate is played in the same
``determinizations`` sampled positions (hidden cards dealt at random, consistently with the
observation: :mod:`engine.ai.determinize`). Then every seat plays on greedily
(:class:`~engine.ai.evaluate.Evaluator`: its own hand and the public cards only) for
``depth_rounds`` rounds, or to the end of the game. The candidate with the best mean result
is chosen. A result is the final margin over the best opponent (the other team with 4 seats,
R20) plus ``win_bonus`` for a win (R19), or the estimated margin when the rollout stops early.

Partner swaps (R10: offers and blind answers) follow the normal AI's rules. Budgeted by
iterations (the default), the hard AI is deterministic: the same seed and observation give
the same choice.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action, ActionKind
from engine.ai.base import ActionIndex, check_inputs, decision_rng
from engine.ai.determinize import determinize, public_state
from engine.ai.evaluate import Evaluator
from engine.ai.knowledge import Knowledge, knowledge_of
from engine.ai.normal import normal_choice, optional_card, swap_choice
from engine.ai.rollout import (
    DISCARD_AFTER,
    DISCARD_FIRST,
    END,
    MAIN,
    Plan,
    play_plan,
    rollout_value,
)
from engine.observation import Observation

__all__ = ["HardAi", "HardBudget"]


@dataclass(frozen=True, slots=True)
class HardBudget:
    """How much the hard AI searches per decision.

    ``determinizations``: sampled positions per decision (every candidate is played in each);
    ``candidates``: main actions kept for search; ``depth_rounds``: rounds played in a rollout
    before estimating the margin (None: to the end of the game); ``spite``: weight of the
    opponents' gain in the greedy play (0–1); ``win_bonus``: points a won rollout adds to its
    margin;
    ``time_limit_ms``: stop sampling after this many milliseconds (then choices depend on the
    machine's speed; None, the default, keeps the AI deterministic).
    """

    determinizations: int = 10
    candidates: int = 5
    depth_rounds: int | None = 3
    spite: float = 0.5
    win_bonus: float = 10.0
    time_limit_ms: float | None = None

    def __post_init__(self) -> None:
        if self.determinizations < 1 or self.candidates < 1:
            raise ValueError("determinizations and candidates must be at least 1")
        if self.depth_rounds is not None and self.depth_rounds < 1:
            raise ValueError("depth_rounds must be at least 1, or None for whole games")


class HardAi:
    """The hard level (see the module docstring); ``seed`` drives the sampling."""

    level = "hard"

    def __init__(self, seed: int, budget: HardBudget | None = None) -> None:
        """An AI searching with ``budget`` (default :class:`HardBudget`)."""
        self.seed = seed
        self.budget = budget or HardBudget()
        self._rng = random.Random(seed)

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """Pick an action of ``legal`` (see :class:`engine.ai.base.Player`)."""
        viewer = check_inputs(observation, legal)
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self._rng, self.seed, observation)
        index = ActionIndex(legal)
        know = knowledge_of(observation)
        swap = swap_choice(observation, legal, know, rng)
        if swap is not None:
            return swap
        plans = self._candidates(observation, viewer, index, know)
        if not plans:  # nothing searchable (cannot happen with engine-made inputs)
            return normal_choice(observation, legal, rng)
        if len(plans) == 1:
            return plans[0][1]
        scores = self._search(observation, viewer, plans, rng, know)
        best = max(range(len(plans)), key=lambda i: (scores[i], -i))
        return plans[best][1]

    # ------------------------------------------------------------------ candidates
    def _candidates(
        self, obs: Observation, viewer: int, index: ActionIndex, know: Knowledge
    ) -> list[tuple[Plan, Action]]:
        """The moves to search: ``((plan kind, card, slot), action)``."""
        state = public_state(obs)
        plans: list[tuple[Plan, Action]] = []
        discard = None
        if ActionKind.DISCARD in index.kinds:
            card = optional_card(Evaluator(state, viewer), know, margin=-1e9)
            if card is not None:
                discard = (card, index.get(ActionKind.DISCARD, card))
        if not obs.main_done:
            gains = Evaluator(state, viewer, self.budget.spite).main_gains()
            gains.sort(key=lambda g: -g[0])
            for _gain, card, slot in gains[: self.budget.candidates]:
                action = index.main(card, slot)
                if action is not None:
                    plans.append(((MAIN, card, slot), action))
            if discard is not None and discard[1] is not None:
                plans.append(((DISCARD_FIRST, discard[0], 0), discard[1]))
        else:
            end = index.get(ActionKind.END_TURN)
            if end is not None:
                plans.append(((END, -1, 0), end))
            if discard is not None and discard[1] is not None:
                plans.append(((DISCARD_AFTER, discard[0], 0), discard[1]))
        return plans

    # ------------------------------------------------------------------ search
    def _search(
        self,
        obs: Observation,
        viewer: int,
        plans: Sequence[tuple[Plan, Action]],
        rng: random.Random,
        know: Knowledge,
    ) -> list[float]:
        budget = self.budget
        totals = [0.0] * len(plans)
        start = time.perf_counter()
        for i in range(budget.determinizations):
            det = determinize(obs, rng, know)
            shuffle_seed = rng.getrandbits(64)
            for j, (plan, _action) in enumerate(plans):
                state = det.copy(random.Random(shuffle_seed))
                play_plan(state, viewer, plan, budget.spite)
                totals[j] += rollout_value(
                    state, viewer, budget.spite, budget.depth_rounds, budget.win_bonus
                )
            limit = budget.time_limit_ms
            if limit is not None and i and (time.perf_counter() - start) * 1000 > limit:
                break
        return totals
