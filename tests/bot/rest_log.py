"""Counting the bot's REST calls under simcord, by route, with the simulated time of each.

simcord records every REST call the bot makes in ``env.http_requests`` (method, path, body) but
not when. :func:`install` swaps that list for a :class:`TimedLog`, which also keeps simcord's
clock (``env.now()``, moved by ``advance_time``) at each call, so tests can check per-route
windows (Discord: about 5 message edits per 5 s per channel).

Interaction responses (``POST /interactions/{id}/{token}/callback``) and followups or edits of
the original response (``/webhooks/{application}/{token}/...``) do not count against the bot's
global rate limit (Discord docs, Rate Limits: "Interaction endpoints are not bound to the bot's
Global Rate Limit"); every other call does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Call", "TimedLog", "edits_per_window", "install", "is_free", "route_of"]

_ID = re.compile(r"/\d{6,}")
_TOKEN = re.compile(r"/(interactions/\{id\}|webhooks/\{id\})/[^/]+")


@dataclass(frozen=True, slots=True)
class Call:
    """One REST call: method, path, route template, simulated time (seconds since the epoch)."""

    method: str
    path: str
    at: float

    @property
    def route(self) -> str:
        """``METHOD /template`` with ids and tokens replaced (``PATCH /channels/{id}/...``)."""
        return route_of(self.method, self.path)

    @property
    def free(self) -> bool:
        """True for interaction responses and followups (not globally rate limited)."""
        return is_free(self.path)

    @property
    def channel(self) -> str | None:
        """The channel id of a ``/channels/{id}/...`` call, else None."""
        parts = self.path.strip("/").split("/")
        return parts[1] if len(parts) > 1 and parts[0] == "channels" else None


def route_of(method: str, path: str) -> str:
    """The route template of a call: numeric ids -> ``{id}``, tokens -> ``{token}``."""
    template = _ID.sub("/{id}", path)
    template = _TOKEN.sub(lambda m: f"/{m.group(1)}/{{token}}", template)
    return f"{method} {template}"


def is_free(path: str) -> bool:
    """Interaction callbacks and webhook (followup / original response) calls."""
    return path.startswith(("/interactions/", "/webhooks/"))


class TimedLog(list):
    """simcord's request log, also keeping :class:`Call` records with the simulated time."""

    def __init__(self, env: Any, existing: Iterable[Any] = ()) -> None:
        super().__init__(existing)
        self.env = env
        self.calls: list[Call] = []

    def append(self, entry: Any) -> None:
        super().append(entry)
        self.calls.append(Call(entry.method, entry.path, self.env.now().timestamp()))


def install(env: Any) -> TimedLog:
    """Make ``env`` record the simulated time of every REST call; returns the log."""
    backend = env.backend
    if not isinstance(backend.http_requests, TimedLog):
        backend.http_requests = TimedLog(env, backend.http_requests)
    return backend.http_requests


def edits_per_window(calls: Iterable[Call], window: float = 5.0) -> dict[str, int]:
    """The most message edits (``PATCH /channels/{id}/messages/{id}``) any channel received
    within one ``window`` of simulated seconds, by channel id."""
    times: dict[str, list[float]] = {}
    for c in calls:
        if c.method == "PATCH" and c.channel is not None and "/messages/" in c.path:
            times.setdefault(c.channel, []).append(c.at)
    most: Counter[str] = Counter()
    for channel, ts in times.items():
        ts.sort()
        start = 0
        for end, t in enumerate(ts):
            while t - ts[start] >= window:
                start += 1
            most[channel] = max(most[channel], end - start + 1)
    return dict(most)
