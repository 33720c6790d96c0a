"""The WebSocket clients of this process and what each of them watches (hats-activity/1).

A :class:`Viewer` is one connected client: its user, its language, the channel it opened the
Activity in and the game (or lobby) it watches there. Frames go out through a bounded queue
and a writer task per client while it has frames waiting, so the hub never waits for a
client: a client whose queue is full (:data:`MAX_QUEUED` frames unread, or its socket's send
buffer over :data:`MAX_BUFFERED` bytes) is dropped (close code :data:`CLOSE_TOO_SLOW`) and the
game goes on.

:class:`Hub` keeps the viewers by game and by channel and pushes each one **its own** view
(``web.views``) after every committed step: ``hats_step`` (fired by the service in this
process) and the store's change notifications (a step another process committed, PostgreSQL;
``Store.watch``). A view is built once per (game, step, seat, language) and shared by the
viewers that see the same thing: encoded once (``orjson``, UTF-8 bytes) and sent as it is, a
text frame, to each of them. A client's writer task sends what its queue holds; a send that
has not finished after :data:`SEND_TIMEOUT_S` drops the client (one watchdog for every
client, not a timer per frame).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import WSCloseCode, WSMsgType, web

from data import StoreError
from engine import IllegalMove, Step
from service.deadlines import TURN, turn_timer
from service.requests import auto_end
from web.people import People
from web.views import EventTexts, plain_labels, view_frame

if TYPE_CHECKING:
    from data.rows import GameChange
    from engine import Event
    from service import GameService, GameSession
    from texts.i18n import Tr, Translator
    from web.auth import SessionUser

__all__ = [
    "CLOSE_BAD_SESSION",
    "CLOSE_TOO_SLOW",
    "MAX_BUFFERED",
    "MAX_QUEUED",
    "Hub",
    "Viewer",
]

log = logging.getLogger("hats.web")

MAX_QUEUED = 128
"""Frames a client may leave unsent before it is dropped."""
LOW_WATER = 32
"""Frames queued for a client beyond which its read loop waits for the writer (Viewer.room)."""
MAX_BUFFERED = 256 * 1024
"""Bytes a client's socket may hold unsent before it is dropped."""
SEND_TIMEOUT_S = 10.0
"""Seconds one frame may take to leave before the client is dropped."""
CLOSE_BAD_SESSION = 4001
"""WebSocket close code: the session is forged, expired or replayed (protocol doc)."""
CLOSE_TOO_SLOW = 4008
"""WebSocket close code: the client did not read its frames."""
CLOSE_REPLACED = 4002
"""WebSocket close code: the same session opened a newer WebSocket."""
SWAP_TIMER = "swap"
"""The teams cog's swap-answer deadline kind (R10), read for the view's ``deadline``."""
WATCHERS_SHOWN = 5
"""Spectators a ``watching`` frame names (the count counts them all)."""
LABELS_KEPT = 20_000
"""(game, language) pairs whose seat labels the hub keeps between steps."""
CATCH_UP_MAX = 8
"""Steps of another process the hub reads one by one before it reloads the whole game."""


def encode_view(frame: dict[str, Any]) -> bytes:
    """A view frame as the UTF-8 bytes of its compact JSON text.

    The same text as ``json.dumps(frame, separators=(",", ":"), ensure_ascii=False)``
    (tests/web/test_frame_bytes.py), written by ``orjson`` in a fraction of the time.
    """
    return orjson.dumps(frame)


@dataclass(eq=False)
class Viewer:
    """One connected WebSocket client.

    ``user``: its session's user; ``tr``: its language; ``channel_id``/``guild_id``: where the
    Activity was opened (as Discord says: web.instances); ``private``: in a DM or group
    DM; ``game_id``: the game it watches (None: the channel's lobby); ``step``: the last
    step number pushed to it.
    """

    ws: web.WebSocketResponse
    user: SessionUser
    tr: Tr
    channel_id: int = 0
    guild_id: int | None = None
    private: bool = False
    game_id: int | None = None
    step: int = -1
    session_token: str = ""
    transport: asyncio.BaseTransport | None = None
    queue: deque[str | bytes] = field(default_factory=deque)
    writer: asyncio.Task[None] | None = None
    closed: bool = False
    tokens: float = 0.0
    refilled: float = 0.0
    drained: asyncio.Event = field(default_factory=asyncio.Event)
    sending_since: float = 0.0
    """Loop time at which the frame being sent started (0: none in flight; the watchdog)."""

    @property
    def user_id(self) -> int:
        """The viewer's user id."""
        return self.user.user_id

    def send(self, frame: dict[str, Any] | str | bytes) -> bool:
        """Queue ``frame``; False (and the client dropped) when the client is slow.

        ``frame``: a dict, JSON text, or JSON as UTF-8 bytes (sent as they are in a text
        frame: one encoding shared by many viewers).
        """
        if self.closed:
            return False
        text = frame if isinstance(frame, str | bytes) else json.dumps(frame, separators=(",", ":"))
        transport = self.transport
        buffered = transport.get_write_buffer_size() if transport is not None else 0  # type: ignore[attr-defined]
        if len(self.queue) >= MAX_QUEUED or buffered > MAX_BUFFERED:
            self.drop(CLOSE_TOO_SLOW, "too slow")
            return False
        self.queue.append(text)
        if self.writer is None:
            self.writer = asyncio.get_running_loop().create_task(self._write())
        return True

    def start(self) -> None:
        """Nothing to start: a writer task runs only while the client has frames waiting.

        (An idle client holds no task and no future: nothing of it is created again after
        each frame and ages into the garbage collector's oldest generation.)
        """

    async def _write(self) -> None:
        """Send what the queue holds, then end (the next frame starts a new writer)."""
        loop = asyncio.get_running_loop()
        ws = self.ws
        try:
            while self.queue and not self.closed:
                data = self.queue.popleft()
                # no timer per frame: the hub's watchdog drops a send stuck for too long
                self.sending_since = loop.time()
                if isinstance(data, bytes):
                    await ws.send_frame(data, WSMsgType.TEXT)
                else:
                    await ws.send_str(data)
                self.sending_since = 0.0
                if len(self.queue) <= LOW_WATER:
                    self.drained.set()
        except (TimeoutError, ConnectionError, RuntimeError):
            self.drop(CLOSE_TOO_SLOW, "too slow")
        except asyncio.CancelledError:
            pass
        finally:
            self.sending_since = 0.0
            self.writer = None

    def stuck(self, now: float) -> bool:
        """Whether a frame has been leaving for more than :data:`SEND_TIMEOUT_S` (loop time)."""
        return self.sending_since != 0.0 and now - self.sending_since > SEND_TIMEOUT_S

    async def room(self) -> None:
        """Wait until at most :data:`LOW_WATER` frames are queued (or the client is closed).

        The connection's read loop waits here, so a client's own answers never pile up to
        :data:`MAX_QUEUED` while it keeps reading.
        """
        while len(self.queue) > LOW_WATER and not self.closed:
            self.drained.clear()
            await self.drained.wait()

    def drop(self, code: int, reason: str) -> None:
        """Close the client (without waiting for it) with ``code``."""
        if self.closed:
            return
        self.closed = True
        self.drained.set()
        self.queue.clear()
        task = asyncio.get_running_loop().create_task(
            self.ws.close(code=code, message=reason.encode())
        )
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def stop(self) -> None:
        """Stop the writer task, if one runs (the connection has ended)."""
        self.closed = True
        self.drained.set()
        writer = self.writer
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer


class Hub:
    """Every viewer of this process, by game and by channel; pushes views after each step.

    ``games``: the GameService; ``translator``: the catalogs; ``names``: user id -> display
    name (shared with the bot); ``people``: server nicknames and avatars (web.people; default:
    none beyond ``names``). ``on_watch_change(game_id)`` is called whenever the set of
    live viewers of a game changes (the play cog stops turn-ping DMs for a watched turn).
    A game's viewers get a ``watching`` frame whenever its spectators change.
    """

    def __init__(
        self,
        games: GameService,
        translator: Translator,
        names: Mapping[int, str],
        people: People | None = None,
    ) -> None:
        self.games = games
        self.translator = translator
        self.names = names
        self.people = people or People(names)  # type: ignore[arg-type]
        self._presence_due: set[int] = set()
        self.by_game: dict[int, set[Viewer]] = {}
        self.by_channel: dict[int, set[Viewer]] = {}
        self.by_token: dict[str, Viewer] = {}
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._deadlines: dict[int, tuple[int, float | None]] = {}
        self.pushed = 0
        """View frames queued so far (benchmarks, tests)."""
        self.event_texts = EventTexts()
        """Event lines worded once for every viewer and step (web.views)."""
        self._labels: dict[tuple[int, str], tuple[tuple[Any, ...], Any]] = {}
        self._shown: dict[int, GameSession] = {}
        """The last copy of each watched game whose view was pushed (remote catch-up)."""
        self._notified: dict[int, int] = {}
        """Per game: the highest step number another process announced, not yet shown."""
        self._full: set[int] = set()
        """Games another process changed otherwise (row, seats): reload them in full."""
        self._watchdog: asyncio.Task[None] | None = None
        self.lobby_listener: Callable[[int], None] | None = None
        """Called with a channel id when its lobby should be sent again (set by the server)."""

    # ------------------------------------------------------------------ membership
    def add(self, viewer: Viewer) -> None:
        """Count ``viewer`` in (its channel).

        One live WebSocket per session: an older one is closed (:data:`CLOSE_REPLACED`).
        """
        older = self.by_token.get(viewer.session_token)
        if older is not None and older is not viewer:
            older.drop(CLOSE_REPLACED, "replaced by a newer connection")
            self.remove(older)
        self.by_token[viewer.session_token] = viewer
        self.by_channel.setdefault(viewer.channel_id, set()).add(viewer)
        if self._watchdog is None:
            self._watchdog = self._spawn(self._watch_sends())

    async def _watch_sends(self) -> None:
        """Drop the clients whose frame has been leaving for over :data:`SEND_TIMEOUT_S`."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(SEND_TIMEOUT_S / 4)
            now = loop.time()
            for viewer in [v for v in self.by_token.values() if v.stuck(now)]:
                viewer.drop(CLOSE_TOO_SLOW, "too slow")
                if viewer.writer is not None:
                    viewer.writer.cancel()

    def remove(self, viewer: Viewer) -> None:
        """Count ``viewer`` out (it disconnected)."""
        if self.by_token.get(viewer.session_token) is viewer:
            del self.by_token[viewer.session_token]
        self._discard(self.by_channel, viewer.channel_id, viewer)
        if viewer.game_id is not None:
            self._discard(self.by_game, viewer.game_id, viewer)
            self.presence_changed(viewer.game_id)

    def _discard(self, index: dict[int, set[Viewer]], key: int, viewer: Viewer) -> None:
        group = index.get(key)
        if group is not None:
            group.discard(viewer)
            if not group:
                del index[key]
                if index is self.by_game:  # nobody here watches it: no copy to catch up
                    self._shown.pop(key, None)

    def watch_game(self, viewer: Viewer, game_id: int | None) -> None:
        """Make ``viewer`` watch ``game_id`` (None: the channel's lobby)."""
        if viewer.game_id == game_id:
            return
        if viewer.game_id is not None:
            self._discard(self.by_game, viewer.game_id, viewer)
            self.presence_changed(viewer.game_id)
        viewer.game_id = game_id
        viewer.step = -1
        if game_id is not None:
            self.by_game.setdefault(game_id, set()).add(viewer)
            self.presence_changed(game_id)

    # ------------------------------------------------------------------ spectators
    def presence_changed(self, game_id: int) -> None:
        """The viewers of ``game_id`` changed: send them its ``watching`` frame (coalesced)."""
        if game_id in self._presence_due:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - no loop: nobody to tell
            return
        self._presence_due.add(game_id)
        loop.call_soon(self._send_presence, game_id)

    def _send_presence(self, game_id: int) -> None:
        self._presence_due.discard(game_id)
        if game_id in self.by_game:
            self._spawn(self.push_presence(game_id))

    async def push_presence(self, game_id: int) -> None:
        """Send the viewers of ``game_id`` who watches it without a seat (this process's).

        Judged on the copy of the game last shown (or the service's), so a presence change
        never reloads a game that another process's step just made stale (its seats are what
        matter here; a seat change reloads and shows the game anyway).
        """
        session = (
            self._shown.get(game_id)
            or self.games.cached(game_id)
            or await self.games.session(game_id)
        )
        viewers = list(self.by_game.get(game_id, ()))
        if session is None or not viewers:
            return
        frame = self.presence_frame(session)
        for viewer in viewers:
            viewer.send(frame)

    def presence_frame(self, session: GameSession) -> dict[str, Any]:
        """The ``watching`` frame of ``session``: its spectators' count and the first few.

        A spectator is a signed-in user with a live WebSocket on the game and no seat in it,
        counted once however many tabs they have.
        """
        seated = {s.user_id for s in session.seats if s.user_id is not None}
        guild = session.row.guild_id
        names = self.people.names_in(guild)
        seen: dict[int, Viewer] = {}
        for viewer in self.by_game.get(session.id, ()):
            if not viewer.closed and viewer.user_id not in seated:
                seen.setdefault(viewer.user_id, viewer)
        ordered = sorted(seen.values(), key=lambda v: v.user_id)
        return {
            "t": "watching",
            "game_id": str(session.id),
            "count": len(ordered),
            "watchers": [
                {
                    "name": names.get(v.user_id) or v.user.name,
                    "avatar": self.people.avatar(v.user_id, guild),
                }
                for v in ordered[:WATCHERS_SHOWN]
            ],
        }

    def watching(self, game_id: int, user_id: int, channel_id: int | None = None) -> bool:
        """Whether ``user_id`` has a live WebSocket on game ``game_id`` in this process.

        With ``channel_id`` (the game's channel), a WebSocket on that channel's lobby counts
        too: a game that just started there moves its lobby's viewers to it.
        """
        if any(v.user_id == user_id and not v.closed for v in self.by_game.get(game_id, ())):
            return True
        if channel_id is None:
            return False
        return any(
            v.user_id == user_id and not v.closed and v.game_id in (None, game_id)
            for v in self.by_channel.get(channel_id, ())
        )

    def viewers(self) -> int:
        """Connected clients."""
        return len(self.by_token)

    # ------------------------------------------------------------------ views
    async def deadline(self, session: GameSession) -> float | None:
        """Unix seconds by which the seat to move must act (turn timer, swap answer), or None.

        Read from the store once per step (cached by step number).
        """
        cached = self._deadlines.get(session.id)
        if cached is not None and cached[0] == session.version:
            return cached[1]
        game = session.game
        due: float | None = None
        seat = game.to_move
        if not game.is_over and seat is not None and session.seats[seat].ai_level is None:
            kind = SWAP_TIMER if game.pending_offer is not None and seat != game.active else TURN
            if kind == SWAP_TIMER or turn_timer(session) is not None:
                try:
                    row = await self.games.store.timers.get_timer(kind, game_id=session.id)
                except StoreError:
                    row = None
                due = row.due_at if row is not None else None
        self._deadlines[session.id] = (session.version, due)
        return due

    def labels(self, session: GameSession, tr: Tr, names: Mapping[int, str] | None = None) -> Any:
        """The game's plain seat labels in ``tr``'s language, kept until a seat or name changes.

        ``names``: user id -> the name to show (the server nickname first: web.people);
        default: the display names. Worded again (``web.views.plain_labels``) only when what
        they are made of changed: each seat's number, user, AI level, away flag, and name.
        """
        names = self.names if names is None else names
        made_of = tuple(
            (getattr(s, "seat", None), s.user_id, s.ai_level, getattr(s, "away", False))
            + ((names.get(s.user_id),) if s.user_id is not None else ())
            for s in session.seats
        )
        key = (session.id, tr.locale)
        kept = self._labels.get(key)
        if kept is not None and kept[0] == made_of:
            return kept[1]
        labels = plain_labels(session, names, tr)
        if len(self._labels) >= LABELS_KEPT:
            del self._labels[next(iter(self._labels))]
        self._labels[key] = (made_of, labels)
        return labels

    def frame_for(
        self,
        session: GameSession,
        viewer: Viewer,
        deadline: float | None,
        cache: dict[Any, Any] | None = None,
    ) -> bytes:
        """``viewer``'s view frame (UTF-8 JSON), shared through ``cache`` by equal viewers.

        Seat labels are kept per game and language (:meth:`labels`); event lines are worded
        once for every frame (:class:`web.views.EventTexts`).
        """
        seat = session.seat_of(viewer.user_id)
        mine = auto_end(session, seat) if seat is not None else False
        locale = viewer.tr.locale
        key = (seat, locale, mine)
        if cache is not None and key in cache:
            return cache[key]
        guild = session.row.guild_id
        names = self.people.names_in(guild)
        labels = cache.get(("labels", locale)) if cache is not None else None
        if labels is None:  # once per language and step
            labels = self.labels(session, viewer.tr, names)
            if cache is not None:
                cache[("labels", locale)] = labels
        avatars = cache.get("avatars") if cache is not None else None
        if avatars is None:
            avatars = [self.people.avatar(s.user_id, guild) for s in session.seats]
            if cache is not None:
                cache["avatars"] = avatars
        frame = view_frame(
            session,
            seat,
            viewer.tr,
            names,
            auto_end=mine,
            deadline=deadline,
            labels=labels,
            texts=self.event_texts,
            avatars=avatars,
            shared=cache,
        )
        text = encode_view(frame)
        if cache is not None:
            cache[key] = text
        return text

    async def push_game(self, session: GameSession, only: Viewer | None = None) -> None:
        """Send the current view of ``session`` to its viewers (or to ``only``)."""
        viewers = [only] if only is not None else list(self.by_game.get(session.id, ()))
        if not viewers:
            return
        self._remember(session)
        deadline = await self.deadline(session)
        cache: dict[Any, Any] = {}
        for viewer in viewers:
            if viewer.closed:
                continue
            if only is None and viewer.step >= session.version:
                continue  # already shown (e.g. the same step through two routes)
            viewer.step = session.version
            if viewer.send(self.frame_for(session, viewer, deadline, cache)):
                self.pushed += 1

    # ------------------------------------------------------------------ events
    def on_step(self, session: GameSession, event: Event, actor: str, origin: object) -> None:
        """``hats_step``: a step was committed in this process; push it to its viewers.

        Synchronous up to the first await-free frame: the views are built now, while the
        session holds this step (a later step may follow before a task would run).
        """
        if session.id not in self.by_game:
            return
        deadline_cached = self._deadlines.get(session.id)
        if deadline_cached is not None and deadline_cached[0] == session.version:
            self._push_now(session, deadline_cached[1])
            return
        if not self._needs_deadline(session):
            self._deadlines[session.id] = (session.version, None)
            self._push_now(session, None)
            return
        self._spawn(self.push_game(session))

    def _needs_deadline(self, session: GameSession) -> bool:
        game = session.game
        seat = game.to_move
        if game.is_over or seat is None or session.seats[seat].ai_level is not None:
            return False
        swap = game.pending_offer is not None and seat != game.active
        return swap or turn_timer(session) is not None

    def _push_now(self, session: GameSession, deadline: float | None) -> None:
        cache: dict[Any, Any] = {}
        self._remember(session)
        for viewer in list(self.by_game.get(session.id, ())):
            if viewer.closed or viewer.step >= session.version:
                continue
            viewer.step = session.version
            if viewer.send(self.frame_for(session, viewer, deadline, cache)):
                self.pushed += 1

    def _remember(self, session: GameSession) -> None:
        """Keep ``session`` as the game's copy last shown, unless a later one is kept."""
        kept = self._shown.get(session.id)
        if kept is None or kept.version <= session.version:
            self._shown[session.id] = session

    def on_change(self, change: GameChange) -> None:
        """A change another process committed (``Store.watch``): refresh the game's viewers.

        ``game_id`` None (notifications may have been missed): every watched game. A new step
        (``seq``) is caught up on the copy last shown (:meth:`_catch_up`), anything else
        reloads the game.
        """
        if change.origin == self.games.store.origin:
            return
        ids = list(self.by_game) if change.game_id is None else [change.game_id]
        for game_id in ids:
            if game_id in self.by_game:
                if change.seq is None or change.game_id is None:
                    self._full.add(game_id)
                else:
                    self._notified[game_id] = max(change.seq, self._notified.get(game_id, -1))
                self._refresh(game_id)
            elif change.seq is None and self.by_channel:
                self._spawn(self._maybe_new_game(game_id))

    def _refresh(self, game_id: int) -> None:
        """Reload ``game_id`` from the store and push it (one refresh in flight per game)."""
        running = self._refreshing.get(game_id)
        if running is not None and not running.done():
            running.add_done_callback(lambda _: self._refresh(game_id))
            return
        self._refreshing[game_id] = self._spawn(self._reload(game_id))

    async def _reload(self, game_id: int) -> None:
        full = game_id in self._full
        self._full.discard(game_id)
        upto = self._notified.pop(game_id, None)
        if not full and upto is None:  # what was announced is shown already (a chained call)
            self._refreshing.pop(game_id, None)
            return
        shown = self._shown.get(game_id)
        if game_id not in self.by_game:
            self._shown.pop(game_id, None)
        elif not full and upto is not None and shown is not None:
            try:
                caught = await self._catch_up(shown, upto)
            except StoreError as exc:
                log.warning("game %d: step %d not read, reloading: %s", game_id, upto, exc)
                caught = None
            if caught is not None:
                self._refreshing.pop(game_id, None)
                if caught is not shown:
                    await self.push_game(caught)
                return
        try:
            session = await self.games.fresh_session(game_id)
        except StoreError as exc:
            log.warning("game %d: its viewers are not refreshed: %s", game_id, exc)
            return
        finally:
            self._refreshing.pop(game_id, None)
        if session is None:
            session = await self.games.load_game(game_id)
        if session is not None:
            await self.push_game(session)

    async def _catch_up(self, shown: GameSession, upto: int) -> GameSession | None:
        """``shown`` with another process's steps up to number ``upto`` applied, read one by one.

        The steps are read from the store (``stored_step``) and applied to a copy of the
        game, as a replay would (``data.restore.rebuild_game``); the service's own copy is not
        touched (it reloads the game when it next needs it). ``shown`` itself when it holds
        step ``upto`` already; None when the game must be reloaded in full instead: it is
        over, the steps are too many (:data:`CATCH_UP_MAX`) or one is missing or refused.
        Raises StoreError when the store cannot be read.
        """
        first = shown.version
        if upto < first:
            return shown
        if shown.game.is_over or upto - first >= CATCH_UP_MAX:
            return None
        game = shown.game.copy()
        auto_played = shown.auto_played
        for seq in range(first, upto + 1):
            stored = await self.games.store.steps.stored_step(shown.id, seq)
            if stored is None:
                return None
            raw, actor, _at = stored
            try:
                step = Step.from_dict(raw)
                event = game.apply(step.seat, step.action)
            except (IllegalMove, ValueError, KeyError, TypeError):
                return None
            if actor == "auto":
                auto_played = auto_played | {event.number}
        return dataclasses.replace(shown, game=game, auto_played=auto_played)

    async def _maybe_new_game(self, game_id: int) -> None:
        """A game row changed that nobody here watches: maybe a new game in a watched channel."""
        try:
            row = await self.games.store.games.get_game(game_id)
        except StoreError:
            return
        if row is None or row.channel_id not in self.by_channel or row.status.value != "live":
            return
        await self.game_started(row.channel_id, game_id)

    def game_may_have_started(self, game_id: int) -> None:
        """A game got an announcement (``hats_outbox``): maybe a new game in a watched channel."""
        if self.by_channel and game_id not in self.by_game:
            self._spawn(self._maybe_new_game(game_id))

    async def game_started(self, channel_id: int, game_id: int) -> None:
        """A game started in ``channel_id``: its lobby's viewers watch the game now."""
        session = await self.games.session(game_id)
        if session is None:
            return
        moved = [v for v in self.by_channel.get(channel_id, ()) if v.game_id != game_id]
        for viewer in moved:
            self.watch_game(viewer, game_id)
        if moved:
            await self.push_game(session)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        """Close every client (the server is stopping)."""
        for viewer in list(self.by_token.values()):
            viewer.drop(WSCloseCode.GOING_AWAY, "server stopping")
            await viewer.stop()
        for task in list(self._tasks):
            task.cancel()
        self.by_game.clear()
        self.by_channel.clear()
        self.by_token.clear()


def now() -> float:
    """Unix seconds (the hub's rate limits)."""
    return time.time()
