"""The expert AI: determinized search over weighted deals, with sequential halving (R7–R20).

An information-set search in the determinized Monte Carlo style (Cowling, Powley & Whitehouse
2012, "Information Set Monte Carlo Tree Search", the flat one-level case):

1. **Deals.** The seat cannot see the other hands, their black hats' faces (R8), the draw deck
   or the discard pile (R9), nor what its opponents swapped (R10) ("Who may see what"). It
   samples full positions that agree with everything it has seen
   (:func:`engine.ai.determinize.deal`: hand and black hat counts, deck and discard sizes, its
   own discards and swaps, :mod:`engine.ai.knowledge`).
2. **Inference.** Each deal is weighted by how likely the other seats' public main actions
   were had they held those cards (:class:`engine.ai.inference.HandReader`): what a seat took
   from the tea table and what it left there (R7), its black hats (R8). Deals in which a seat
   passed over a much better exchange count for little.
3. **Candidates.** Before the main action: the main actions of highest greedy gain
   (:class:`~engine.ai.evaluate.Evaluator`; exchanges R7, black hats R8) and, with 2–3 seats,
   discarding one of the hand cards worth least to keep then making the greedy main action
   with the new hand (R9); with 4 seats, offering the partner one of those cards instead
   (R10: the partner is taken to give back the card it values least, as the normal AI does).
   After it: ending the turn (R11), or discarding or offering the least useful card. An
   offer from the partner is answered by search too: declining, or giving one of the cards
   worth least to keep (the offered card is hidden, R10: the offerer is taken to offer its
   least valued card), within the quick budget.
4. **Search.** Every candidate is played in the same weighted deals (common random numbers),
   then the game is played on by every seat with the hard AI's playout policy (greedy gain
   with spite, :func:`engine.ai.rollout.rollout_value`), to the end by default (R14), and
   scored as the final margin over the best opponent (the other team with 4 seats, R20) plus a
   bonus for a win (R19). Sequential halving (Karnin, Koren & Somekh 2013) spends the budget:
   each round plays the surviving candidates equally and keeps the better half.

The budget is a count of simulated turns (:class:`ExpertBudget`), never a clock, so the choice is a
function of (seed, observation) only: the same on any machine and under any load.
:attr:`ExpertAi.stats` reports the work of the last decision.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.actions import Action, ActionKind
from engine.ai.base import ActionIndex, check_inputs, decision_rng, offer_refused_this_turn
from engine.ai.determinize import deal, public_state
from engine.ai.evaluate import Evaluator
from engine.ai.inference import HandReader
from engine.ai.knowledge import Knowledge, knowledge_of
from engine.ai.normal import normal_choice, swap_choice
from engine.ai.rollout import (
    ANSWER,
    DECLINE,
    DISCARD_AFTER,
    DISCARD_FIRST,
    END,
    MAIN,
    OFFER_AFTER,
    OFFER_FIRST,
    Plan,
    play_plan,
    rollout_value,
)
from engine.ai.sim import SimState
from engine.config import TURNS_PER_SEAT
from engine.observation import Observation

__all__ = ["ExpertAi", "ExpertBudget", "SearchStats", "deal_weights", "rollout_turns"]


@dataclass(frozen=True, slots=True)
class ExpertBudget:
    """How much the expert AI searches per decision (counts, never time).

    ``turns``: work for a main-action decision in simulated turns: every turn of every
    rollout of every candidate (a whole-game rollout early in a 4-seat game plays about 30
    turns, one late in a 2-seat game a few), plus for every sampled deal one per past main
    action the inference reads (a greedy evaluation, about the cost of a turn).
    ``quick_turns``: the same for the choice after the main action (end the turn or discard,
    R9, R11). ``candidates``: main actions kept by greedy gain. ``discards``: discard
    candidates (2–3 seats). ``depth_rounds``: rounds a rollout plays before estimating (None:
    to the end, R14). ``spite``: weight of the opponents' gains in the greedy playout and in
    the inference model (0–1). ``spread``: the other seats play one of their ``spread`` best
    greedy moves at random in the rollouts (1: the best, as the hard AI's rollouts).
    ``win_bonus``: points a won rollout adds to its margin (R19). ``inference``: weigh deals
    by the other seats' public moves. ``model_top``/``model_slope``: the inference's rank
    model (a player chooses among its ``model_top`` best greedy moves; each rank below costs
    ``model_slope`` in log-likelihood, :class:`~engine.ai.inference.HandReader`).
    ``ess_floor``: the least effective sample size the weights may leave, as a fraction of
    the deals (:func:`deal_weights`). ``swaps``: with 4 seats, search partner swaps (R10):
    offering one of the ``offers`` hand cards worth least to keep, before or after the main
    action, and answering an offer with one of them or declining (False: the normal AI's
    rules decide swaps). Raises ValueError when a count is below 1, the slope is
    negative or the floor is outside (0, 1].
    """

    turns: int = 4_000
    quick_turns: int = 400
    candidates: int = 10
    discards: int = 2
    depth_rounds: int | None = None
    spite: float = 0.5
    spread: int = 1
    win_bonus: float = 10.0
    inference: bool = True
    model_top: int = 5
    model_slope: float = 0.5
    ess_floor: float = 0.5
    swaps: bool = True
    offers: int = 2

    def __post_init__(self) -> None:
        if (
            min(self.turns, self.quick_turns, self.candidates) < 1
            or min(self.discards, self.offers) < 0
        ):
            raise ValueError("turns, quick_turns and candidates must be at least 1")
        if self.depth_rounds is not None and self.depth_rounds < 1:
            raise ValueError("depth_rounds must be at least 1, or None for whole games")
        if self.model_top < 1 or self.model_slope < 0:
            raise ValueError("model_top must be at least 1 and model_slope not negative")
        if not 0 < self.ess_floor <= 1:
            raise ValueError("ess_floor must be in (0, 1]")


@dataclass(frozen=True, slots=True)
class SearchStats:
    """The work of one decision (all 0 when nothing was searched).

    ``rollouts`` played, ``turns`` of work (simulated turns and inference evaluations, as
    :class:`ExpertBudget` counts them), ``deals`` sampled, ``candidates``
    searched, ``moments``: past main actions of other seats read by the inference.
    """

    rollouts: int = 0
    turns: int = 0
    deals: int = 0
    candidates: int = 0
    moments: int = 0


class ExpertAi:
    """The expert level (see the module docstring); ``seed`` drives the sampling."""

    level = "expert"

    def __init__(self, seed: int, budget: ExpertBudget | None = None) -> None:
        """An AI searching with ``budget`` (default :class:`ExpertBudget`)."""
        self.seed = seed
        self.budget = budget or ExpertBudget()
        self.stats = SearchStats()
        """The work of the last :meth:`choose` call."""
        self._rng = random.Random(seed)

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """Pick an action of ``legal`` (see :class:`engine.ai.base.Player`)."""
        viewer = check_inputs(observation, legal)
        self.stats = SearchStats()
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self._rng, self.seed, observation)
        index = ActionIndex(legal)
        know = knowledge_of(observation)
        searched_swaps = self.budget.swaps and observation.seats == 4
        if not searched_swaps:
            swap = swap_choice(observation, legal, know, rng)
            if swap is not None:
                return swap
        answering = ActionKind.DECLINE_SWAP in index.kinds
        if answering:
            plans = self._answers(observation, viewer, index)
        else:
            plans = self._candidates(observation, viewer, index, searched_swaps)
        if not plans:  # nothing searchable (cannot happen with engine-made inputs)
            return normal_choice(observation, legal, rng)
        if len(plans) == 1:
            return plans[0][1]
        quick = answering or observation.main_done
        turns = self.budget.quick_turns if quick else self.budget.turns
        best = self._search(observation, viewer, plans, rng, know, turns)
        return plans[best][1]

    # ------------------------------------------------------------------ candidates
    def _answers(
        self, obs: Observation, viewer: int, index: ActionIndex
    ) -> list[tuple[Plan, Action]]:
        """Answers to the partner's pending offer (R10), most promising first.

        Giving the card worth least to keep (what the normal AI mostly does), declining, then
        giving the next ones.
        """
        ev = Evaluator(public_state(obs), viewer)
        plans: list[tuple[Plan, Action]] = []
        for card in ev.by_keep()[: self.budget.offers]:
            action = index.get(ActionKind.ANSWER_SWAP, card)
            if action is not None:
                plans.append(((ANSWER, card, 0), action))
        decline = index.get(ActionKind.DECLINE_SWAP)
        if decline is not None:
            plans.insert(min(1, len(plans)), ((DECLINE, -1, 0), decline))
        return plans

    def _candidates(
        self, obs: Observation, viewer: int, index: ActionIndex, swaps: bool
    ) -> list[tuple[Plan, Action]]:
        """The moves to search, most promising first: ``((kind, card, slot), action)``.

        ``swaps``: offers to the partner (R10) are candidates too (4 seats).
        """
        budget = self.budget
        ev = Evaluator(public_state(obs), viewer, budget.spite)
        plans: list[tuple[Plan, Action]] = []
        throw: list[int] = []
        offer: list[int] = []
        by_keep = ev.by_keep() if len(ev.hand) > 1 else []
        if ActionKind.DISCARD in index.kinds:
            throw = by_keep[: budget.discards]
        if swaps and ActionKind.OFFER_SWAP in index.kinds and not offer_refused_this_turn(obs):
            offer = by_keep[: budget.offers]
        if not obs.main_done:
            gains = ev.main_gains()
            gains.sort(key=lambda g: -g[0])
            for _gain, card, slot in gains[: budget.candidates]:
                action = index.main(card, slot)
                if action is not None:
                    plans.append(((MAIN, card, slot), action))
            kind = DISCARD_FIRST
        else:
            end = index.get(ActionKind.END_TURN)
            if end is not None:
                plans.append(((END, -1, 0), end))
            kind = DISCARD_AFTER
        for card in throw:
            action = index.get(ActionKind.DISCARD, card)
            if action is not None:
                plans.append(((kind, card, 0), action))
        offer_kind = OFFER_AFTER if obs.main_done else OFFER_FIRST
        for card in offer:
            action = index.get(ActionKind.OFFER_SWAP, card)
            if action is not None:
                plans.append(((offer_kind, card, 0), action))
        return plans

    # ------------------------------------------------------------------ search
    def _search(
        self,
        obs: Observation,
        viewer: int,
        plans: Sequence[tuple[Plan, Action]],
        rng: random.Random,
        know: Knowledge,
        turns: int,
    ) -> int:
        """Sequential halving over ``plans`` within ``turns`` of work; the best's index.

        Work: every simulated turn of every rollout, and per sampled deal one unit for each
        past main action the inference reads (an evaluation, about the cost of a turn).
        """
        budget = self.budget
        length = rollout_turns(obs, budget.depth_rounds)
        reader = (
            HandReader(obs, budget.spite, budget.model_top, budget.model_slope)
            if budget.inference
            else None
        )
        read = reader.moments if reader else 0  # work to weigh one deal
        alive = list(range(len(plans)))  # most promising first: the tail goes when short
        while len(alive) > 1 and read + len(alive) * length > turns:
            alive.pop()
        if read + length > turns:
            return 0
        deals: list[tuple[SimState, int]] = []  # (position, reshuffle seed)
        log_weights: list[float] = []
        values: list[list[float]] = [[] for _ in plans]  # per candidate, per deal
        work = spent = 0
        rounds = max(1, math.ceil(math.log2(len(alive))))
        for r in range(rounds):
            per_deal = read + len(alive) * length  # one more deal, played by every candidate
            more = max(1, (turns - work) // (rounds - r) // per_deal)
            more = min(more, (turns - work) // per_deal)
            if more < 1:
                break
            played = len(deals)
            while len(deals) < played + more:
                state, faces = deal(obs, rng, know)
                deals.append((state, rng.getrandbits(64)))
                log_weights.append(reader.log_weight(state, faces) if reader else 0.0)
            for j in alive:
                plan = plans[j][0]
                row = values[j]
                for k in range(played, played + more):
                    state, shuffle = deals[k]
                    sim = state.copy(random.Random(shuffle))
                    play_plan(sim, viewer, plan, budget.spite)
                    row.append(
                        rollout_value(
                            sim,
                            viewer,
                            budget.spite,
                            budget.depth_rounds,
                            budget.win_bonus,
                            budget.spread,
                        )
                    )
            spent += more * len(alive)
            work += more * per_deal
            if len(alive) > 1 and r + 1 < rounds:
                score = _scorer(log_weights, values, budget.ess_floor)
                alive.sort(key=lambda j: (-score(j), j))
                alive = sorted(alive[: (len(alive) + 1) // 2])
        self.stats = SearchStats(
            rollouts=spent,
            turns=work,
            deals=len(deals),
            candidates=len(plans),
            moments=reader.moments if reader else 0,
        )
        score = _scorer(log_weights, values, budget.ess_floor)
        return max(alive, key=lambda j: (score(j), -j))


def rollout_turns(obs: Observation, depth_rounds: int | None) -> int:
    """Turns one rollout from ``obs`` simulates: the searched turn, then the rest or the depth.

    A main-action decision and the choice after it both finish the current turn (R11); the
    rollout then plays to the end (R14) or for ``depth_rounds`` rounds.
    """
    seats = obs.seats
    after = sum(obs.turns_taken) + 1
    stop = seats * TURNS_PER_SEAT
    if depth_rounds is not None:
        stop = min(stop, after + depth_rounds * seats)
    return 1 + max(0, stop - after)


def deal_weights(log_weights: Sequence[float], floor: float) -> list[float]:
    """Importance weights of the sampled deals (largest 1), tempered to keep them useful.

    ``log_weights`` come from :meth:`HandReader.log_weight`. When a few deals would take
    nearly all the weight (an effective sample size, Kish's ``(Σw)² / Σw²``, below ``floor``
    times the number of deals), the log-weights are scaled down by the largest factor in
    [0, 1] that keeps it at ``floor`` (found by bisection): the inference then sharpens the
    sample without leaving the search with a handful of deals. Deals the model rules out
    (−inf) keep weight 0 unless every deal is ruled out (then all weigh 1).
    """
    finite = [w for w in log_weights if w > -math.inf]
    if not finite:
        return [1.0] * len(log_weights)
    top = max(finite)
    shifted = [w - top if w > -math.inf else -math.inf for w in log_weights]

    def weights(alpha: float) -> list[float]:
        return [math.exp(alpha * w) if w > -math.inf else 0.0 for w in shifted]

    def ess(ws: list[float]) -> float:
        return sum(ws) ** 2 / sum(w * w for w in ws)

    target = floor * len(finite)
    full = weights(1.0)
    if ess(full) >= target:
        return full
    low, high = 0.0, 1.0
    for _ in range(12):
        mid = (low + high) / 2
        if ess(weights(mid)) >= target:
            low = mid
        else:
            high = mid
    return weights(low)


def _scorer(
    log_weights: Sequence[float], values: Sequence[Sequence[float]], floor: float
) -> Callable[[int], float]:
    """Weighted value sums per candidate (see :func:`deal_weights`)."""
    weights = deal_weights(log_weights, floor)

    def score(j: int) -> float:
        return sum(w * v for w, v in zip(weights, values[j], strict=False))

    return score
