"""Step-by-step replays of finished games, turn by turn, rebuilt through the engine.

A replay has points 0..n: point 0 is the deal, point k the table after the k-th turn (R11,
R14: a turn ends when the engine counts it taken); the last point is the finished game.
Nothing is read from rendered messages: the game comes from its hats-record/1 via
``engine.from_record``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Game, card_from_code, from_record
from engine.chance import ScriptedChance

__all__ = ["Replay", "ReplayPoint"]


@dataclass(frozen=True, slots=True)
class ReplayPoint:
    """The game at one point of a replay.

    ``game``: the rebuilt engine game; ``index``: 0..``last``; ``turn_events``: how many
    events the turn that led here added (0 at the deal).
    """

    index: int
    last: int
    game: Game
    turn_events: int


class Replay:
    """A finished game's turn points. Raises engine RecordMismatch / ValueError on a bad record."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.final = from_record(record)  # checks the whole record first
        self._reshuffles = [
            tuple(card_from_code(code) for code in step["reshuffled"])
            for turn in record["turns"]
            for step in turn["steps"]
            if step["kind"] == "discard" and step.get("reshuffled") is not None
        ]
        game = self._start()
        self.bounds: list[int] = [0]
        for number, step in enumerate(self.final.steps, start=1):
            done = sum(game.turns_taken)
            game.apply(step.seat, step.action)
            if sum(game.turns_taken) > done:  # this step closed a turn (R11)
                self.bounds.append(number)

    def _start(self) -> Game:
        """The dealt game, with the record's reshuffles scripted (no RNG, like from_record)."""
        return Game(self.final.config, self.final.setup, ScriptedChance(self._reshuffles))

    @property
    def last(self) -> int:
        """The index of the last point (the finished game)."""
        return len(self.bounds) - 1

    def clamp(self, index: int) -> int:
        """``index`` limited to 0..last."""
        return max(0, min(index, self.last))

    def at(self, index: int) -> ReplayPoint:
        """The game at point ``index`` (clamped to 0..last), replayed from the deal."""
        index = self.clamp(index)
        game = self._start()
        before = 0
        for number, step in enumerate(self.final.steps[: self.bounds[index]]):
            if index > 0 and number == self.bounds[index - 1]:
                before = len(game.events)
            game.apply(step.seat, step.action)
        return ReplayPoint(index, self.last, game, len(game.events) - before)
