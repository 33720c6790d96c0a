"""Where an Activity runs, as Discord says it: the Activity Instance API (hats-activity/1).

The client sends its instance id (the Embedded App SDK's ``discordSdk.instanceId``); the
server never believes the client's channel or server. :class:`DiscordInstances` asks Discord
``GET {api}/applications/{application_id}/activity-instances/{instance_id}`` with the bot
token (Discord docs, "Application: Get Application Activity Instance"), whose answer is::

    {"application_id": "…", "instance_id": "i-…", "launch_id": "…",
     "location": {"id": "gc-…", "kind": "gc" | "pc", "channel_id": "…", "guild_id": "…"?},
     "users": ["<user id>", …]}

``kind`` ``gc`` is a server channel, ``pc`` a private channel (a DM or a group DM, no
``guild_id``); ``users`` are the users connected to the instance. An instance that ended
answers 404.

:class:`InstanceCache` keeps each answer :data:`INSTANCE_TTL` seconds and asks again when a
user it does not list yet connects (someone who just joined), at most once per
:data:`RECHECK_S` seconds per instance (a newcomer within that time waits for the next
call); concurrent connections of one instance share one call.
:meth:`InstanceCache.verify` returns the :class:`Place` or raises :class:`NotInInstance`,
:class:`UnknownInstance` or :class:`~web.auth.DiscordUnreachable`.

:class:`ChannelAccess` is what the bot tells the web server about a server channel: whether a
member may view it and send messages there (as the bot sees its members and permission
overwrites); the web server asks it before an action that creates or posts something there.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp

from web.auth import HTTP_TIMEOUT_S, DiscordUnreachable
from web.frames import snowflake

__all__ = [
    "INSTANCE_TTL",
    "RECHECK_S",
    "ChannelAccess",
    "DiscordInstances",
    "InstanceCache",
    "InstanceLookup",
    "KnownInstances",
    "NotInInstance",
    "Place",
    "UnknownInstance",
]

INSTANCE_TTL = 60.0
"""Seconds an instance's answer is used before Discord is asked again."""
RECHECK_S = 2.0
"""Seconds between two calls for one instance when a user it does not list connects."""
MAX_INSTANCE_ID = 200
"""Characters an instance id may have (Discord's are about 70)."""
_INSTANCE_ID = re.compile(r"[A-Za-z0-9_-]{1,200}")


class NotInInstance(Exception):
    """The user is not connected to the instance (Discord does not list them)."""


class UnknownInstance(Exception):
    """No such instance (never was, ended, malformed id, another application's)."""


@dataclass(frozen=True, slots=True)
class Place:
    """An Activity instance's location and users, as Discord answered.

    ``kind``: ``"gc"`` (a server channel) or ``"pc"`` (a DM or group DM); ``guild_id``: the
    server (None for ``pc``); ``channel_id``: the channel (the DM's own id for ``pc``);
    ``users``: the ids of the users connected; ``fetched_at``: the cache clock's seconds.
    """

    instance_id: str
    kind: str
    guild_id: int | None
    channel_id: int
    users: frozenset[int]
    fetched_at: float = 0.0

    @property
    def private(self) -> bool:
        """True in a DM or group DM: the game lives in the Activity alone."""
        return self.kind == "pc"


class InstanceLookup(Protocol):
    """Reads one instance from Discord."""

    async def fetch(self, instance_id: str) -> Place | None:
        """The instance's place (``fetched_at`` 0), None when Discord knows no such instance.

        Raises DiscordUnreachable when Discord does not answer usably.
        """
        ...


class ChannelAccess(Protocol):
    """The bot's view of a server channel's permissions."""

    async def may_post(self, guild_id: int, channel_id: int, user_id: int) -> bool:
        """Whether ``user_id`` may view ``channel_id`` and send messages there."""
        ...


def place_from(body: Any, instance_id: str) -> Place | None:
    """The :class:`Place` of an activity-instance answer, None when it is not one."""
    if not isinstance(body, dict) or body.get("instance_id") != instance_id:
        return None
    location = body.get("location")
    users = body.get("users")
    if not isinstance(location, dict) or not isinstance(users, list):
        return None
    kind = location.get("kind")
    channel = snowflake(location.get("channel_id"), text_only=True)
    guild = snowflake(location.get("guild_id"), text_only=True)
    if kind not in ("gc", "pc") or channel is None or (kind == "gc" and guild is None):
        return None
    ids = frozenset(u for u in (snowflake(x, text_only=True) for x in users) if u is not None)
    return Place(instance_id, kind, guild if kind == "gc" else None, channel, ids)


class DiscordInstances:
    """:class:`InstanceLookup` over Discord's HTTP API (aiohttp), with the bot token.

    ``api``: the API base URL (tests point it at a fake); ``application_id``; ``bot_token``.
    ``calls`` counts the requests made (BENCHMARKS: Discord calls per connection).
    """

    def __init__(self, api: str, application_id: str, bot_token: str) -> None:
        self.api = api.rstrip("/")
        self.application_id = application_id
        self._token = bot_token
        self._http: aiohttp.ClientSession | None = None
        self.calls = 0

    def __repr__(self) -> str:  # never show the token
        return f"DiscordInstances(api={self.api!r}, application_id={self.application_id!r})"

    async def fetch(self, instance_id: str) -> Place | None:
        """See :meth:`InstanceLookup.fetch`."""
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=HTTP_TIMEOUT_S))
        url = f"{self.api}/applications/{self.application_id}/activity-instances/{instance_id}"
        headers = {"Authorization": f"Bot {self._token}"}
        self.calls += 1
        try:
            async with self._http.get(url, headers=headers) as answer:
                if answer.status == 404:
                    return None
                if answer.status != 200:
                    raise DiscordUnreachable(f"activity-instances answered {answer.status}")
                try:
                    body = await answer.json(content_type=None)
                except ValueError:
                    raise DiscordUnreachable("activity-instances: not JSON") from None
        except (TimeoutError, aiohttp.ClientError) as exc:
            raise DiscordUnreachable(type(exc).__name__) from None
        place = place_from(body, instance_id)
        if place is None:
            raise DiscordUnreachable("activity-instances: not an instance")
        return place

    async def close(self) -> None:
        """Close the HTTP client."""
        if self._http is not None:
            await self._http.close()
            self._http = None


class InstanceCache:
    """Verified places by instance id (see the module's docstring).

    ``lookup``: asks Discord; ``ttl``, ``recheck``: seconds (:data:`INSTANCE_TTL`,
    :data:`RECHECK_S`); ``clock()``: monotonic seconds; ``limit``: instances kept.
    """

    def __init__(
        self,
        lookup: InstanceLookup,
        *,
        ttl: float = INSTANCE_TTL,
        recheck: float = RECHECK_S,
        clock: Callable[[], float] = time.monotonic,
        limit: int = 10_000,
    ) -> None:
        self.lookup = lookup
        self.ttl = ttl
        self.recheck = recheck
        self.clock = clock
        self.limit = limit
        self._places: OrderedDict[str, Place] = OrderedDict()
        self._asking: dict[str, asyncio.Future[Place | None]] = {}

    async def verify(self, instance_id: object, user_id: int) -> Place:
        """The place of ``instance_id`` if ``user_id`` is connected to it.

        Raises UnknownInstance (no such instance, malformed id), NotInInstance (Discord does
        not list the user, also after asking again), DiscordUnreachable.
        """
        if not isinstance(instance_id, str) or not _INSTANCE_ID.fullmatch(instance_id):
            raise UnknownInstance("malformed instance id")
        now = self.clock()
        place = self._places.get(instance_id)
        if place is not None and now - place.fetched_at <= self.ttl:
            if user_id in place.users:
                return place
            wait = place.fetched_at + self.recheck - now
            if wait > 0:  # asked a moment ago: ask again once the moment is over
                await asyncio.sleep(wait)
        place = await self._ask(instance_id)
        if place is None:
            self._places.pop(instance_id, None)
            raise UnknownInstance(instance_id)
        if user_id not in place.users:
            raise NotInInstance(instance_id)
        return place

    async def _ask(self, instance_id: str) -> Place | None:
        """One call to Discord for ``instance_id`` at a time; concurrent callers share it."""
        running = self._asking.get(instance_id)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[Place | None] = asyncio.get_running_loop().create_future()
        self._asking[instance_id] = future
        try:
            found = await self.lookup.fetch(instance_id)
            if found is not None:
                found = Place(
                    found.instance_id,
                    found.kind,
                    found.guild_id,
                    found.channel_id,
                    found.users,
                    self.clock(),
                )
                self._places[instance_id] = found
                self._places.move_to_end(instance_id)
                while len(self._places) > self.limit:
                    self._places.popitem(last=False)
            future.set_result(found)
            return found
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning without waiters
            raise
        finally:
            del self._asking[instance_id]


class KnownInstances:
    """An :class:`InstanceLookup` over places known in advance: no Discord.

    For benchmarks and tests. ``calls`` counts the look-ups, as :class:`DiscordInstances`
    counts its requests.
    """

    def __init__(self) -> None:
        self.places: dict[str, Place] = {}
        self.calls = 0

    def join(
        self, instance_id: str, user_id: int, *, channel_id: int, guild_id: int | None
    ) -> None:
        """Put ``user_id`` into the instance (``gc`` with a guild, else ``pc``)."""
        old = self.places.get(instance_id)
        users = (old.users if old is not None else frozenset()) | {user_id}
        kind = "gc" if guild_id is not None else "pc"
        self.places[instance_id] = Place(instance_id, kind, guild_id, channel_id, users)

    async def fetch(self, instance_id: str) -> Place | None:
        """See :meth:`InstanceLookup.fetch`."""
        self.calls += 1
        return self.places.get(instance_id)
