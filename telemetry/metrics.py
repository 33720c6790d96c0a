"""The bot's Prometheus metrics, with the names and labels of issue 21 (dashboards rely on them).

Every metric lives in ``prometheus_client``'s default registry, beside the library's own
process and platform metrics (``process_cpu_seconds_total``, ``process_resident_memory_bytes``,
``python_gc_objects_collected_total``, ...); ``cogs.monitoring`` serves them at ``/metrics``.
Labels are bounded: kinds, outcomes, route templates, never a user, guild or game id.

Counters are moved where the thing happens (the store, the service, the cogs); the gauges
``hats_live_games``, ``hats_open_lobbies``, ``hats_cached_games``,
``hats_deadlines_overdue`` and ``hats_ready`` (not in the issue's list: it lets one alert rule
cover readiness without a probe) are set at scrape time from one cheap store query
(``Store.gauges``) and the service's cache. Source: Prometheus, "Metric and label naming"
(https://prometheus.io/docs/practices/naming/); counters get their ``_total`` suffix from the
client library.
"""

from __future__ import annotations

import gc
import time
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

__all__ = [
    "ACTORS",
    "CACHED_GAMES",
    "DEADLINES_FIRED",
    "DEADLINES_OVERDUE",
    "DEADLINES_REARMED",
    "DISCORD_RATE_LIMITED",
    "DISCORD_REQUESTS",
    "GAMES_FINISHED",
    "GC_PAUSE",
    "INTERACTIONS",
    "INTERACTION_SECONDS",
    "LIVE_GAMES",
    "OPEN_LOBBIES",
    "OVERDUE_AFTER",
    "READY",
    "STEPS",
    "STORE_FAULTS",
    "STORE_SECONDS",
    "count_step",
    "install_gc_pauses",
    "observe_store",
]

ANSWER_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
"""Seconds: Discord wants an answer within 3 s, so the buckets are fine below it."""
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds: a commit costs about 0.3 ms on SQLite (BENCHMARKS.md, "Store")."""
GC_BUCKETS = (0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
"""Seconds: a young collection takes microseconds, a full one over a big heap 100 ms or more."""

OVERDUE_AFTER = 60.0
"""Seconds past its due time after which an unfired deadline counts as overdue."""

INTERACTIONS = Counter(
    "hats_interactions",
    "Interactions answered, by kind (command, component, modal, autocomplete) and outcome "
    "(ok; error: the bot failed and said so privately; expired: Discord refused the late "
    "answer; unanswered: no answer within 15 minutes).",
    ["kind", "outcome"],
)
INTERACTION_SECONDS = Histogram(
    "hats_interaction_seconds",
    "Seconds from an interaction's arrival to its first answer (the response callback).",
    buckets=ANSWER_BUCKETS,
)
STEPS = Counter(
    "hats_steps",
    "Game steps committed, by actor: player, ai (an AI seat), timer (a deadline moved for a "
    "seat: the AI played for an absent player, or a swap offer was declined).",
    ["actor"],
)
GAMES_FINISHED = Counter(
    "hats_games_finished", "Games finished, by number of seats (2, 3, 4).", ["seats"]
)
LIVE_GAMES = Gauge("hats_live_games", "Live games in the store (all processes).")
OPEN_LOBBIES = Gauge("hats_open_lobbies", "Open lobbies in the store (all processes).")
CACHED_GAMES = Gauge("hats_cached_games", "Games held in this process's cache.")
READY = Gauge(
    "hats_ready",
    "1 when this process is ready (what /readyz answers with 200), else 0; read at scrape time.",
)
DISCORD_REQUESTS = Counter(
    "hats_discord_requests",
    "HTTP requests to Discord, by route template (method and path, ids as {id}) and status "
    "(error: no answer).",
    ["route", "status"],
)
DISCORD_RATE_LIMITED = Counter(
    "hats_discord_rate_limited",
    "429 answers received from Discord, by scope (user, global, shared; unknown).",
    ["scope"],
)
STORE_FAULTS = Counter(
    "hats_store_faults",
    "Statements the database refused, by kind (full, read_only, io, corrupt, busy, "
    "cannot_open, other).",
    ["kind"],
)
STORE_SECONDS = Histogram(
    "hats_store_seconds",
    "Seconds per store operation, waiting for the connection included, by op: query (one "
    "statement), read or write (a transaction).",
    ["op"],
    buckets=STORE_BUCKETS,
)
DEADLINES_FIRED = Counter(
    "hats_deadlines_fired", "Deadlines fired, by kind (turn, reminder, ai, ...).", ["kind"]
)
DEADLINES_OVERDUE = Gauge(
    "hats_deadlines_overdue",
    f"Deadlines due more than {OVERDUE_AFTER:.0f} s ago and not fired yet (all processes).",
)
DEADLINES_REARMED = Counter(
    "hats_deadlines_rearmed",
    "Live games the re-arm sweep found without the deadline their seat to move needs, and "
    "re-armed (service.sweep). Deadlines are written with each change, so it stays at 0; "
    "anything else is a bug: that game stood still for up to two sweep periods.",
)
GC_PAUSE = Histogram(
    "hats_gc_pause_seconds",
    "Seconds the garbage collector paused the process, by generation (2: full collection).",
    ["generation"],
    buckets=GC_BUCKETS,
)

ACTORS = {"player": "player", "ai": "ai", "auto": "timer", "timer": "timer"}
"""A step's stored actor -> its label: ``auto`` (the AI for an absent player) is a timer's."""

# The children of the hot paths, made once (``labels()`` costs a lock and a lookup per call).
_STEP_BY_ACTOR = {actor: STEPS.labels(label) for actor, label in ACTORS.items()}
_STORE_BY_OP = {op: STORE_SECONDS.labels(op) for op in ("query", "read", "write")}


def count_step(actor: str) -> None:
    """Count one committed step of ``actor`` (as stored: player, ai, auto, timer)."""
    _STEP_BY_ACTOR.get(actor, _STEP_BY_ACTOR["timer"]).inc()


def observe_store(op: str, started: float) -> None:
    """Record one store operation (``query``, ``read``, ``write``) begun at ``started``.

    ``started`` is a :func:`time.perf_counter` reading.
    """
    _STORE_BY_OP[op].observe(time.perf_counter() - started)


class _GcPauses:
    """A ``gc.callbacks`` entry that times each collection into :data:`GC_PAUSE`.

    The three children are made up front: the callback only observes (a lock around float
    additions, no container allocated), so a collection can never start inside it.
    """

    def __init__(self) -> None:
        self.children = [GC_PAUSE.labels(str(g)) for g in range(3)]
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        elif self.started:
            self.children[info["generation"]].observe(time.perf_counter() - self.started)
            self.started = 0.0


_gc_pauses: _GcPauses | None = None


def install_gc_pauses() -> None:
    """Time every garbage collection into ``hats_gc_pause_seconds`` (idempotent)."""
    global _gc_pauses
    if _gc_pauses is None:
        _gc_pauses = _GcPauses()
        gc.callbacks.append(_gc_pauses)
