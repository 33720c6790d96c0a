"""Other processes' changes of games, as PostgreSQL notifications (``Store.watch``).

Migration 0008's triggers send, when a transaction commits, one notification on the channel
:data:`CHANNEL` per changed game: ``"<game_id> <seq> <origin>"`` for a new step, ``"<game_id>
- <origin>"`` for a change of the game row, its seats or its messages (``<origin>``: the
writer's ``application_name``, i.e. its ``Store.origin``). :class:`PgWatcher` listens on a
connection of its own (a pooled connection would be handed to statements and lose the
LISTEN), turns each payload into a :class:`~data.rows.GameChange` and calls its callbacks.

When that connection is lost (the server restarted, the backend was terminated, the network
failed: noticed at once through asyncpg's termination listener, or by a periodic ``SELECT 1``
that fails or does not answer), notifications sent meanwhile are gone: the watcher reconnects
with a growing delay (:data:`BACKOFF_S`, never a busy loop) and then reports
``GameChange(None, None, "")``: every cached game may be stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import random
from collections.abc import Callable

import asyncpg

from data.pg import CONNECT_TIMEOUT_S, pg_fault, redact
from data.rows import GameChange, LobbyChange

__all__ = [
    "BACKOFF_S",
    "CHANNEL",
    "CHECK_INTERVAL_S",
    "LOBBY_CHANNEL",
    "PgWatcher",
    "parse_lobby_payload",
    "parse_payload",
]

log = logging.getLogger("hats.data")

CHANNEL = "hats_game"
"""The notification channel of migration 0008's triggers."""

LOBBY_CHANNEL = "hats_lobby"
"""The notification channel of migration 0013's trigger (lobbies: ``"<channel_id> <origin>"``)."""

CHECK_INTERVAL_S = 30.0
"""Seconds between two checks (``SELECT 1``) of an otherwise silent listening connection."""

CHECK_TIMEOUT_S = 10.0
"""Seconds a check may take before the connection counts as lost."""

BACKOFF_S = (0.0, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)
"""Delays (seconds) before the 1st, 2nd, … reconnection attempt; the last one repeats. Each
non-zero delay is shortened by up to a half at random, so processes do not retry in step."""

Callback = Callable[[GameChange], None]
LobbyCallback = Callable[[LobbyChange], None]


def parse_payload(payload: str) -> GameChange | None:
    """The GameChange of a notification payload (``"12 5 hats-a-1-abcdef"``, ``"12 - origin"``).

    None for a payload of another shape (logged by the caller, ignored).
    """
    parts = payload.split(" ", 2)
    if len(parts) != 3:
        return None
    game, seq, origin = parts
    try:
        return GameChange(int(game), None if seq == "-" else int(seq), origin)
    except ValueError:
        return None


def parse_lobby_payload(payload: str) -> LobbyChange | None:
    """The LobbyChange of a ``hats_lobby`` payload (``"515151 hats-a-1-abcdef"``), or None."""
    parts = payload.split(" ", 1)
    if len(parts) != 2:
        return None
    try:
        return LobbyChange(int(parts[0]), parts[1])
    except ValueError:
        return None


class PgWatcher:
    """LISTEN on :data:`CHANNEL` over a dedicated connection to ``url``; reconnects when lost.

    ``name`` becomes the connection's ``application_name`` (``<origin>/watch``: operators and
    tests find it in ``pg_stat_activity``). Callbacks run on the event loop, in notification
    order; one that raises is logged and the others still run. Use :meth:`start` once, then
    :meth:`close`.
    """

    def __init__(
        self,
        url: str,
        name: str,
        *,
        check_interval: float = CHECK_INTERVAL_S,
        backoff: tuple[float, ...] = BACKOFF_S,
    ) -> None:
        self._url = url
        self._location = redact(url)
        self._name = name
        self._check_interval = check_interval
        self._backoff = backoff
        self._callbacks: list[Callback] = []
        self._lobby_callbacks: list[LobbyCallback] = []
        self._conn: asyncpg.Connection | None = None
        self._lost = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._jitter = random.Random()
        self.reconnects = 0
        """How many times the connection was lost and opened again."""

    def add(self, callback: Callback) -> None:
        """Call ``callback(change)`` for every change from now on."""
        self._callbacks.append(callback)

    def add_lobbies(self, callback: LobbyCallback) -> None:
        """Call ``callback(LobbyChange)`` for every change of a lobby from now on."""
        self._lobby_callbacks.append(callback)

    @property
    def started(self) -> bool:
        """True once :meth:`start` succeeded (until :meth:`close`)."""
        return self._task is not None and not self._closed

    async def start(self) -> None:
        """Open the connection and LISTEN, then keep it open in a background task.

        Raises StoreFault (kind CANNOT_OPEN) when the server cannot be reached now; later
        losses are handled by reconnecting.
        """
        await self._connect()
        # Created from an empty context: the watcher belongs to the store, not to the task that
        # opened it (simcord, say, counts the bot's own tasks by their creator's context; this
        # one waits on the database server, like any connection of the pool).
        loop = asyncio.get_running_loop()
        self._task = contextvars.Context().run(
            loop.create_task, self._supervise(), name="hats-store-watch"
        )

    async def close(self) -> None:
        """Stop listening and close the connection (idempotent)."""
        self._closed = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._drop()

    async def _connect(self) -> None:
        try:
            conn = await asyncpg.connect(
                self._url,
                timeout=CONNECT_TIMEOUT_S,
                server_settings={"application_name": self._name},
            )
        except BaseException as exc:
            fault = pg_fault(exc, self._location)
            if fault is not None:
                raise fault from exc
            raise
        self._lost.clear()
        conn.add_termination_listener(self._on_terminated)
        try:
            await conn.add_listener(CHANNEL, self._on_notify)
            await conn.add_listener(LOBBY_CHANNEL, self._on_lobby_notify)
        except BaseException as exc:
            conn.terminate()
            fault = pg_fault(exc, self._location)
            if fault is not None:
                raise fault from exc
            raise
        self._conn = conn

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None or conn.is_closed():
            return
        try:
            await asyncio.wait_for(conn.close(), timeout=CHECK_TIMEOUT_S)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
            conn.terminate()

    def _on_terminated(self, conn: object) -> None:
        if conn is self._conn:
            self._lost.set()

    def _on_notify(self, conn: object, pid: int, channel: str, payload: str) -> None:
        change = parse_payload(payload)
        if change is None:
            log.warning("ignored a notification on %s: %r", channel, payload)
            return
        self._emit(change)

    def _on_lobby_notify(self, conn: object, pid: int, channel: str, payload: str) -> None:
        change = parse_lobby_payload(payload)
        if change is None:
            log.warning("ignored a notification on %s: %r", channel, payload)
            return
        self._emit_lobby(change)

    def _emit_lobby(self, change: LobbyChange) -> None:
        for callback in list(self._lobby_callbacks):
            try:
                callback(change)
            except Exception:
                log.exception("a Store.watch_lobbies callback failed on %s", change)

    def _emit(self, change: GameChange) -> None:
        for callback in list(self._callbacks):
            try:
                callback(change)
            except Exception:
                log.exception("a Store.watch callback failed on %s", change)

    async def _alive(self) -> bool:
        conn = self._conn
        if conn is None or conn.is_closed():
            return False
        try:
            await asyncio.wait_for(conn.fetchval("SELECT 1"), timeout=CHECK_TIMEOUT_S)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("the store's listening connection stopped answering: %s", exc)
            return False
        return True

    async def _supervise(self) -> None:
        """Wait for a loss (or check the connection every interval); reconnect after one."""
        while not self._closed:
            try:
                await asyncio.wait_for(self._lost.wait(), timeout=self._check_interval)
            except TimeoutError:
                if await self._alive():
                    continue
            log.warning("lost the store's listening connection to %s", self._location)
            await self._drop()
            await self._reconnect()
            self.reconnects += 1
            self._emit(GameChange(None, None, ""))
            self._emit_lobby(LobbyChange(None, ""))

    async def _reconnect(self) -> None:
        attempt = 0
        while True:
            delay = self._backoff[min(attempt, len(self._backoff) - 1)]
            if delay > 0:
                await asyncio.sleep(delay * self._jitter.uniform(0.5, 1.0))
            try:
                await self._connect()
            except Exception as exc:  # StoreFault mostly; whatever it is, keep trying
                attempt += 1
                log.warning(
                    "listening again on %s failed (attempt %d): %s", self._location, attempt, exc
                )
                continue
            log.info("listening again on %s after %d attempt(s)", self._location, attempt + 1)
            return
