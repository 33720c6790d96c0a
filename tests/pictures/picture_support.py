"""Game states, names and translators for the picture tests."""

from __future__ import annotations

import random
from typing import Any

from engine import Game, GameConfig
from texts.i18n import Tr, Translator

TRANSLATOR = Translator.load()
EN: Tr = TRANSLATOR.for_locale("en-US")

SHORT_NAMES = ("Ann", "Bo", "Cy", "Di")
LONG_NAMES = (
    "Zoë Ångström-Müller von Hohenzollern-Sigmaringen",
    "Ñandú de la Peña y Güemes, el Magnífico",
    "Łukasz Čapek-Dvořák Świętochowski",
    "Þórunn Ægisdóttir Œuvre-Française",
)


class LongTr:
    """A translator longer than any real one (every label twice, marked with ``Ü``).

    Stands for the longest language: every label it makes starts with ``Ü``, so a test can
    tell a translated label from a name or a number.
    """

    locale = "long"

    def __call__(self, msgid: str, /, **params: Any) -> str:
        text = msgid.format(**params)
        return f"Ü{text} {text}"

    def plural(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        params.setdefault("n", n)
        return self(singular if n == 1 else plural, **params)


def translators() -> list[Any]:
    """Every shipped language and the long stand-in."""
    return [TRANSLATOR.for_locale(lang) for lang in TRANSLATOR.languages] + [LongTr()]


def states(seats: int, seed: int) -> list[Game]:
    """Copies of one random game at the deal, after 1/3 and 2/3 of it, and at the end."""
    rng = random.Random(seed)
    game = Game.new(GameConfig(seats, seed))
    snapshots = [game.copy()]
    steps = 0
    while not game.is_over:
        seat = game.to_move
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        steps += 1
        if steps in (seats * 8, seats * 16):
            snapshots.append(game.copy())
    snapshots.append(game)
    return snapshots


def full_collection_state(seats: int) -> Game:
    """A game at its end where some seat holds 7 or more face-up cards (a full collection)."""
    for seed in range(200):
        game = states(seats, seed)[-1]
        if max(len(c) for c in game.collections) >= 7:
            return game
    raise AssertionError("no random game with a full collection")
