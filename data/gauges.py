"""The counts behind the operator's gauges: live games, open lobbies, overdue deadlines."""

from __future__ import annotations

from dataclasses import dataclass

from data.db import Database

__all__ = ["Gauges", "StoreGauges"]


@dataclass(frozen=True, slots=True)
class StoreGauges:
    """What the store holds now, for every process: counts of rows (issue 21)."""

    live_games: int
    open_lobbies: int
    overdue_deadlines: int
    """Deadlines due before the ``overdue_before`` given to :meth:`Gauges.read` (not fired yet:
    a fired deadline's row is deleted)."""


class Gauges:
    """Repository of counts for the gauges of ``/metrics``.

    One statement, read through indexes (``games_live_channel``, ``lobbies_channel``,
    ``timers_due``), so a scrape costs about the same with 10 or 100,000 games.
    """

    def __init__(self, db: Database) -> None:
        self._db = db

    async def read(self, overdue_before: float) -> StoreGauges:
        """The counts now; ``overdue_before`` is a unix time (a deadline due earlier is overdue).

        Raises StoreFault when the store cannot be read.
        """
        row = await self._db.fetch_one(
            "SELECT (SELECT COUNT(*) FROM games WHERE status = 'live'),"
            " (SELECT COUNT(*) FROM lobbies),"
            " (SELECT COUNT(*) FROM timers WHERE due_at < ?)",
            (overdue_before,),
        )
        assert row is not None
        return StoreGauges(int(row[0]), int(row[1]), int(row[2]))
