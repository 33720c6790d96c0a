"""The refusals the game service raises; the cogs answer them privately and change nothing.

Their ``msgid`` is an English sentence marked for extraction (:func:`N_`, ``ServiceError(...)``
in ``babel.cfg``) and translated by the cogs when they answer.
"""

from __future__ import annotations

from typing import Any

__all__ = ["N_", "OutOfDate", "ServiceError"]


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
