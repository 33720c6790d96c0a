"""Keep full garbage collections short: freeze what survives one (issue 37.2).

A full collection scans every tracked object of the oldest generation that is not frozen.
``gc.freeze()`` after start-up keeps the start-up objects out of it, but a server keeps making
objects that live for seconds to minutes and so reach the oldest generation: aiohttp's timer
handle and context for each client's next heartbeat, a WebSocket's last message, a game's
cached frames. With 6,000 clients that is ~60,000 objects, and a full collection of 7 ms of
CPU on a quiet machine, 46–111 ms while other processes share the cores: the loaded tail of
the Activity's latency (BENCHMARKS.md, "The Activity at scale").

:class:`SurvivorFreezer` freezes (``gc.freeze()``) whatever survived each full collection, so
the next one scans only what aged since. Objects freed by reference counting are freed as
before, frozen or not; only cyclic garbage among frozen objects waits, until the next thaw:
every ``thaw_every_s`` seconds the freezer unfreezes everything (``gc.unfreeze()``), the next
full collection scans the whole heap once and frees those cycles, and what survives that one
is frozen again. Source: the ``gc`` module's documentation (``freeze``, ``callbacks``).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

__all__ = ["THAW_EVERY_S", "SurvivorFreezer"]

THAW_EVERY_S = 600.0
"""Seconds between two thaws: cyclic garbage among frozen objects lives at most about this long."""


class SurvivorFreezer:
    """A ``gc.callbacks`` entry that freezes the survivors of every full collection.

    ``thaw_every_s``: seconds between thaws (see the module); ``clock``: monotonic seconds.
    :meth:`install` adds it (idempotent), :meth:`uninstall` removes it. ``frozen`` and
    ``thawed`` count what it did (tests, benchmarks).
    """

    def __init__(
        self, thaw_every_s: float = THAW_EVERY_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if not thaw_every_s > 0:
            raise ValueError(f"thaw_every_s must be > 0 seconds, got {thaw_every_s!r}")
        self.thaw_every_s = thaw_every_s
        self.clock = clock
        self.thawed_at = clock()
        self.frozen = 0
        """Full collections after which the survivors were frozen."""
        self.thawed = 0
        """Thaws so far."""

    def install(self) -> None:
        """Start: from the next full collection on (nothing changes before one)."""
        if self._on_gc not in gc.callbacks:
            self.thawed_at = self.clock()
            gc.callbacks.append(self._on_gc)

    def uninstall(self) -> None:
        """Stop (what is frozen stays frozen; ``gc.unfreeze()`` thaws it)."""
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        now = self.clock()
        if now - self.thawed_at >= self.thaw_every_s:
            self.thawed_at = now
            self.thawed += 1
            gc.unfreeze()  # the next full collection scans everything once
            return
        gc.freeze()
        self.frozen += 1
