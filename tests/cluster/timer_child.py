"""Child of test_deadline_failover: set a due deadline, claim it, then hold it until killed.

Usage: ``timer_child.py URL GAME_ID``. Opens the store, sets the game's ``turn`` deadline one
second in the past, and runs a :class:`service.runner.DeadlineRunner` whose ``fire`` prints
``CLAIMED <timer id> <store origin>`` and then never returns: the claim is held (its lease
running) when the test SIGKILLs this process.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from data import TimerRow, open_store
from service.clock import system_clock as now
from service.runner import DeadlineRunner


async def main(url: str, game_id: int) -> None:
    store = await open_store(url)
    await store.timers.set_timer("turn", now() - 1.0, game_id=game_id, seat=0)

    async def fire(row: TimerRow) -> None:
        print("CLAIMED", row.id, store.origin, flush=True)
        await asyncio.Event().wait()  # never completes: the claim stays held

    DeadlineRunner(store, fire, claimer=store.origin).start()
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
