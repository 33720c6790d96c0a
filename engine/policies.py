"""Simple seeded policies that pick legal moves (for simulations, benchmarks and tests).

:class:`RandomPolicy` picks a kind of action uniformly among the kinds available, then an
action of that kind uniformly. Choosing by kind first (rather than among all actions, where
the many exchanges would crowd out the rest) makes random games use every part of the rules:
optional actions before and after the main action and skipped ones (R9–R11), reshuffles with
2 and 3 seats (R9), partner swaps accepted, declined and withdrawn with 4 seats (R10).
"""

from __future__ import annotations

import random
from itertools import groupby
from operator import attrgetter

from engine.actions import Action, Step
from engine.game import Game
from engine.observation import Observation

__all__ = ["RandomPolicy", "play_out"]

_KIND = attrgetter("kind")


class RandomPolicy:
    """Random legal play from one seeded ``random.Random`` (no global random).

    ``seed`` is anything ``random.Random`` accepts (int, str, bytes); the same seed and the
    same positions give the same choices.
    """

    def __init__(self, seed: int | str | bytes = 0) -> None:
        """Create the policy's own RNG from ``seed``."""
        self.rng = random.Random(seed)

    def _pick(self, actions: list[Action]) -> Action:
        """A kind uniformly, then an action of that kind uniformly (the list is grouped)."""
        groups = [list(group) for _, group in groupby(actions, _KIND)]
        choice = self.rng.choice
        return choice(choice(groups))

    def choose(self, state: Game | Observation, seat: int) -> Action:
        """An action for ``seat``, from the game or from ``seat``'s own observation.

        Raises ValueError when ``seat`` has no legal action (not its move, or the game is
        over), or when an observation is not ``seat``'s own.
        """
        if isinstance(state, Observation):
            if state.viewer != seat:
                raise ValueError(f"the observation is seat {state.viewer}'s, not seat {seat}'s")
            actions = state.legal_actions()
        else:
            actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action now")
        return self._pick(actions)

    def choose_step(self, game: Game) -> Step:
        """The next step of a game, among every seat that may act now.

        That is the seat to move, and also the offerer while a partner swap offer waits (it
        may withdraw, R10): a (seat, kind) pair is drawn uniformly, then an action of it.
        Raises ValueError when the game is over.
        """
        seat = game.to_move
        if seat is None:
            raise ValueError("the game is over")
        groups = [(seat, list(g)) for _, g in groupby(game.legal_actions(seat), _KIND)]
        if game.pending_offer is not None:
            offerer = game.active
            withdraw = game.legal_actions(offerer)
            groups.extend((offerer, list(g)) for _, g in groupby(withdraw, _KIND))
        chosen_seat, actions = self.rng.choice(groups)
        return Step(chosen_seat, self.rng.choice(actions))


def play_out(game: Game, policy: RandomPolicy) -> Game:
    """Apply ``policy.choose_step`` until the game is over (R14); returns the same game."""
    choose_step = policy.choose_step
    apply = game.apply
    while game.result is None:
        step = choose_step(game)
        apply(step.seat, step.action)
    return game
