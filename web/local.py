"""Local mode: play Hats in a browser without Discord (``python bot.py --local``).

No token, no gateway: the game service runs over the store (the embedded SQLite default), the
Activity's web server listens on 127.0.0.1 (``HATS_WEB_PORT``, default 8765) and one fixed
pseudo server and channel hold the lobby and the game (``web.LOCAL_GUILD``,
``web.LOCAL_CHANNEL``). Players sign in with a name (``POST /api/local``; each browser tab is
another player); their ids start at 2**63, so they never meet a Discord id.

AI seats play as in the bot: each AI step is a deadline the step before it wrote
(``service.deadlines``), fired by a :class:`service.runner.DeadlineRunner` through
:func:`service.due.fire_ai`; a game's first deadline is armed when it starts. Searching levels
think in a thread, off the event loop. Turn timers are off (there is nobody to remind).

Who is who survives a restart (issue 34 section 4): the sessions' signing key is kept in the
store's meta table (:data:`SESSION_KEY`, as the bot keeps it without a client secret), so a
tab's session stays good after a crash; local user ids and their names are kept there too
(:class:`web.local_users.StoredLocalUsers`): an id is never given twice, and a name that
holds a seat at the table signs back into that seat.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from data import Store, StoreError, TimerRow
from engine import Action, Game
from service import DeadlinePolicy, DeadlineRunner, GameService, GameSession
from service.deadlines import AI, AI_RETRY
from service.due import ai_choice, fire_ai
from service.sweep import DeadlineSweep
from texts.i18n import Translator
from web.auth import random_key
from web.local_users import StoredLocalUsers
from web.server import LOCAL_CHANNEL, WebConfig, WebServer

__all__ = ["SESSION_KEY", "LocalMode", "stored_session_key"]

log = logging.getLogger("hats.local")

SESSION_KEY = "web_session_key"
"""The store's meta key of the sessions' signing key (the bot's ``bot.SESSION_KEY``)."""


async def stored_session_key(store: Store) -> bytes:
    """The sessions' signing key kept in ``store`` (made and written the first time)."""
    stored = await store.meta.get(SESSION_KEY)
    if stored is None:
        stored = random_key()
        await store.meta.set(SESSION_KEY, stored)
    return bytes.fromhex(stored)


@dataclass
class LocalMode:
    """The service, its deadline runner and the web server of local mode, over ``store``.

    ``port``: the web port (0: a free one); ``ai_delay``: seconds an AI waits before a step;
    ``seed_source()``: a new game's seed; ``client_dir``: the built browser app (None: the
    default ``activity/dist``).
    """

    store: Store
    port: int = 8765
    ai_delay: float = 1.0
    seed_source: Callable[[], int] = lambda: secrets.randbits(63)
    addr: str = "127.0.0.1"
    client_dir: Any = None

    def __post_init__(self) -> None:
        self.policy = DeadlinePolicy(ai_delay=self.ai_delay)
        self.games = GameService(
            self.store,
            self.seed_source,
            dispatch=self.dispatch,
            deadlines=self.policy,
            clock=time.time,
        )
        self.runner = DeadlineRunner(
            self.store,
            self._fire,
            claimer=self.store.origin,
            clock=time.time,
            sweep=DeadlineSweep(self.games).run,
        )
        extra = {"client_dir": self.client_dir} if self.client_dir is not None else {}
        self.users = StoredLocalUsers(
            self.store, self.games, LOCAL_CHANNEL, connected=self._connected
        )
        self.web = WebServer(
            WebConfig(port=self.port, addr=self.addr, local=True, **extra),
            self.games,
            Translator.load(),
            session_key=secrets.token_bytes(32),
            names={},
            locales={},
            dispatch=self.dispatch,
            default_timer=lambda guild_id: None,
            local_users=self.users,
        )
        self._tasks: set[asyncio.Task[Any]] = set()

    def _connected(self, user_id: int) -> bool:
        return any(v.user_id == user_id and not v.closed for v in self.web.hub.by_token.values())

    def dispatch(self, name: str, /, *args: Any) -> None:
        """The service's and the web server's events, without a bot."""
        if name == "hats_step":
            self.web.hub.on_step(*args)
        elif name == "hats_deadline":
            self.runner.nudge(args[0])
        elif name == "hats_game_started_here":
            self._spawn(self.arm(args[0]))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def arm(self, session: GameSession) -> None:
        """A game started: the service writes its first move deadline (an AI to move)."""
        try:
            await self.games.arm(session)  # wakes the runner (hats_deadline)
        except StoreError as exc:  # the sweep arms it later
            log.warning("game %d: its first deadline is not stored: %s", session.id, exc)

    async def _fire(self, row: TimerRow) -> None:
        if row.kind in (AI, AI_RETRY) and row.game_id is not None:
            await fire_ai(self.games, row, choose=self._think)

    async def _think(self, game: Game, seat: int, level: str, seed: int) -> Action:
        """The AI's choice for ``seat``, in a thread (the searching levels take a while)."""
        snapshot = game.copy()
        return await asyncio.get_running_loop().run_in_executor(
            None, ai_choice, snapshot, seat, level, seed
        )

    async def start(self) -> str:
        """Start the service, the runner and the web server; returns the address to open."""
        await self.games.start()
        self.web.use_session_key(await stored_session_key(self.store))
        # the seated players' names, so the table names them before they sign in again
        self.web.names.update(await self.users.names(await self.users.seated_users()))
        self.runner.start()
        await self.web.start()
        return self.web.address

    async def stop(self) -> None:
        """Stop the web server and the runner (the store stays open: the caller's)."""
        await self.web.stop()
        await self.runner.stop()
        for task in list(self._tasks):
            task.cancel()
