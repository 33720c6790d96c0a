"""The bot's side of monitoring: the HTTP endpoints and the Discord-side counters (issue 21).

:class:`Monitor` serves, with ``HATS_METRICS_PORT`` set (on ``HATS_METRICS_ADDR``), from the
bot's own event loop (aiohttp's web server, which comes with discord.py):

- ``/metrics``: Prometheus' text exposition of ``prometheus_client``'s default registry
  (:mod:`telemetry.metrics` and the library's process metrics); the gauges are read at
  scrape time (the readiness check, one store query, the cache's size);
- ``/healthz``: 200 while the process and its event loop answer (a blocked loop answers
  nothing, so the check fails);
- ``/readyz``: 200 when connected to Discord (READY seen, no shard disconnected, not closed)
  and the store answers a query within :data:`READY_STORE_TIMEOUT`; else 503 and the reason.

Without the setting nothing listens. Each process serves its own port.

Discord's side is counted here because only this floor may import discord.py and aiohttp:
:func:`discord_trace` is the aiohttp trace config handed to discord.py (``http_trace``): it
counts each HTTP answer from Discord by route template and status, and each 429 by scope;
:func:`note_received` and the wrapped :class:`discord.InteractionResponse` methods time each
interaction from its arrival to its first answer (discord.py has no hook for "answered":
every first answer goes through one of those methods).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from yarl import URL

from cogs.clock import now
from data import StoreError
from telemetry.metrics import (
    CACHED_GAMES,
    DEADLINES_OVERDUE,
    DISCORD_RATE_LIMITED,
    DISCORD_REQUESTS,
    INTERACTION_SECONDS,
    INTERACTIONS,
    LIVE_GAMES,
    OPEN_LOBBIES,
    OVERDUE_AFTER,
    READY,
    install_gc_pauses,
)

if TYPE_CHECKING:
    from bot import HatsBot

__all__ = [
    "READY_STORE_TIMEOUT",
    "Monitor",
    "MonitorError",
    "discord_trace",
    "instrument_responses",
    "mark_failed",
    "note_received",
    "route_template",
]

log = logging.getLogger("hats.monitoring")

READY_STORE_TIMEOUT = 2.0
"""Seconds the store has to answer ``/readyz``'s query."""

# --------------------------------------------------------------------------- Discord requests
_API = re.compile(r"^/api/v\d+")
_WORD = re.compile(r"^(@me|@original|[a-z][a-z0-9_-]{0,31})$")


def route_template(method: str, url: URL) -> str:
    """``"PATCH /channels/{id}/messages/{id}"`` for a request to Discord's API.

    Ids become ``{id}``; any other segment that is not a plain lower-case word (tokens, emoji,
    codes) becomes ``{param}``, so the label's values are bounded. A request to another host
    (the CDN, the gateway) is named by its host alone.
    """
    if url.host not in ("discord.com", "discordapp.com"):
        return f"{method} {url.host}"
    path = _API.sub("", url.path)
    parts = [
        "{id}" if seg.isdigit() else seg if not seg or _WORD.match(seg) else "{param}"
        for seg in path.split("/")
    ]
    return f"{method} {'/'.join(parts) or '/'}"


async def _on_request_end(
    session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
) -> None:
    status = params.response.status
    DISCORD_REQUESTS.labels(route_template(params.method, params.url), str(status)).inc()
    if status == 429:
        headers = params.response.headers
        scope = headers.get("X-RateLimit-Scope")
        if scope is None:
            scope = "global" if headers.get("X-RateLimit-Global") else "unknown"
        known = scope in ("user", "global", "shared", "unknown")
        DISCORD_RATE_LIMITED.labels(scope if known else "other").inc()


async def _on_request_exception(
    session: aiohttp.ClientSession,
    context: SimpleNamespace,
    params: aiohttp.TraceRequestExceptionParams,
) -> None:
    DISCORD_REQUESTS.labels(route_template(params.method, params.url), "error").inc()


def discord_trace() -> aiohttp.TraceConfig:
    """The trace config for discord.py's HTTP session (``Client(http_trace=...)``).

    Counts every answer (each retry too) in ``hats_discord_requests_total{route,status}``
    (status ``error``: no answer, e.g. the connection failed) and
    every 429 in ``hats_discord_rate_limited_total{scope}`` (Discord's ``X-RateLimit-Scope``:
    user, global, shared; ``unknown`` without it, e.g. a Cloudflare ban). Source: Discord
    docs, "Rate Limits".
    """
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_on_request_end)
    trace.on_request_exception.append(_on_request_exception)
    return trace


# --------------------------------------------------------------------------- interactions
KINDS = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.component: "component",
    discord.InteractionType.modal_submit: "modal",
    discord.InteractionType.autocomplete: "autocomplete",
}
"""Interaction type -> the ``kind`` label."""

FORGET_AFTER = 900.0
"""Seconds after which an interaction never answered is counted ``unanswered`` and forgotten
(Discord's interaction tokens live 15 minutes)."""

_received: dict[int, list[Any]] = {}
"""Interaction id -> [arrival (perf_counter), kind, failed], oldest first."""

RESPONSE_METHODS = (
    "defer",
    "pong",
    "send_message",
    "edit_message",
    "send_modal",
    "autocomplete",
    "launch_activity",
)
"""The :class:`discord.InteractionResponse` methods that give an interaction its first answer."""


def note_received(interaction: discord.Interaction) -> None:
    """An interaction arrived (call it when discord.py parses it, before any handler runs)."""
    started = time.perf_counter()
    while _received:
        oldest = next(iter(_received))
        entry = _received[oldest]
        if started - entry[0] < FORGET_AFTER:
            break
        del _received[oldest]
        INTERACTIONS.labels(entry[1], "unanswered").inc()
    _received[interaction.id] = [started, KINDS.get(interaction.type, "other"), False]


def mark_failed(interaction: discord.Interaction) -> None:
    """The bot failed on this interaction (its first answer says so): outcome ``error``."""
    entry = _received.get(interaction.id)
    if entry is not None:
        entry[2] = True


def _answered(interaction: discord.Interaction, error: BaseException | None) -> None:
    entry = _received.pop(interaction.id, None)
    if entry is None:  # not the first answer, or it arrived before monitoring
        return
    started, kind, failed = entry
    if isinstance(error, discord.NotFound):
        outcome = "expired"  # Discord: Unknown interaction (the 3 s were over)
    elif error is not None or failed:
        outcome = "error"
    else:
        outcome = "ok"
    INTERACTIONS.labels(kind, outcome).inc()
    INTERACTION_SECONDS.observe(time.perf_counter() - started)


def _timed(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    async def answer(self: discord.InteractionResponse, *args: Any, **kwargs: Any) -> Any:
        interaction = self._parent
        if interaction.id not in _received or self.is_done():
            return await method(self, *args, **kwargs)
        try:
            result = await method(self, *args, **kwargs)
        except discord.HTTPException as exc:
            _answered(interaction, exc)
            raise
        _answered(interaction, None)
        return result

    answer.hats_timed = True  # type: ignore[attr-defined]
    return answer


def instrument_responses() -> None:
    """Time the first answer of every interaction (idempotent; process-wide)."""
    for name in RESPONSE_METHODS:
        method = getattr(discord.InteractionResponse, name, None)
        if method is not None and not getattr(method, "hats_timed", False):
            setattr(discord.InteractionResponse, name, _timed(method))


# --------------------------------------------------------------------------- HTTP endpoints
class MonitorError(RuntimeError):
    """The metrics port cannot be opened (taken, or an address this machine does not have)."""


class Monitor:
    """The ``/metrics``, ``/healthz`` and ``/readyz`` server of one bot process.

    ``bot``: the :class:`bot.HatsBot`; ``port`` None serves nothing (``HATS_METRICS_PORT``
    unset); ``addr`` is the address to bind (``HATS_METRICS_ADDR``, default loopback).
    :meth:`start` binds (idempotent; MonitorError when it cannot), :meth:`stop` closes.
    """

    def __init__(self, bot: HatsBot, port: int | None, addr: str = "127.0.0.1") -> None:
        self.bot = bot
        self.port = port
        self.addr = addr
        self._runner: web.AppRunner | None = None
        self._down_shards: set[int] = set()
        bot.add_listener(self._shard_down, "on_shard_disconnect")
        bot.add_listener(self._shard_up, "on_shard_ready")
        bot.add_listener(self._shard_up, "on_shard_resumed")

    async def _shard_down(self, shard_id: int) -> None:
        self._down_shards.add(shard_id)

    async def _shard_up(self, shard_id: int) -> None:
        self._down_shards.discard(shard_id)

    async def start(self) -> None:
        """Listen on ``addr:port`` (nothing without a port; idempotent).

        Raises MonitorError naming ``HATS_METRICS_ADDR``/``HATS_METRICS_PORT`` and the cause.
        """
        if self.port is None or self._runner is not None:
            return
        install_gc_pauses()
        app = web.Application()
        app.router.add_get("/metrics", self.metrics)
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.addr, self.port).start()
        except OSError as exc:
            await runner.cleanup()
            raise MonitorError(
                f"cannot listen on HATS_METRICS_ADDR={self.addr} HATS_METRICS_PORT={self.port}"
                f" ({exc.strerror or exc}): choose a free port and an address of this machine"
            ) from exc
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        log.info("metrics and health checks on http://%s:%d/", self.addr, self.port)

    async def stop(self) -> None:
        """Stop listening (idempotent)."""
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        """200 ``ok``: the event loop ran this handler."""
        return web.Response(text="ok\n")

    async def not_ready(self) -> str | None:
        """Why the process is not ready, or None when it is (see the module docstring)."""
        bot = self.bot
        if bot.is_closed():
            return "closed"
        if not bot.is_ready():
            return "not connected to Discord (no READY yet)"
        if self._down_shards:
            return f"shards {sorted(self._down_shards)} disconnected"
        store = bot.store
        if store is None:
            return "the store is not open"
        try:
            await asyncio.wait_for(store.meta.get("readyz"), READY_STORE_TIMEOUT)
        except Exception as exc:  # a probe answers whatever went wrong (StoreError, timeout)
            return f"the store does not answer: {exc or type(exc).__name__}"
        return None

    async def readyz(self, request: web.Request) -> web.Response:
        """200 ``ready``, or 503 and the reason (:meth:`not_ready`)."""
        reason = await self.not_ready()
        if reason is None:
            return web.Response(text="ready\n")
        return web.Response(status=503, text=f"not ready: {reason}\n")

    async def refresh_gauges(self) -> None:
        """Set the gauges read at scrape time: readiness, the store's counts, the cache's size."""
        READY.set(await self.not_ready() is None)
        games = getattr(self.bot, "games", None)
        if games is not None:
            CACHED_GAMES.set(len(games.sessions))
        store = self.bot.store
        if store is None:
            return
        try:
            counts = await store.gauges.read(now() - OVERDUE_AFTER)
        except StoreError as exc:  # counted in hats_store_faults_total; the gauges stay
            log.debug("gauges not read: %s", exc)
            return
        LIVE_GAMES.set(counts.live_games)
        OPEN_LOBBIES.set(counts.open_lobbies)
        DEADLINES_OVERDUE.set(counts.overdue_deadlines)

    async def metrics(self, request: web.Request) -> web.Response:
        """The Prometheus text exposition of the default registry."""
        await self.refresh_gauges()
        return web.Response(
            body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )
