"""The game service: live games over the store, their deadlines, and the runner that fires them.

No Discord here (``engine`` ← ``data`` ← ``service`` ← ``cogs`` ← ``bot.py``): the bot hands in
its ``dispatch`` callable and its clock. The public API:

- :class:`GameService`, :class:`GameSession`: live lobbies and games, every change committed to
  the store before anyone is told (``service.games``);
- :class:`ServiceError`, :class:`OutOfDate`: the refusals the cogs answer privately;
  :class:`OutcomeUnknown`: a commit whose outcome the store cannot tell yet (resolved later);
- :class:`DeadlinePolicy`: which deadlines follow a step (``service.deadlines``);
- :class:`DeadlineRunner`: claims due deadlines from the store and fires them (``service.runner``);
  ``service.due`` says whether a deadline is still due on the stored game (and makes the AI
  step it asks for), ``service.sweep`` re-arms live games that lost their move deadline.
"""

from service.clock import Clock, system_clock
from service.deadlines import DeadlinePolicy
from service.errors import OutcomeUnknown, OutOfDate, ServiceError
from service.games import GameService, GameSession
from service.runner import DeadlineRunner

__all__ = [
    "Clock",
    "DeadlinePolicy",
    "DeadlineRunner",
    "GameService",
    "GameSession",
    "OutOfDate",
    "OutcomeUnknown",
    "ServiceError",
    "system_clock",
]
