"""The Activity's web server: the built client, the sign-in API and the WebSocket (aiohttp.web).

One :class:`WebServer` per process, opened and closed by the entry point (``bot.py``) like the
metrics port. Routes (docs/ACTIVITY_PROTOCOL.md, ``hats-activity/1``):

- ``GET /api/config``: the client id and whether this is local mode;
- ``POST /api/token``: the Activity's OAuth2 code -> Discord's access token and this server's
  session (``web.auth``);
- ``POST /api/local`` (local mode only): a session for a name, no Discord;
- ``GET /ws``: one WebSocket per client (``web.socket``, ``web.hub``);
- ``GET /`` and static files: the browser app built into ``activity/dist`` (``npm run build``),
  or a page that says how to build it.

No Discord here: the bot hands in its GameService, catalogs, user names and locales, and two
callables: ``lobby_changed(row, status, closed)`` (the channel's lobby message is redrawn) and
``dispatch(event, *args)`` (the bot's events, e.g. ``hats_outbox``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from coach import suggest
from data import LobbyChange, LobbyRow, LobbySeat, StoreError
from data.game_flags import ACTIVITY_ONLY, HINTS, is_activity_only
from service import ServiceError
from service import lobby_requests as lobbies
from service.deadlines import SWAP_TIMEOUT, TURN_TIMER
from service.requests import hint_position
from texts.coach import hint_line
from texts.table_talk import HitKind, check_table_talk
from web.auth import (
    BadCode,
    DiscordOAuth,
    DiscordUnreachable,
    SeenCodes,
    Sessions,
)
from web.frames import parse_json
from web.hub import Hub, Viewer
from web.instances import ChannelAccess, DiscordInstances, InstanceCache, InstanceLookup
from web.local_users import CountedLocalUsers, LocalUsers
from web.people import People
from web.rate import take_token
from web.socket import RATE_BURST, RATE_PER_S, FrameError, serve_socket

if TYPE_CHECKING:
    from service import GameService, GameSession
    from texts.i18n import Tr, Translator

__all__ = ["CLIENT_DIR", "LOCAL_CHANNEL", "LOCAL_GUILD", "WebConfig", "WebServer"]

log = logging.getLogger("hats.web")

CLIENT_DIR = Path(__file__).resolve().parents[1] / "activity" / "dist"
"""Where ``npm run build`` puts the browser app (``activity/``)."""
LOCAL_GUILD = 1
"""Local mode's one pseudo server id (no Discord server has id 1)."""
LOCAL_CHANNEL = 2
"""Local mode's one pseudo channel id."""
PROTOCOL = "hats-activity/1"
NAME_MAX = 32
HINT_TURNS_KEPT = 10_000
"""At most this many (game, seat) hint turns are remembered (the oldest go first)."""
CHAT_MAX = 1500
"""Characters a team message may have (as ``/hats team message``)."""
MAX_BODY = 16 * 1024
"""Bytes an API request body may have."""
REACTIONS = ("👍", "👏", "😮", "😂", "🙈", "🎉")
"""The quick reactions a player may send to the table (issue 35 section 9): a fixed set, no
colour, no number, so a reaction never says more than the table-talk guard lets through (R10)."""
REACTION_BURST = 3.0
"""Reactions a player may send at once in one game."""
REACTION_PER_S = 1 / 3
"""Reactions a second a player may send on average in one game (one every 3 s)."""

NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hats</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Hats: the client is not built</h1>
<p>The browser app has not been built yet. Run <code>npm ci &amp;&amp; npm run build</code>
in the <code>activity/</code> folder (Node.js 20 and npm), then reload this page.</p>
</body></html>
"""


@dataclass(frozen=True, slots=True)
class WebConfig:
    """The web server's settings (``HATS_WEB_*``, ``DISCORD_CLIENT_*``; see bot.Settings).

    ``port`` 0 picks a free port (tests); ``client_secret`` None: no Discord sign-in (only
    local mode); ``discord_api``: Discord's API base URL (tests point it at a fake);
    ``session_ttl``: seconds a session lives; ``client_dir``: the built browser app;
    ``rate_per_s``/``rate_burst``: requests a second one WebSocket may send on average / at
    once (a request over the limit is answered ``rate_limited``); ``bot_token``: asks Discord
    where each Activity instance runs (web.instances; without it and ``client_id`` no
    WebSocket outside local mode is accepted).
    """

    port: int
    addr: str = "127.0.0.1"
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    discord_api: str = "https://discord.com/api/v10"
    local: bool = False
    session_ttl: float = 12 * 3600.0
    client_dir: Path = CLIENT_DIR
    rate_per_s: float = RATE_PER_S
    rate_burst: float = RATE_BURST
    bot_token: str | None = field(default=None, repr=False)


class WebServer:
    """The Activity's HTTP and WebSocket server over the game service.

    ``games``: the GameService; ``translator``: the catalogs; ``names``/``locales``: user id ->
    display name / Discord locale, shared with the bot; ``session_key``: the sessions' signing
    key (bytes); ``dispatch(event, *args)``: fire a bot event (``hats_outbox`` after a start,
    ``hats_lobby_changed`` for the lobby message, ``hats_team_chat``); ``public_tr(guild_id)``:
    the language of a server's public texts.
    """

    def __init__(
        self,
        config: WebConfig,
        games: GameService,
        translator: Translator,
        *,
        session_key: bytes,
        names: MutableMapping[int, str],
        locales: MutableMapping[int, str],
        dispatch: Callable[..., None],
        limits: Callable[[int], Any] | None = None,
        default_timer: Callable[[int], float | None] | None = None,
        swap_timeout: float | None = 120.0,
        run_cpu: Callable[..., Awaitable[Any]] | None = None,
        access: ChannelAccess | None = None,
        instances: InstanceLookup | None = None,
        local_users: LocalUsers | None = None,
    ) -> None:
        self.config = config
        self.games = games
        self.translator = translator
        self.names = names
        self.locales = locales
        self.dispatch = dispatch
        self.limits = limits
        self.default_timer = default_timer or (lambda guild_id: None)
        self.swap_timeout = swap_timeout
        self.run_cpu = run_cpu or _in_thread
        self._hint_turns: dict[tuple[int, int], tuple[int, int, int | None]] = {}
        """(game id, seat) -> the turn (round, active seat, seat to move) of its last hint."""
        self.local = config.local
        self.local_guild = LOCAL_GUILD
        self.local_channel = LOCAL_CHANNEL
        self.sessions = Sessions(session_key, ttl=config.session_ttl)
        self.codes = SeenCodes()
        self.oauth = (
            DiscordOAuth(config.discord_api, config.client_id or "", config.client_secret)
            if config.client_secret
            else None
        )
        self.people = People(names)
        """Nicknames and avatars Discord gave (web.people); the bot notes members here."""
        self.hub = Hub(games, translator, names, self.people)
        self.access = access
        """The bot's view of server channels' permissions (None: nobody may post there)."""
        if instances is None and config.bot_token and config.client_id and not config.local:
            instances = DiscordInstances(config.discord_api, config.client_id, config.bot_token)
        self.instances = InstanceCache(instances) if instances is not None else None
        """Verified Activity instances (None: only local mode accepts WebSockets)."""
        self.watch_listeners: list[Callable[[int | None], None]] = []
        """Called with a game id when its set of live viewers changed."""
        self.local_users: LocalUsers = local_users or CountedLocalUsers()
        """Gives local sign-ins their user ids (``web.local_users``)."""
        self._rng = random.Random(secrets.randbits(64))
        self._reaction_tokens: dict[tuple[int, int], tuple[float, float]] = {}
        self.app = self._build_app()
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port listened on, once started."""

    # ------------------------------------------------------------------ lifecycle
    def _build_app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_get("/api/config", self.config_route)
        app.router.add_post("/api/token", self.token_route)
        app.router.add_post("/api/local", self.local_route)
        app.router.add_get("/ws", self.socket_route)
        app.router.add_get("/", self.index_route)
        app.router.add_get("/{path:.*}", self.static_route)
        return app

    async def start(self) -> None:
        """Listen on ``config.addr``:``config.port`` (0: a free port, see :attr:`port`).

        Raises OSError when the port cannot be opened. The server and its connections run
        from an empty context: they belong to no request of the bot (a test harness that
        waits for the bot's work does not wait for a client's open WebSocket).
        """
        loop = asyncio.get_running_loop()
        await contextvars.Context().run(loop.create_task, self._listen())

    async def _listen(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.config.addr, self.config.port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self.config.port
        log.info("the Activity's web server listens on %s", self.address)

    @property
    def address(self) -> str:
        """``http://addr:port/``."""
        return f"http://{self.config.addr}:{self.port}/"

    async def stop(self) -> None:
        """Close every WebSocket, then the listening port (idempotent)."""
        await self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.oauth is not None:
            await self.oauth.close()
        lookup = self.instances.lookup if self.instances is not None else None
        if isinstance(lookup, DiscordInstances):
            await lookup.close()

    def watching(self, game_id: int, user_id: int, channel_id: int | None = None) -> bool:
        """Whether ``user_id`` watches game ``game_id`` live in the Activity (this process).

        ``channel_id``: the game's channel (its lobby's viewers count, see Hub.watching).
        """
        return self.hub.watching(game_id, user_id, channel_id)

    def game_may_have_started(self, game_id: int) -> None:
        """``hats_outbox`` for ``game_id``: its channel's Activity viewers may follow it now."""
        self.hub.game_may_have_started(game_id)

    def use_session_key(self, key: bytes) -> None:
        """Sign and check sessions with ``key`` from now on (local mode's stored key)."""
        self.sessions = Sessions(key, ttl=self.config.session_ttl)

    def watch_changed(self, game_id: int | None) -> None:
        """Tell the listeners that the viewers of ``game_id`` changed."""
        for listener in self.watch_listeners:
            listener(game_id)

    # ------------------------------------------------------------------ HTTP
    async def config_route(self, request: web.Request) -> web.Response:
        """``GET /api/config``."""
        return web.json_response(
            {"client_id": self.config.client_id or "", "local": self.local, "protocol": PROTOCOL}
        )

    async def token_route(self, request: web.Request) -> web.Response:
        """``POST /api/token``: exchange the Activity's OAuth2 code (see web.auth)."""
        body = await _json_body(request)
        code = body.get("code") if body is not None else None
        if not isinstance(code, str) or not code or len(code) > 512:
            return web.json_response({"error": "bad_request"}, status=400)
        if self.oauth is None:
            return web.json_response({"error": "not_configured"}, status=404)
        if not self.codes.first_use(code, time.time()):
            return web.json_response({"error": "bad_code"}, status=401)
        try:
            access_token, user = await self.oauth.exchange(code)
        except BadCode:
            return web.json_response({"error": "bad_code"}, status=401)
        except DiscordUnreachable as exc:
            log.warning("sign-in: Discord did not answer usably: %s", exc)
            return web.json_response({"error": "discord_unreachable"}, status=502)
        session, expires_at = self.sessions.issue(user.id, user.name)
        self.people.note_user(user.id, user.name, user.avatar)
        return web.json_response(
            {
                "access_token": access_token,
                "session": session,
                "user": {"id": str(user.id), "name": user.name},
                "expires_at": expires_at,
            }
        )

    async def local_route(self, request: web.Request) -> web.Response:
        """``POST /api/local`` (local mode only): a session for a chosen name."""
        if not self.local:
            return web.json_response({"error": "not_found"}, status=404)
        body = await _json_body(request)
        raw = body.get("name") if body is not None else None
        name = " ".join(raw.split()) if isinstance(raw, str) else ""
        if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
            return web.json_response({"error": "bad_request"}, status=400)
        try:
            user_id = await self.local_users.sign_in(name)
        except StoreError as exc:
            log.warning("local sign-in: the store did not answer: %s", exc)
            return web.json_response({"error": "store_failed"}, status=503)
        self.names[user_id] = name
        session, expires_at = self.sessions.issue(user_id, name, local=True)
        return web.json_response(
            {
                "session": session,
                "user": {"id": str(user_id), "name": name},
                "expires_at": expires_at,
            }
        )

    async def socket_route(self, request: web.Request) -> web.StreamResponse:
        """``GET /ws``: one WebSocket client."""
        return await serve_socket(self, request)

    async def index_route(self, request: web.Request) -> web.StreamResponse:
        """``GET /``: the built client's index.html, or how to build it."""
        index = self.config.client_dir / "index.html"
        if not index.is_file():
            return web.Response(text=NOT_BUILT, content_type="text/html")
        return web.FileResponse(index, headers={"Cache-Control": "no-cache"})

    async def static_route(self, request: web.Request) -> web.StreamResponse:
        """A file of the built client (never outside ``client_dir``)."""
        root = self.config.client_dir.resolve()
        relative = request.match_info["path"]
        if relative.startswith("api/"):
            raise web.HTTPNotFound()
        target = (root / relative).resolve()
        if not target.is_relative_to(root) or not target.is_file():
            if not (root / "index.html").is_file():
                return web.Response(text=NOT_BUILT, content_type="text/html", status=404)
            raise web.HTTPNotFound()
        cache = (
            "public, max-age=31536000, immutable" if "/assets/" in f"/{relative}" else "no-cache"
        )
        return web.FileResponse(target, headers={"Cache-Control": cache})

    # ------------------------------------------------------------------ lobbies
    def lobby_frame(self, row: LobbyRow | None, viewer: Viewer) -> dict[str, Any]:
        """The ``lobby`` frame of ``row`` for ``viewer``."""
        if row is None:
            return {"t": "lobby", "lobby": None}
        teams = lobbies.team_positions(row.seats) if len(row.seats) == lobbies.TEAM_SEATS else None
        names = self.people.names_in(row.guild_id)
        seats = []
        for index, seat in enumerate(row.seats):
            team = None
            if teams is not None:
                team = 0 if index in teams[0] else 1
            if seat.user_id is not None:
                name = names.get(seat.user_id) or viewer.tr("Player {n}", n=index + 1)
            else:
                name = viewer.tr("AI {n}", n=index + 1)
            seats.append(
                {
                    "user_id": str(seat.user_id) if seat.user_id is not None else None,
                    "name": name,
                    "ai_level": seat.ai_level,
                    "team": team,
                    "avatar": self.people.avatar(seat.user_id, row.guild_id),
                }
            )
        timer = row.settings.get(TURN_TIMER)
        return {
            "t": "lobby",
            "lobby": {
                "id": str(row.id),
                "host_id": str(row.host_id),
                "seats": seats,
                "max_seats": lobbies.MAX_SEATS,
                "timer": timer if isinstance(timer, int | float) and timer > 0 else None,
                "hints": bool(row.settings.get(HINTS)),
                "you_joined": any(s.user_id == viewer.user_id for s in row.seats),
                "you_host": row.host_id == viewer.user_id,
                "can_start": len(row.seats) >= lobbies.MIN_SEATS,
                "rated": not viewer.private,
                "note": (
                    viewer.tr(
                        "Unrated: games in direct messages count for no rating, "
                        "leaderboard or game night."
                    )
                    if viewer.private
                    else None
                ),
            },
        }

    async def send_lobby(self, viewer: Viewer) -> None:
        """Send ``viewer`` its channel's lobby (or that there is none)."""
        row = await self.games.lobby_in_channel(viewer.channel_id)
        viewer.send(self.lobby_frame(row, viewer))

    async def lobby_changed(
        self, channel_id: int, row: LobbyRow | None, *, status: str | None = None
    ) -> None:
        """The channel's lobby changed through the Activity: tell its viewers and the bot.

        ``row`` None: it closed (``status`` says why). The bot redraws the lobby message
        (event ``hats_lobby_changed(row, status, closed)``).
        """
        for viewer in list(self.hub.by_channel.get(channel_id, ())):
            if viewer.game_id is None:
                viewer.send(self.lobby_frame(row, viewer))

    def notify_lobby(self, channel_id: int) -> None:
        """A lobby changed elsewhere (the lobby message's buttons): resend it to the viewers."""
        viewers = [v for v in self.hub.by_channel.get(channel_id, ()) if v.game_id is None]
        if viewers:
            self.hub._spawn(self._resend_lobby(channel_id, viewers))

    async def _resend_lobby(self, channel_id: int, viewers: list[Viewer]) -> None:
        try:
            row = await self.games.lobby_in_channel(channel_id)
            if row is None:  # closed: maybe its game started (in any process)
                session = await self.games.session_in_channel(channel_id)
                if session is not None:
                    await self.hub.game_started(channel_id, session.id)
                    return
        except StoreError as exc:
            log.warning("channel %d: its lobby viewers are not refreshed: %s", channel_id, exc)
            return
        for viewer in viewers:
            if viewer.game_id is None:
                viewer.send(self.lobby_frame(row, viewer))

    def on_lobby_change(self, change: LobbyChange) -> None:
        """``Store.watch_lobbies``: a lobby changed in another process; tell its viewers here.

        ``channel_id`` None (notifications may have been missed): every watched lobby.
        """
        if change.origin == self.games.store.origin:
            return  # this process's own change: its viewers were told already
        channels = list(self.hub.by_channel) if change.channel_id is None else [change.channel_id]
        for channel_id in channels:
            self.notify_lobby(channel_id)

    async def lobby_request(self, viewer: Viewer, frame: dict[str, Any]) -> None:
        """A ``lobby`` frame: the channel's lobby, as its buttons do (service.lobby_requests).

        Raises FrameError for a malformed frame, ServiceError for a refusal.
        """
        op = frame.get("op")
        user_id = viewer.user_id
        games = self.games
        tr = viewer.tr
        if op != "leave":  # leaving is always allowed (it only frees a seat)
            await self.check_may_post(viewer)
        if op == "open":
            await self._open_lobby(viewer)
            return
        row = await games.lobby_in_channel(viewer.channel_id)
        if row is None:
            raise ServiceError("There is no open lobby in this channel. Open one with /hats new.")
        status: str | None = None
        closed = False
        if op == "join":
            if not any(s.user_id == user_id for s in row.seats) and self.limits is not None:
                await self.limits(user_id)
            row = await lobbies.join(games, row.id, user_id)
        elif op == "leave":
            row, closed = await lobbies.leave(games, row.id, user_id)
            if closed:
                status = "The lobby closed: everyone left."
        elif op == "team":
            team = frame.get("team")
            if team not in (0, 1) or isinstance(team, bool):
                raise FrameError(
                    "bad_frame", tr("The app sent a request this server does not understand.")
                )
            row = await lobbies.pick_team(games, row.id, user_id, team)
        elif op == "shuffle":
            lobbies.require_host(row, user_id)
            row = await lobbies.shuffle_teams(games, row.id, self._rng)
        elif op == "ai_add":
            level = frame.get("level", "normal")
            if level not in lobbies.AI_LEVELS:
                raise FrameError(
                    "bad_frame", tr("The app sent a request this server does not understand.")
                )
            lobbies.require_host(row, user_id)
            row = await lobbies.add_ai(games, row.id, level)
        elif op == "ai_remove":
            lobbies.require_host(row, user_id)
            row = await lobbies.remove_ai(games, row.id)
        elif op == "timer":
            seconds = frame.get("seconds")
            if (
                not isinstance(seconds, int)
                or isinstance(seconds, bool)
                or not 0 <= seconds <= lobbies.MAX_TIMER
            ):
                raise FrameError(
                    "bad_frame", tr("The app sent a request this server does not understand.")
                )
            lobbies.require_host(row, user_id)
            row = await lobbies.set_timer(games, row.id, seconds)
        elif op == "hints":
            on = frame.get("on")
            if not isinstance(on, bool):
                raise FrameError(
                    "bad_frame", tr("The app sent a request this server does not understand.")
                )
            row = await lobbies.set_hints(games, row.id, user_id, on)
        elif op == "start":
            lobbies.require_host(row, user_id)
            await self._start(viewer, row)
            return
        elif op == "cancel":
            lobbies.require_host(row, user_id)
            await games.close_lobby(row.id)
            closed, status = True, "This lobby was cancelled."
        else:
            raise FrameError(
                "bad_frame", tr("The app sent a request this server does not understand.")
            )
        self._lobby_event(viewer, "hats_lobby_changed", row, status, closed)
        await self.lobby_changed(viewer.channel_id, None if closed else row, status=status)

    def _lobby_event(self, viewer: Viewer, event: str, row: LobbyRow, *args: Any) -> None:
        """Tell the bot a lobby changed.

        It draws the lobby message (a server channel), or only keeps its expiry (a DM or
        group DM: the lobby lives in the Activity alone).
        """
        if viewer.private:
            if not (args and args[-1] is True):  # not closed
                self.dispatch("hats_lobby_updated", row)
            return
        self.dispatch(event, row, *args)

    async def check_may_post(self, viewer: Viewer) -> None:
        """Refuse (ServiceError) a lobby action of a user who may not post in its channel.

        A user who may not view the server channel or send messages there, as the bot sees
        its members and permission overwrites (the bot posts or edits the lobby and table
        messages there). DMs, group DMs and local mode have nothing to check.
        """
        if self.local or viewer.private:
            return
        allowed = False
        if self.access is not None and viewer.guild_id is not None:
            allowed = await self.access.may_post(viewer.guild_id, viewer.channel_id, viewer.user_id)
        if not allowed:
            raise ServiceError(
                "You need to see this channel and send messages in it to play here. "
                "Ask a server admin, or open Hats in another channel."
            )

    async def _open_lobby(self, viewer: Viewer) -> None:
        if self.limits is not None:
            await self.limits(viewer.user_id)
        timer = self.default_timer(viewer.guild_id or 0)
        settings: dict[str, Any] = {TURN_TIMER: timer or None, SWAP_TIMEOUT: self.swap_timeout}
        if viewer.private:
            settings[ACTIVITY_ONLY] = True  # a DM or group DM: unrated, no channel messages
        row = await self.games.open_lobby(
            viewer.guild_id or 0, viewer.channel_id, viewer.user_id, settings
        )
        if viewer.private:
            self.dispatch("hats_lobby_updated", row)
        else:
            self.dispatch("hats_lobby_opened", row)
        await self.lobby_changed(viewer.channel_id, row)

    async def _start(self, viewer: Viewer, row: LobbyRow) -> None:
        """Start the lobby's game (R3, R5) and move the channel's viewers to it."""
        if len(row.seats) < lobbies.MIN_SEATS:
            raise ServiceError("A game needs at least 2 players; wait for someone to join.")
        order = None
        if len(row.seats) == lobbies.TEAM_SEATS:
            order = lobbies.seat_order(row.seats)
            if order is None:
                raise ServiceError(
                    "The teams are unbalanced: each team needs exactly 2 players. Press Team A "
                    "or Team B to change your team, or let the host press Shuffle teams."
                )
        session = await self.games.start_game(row.id, order)
        if not viewer.private:
            self.dispatch("hats_lobby_changed", row, None, True, session.id)
        self.dispatch("hats_game_started_here", session)
        self.dispatch("hats_outbox", session.id)
        await self.hub.game_started(row.channel_id, session.id)

    async def rematch(self, viewer: Viewer, game_id: int) -> None:
        """A new lobby in the viewer's channel with the players of ``game_id``.

        Every viewer of the finished game in that channel (its players and spectators, this
        process) is moved to the new lobby: each gets the ``lobby`` frame (issue 35.1).
        Raises ServiceError (someone not of that game; a lobby or game already in the channel).
        """
        entries = await self.games.store.results.results_for_game(game_id)
        seats = [
            LobbySeat(user_id=e.user_id, ai_level=None if e.user_id else e.ai_level)
            for e in entries
        ]
        if viewer.user_id not in [s.user_id for s in seats]:
            raise ServiceError("Only the players of that game can start a rematch.")
        await self.check_may_post(viewer)
        await self._open_lobby(viewer)
        row = await self.games.lobby_in_channel(viewer.channel_id)
        if row is None:
            return
        extra = [s for s in seats if s.user_id != viewer.user_id][: lobbies.MAX_SEATS - 1]
        row = await self.games.update_lobby(
            row.id, lambda r: ((*r.seats, *extra), dict(r.settings))
        )
        self._lobby_event(viewer, "hats_lobby_changed", row, None, False)
        self._leave_finished_game(viewer.channel_id, game_id)
        await self.lobby_changed(viewer.channel_id, row)

    def _leave_finished_game(self, channel_id: int, game_id: int) -> None:
        """Move the channel's viewers of game ``game_id`` (over) to the channel's lobby."""
        moved = [v for v in self.hub.by_game.get(game_id, ()) if v.channel_id == channel_id]
        for other in moved:
            self.hub.watch_game(other, None)
        if moved:
            self.watch_changed(game_id)

    # ------------------------------------------------------------------ hints, team chat
    async def hint(self, session: GameSession, seat: int, tr: Tr) -> tuple[str, dict | None]:
        """``(text, action)``: the hint for ``seat`` as ``/hats hint`` words it.

        One a turn, in any unrated game (issue 35.10, :func:`service.requests.is_unrated`).
        ServiceError where hints are not allowed, the seat has nothing to do
        (:func:`service.requests.hint_position`) or already had this turn's hint; searched
        off the event loop.
        """
        obs, legal, seed = hint_position(session, seat, unrated=True)
        turn = (obs.round, obs.active_seat, obs.to_move)
        key = (session.id, seat)
        if self._hint_turns.get(key) == turn:
            raise ServiceError("You had this turn's hint already: one hint a turn.")
        self._hint_turns[key] = turn
        if len(self._hint_turns) > HINT_TURNS_KEPT:
            del self._hint_turns[next(iter(self._hint_turns))]
        try:
            hint = await self.run_cpu(suggest, obs, legal, seed, None)
        except BaseException:
            self._hint_turns.pop(key, None)  # no hint given: the turn's one is still there
            raise
        return hint_line(hint, tr), hint.action.to_dict()

    def _reaction_allowed(self, game_id: int, user_id: int, now: float) -> bool:
        """Take one of ``user_id``'s reaction tokens in ``game_id`` (a token bucket)."""
        key = (game_id, user_id)
        tokens, at = self._reaction_tokens.pop(key, (REACTION_BURST, now))
        allowed, left = take_token(tokens, at, now, burst=REACTION_BURST, per_s=REACTION_PER_S)
        self._reaction_tokens[key] = (left, now)
        while len(self._reaction_tokens) > 10_000:
            del self._reaction_tokens[next(iter(self._reaction_tokens))]
        return allowed

    async def react(self, session: GameSession, viewer: Viewer, emoji: object) -> None:
        """A quick reaction from ``viewer``'s seat, shown to everyone at the table (public).

        Raises FrameError ``bad_frame`` (not one of :data:`REACTIONS`) or ``rate_limited``
        (more than :data:`REACTION_BURST` at once, one every 3 s after), ServiceError for a
        spectator.
        """
        if not isinstance(emoji, str) or emoji not in REACTIONS:
            raise FrameError(
                "bad_frame", viewer.tr("The app sent a request this server does not understand.")
            )
        seat = session.seat_of(viewer.user_id)
        if seat is None:
            raise ServiceError("Only the players at the table can send reactions.")
        if not self._reaction_allowed(session.id, viewer.user_id, time.monotonic()):
            raise FrameError(
                "rate_limited", viewer.tr("Not so fast: wait a moment before the next reaction.")
            )
        frame = {"t": "reaction", "game_id": str(session.id), "seat": seat, "emoji": emoji}
        for other in list(self.hub.by_game.get(session.id, ())):
            other.send(frame)

    async def team_chat(self, session: GameSession, viewer: Viewer, text: str) -> None:
        """A team message from ``viewer`` to their partner (4 players), guarded (R10).

        Refused with the texts of ``/hats team message``. The partner's Activity clients get a
        ``chat`` frame; the bot relays it (team thread or DM, event ``hats_team_chat``) when
        the partner does not watch the game live.
        """
        tr = viewer.tr
        if session.game.seats != lobbies.TEAM_SEATS:
            raise ServiceError("Team chat is for 4-player games, where partners play as a team.")
        seat = session.seat_of(viewer.user_id)
        if seat is None:
            raise ServiceError("Only the players of this game have a partner to talk to.")
        if len(text) > CHAT_MAX:
            raise ServiceError("That request is too big.")
        verdict = check_table_talk(text)
        if not verdict.allowed:
            words = []
            for hit in verdict.hits:
                if hit.kind is HitKind.COLOUR:
                    words.append(tr("a hat type or colour ({word})", word=hit.text[:40]))
                else:
                    words.append(tr("a card number ({word})", word=hit.text[:40]))
            raise ServiceError(
                "Not sent: your message names {what}. Table talk: talk freely, but never "
                "name a card's type, colour or number. Rephrase it and send it again.",
                what=", ".join(words),
            )
        partner = session.game.partner(seat)
        assert partner is not None
        partner_id = session.seats[partner].user_id
        if partner_id is None:
            raise ServiceError("Your partner is an AI player; it cannot read team chat.")
        frame = {
            "t": "chat",
            "game_id": str(session.id),
            "from": seat,
            "name": self.people.names_in(session.row.guild_id).get(
                viewer.user_id, viewer.user.name
            ),
            "text": text,
        }
        for other in list(self.hub.by_game.get(session.id, ())):
            if other.user_id in (partner_id, viewer.user_id):
                other.send(frame)
        if not self.hub.watching(session.id, partner_id) and not is_activity_only(
            session.row.settings
        ):
            self.dispatch("hats_team_chat", session, seat, text)


async def _json_body(request: web.Request) -> dict[str, Any] | None:
    """The request's JSON object body, or None: the routes answer 400.

    None when it is not JSON, nested too deep, not an object or too big; the size is checked
    before parsing (web.frames).
    """
    with contextlib.suppress(ValueError, web.HTTPRequestEntityTooLarge):
        body = parse_json(await request.read(), max_chars=MAX_BODY)
        if isinstance(body, dict):
            return body
    return None


async def _in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in the loop's default thread pool (CPU work off the event loop)."""
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)
