"""One WebSocket client's conversation (``GET /ws``, hats-activity/1, docs/ACTIVITY_PROTOCOL.md).

``hello`` first (the session, the Activity instance whose server and channel Discord names:
web.instances, the locale, a step to resume from), then
requests: ``act``, ``auto_end``, ``hint``, ``chat``, ``lobby``, ``rematch``, ``react``. Every
move goes through the same service calls and checks as the hand buttons and slash commands
(:mod:`service.requests`, :meth:`GameService.play`); a refusal is an ``error`` frame whose
``message`` is the text a button would answer, in the player's language (``cogs.replies``).
A bad frame (not JSON, too big, an unknown kind, another player's seat, a finished game) gets
an ``error`` frame and changes nothing. Each connection has its own rate limit
(:data:`RATE_PER_S` requests a second, bursts of :data:`RATE_BURST`).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSCloseCode, WSMsgType, web

from data import StoreError
from engine import IllegalMove, action_from_dict
from engine.errors import GameOver, NotYourTurn
from service import OutcomeUnknown, OutOfDate, ServiceError
from service.requests import (
    NOT_YOUR_CONTROLS,
    WEB_ORIGIN,
    AutoEnd,
    game_over_error,
    play_request,
    seat_for,
    switch_auto_end,
)
from texts.replies import error_text, fault_text
from web.auth import BadSession, DiscordUnreachable, ExpiredSession
from web.frames import parse_json, snowflake
from web.hub import CLOSE_BAD_SESSION, Viewer
from web.instances import NotInInstance, Place, UnknownInstance
from web.rate import take_token
from web.views import plain_labels

if TYPE_CHECKING:
    from service import GameSession
    from web.server import WebServer

__all__ = [
    "CLOSE_NOT_IN_INSTANCE",
    "CLOSE_TRY_LATER",
    "MAX_FRAME",
    "RATE_BURST",
    "RATE_PER_S",
    "serve_socket",
]

log = logging.getLogger("hats.web")

MAX_FRAME = 4096
"""Characters a client frame may have; a longer one gets ``too_big`` (changes nothing)."""
MAX_MESSAGE = 64 * 1024
"""Bytes beyond which aiohttp closes the connection outright (a flood, not a mistake)."""
RATE_PER_S = 8.0
"""Requests a second a connection may send on average."""
RATE_BURST = 20.0
"""Requests a connection may send at once."""
HEARTBEAT_S = 20.0
"""Seconds between protocol-level pings (aiohttp closes a client that does not pong)."""
HELLO_TIMEOUT_S = 15.0
"""Seconds a new connection has to send ``hello``."""
LANGUAGES = ("en", "de", "es", "fr", "it")
CLOSE_NOT_IN_INSTANCE = 4003
"""WebSocket close code: Discord does not list this user in the Activity instance (or knows
no such instance); the client shows the ``unsupported`` message and does not retry."""
CLOSE_TRY_LATER = 1013
"""WebSocket close code: Discord could not be asked (the client retries with backoff)."""

Handler = Callable[["Conversation", dict[str, Any]], Awaitable[None]]


class FrameError(Exception):
    """A request refused before it reached the service: ``code`` and its message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


async def serve_socket(server: WebServer, request: web.Request) -> web.WebSocketResponse:
    """Serve one WebSocket client to its end."""
    ws = _Socket(heartbeat=HEARTBEAT_S, max_msg_size=MAX_MESSAGE)
    await ws.prepare(request)
    conversation = Conversation(server, ws, request)
    ws.too_big_text = conversation._too_big_text
    try:
        await conversation.run()
    finally:
        await conversation.end()
    return ws


class _Socket(web.WebSocketResponse):
    """aiohttp's WebSocket, which says ``too_big`` before closing on an oversized frame.

    A frame over :data:`MAX_MESSAGE` bytes is cut off by aiohttp's reader, which then closes
    the connection with 1009 (message too big). The protocol documents the ``too_big`` error
    frame: it is sent first (``id`` null: the frame was never read), then the close.
    """

    too_big_text: Callable[[], str] | None = None

    async def close(
        self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True
    ) -> bool:
        """Close the connection; after an oversized frame, send ``too_big`` first."""
        if code == WSCloseCode.MESSAGE_TOO_BIG and not self.closed and self.too_big_text:
            text = self.too_big_text()
            self.too_big_text = None
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.send_json({"t": "error", "id": None, "code": "too_big", "message": text})
            message = message or b"too_big"
        return await super().close(code=code, message=message, drain=drain)


class Conversation:
    """The state of one connection: its viewer once ``hello`` was accepted."""

    def __init__(self, server: WebServer, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.server = server
        self.ws = ws
        self.request = request
        self.viewer: Viewer | None = None
        self.rate_per_s = server.config.rate_per_s
        self.rate_burst = server.config.rate_burst
        self.tokens = self.rate_burst
        self.refilled = time.monotonic()
        self.handlers: dict[str, Handler] = {
            "act": Conversation.on_act,
            "auto_end": Conversation.on_auto_end,
            "hint": Conversation.on_hint,
            "chat": Conversation.on_chat,
            "lobby": Conversation.on_lobby,
            "rematch": Conversation.on_rematch,
            "react": Conversation.on_react,
        }

    @property
    def tr(self) -> Any:
        """The viewer's translator (English before ``hello``)."""
        if self.viewer is not None:
            return self.viewer.tr
        return self.server.translator.for_locale(None)

    # ------------------------------------------------------------------ loop
    async def run(self) -> None:
        """Read frames until the client leaves; every request gets its answer.

        A refused frame (too big, rate limited, not JSON...) and a request whose handling
        failed unexpectedly are answered with an ``error`` frame that repeats the request's
        ``id`` whenever the frame carries one, so a client never waits for an answer that
        will not come.
        """
        async for msg in self.ws:
            if msg.type is not WSMsgType.TEXT:
                if msg.type is WSMsgType.BINARY:
                    await self._error(None, "bad_frame", self._bad_frame_text())
                continue
            frame = _parse(msg.data)
            request_id = _request_id(frame)
            try:
                if len(msg.data) > MAX_FRAME:
                    raise FrameError("too_big", self._too_big_text())
                if not self._take_token():
                    raise FrameError(
                        "rate_limited",
                        self.tr("Too many requests at once: wait a moment and try again."),
                    )
                if not isinstance(frame, dict):
                    raise FrameError("bad_frame", self._bad_frame_text())
                await self.dispatch(frame)
            except FrameError as exc:
                await self._error(request_id, exc.code, exc.message)
            except Exception:
                log.exception("a WebSocket request failed: %.200s", msg.data)
                await self._error(
                    request_id,
                    "server_error",
                    self.tr(
                        "Something went wrong on my side; nothing was changed. Please try again."
                    ),
                )
            if self.ws.closed:
                break
            await self._room()

    async def _room(self) -> None:
        """Read the client's next request only once its answers are sent (web.hub.LOW_WATER).

        A client that reads keeps up (its answers leave, the wait ends); one that does not
        read is dropped by its writer (a full socket buffer, a send timeout), which also ends
        the wait. Without it, 300 requests sent at once queued 300 answers while the read loop
        ran, and a client that read everything was closed "too slow".
        """
        viewer = self.viewer
        if viewer is not None:
            await viewer.room()

    async def dispatch(self, frame: dict[str, Any]) -> None:
        """Handle one parsed frame."""
        kind = frame.get("t")
        if self.viewer is None:
            if kind != "hello":
                raise FrameError("not_signed_in", self.tr("Send hello with your session first."))
            await self.on_hello(frame)
            return
        handler = self.handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise FrameError("bad_frame", self._bad_frame_text())
        await handler(self, frame)

    def _take_token(self) -> bool:
        now = time.monotonic()
        allowed, self.tokens = take_token(
            self.tokens, self.refilled, now, burst=self.rate_burst, per_s=self.rate_per_s
        )
        self.refilled = now
        return allowed

    def _bad_frame_text(self) -> str:
        return self.tr("The app sent a request this server does not understand.")

    def _too_big_text(self) -> str:
        return self.tr("That request is too big.")

    async def end(self) -> None:
        """The connection ended: count the viewer out."""
        if self.viewer is not None:
            self.server.hub.remove(self.viewer)
            await self.viewer.stop()
            self.server.watch_changed(self.viewer.game_id)

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame for this client (through its viewer once there is one)."""
        if self.viewer is not None:
            self.viewer.send(frame)

    async def _error(self, request_id: Any, code: str, message: str) -> None:
        frame = {"t": "error", "id": request_id, "code": code, "message": message}
        if self.viewer is not None:
            self.viewer.send(frame)
        elif not self.ws.closed:
            await self.ws.send_json(frame)

    # ------------------------------------------------------------------ hello
    async def on_hello(self, frame: dict[str, Any]) -> None:
        """Check the session, pick the language, subscribe to the channel's lobby or game."""
        server = self.server
        token = frame.get("session")
        try:
            user = server.sessions.check(token)
        except ExpiredSession:
            await self.ws.close(code=CLOSE_BAD_SESSION, message=b"expired_session")
            return
        except BadSession:
            await self.ws.close(code=CLOSE_BAD_SESSION, message=b"bad_session")
            return
        locale = frame.get("locale")
        tr = server.translator.for_locale(locale if isinstance(locale, str) else None)
        if isinstance(locale, str) and not user.local:
            server.locales[user.user_id] = locale  # their DMs follow the same language
        server.names[user.user_id] = user.name
        if server.local:  # one table; a DM-like place when the SDK mock has no server
            private = "guild_id" in frame and frame["guild_id"] is None
            channel_id, guild_id = server.local_channel, server.local_guild
        else:
            place = await self._place(frame, user.user_id, tr)
            if place is None:
                return
            channel_id, guild_id, private = place.channel_id, place.guild_id, place.private
        viewer = Viewer(
            self.ws,
            user,
            tr,
            channel_id=channel_id,
            guild_id=guild_id,
            private=private,
            session_token=str(token),
            transport=self.request.transport,
        )
        self.viewer = viewer
        viewer.start()
        server.hub.add(viewer)
        language = tr.locale if tr.locale in LANGUAGES else "en"
        viewer.send(
            {
                "t": "welcome",
                "user": {"id": str(user.user_id), "name": user.name},
                "locale": language,
                "channel_id": str(channel_id),
                "place": "private" if private else "server",
            }
        )
        await self.subscribe()

    async def _place(self, frame: dict[str, Any], user_id: int, tr: Any) -> Place | None:
        """Where this client's Activity runs, as Discord says (its ``instance_id``).

        None after refusing the connection: a user Discord does not list in the instance,
        an unknown instance (``unsupported`` frame, then close :data:`CLOSE_NOT_IN_INSTANCE`:
        the client shows the message and does not retry), Discord unreachable (close
        :data:`CLOSE_TRY_LATER`: the client retries).
        """
        instances = self.server.instances
        try:
            if instances is None:
                raise UnknownInstance("instance verification is not configured")
            return await instances.verify(frame.get("instance_id"), user_id)
        except (NotInInstance, UnknownInstance) as exc:
            not_in = isinstance(exc, NotInInstance)
            reason = "not_in_instance" if not_in else "unknown_instance"
            log.info("hello refused (%s): %s", reason, exc)
            text = (
                tr(
                    "You are not in this Activity: Discord does not list you among its "
                    "players. Join it from the channel or call, then open Hats again."
                )
                if not_in
                else tr(
                    "This Activity could not be verified with Discord. Close it and "
                    "launch Hats again."
                )
            )
            await self.ws.send_json({"t": "unsupported", "reason": reason, "message": text})
            await self.ws.close(code=CLOSE_NOT_IN_INSTANCE, message=reason.encode())
        except DiscordUnreachable as exc:
            log.warning("hello: Discord did not answer for the instance: %s", exc)
            await self.ws.close(code=CLOSE_TRY_LATER, message=b"discord_unreachable")
        return None

    async def subscribe(self) -> None:
        """Watch the channel's live game (its current view), else its lobby."""
        viewer = self.viewer
        assert viewer is not None
        games = self.server.games
        try:
            session = await games.session_in_channel(viewer.channel_id)
        except StoreError as exc:
            raise FrameError("store_failed", fault_text(exc, viewer.tr)) from None
        if session is not None:
            self.server.hub.watch_game(viewer, session.id)
            self.server.watch_changed(session.id)
            await self.server.hub.push_game(session, only=viewer)
            return
        self.server.hub.watch_game(viewer, None)
        await self.server.send_lobby(viewer)

    # ------------------------------------------------------------------ game requests
    async def _session(self, frame: dict[str, Any]) -> GameSession:
        """The game a request names: the one this client watches, live."""
        viewer = self.viewer
        assert viewer is not None
        game_id = snowflake(frame.get("game_id"))
        if game_id is None or game_id != viewer.game_id:
            raise FrameError(
                "unknown_game",
                viewer.tr("That game is not the one on this channel's table."),
            )
        session = await self.server.games.session(game_id)
        if session is None:
            session = await self.server.games.load_game(game_id)
        if session is None:
            raise FrameError("unknown_game", viewer.tr("This game is over or no longer exists."))
        if session.game.is_over:
            raise FrameError("game_over", viewer.tr(game_over_error().msgid))
        return session

    async def _refusal(self, request_id: Any, exc: Exception, session: GameSession | None) -> bool:
        """Answer a refused request with its ``error`` frame; False if ``exc`` is unexpected."""
        viewer = self.viewer
        assert viewer is not None
        tr = viewer.tr
        code = "refused"
        if isinstance(exc, OutOfDate):
            code, text = "out_of_date", tr(exc.msgid)
        elif isinstance(exc, OutcomeUnknown):
            code = "store_failed"
            text = tr(
                "The bot's database did not answer in time, so it is not known yet whether "
                "your move was saved."
            )
        elif isinstance(exc, StoreError):
            code, text = "store_failed", fault_text(exc, tr, move=True)
        else:
            labels = None
            if session is not None:
                names = self.server.people.names_in(session.row.guild_id)
                labels = plain_labels(session, names, tr)
            found = error_text(exc, tr, labels)
            if found is None:
                return False
            text = found
            if isinstance(exc, GameOver):
                code = "game_over"
            elif isinstance(exc, NotYourTurn):
                code = "not_your_turn"
            elif isinstance(exc, IllegalMove):
                code = "illegal"
            elif isinstance(exc, ServiceError) and exc.msgid == NOT_YOUR_CONTROLS:
                code = "not_your_seat"
            elif isinstance(exc, ServiceError) and exc.msgid == game_over_error().msgid:
                code = "game_over"
        await self._error(request_id, code, text)
        return True

    async def on_act(self, frame: dict[str, Any]) -> None:
        """``act``: a move, through :func:`service.requests.play_request`."""
        viewer = self.viewer
        assert viewer is not None
        session = await self._session(frame)
        step = frame.get("step")
        raw = frame.get("action")
        if not isinstance(step, int) or isinstance(step, bool) or not isinstance(raw, dict):
            raise FrameError("bad_frame", self._bad_frame_text())
        try:
            action = action_from_dict(raw)
        except (KeyError, TypeError, ValueError):
            raise FrameError("bad_frame", self._bad_frame_text()) from None
        try:
            await play_request(
                self.server.games,
                session,
                viewer.user_id,
                action,
                version=step,
                origin=WEB_ORIGIN,
            )
        except Exception as exc:
            if not await self._refusal(frame.get("id"), exc, session):
                raise
            if isinstance(exc, OutOfDate):
                fresh = await self.server.games.session(session.id)
                if fresh is not None:
                    await self.server.hub.push_game(fresh, only=viewer)
            return
        self.send({"t": "ack", "id": frame.get("id")})

    async def on_auto_end(self, frame: dict[str, Any]) -> None:
        """``auto_end``: the seat's Auto end turn setting (and the due end of turn)."""
        viewer = self.viewer
        assert viewer is not None
        session = await self._session(frame)
        on = frame.get("on")
        if not isinstance(on, bool):
            raise FrameError("bad_frame", self._bad_frame_text())
        try:
            seat = seat_for(session, viewer.user_id)
            done = await switch_auto_end(self.server.games, session, seat, on, origin=WEB_ORIGIN)
        except Exception as exc:
            if not await self._refusal(frame.get("id"), exc, session):
                raise
            return
        self.send({"t": "ack", "id": frame.get("id")})
        if done.outcome is not AutoEnd.ENDED:  # no step: the setting shows in a fresh view
            viewer.step = -1
            await self.server.hub.push_game(session, only=viewer)

    async def on_hint(self, frame: dict[str, Any]) -> None:
        """``hint``: handled by the server's hint provider (coach), where allowed."""
        viewer = self.viewer
        assert viewer is not None
        session = await self._session(frame)
        try:
            seat = seat_for(session, viewer.user_id)
            text, action = await self.server.hint(session, seat, viewer.tr)
        except Exception as exc:
            if not await self._refusal(frame.get("id"), exc, session):
                raise
            return
        self.send({"t": "hint", "id": frame.get("id"), "text": text, "action": action})

    async def on_chat(self, frame: dict[str, Any]) -> None:
        """``chat``: a team message to the partner, through the table-talk guard (R10)."""
        viewer = self.viewer
        assert viewer is not None
        session = await self._session(frame)
        text = frame.get("text")
        if not isinstance(text, str) or not text.strip():
            raise FrameError("bad_frame", self._bad_frame_text())
        try:
            await self.server.team_chat(session, viewer, text)
        except Exception as exc:
            if not await self._refusal(frame.get("id"), exc, session):
                raise
            return
        self.send({"t": "ack", "id": frame.get("id")})

    async def on_react(self, frame: dict[str, Any]) -> None:
        """``react``: a quick reaction to the table (``WebServer.react``)."""
        viewer = self.viewer
        assert viewer is not None
        session = await self._session(frame)
        try:
            await self.server.react(session, viewer, frame.get("emoji"))
        except FrameError:
            raise
        except Exception as exc:
            if not await self._refusal(frame.get("id"), exc, session):
                raise
            return
        self.send({"t": "ack", "id": frame.get("id")})

    async def on_lobby(self, frame: dict[str, Any]) -> None:
        """``lobby``: the channel's lobby, as its buttons (web.lobby)."""
        viewer = self.viewer
        assert viewer is not None
        try:
            await self.server.lobby_request(viewer, frame)
        except FrameError:
            raise
        except Exception as exc:
            if not await self._refusal(frame.get("id"), exc, None):
                raise
            return
        self.send({"t": "ack", "id": frame.get("id")})

    async def on_rematch(self, frame: dict[str, Any]) -> None:
        """``rematch``: a new lobby with the same players and settings."""
        viewer = self.viewer
        assert viewer is not None
        game_id = snowflake(frame.get("game_id"))
        if game_id is None:
            raise FrameError("bad_frame", self._bad_frame_text())
        try:
            await self.server.rematch(viewer, game_id)
        except Exception as exc:
            if not await self._refusal(frame.get("id"), exc, None):
                raise
            return
        self.send({"t": "ack", "id": frame.get("id")})


def _parse(data: str) -> Any:
    """The frame's JSON value, or None when it is not JSON or nested too deep (web.frames).

    Frames reach here with at most :data:`MAX_MESSAGE` bytes (aiohttp's limit).
    """
    try:
        return parse_json(data, max_chars=MAX_MESSAGE)
    except ValueError:
        return None


def _request_id(frame: Any) -> int | float | None:
    """The request's ``id`` (a number the client picked), or None."""
    if not isinstance(frame, dict):
        return None
    request_id = frame.get("id")
    if not isinstance(request_id, int | float) or isinstance(request_id, bool):
        return None
    return request_id
