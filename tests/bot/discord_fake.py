"""A local fake of the few Discord API routes simcord does not serve, over real HTTP (aiohttp).

simcord answers an interaction callback it does not know (``LAUNCH_ACTIVITY``, type 12) with
400, and its command registry refuses the Entry Point command's ``handler`` field. This fake
serves them as Discord documents them, and records every call (method, path, JSON body):

- ``POST /interactions/{id}/{token}/callback``: records the body, answers an interaction
  callback response (Discord: "Interaction Callback Response Object");
- ``GET``/``PUT /applications/{app}/commands``: the global commands; a bulk overwrite replaces
  all of them (commands left out are deleted), keeps the ids of commands matched by name and
  type, and refuses a payload with more than one ``PRIMARY_ENTRY_POINT`` command;
- ``GET /users/@me``: the bot user (discord.py's login).

:func:`launches_via` routes the bot's LAUNCH_ACTIVITY callbacks under simcord to the fake
through discord.py's own webhook adapter (real HTTP); every other response stays simcord's.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web
from discord.webhook.async_ import AsyncWebhookAdapter
from simcord import _dpy_internals

LAUNCH_ACTIVITY = 12
"""Discord's interaction callback type LAUNCH_ACTIVITY."""


def _json(data: Any, status: int = 200) -> web.Response:
    """A JSON answer as Discord sends it (``Content-Type: application/json``, no charset:
    discord.py reads the body as JSON only then)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


@dataclass
class FakeDiscordAPI:
    """The fake's state: ``calls`` (method, path, body), ``commands`` (the app's global ones)."""

    calls: list[tuple[str, str, Any]] = field(default_factory=list)
    commands: list[dict[str, Any]] = field(default_factory=list)
    base: str = ""
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(9_000_000_000_000_001))

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/api/v10/interactions/{id}/{token}/callback", self.callback)
        app.router.add_get("/api/v10/applications/{app}/commands", self.get_commands)
        app.router.add_put("/api/v10/applications/{app}/commands", self.put_commands)
        app.router.add_get("/api/v10/users/@me", self.me)
        return app

    async def _note(self, request: web.Request) -> Any:
        body = await request.json() if request.can_read_body else None
        self.calls.append((request.method, request.path.removeprefix("/api/v10"), body))
        return body

    def callbacks(self) -> list[dict[str, Any]]:
        """The bodies of the interaction callbacks received."""
        return [b for m, p, b in self.calls if m == "POST" and p.endswith("/callback")]

    async def callback(self, request: web.Request) -> web.Response:
        body = await self._note(request)
        instance = {"id": f"i-{request.match_info['id']}"}
        return _json(
            {
                "interaction": {
                    "id": request.match_info["id"],
                    "type": 2,
                    "activity_instance_id": instance["id"],
                    "response_message_id": None,
                    "response_message_loading": False,
                    "response_message_ephemeral": False,
                },
                "resource": {"type": body.get("type"), "activity_instance": instance},
            }
        )

    async def get_commands(self, request: web.Request) -> web.Response:
        await self._note(request)
        return _json(self.commands)

    async def put_commands(self, request: web.Request) -> web.Response:
        body = await self._note(request)
        if sum(1 for c in body if c.get("type") == 4) > 1:
            return _json(
                {"code": 50035, "message": "Invalid Form Body: one primary entry point"},
                status=400,
            )
        old = {(c["name"], c.get("type", 1)): c for c in self.commands}
        new = []
        for command in body:
            kept = old.get((command["name"], command.get("type", 1)))
            entry = {
                "type": 1,
                **command,
                "id": kept["id"] if kept else str(next(self._ids)),
                "application_id": request.match_info["app"],
                "version": "1",
            }
            new.append(entry)
        self.commands = new
        return _json(new)

    async def me(self, request: web.Request) -> web.Response:
        await self._note(request)
        return _json(
            {"id": "7000000000000001", "username": "hats", "discriminator": "0", "bot": True}
        )


@contextlib.asynccontextmanager
async def fake_discord_api():
    """Serve a :class:`FakeDiscordAPI` on a free loopback port (``fake.base``: its API URL)."""
    fake = FakeDiscordAPI()
    runner = web.AppRunner(fake.app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    fake.base = f"http://127.0.0.1:{port}/api/v10"
    try:
        yield fake
    finally:
        await runner.cleanup()


class _LaunchRouter:
    """simcord's webhook adapter, except LAUNCH_ACTIVITY callbacks: real HTTP to the fake."""

    def __init__(self, inner: Any, fake: FakeDiscordAPI, env: Any, http: aiohttp.ClientSession):
        self.inner = inner
        self.fake = fake
        self.env = env
        self.http = http
        self.real = AsyncWebhookAdapter()

    def __getattr__(self, name: str) -> Any:
        return _dpy_internals.bind_webhook_helper(self, name)

    async def request(self, route: Any, session: Any, *, payload: Any = None, **kwargs: Any):
        if (
            route.method == "POST"
            and route.url.endswith("/callback")
            and isinstance(payload, dict)
            and payload.get("type") == LAUNCH_ACTIVITY
        ):
            rebased = copy.copy(route)
            rebased.url = self.fake.base + route.url.split("/api/v10", 1)[1]
            data = await self.real.request(rebased, self.http, payload=payload, **kwargs)
            record = self.env.backend.interactions.get(int(route.url.split("/")[-3]))
            if record is not None:
                record.pong()  # answered (simcord has no other marker for this type)
            return data
        return await self.inner.request(route, session, payload=payload, **kwargs)


@contextlib.asynccontextmanager
async def launches_via(env: Any, fake: FakeDiscordAPI):
    """While open, the bot's LAUNCH_ACTIVITY callbacks under simcord go to ``fake``."""
    inner = env._webhook_adapter
    async with aiohttp.ClientSession() as http:
        env._webhook_adapter = _LaunchRouter(inner, fake, env, http)
        try:
            yield
        finally:
            env._webhook_adapter = inner
