"""The refusals the game service raises; the cogs answer them privately and change nothing.

Their ``msgid`` is an English sentence marked for extraction (:func:`N_`, ``ServiceError(...)``
in ``babel.cfg``) and translated by the cogs when they answer.
"""

from __future__ import annotations

import asyncio
from typing import Any

from data import StoreError

__all__ = ["N_", "OutOfDate", "OutcomeUnknown", "ServiceError"]


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction without translating it (strings built at import time).

    Returns ``msgid`` unchanged; translate it later with the cogs' ``Tr``.
    """
    return msgid


class ServiceError(Exception):
    """A request the service refuses; ``msgid`` is an English sentence for the translator.

    ``params`` fill its ``{placeholders}``. The cogs answer it privately and change nothing.
    """

    def __init__(self, msgid: str, **params: Any) -> None:
        super().__init__(msgid.format(**params) if params else msgid)
        self.msgid = msgid
        self.params = params


class OutOfDate(ServiceError):
    """A control drawn for an older state of the game (``version`` != steps applied)."""

    def __init__(self) -> None:
        super().__init__(N_("That button was out of date; here is the game as it is now."))


class OutcomeUnknown(StoreError):
    """A step's commit failed and the store could not be read back in time to say if it holds it.

    Neither is guessed: the game's copy is set aside (reloaded from the store on next use) and
    the service keeps reading in the background. ``outcome`` resolves to True (the step is
    stored: ``hats_step`` was fired for it then), False (not stored: nothing changed) or None
    (the store did not answer for ``service.games.RESOLVE_LATER_S``). ``game_id``, ``seq``:
    the step's game and number. The cogs tell the player the outcome is not known yet and
    follow up once ``outcome`` is done (an interaction's followup works for 15 minutes).
    """

    def __init__(self, game_id: int, seq: int, outcome: asyncio.Future[bool | None]) -> None:
        super().__init__(f"game {game_id}: whether step {seq} was stored is not known yet")
        self.game_id = game_id
        self.seq = seq
        self.outcome = outcome
