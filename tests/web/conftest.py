"""The Activity's web server over a real store and game service, without Discord.

``web_world`` opens a SQLite store, a GameService (its ``dispatch`` hands ``hats_step`` to the
web hub at once, as ``bot.HatsBot.dispatch`` does), and the WebServer on a free loopback
port; ``fake_discord`` is a local fake of Discord's OAuth2 token and ``/users/@me`` endpoints.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from data import open_store
from data.rows import LobbySeat
from service import GameService, GameSession
from texts.i18n import Translator
from web import WebConfig, WebServer
from web.instances import Place

SECRET = "s3cret-client-secret"
CLIENT_ID = "111222333444555666"
BOT_TOKEN = "bot-t0ken"
GUILD = 424242424242
CHANNEL = 515151515151
PRIVATE = 525252525252
"""A channel of GUILD that only ``FakeAccess.private_members`` may see (permission overwrites)."""
DM = 535353535353
GROUP_DM = 545454545454
INSTANCE = {
    "server": ("gc", GUILD, CHANNEL),
    "private": ("gc", GUILD, PRIVATE),
    "dm": ("pc", None, DM),
    "group_dm": ("pc", None, GROUP_DM),
}
"""The fake's Activity instances: id ``i-<place>`` -> (kind, guild, channel)."""


@dataclass
class FakeAccess:
    """The bot's view of GUILD's members and of its channels' permission overwrites.

    ``members``: GUILD's members (anyone >= 500 unless removed); ``private_members``: who an
    overwrite lets view and send in PRIVATE (@everyone is denied there); ``calls``.
    """

    outsiders: set[int] = field(default_factory=set)
    private_members: set[int] = field(default_factory=set)
    calls: int = 0

    async def may_post(self, guild_id: int, channel_id: int, user_id: int) -> bool:
        self.calls += 1
        if guild_id != GUILD or user_id in self.outsiders:
            return False
        return channel_id != PRIVATE or user_id in self.private_members


@dataclass
class FakeDiscord:
    """Discord's OAuth2 token exchange and /users/@me, as far as the Activity's sign-in uses them.

    ``codes``: code -> user dict; ``hits``: how many calls each endpoint got; ``fail``: answer
    500 to everything.
    """

    codes: dict[str, dict[str, str]] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=lambda: {"token": 0, "me": 0, "instance": 0})
    users: dict[str, set[int]] = field(default_factory=lambda: {k: set() for k in INSTANCE})
    """The users connected to each instance of :data:`INSTANCE` (by place)."""
    fail: bool = False
    used: set[str] = field(default_factory=set)
    url: str = ""

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self.token)
        app.router.add_get("/api/v10/users/@me", self.me)
        app.router.add_get(
            "/api/v10/applications/{app}/activity-instances/{instance}", self.instance
        )
        return app

    async def instance(self, request: web.Request) -> web.Response:
        """Discord's "Get Application Activity Instance" (404: no such instance)."""
        self.hits["instance"] += 1
        if self.fail:
            return web.json_response({"message": "oops"}, status=500)
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        instance_id = request.match_info["instance"]
        place = instance_id.removeprefix("i-")
        if request.match_info["app"] != CLIENT_ID or place not in INSTANCE:
            return web.json_response({"message": "Unknown Application", "code": 10002}, status=404)
        kind, guild, channel = INSTANCE[place]
        location: dict[str, Any] = {"id": f"{kind}-{channel}", "kind": kind}
        location["channel_id"] = str(channel)
        if guild is not None:
            location["guild_id"] = str(guild)
        return web.json_response(
            {
                "application_id": CLIENT_ID,
                "instance_id": instance_id,
                "launch_id": "1276580072400224306",
                "location": location,
                "users": [str(u) for u in sorted(self.users[place])],
            }
        )

    async def token(self, request: web.Request) -> web.Response:
        self.hits["token"] += 1
        if self.fail:
            return web.json_response({"message": "oops"}, status=500)
        form = await request.post()
        if form.get("client_secret") != SECRET or form.get("client_id") != CLIENT_ID:
            return web.json_response({"error": "invalid_client"}, status=401)
        code = str(form.get("code"))
        if (
            code not in self.codes
            or code in self.used
            or form.get("grant_type") != ("authorization_code")
        ):
            return web.json_response({"error": "invalid_grant"}, status=400)
        self.used.add(code)
        return web.json_response(
            {"access_token": f"tok-{code}", "token_type": "Bearer", "expires_in": 604800}
        )

    async def me(self, request: web.Request) -> web.Response:
        self.hits["me"] += 1
        auth = request.headers.get("Authorization", "")
        code = auth.removeprefix("Bearer tok-")
        if not auth.startswith("Bearer tok-") or code not in self.codes:
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        return web.json_response(self.codes[code])


@dataclass
class InProcessInstances:
    """The fake's instances without HTTP (web.instances.InstanceLookup), for worlds that
    have no fake Discord server (two processes, the frame audit)."""

    fake: FakeDiscord

    async def fetch(self, instance_id: str) -> Place | None:
        self.fake.hits["instance"] += 1
        place = instance_id.removeprefix("i-")
        if place not in INSTANCE:
            return None
        kind, guild, channel = INSTANCE[place]
        return Place(instance_id, kind, guild, channel, frozenset(self.fake.users[place]))


@pytest.fixture
async def fake_discord():
    fake = FakeDiscord()
    async with TestServer(fake.app(), host="127.0.0.1") as server:
        fake.url = str(server.make_url("/api/v10"))
        yield fake


@dataclass
class WebWorld:
    """A store, a game service, the web server, and its URL."""

    games: GameService
    server: WebServer
    base: str
    events: list[tuple[str, tuple[Any, ...]]]
    http: aiohttp.ClientSession
    discord: FakeDiscord | None = None
    access: FakeAccess | None = None

    def session_for(self, user_id: int, name: str) -> str:
        return self.server.sessions.issue(user_id, name)[0]

    async def connect(
        self, user_id: int, name: str, *, place: str = "server", join: bool = True, **hello: Any
    ) -> Client:
        """``user_id``'s Activity in ``place`` (an :data:`INSTANCE` key): hello sent.

        ``join``: Discord lists the user in the instance (else a stranger claims it).
        """
        if join and self.discord is not None:
            self.discord.users[place].add(user_id)
        ws = await self.http.ws_connect(self.base + "ws")
        client = Client(ws, user_id)
        frame = {
            "t": "hello",
            "session": self.session_for(user_id, name),
            "instance_id": f"i-{place}",
            "channel_id": str(CHANNEL),
            "guild_id": str(GUILD),
            "locale": "en-US",
            "resume": None,
        } | hello
        await client.send(frame)
        return client

    async def start_game(
        self, users: list[int | None], *, ai: str = "easy", place: str = "server"
    ) -> int:
        """A lobby in ``place``'s channel with ``users`` (None: an AI seat) turned into a game."""
        humans = [u for u in users if u is not None]
        kind, guild, channel = INSTANCE[place]
        settings: dict[str, Any] = {"turn_timer": None}
        if kind == "pc":
            settings["activity_only"] = True
        row = await self.games.open_lobby(guild or 0, channel, humans[0], settings)
        seats = tuple(LobbySeat(user_id=u) if u else LobbySeat(ai_level=ai) for u in users)
        await self.games.update_lobby(row.id, lambda r: (seats, dict(r.settings)))
        session = await self.games.start_game(row.id)
        return session.id

    async def seated_game(
        self,
        users: list[int],
        *,
        name: str = "P{i}",
        watchers: Sequence[tuple[int, str]] = (),
        place: str = "server",
    ) -> tuple[list[Client], list[Client], GameSession]:
        """``users`` (named ``name.format(i=seat)``) and ``watchers`` (user id, name) open
        ``place``'s Activity and see its lobby; then the game of ``users`` starts and is
        shown to them. Returns ``(players' clients, watchers' clients, the live session)``."""
        clients = [
            await self.connect(u, name.format(i=i), place=place) for i, u in enumerate(users)
        ]
        watching = [await self.connect(u, n, place=place) for u, n in watchers]
        for client in [*clients, *watching]:
            await client.until(lambda f: f["t"] == "lobby")
        game_id = await self.start_game(users, place=place)
        await self.server.hub.game_started(INSTANCE[place][2], game_id)
        session = self.games.cached(game_id)
        assert session is not None
        return clients, watching, session


class Client:
    """A WebSocket client: reads frames, keeps the latest view."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, user_id: int) -> None:
        self.ws = ws
        self.user_id = user_id
        self.frames: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.close_code: int | None = None
        self._ids = itertools.count(1)

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(frame))

    async def request(self, frame: dict[str, Any]) -> int:
        request_id = next(self._ids)
        await self.send(frame | {"id": request_id})
        return request_id

    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        msg = await asyncio.wait_for(self.ws.receive(), timeout)
        if msg.type is aiohttp.WSMsgType.CLOSE:
            self.close_code = msg.data
        if msg.type is not aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"closed: {msg.type} {msg.data} {msg.extra}")
        frame = json.loads(msg.data)
        self.frames.append(frame)
        if frame.get("t") == "view":
            self.view = frame
        return frame

    async def until(self, test: Callable[[dict[str, Any]], bool], timeout: float = 5.0) -> dict:
        while True:
            frame = await self.recv(timeout)
            if test(frame):
                return frame

    async def answer(self, request_id: int) -> dict[str, Any]:
        return await self.until(
            lambda f: f.get("t") in ("ack", "error", "hint") and f.get("id") == request_id
        )

    async def view_at(self, step: int) -> dict[str, Any]:
        if self.view is not None and self.view["step"] >= step:
            return self.view
        return await self.until(lambda f: f.get("t") == "view" and f["step"] >= step)


@contextlib.asynccontextmanager
async def open_web_world(
    where: Path,
    discord_url: str = "http://127.0.0.1:9/api/v10",
    *,
    database: str | None = None,
    discord: FakeDiscord | None = None,
    **settings: Any,
):
    """A store under ``where`` (or ``database``, a PostgreSQL URL), its game service and the
    web server on a free port, following other processes' changes as the bot does.

    ``settings``: WebConfig fields to change (e.g. ``rate_per_s``).
    """
    store = await open_store(database or where / "hats.sqlite3")
    seeds = itertools.count(7001)
    events: list[tuple[str, tuple[Any, ...]]] = []
    holder: dict[str, WebServer] = {}

    def dispatch(name: str, *args: Any) -> None:
        events.append((name, args))
        server = holder.get("server")
        if server is not None and name == "hats_step":
            server.hub.on_step(*args)

    games = GameService(store, lambda: next(seeds), dispatch=dispatch)
    await games.start()
    config = WebConfig(
        port=0,
        client_id=CLIENT_ID,
        client_secret=SECRET,
        discord_api=discord_url,
        client_dir=where / "dist",
        **({"bot_token": BOT_TOKEN} | settings),
    )
    access = FakeAccess()
    lookup = None
    if discord is None:
        discord = FakeDiscord()
        lookup = InProcessInstances(discord)
    server = WebServer(
        config,
        games,
        Translator.load(),
        session_key=b"k" * 32,
        names={},
        locales={},
        dispatch=dispatch,
        access=access,
        instances=lookup,
    )
    holder["server"] = server
    if server.instances is not None:
        server.instances.recheck = 0.05  # newcomers a moment apart (seconds)
    await store.watch(server.hub.on_change)  # as bot.HatsBot.open_web
    await store.watch_lobbies(server.on_lobby_change)
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            yield WebWorld(games, server, server.address, events, http, discord, access)
    finally:
        await server.stop()
        await store.close()


@pytest.fixture
async def web_world(tmp_path, fake_discord):
    async with open_web_world(tmp_path, fake_discord.url, discord=fake_discord) as world:
        yield world
