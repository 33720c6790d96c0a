"""The re-arm sweep: a live game whose seat to move needs a deadline but has none gets it back.

Every step writes its next deadlines in its own transaction (service.deadlines), so a game
normally never lacks one. A deadline can still go missing: dropped by an older version on a
stale copy, a retry kept in the memory of a process that died, a seat change (kick, away)
whose deadlines were not written because the store failed. Without it an AI seat never plays
again. :class:`DeadlineSweep` finds such games with ONE query (live games with an AI seat or a
turn timer and no :data:`~service.deadlines.MOVE_KINDS` timer, ``Timers.unarmed_games``),
replays only those, and writes the deadlines the rules owe (``DeadlinePolicy.for_state``).

Safe across processes: a game is re-armed only after two sweeps in a row saw it without a
deadline at the same step count (a grace of one period: never racing a step in flight), and
the write checks in one transaction that the game is still at that count without such a timer
(``Timers.arm``); one timer per game and kind, so two sweeps never make two deadlines. Every
process's DeadlineRunner runs it every :data:`~service.runner.SWEEP_SECONDS`. Each re-arm
counts in the metric ``hats_deadlines_rearmed_total`` (telemetry.metrics), which should stay
at 0: a re-arm means a game stood still for up to two periods.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from service.deadlines import MOVE_KINDS
from telemetry.metrics import DEADLINES_REARMED

if TYPE_CHECKING:
    from service.games import GameService

__all__ = ["SWEEP_LIMIT", "DeadlineSweep"]

log = logging.getLogger("hats.scheduler")

SWEEP_LIMIT = 500
"""Games looked at per sweep at most (the rest the next time)."""


class DeadlineSweep:
    """Re-arms live games that lost their move deadline; :meth:`run` once per period.

    ``games``: the process's GameService (its store, its DeadlinePolicy, its clock, and its
    ``dispatch``, which fires ``hats_deadline(due_at)`` for each deadline written).
    """

    def __init__(self, games: GameService, *, limit: int = SWEEP_LIMIT) -> None:
        self.games = games
        self.limit = limit
        self._unarmed: dict[int, int] = {}
        """Games the last sweep saw without a deadline -> their step count then."""
        self._fine: dict[int, int] = {}
        """Games judged to need no deadline (a human to move, no turn timer) -> at that count."""
        self.rearmed = 0
        """Games re-armed by this sweep so far (for logs and tests)."""

    async def run(self) -> list[int]:
        """One sweep: the ids of the games re-armed. Raises StoreError when the store fails."""
        games = self.games
        policy = games.deadlines
        if policy is None:
            return []
        rows = await games.store.timers.unarmed_games(MOVE_KINDS, self.limit)
        last, self._unarmed = self._unarmed, {}
        self._fine = {g: n for g, n in rows if self._fine.get(g) == n}
        armed = []
        for game_id, steps in rows:
            if game_id in self._fine:
                continue
            self._unarmed[game_id] = steps
            if last.get(game_id) != steps:
                continue  # first seen at this count: judged at the next sweep
            session = await games.fresh_session(game_id)
            if session is None or session.game.is_over or session.version != steps:
                continue
            at = games.clock()
            changes = policy.for_state(session, at=at)
            due = [c.due_at for c in changes if c.due_at is not None]
            if not due:
                self._fine[game_id] = steps
                continue
            if await games.store.timers.arm(game_id, changes, steps=steps, kinds=MOVE_KINDS):
                log.warning(
                    "game %d had no deadline for its seat to move (step %d): re-armed",
                    game_id,
                    steps,
                )
                armed.append(game_id)
                DEADLINES_REARMED.inc()
                games.dispatch("hats_deadline", min(due))
        self.rearmed += len(armed)
        return armed
