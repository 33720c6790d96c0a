"""Which deadlines follow a step: the turn timer, its reminder, and the next AI move.

Pure: given the game after a step (and who was to move before it), :class:`DeadlinePolicy`
returns the timer changes (``data.TimerChange``) that the store writes in the step's own
transaction, so a process that dies right after a step never leaves a turn without its
deadline or an AI seat without its next move. The :class:`service.runner.DeadlineRunner` of
whichever process claims a deadline first fires it.

Changes that are not steps (a start, a seat that turned away or back, a removed player) get
their deadlines from :meth:`DeadlinePolicy.standing`, written by the service in the change's
own transaction and only if the game still holds the step count they were judged on
(``Timers.write_at_step``, ``Games.update_seat(deadlines=)``): a writer that judged an older
state never replaces the deadline a newer step wrote.

Kinds (owned by the game): ``turn`` and ``reminder`` (a human seat's turn timer and the DM at
half time, payload ``{"seat", "version"}``), ``ai`` (an AI, or the AI standing in for an
away or removed player, makes its next step; payload ``{"seat", "version"}``), ``ai_retry``
(an AI step the store could not save is tried again; no payload). :data:`MOVE_KINDS` are the
kinds that keep a game moving: a live game whose seat to move is an AI, or a human with a turn
timer, holds one of them (``service.sweep`` re-arms a game that lost it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from data.rows import TimerChange, TimerRow
from data.timers import TimerPlan

if TYPE_CHECKING:
    from service.games import GameSession

__all__ = [
    "AI",
    "AI_RETRY",
    "MOVE_KINDS",
    "REMINDER",
    "SWAP_TIMEOUT",
    "TURN",
    "TURN_TIMER",
    "DeadlinePolicy",
    "keep_standing",
]

TURN_TIMER = "turn_timer"
"""Lobby and game settings key: seconds a player has for a turn (int), or None for no timer."""
SWAP_TIMEOUT = "swap_timeout"
"""Lobby and game settings key: seconds a partner has to answer a swap offer (int, R10), or None."""

TURN = "turn"
REMINDER = "reminder"
AI = "ai"
AI_RETRY = "ai_retry"
MOVE_KINDS = (AI, AI_RETRY, TURN)
"""Deadline kinds that move a game on: one of them is pending whenever an AI, or a human with a
turn timer, is to move."""


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

    def standing(self, session: GameSession, *, at: float) -> TimerPlan:
        """The timer plan of a change that is not a step, judged on ``session`` at ``at``.

        :meth:`for_state`, minus the deadlines that already stand for the same thing
        (:func:`keep_standing`): the plan is applied to the timers the store holds inside the
        write transaction, so a human who keeps the move keeps the time left on their turn.
        """
        changes = self.for_state(session, at=at)

        def plan(held: Mapping[str, TimerRow]) -> list[TimerChange]:
            return keep_standing(changes, held)

        return plan

    def _ai(self, session: GameSession, seat: int, at: float) -> TimerChange:
        return TimerChange(AI, at + self.ai_delay, seat, {"seat": seat, "version": session.version})


def keep_standing(changes: list[TimerChange], held: Mapping[str, TimerRow]) -> list[TimerChange]:
    """``changes`` without those whose deadline already stands in ``held`` (kind -> stored row).

    A ``turn`` set for the seat that already holds the game's ``turn`` timer keeps it and its
    ``reminder`` (the turn's time runs on, the reminder is not sent twice); an ``ai`` set with
    the payload (seat and version) of the stored one keeps it (a claim on it stays). Pure.
    """
    by_kind = {c.kind: c for c in changes}
    kept: set[str] = set()
    turn, stored = by_kind.get(TURN), held.get(TURN)
    if turn and turn.due_at is not None and stored and stored.payload.get("seat") == turn.seat:
        kept |= {TURN, REMINDER}
    ai, stored = by_kind.get(AI), held.get(AI)
    if ai and ai.due_at is not None and stored and dict(stored.payload) == dict(ai.payload):
        kept.add(AI)
    return [c for c in changes if c.kind not in kept]
