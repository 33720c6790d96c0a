"""Which deadlines follow a step: the turn timer, its reminder, and the next AI move.

Pure: given the game after a step (and who was to move before it), :class:`DeadlinePolicy`
returns the timer changes (``data.TimerChange``) that the store writes in the step's own
transaction, so a process that dies right after a step never leaves a turn without its
deadline or an AI seat without its next move. The :class:`service.runner.DeadlineRunner` of
whichever process claims a deadline first fires it.

Kinds (owned by the game): ``turn`` and ``reminder`` (a human seat's turn timer and the DM at
half time, payload ``{"seat", "version"}``), ``ai`` (an AI, or the AI standing in for an
away or removed player, makes its next step; payload ``{"seat", "version"}``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from data.rows import TimerChange

if TYPE_CHECKING:
    from service.games import GameSession

__all__ = ["AI", "REMINDER", "SWAP_TIMEOUT", "TURN", "TURN_TIMER", "DeadlinePolicy"]

TURN_TIMER = "turn_timer"
"""Lobby and game settings key: seconds a player has for a turn (int), or None for no timer."""
SWAP_TIMEOUT = "swap_timeout"
"""Lobby and game settings key: seconds a partner has to answer a swap offer (int, R10), or None."""

TURN = "turn"
REMINDER = "reminder"
AI = "ai"


def turn_timer(session: GameSession) -> float | None:
    """The game's turn time in seconds (lobby setting ``turn_timer``), or None when off."""
    value = session.row.settings.get(TURN_TIMER)
    if isinstance(value, int | float) and value > 0:
        return float(value)
    return None


@dataclass(frozen=True, slots=True)
class DeadlinePolicy:
    """The deadline rules; ``ai_delay``: seconds an AI waits before each step (a natural pause)."""

    ai_delay: float = 0.0

    def after_step(
        self, session: GameSession, before: int | None, *, at: float
    ) -> list[TimerChange]:
        """Timer changes owed after a step (``session`` already holds it); ``at``: unix seconds.

        ``before`` is the seat that was to move before the step. A seat played by an AI gets an
        ``ai`` deadline for each of its steps; a human seat that just got the move (R11: a new
        turn, or a partner swap answer, R10) gets fresh ``turn``/``reminder`` deadlines; the
        same human seat still acting keeps its deadlines (no change). A finished game needs no
        change here (``finish_game`` deletes its timers).
        """
        game = session.game
        if game.is_over:
            return []
        seat = game.to_move
        if seat is not None and session.seats[seat].ai_level is not None:
            changes = [self._ai(session, seat, at)]
            if before != seat:
                changes += [TimerChange(TURN, None), TimerChange(REMINDER, None)]
            return changes
        if seat is not None and seat == before:
            return []
        return self.for_state(session, at=at)

    def for_state(self, session: GameSession, *, at: float) -> list[TimerChange]:
        """Every game deadline as it should be now, from scratch (a start, a seat change).

        Sets the deadlines of the seat to move and clears the others.
        """
        game = session.game
        seat = game.to_move
        off = [TimerChange(TURN, None), TimerChange(REMINDER, None), TimerChange(AI, None)]
        if game.is_over or seat is None:
            return off
        if session.seats[seat].ai_level is not None:
            return [self._ai(session, seat, at), *off[:2]]
        limit = turn_timer(session)
        if limit is None or session.seats[seat].user_id is None:
            return off
        payload = {"seat": seat, "version": session.version}
        return [
            TimerChange(TURN, at + limit, seat, payload),
            TimerChange(REMINDER, at + limit / 2, seat, payload),
            off[2],
        ]

    def _ai(self, session: GameSession, seat: int, at: float) -> TimerChange:
        return TimerChange(AI, at + self.ai_delay, seat, {"seat": seat, "version": session.version})
