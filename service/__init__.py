"""The game service: live games over the store, their deadlines, and the runner that fires them.

No Discord here (``engine`` ← ``data`` ← ``service`` ← ``cogs`` ← ``bot.py``): the bot hands in
its ``dispatch`` callable and its clock. The public API:

- :class:`GameService`, :class:`GameSession`: live lobbies and games, every change committed to
  the store before anyone is told (``service.games``);
- :class:`ServiceError`, :class:`OutOfDate`: the refusals the cogs answer privately;
- :class:`DeadlinePolicy`: which deadlines follow a step (``service.deadlines``);
- :class:`DeadlineRunner`: claims due deadlines from the store and fires them (``service.runner``).
"""

from service.clock import Clock, system_clock
from service.deadlines import DeadlinePolicy
from service.errors import OutOfDate, ServiceError
from service.games import GameService, GameSession
from service.runner import DeadlineRunner

__all__ = [
    "Clock",
    "DeadlinePolicy",
    "DeadlineRunner",
    "GameService",
    "GameSession",
    "OutOfDate",
    "ServiceError",
    "system_clock",
]
