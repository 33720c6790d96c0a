"""Sign-in as Discord's Activities do it, and the server's own sessions (hats-activity/1).

The browser app asks Discord for an OAuth2 ``code`` (Embedded App SDK ``authorize``, scope
``identify``) and posts it to ``/api/token``. :class:`DiscordOAuth` exchanges it with Discord
(``POST {api}/oauth2/token`` with the client id and secret, Discord docs "OAuth2: Authorization
Code Grant") and reads the user from ``GET {api}/users/@me`` with the access token: the user id
is always Discord's, never one the client claims. A code is exchanged once: a code posted again
is refused before Discord is asked (:class:`SeenCodes`).

:class:`Sessions` signs the server's own session with ``itsdangerous`` (HMAC-SHA1 over the
payload and a timestamp): bound to the user id, expiring after ``ttl`` seconds. A forged
session raises :class:`BadSession`, an expired one :class:`ExpiredSession`. The signing key is
derived from the client secret (every process of one application shares it) or, without one
(local mode), a random key kept in the store's meta table; the secret itself is never logged
nor sent.

Local mode (no Discord): :func:`local_user_id` gives ids that can never be Discord ids: a
snowflake carries its creation time in milliseconds since 2015 above bit 22, so every
Discord user id is far above 2**22 (a whole 64-bit id still fits the store's integers).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import aiohttp
from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer

__all__ = [
    "LOCAL_ID_BASE",
    "LOCAL_ID_LIMIT",
    "BadCode",
    "BadSession",
    "DiscordOAuth",
    "DiscordUnreachable",
    "ExpiredSession",
    "SeenCodes",
    "SessionUser",
    "Sessions",
    "derive_key",
    "is_local_id",
    "local_user_id",
]

log = logging.getLogger("hats.web.auth")

SESSION_SALT = "hats-activity/1 session"
LOCAL_ID_LIMIT = 1 << 22
"""Local users' ids are below it; a Discord snowflake (time << 22) never is."""
LOCAL_ID_BASE = 1000
"""Local users' ids start above it (small numbers stay free for tests and fixtures)."""
HTTP_TIMEOUT_S = 10.0
"""Seconds a call to Discord's API may take before the sign-in answers 502."""


class BadCode(Exception):
    """Discord refused the OAuth2 code (invalid, expired, already used): ``401 bad_code``."""


class DiscordUnreachable(Exception):
    """Discord's API did not answer usably (network, 5xx, a malformed answer): ``502``."""


class BadSession(Exception):
    """A session that was not signed by this application (forged, altered, malformed)."""


class ExpiredSession(BadSession):
    """A session signed by this application whose time ran out."""


@dataclass(frozen=True, slots=True)
class SessionUser:
    """Who a session belongs to.

    ``user_id`` (Discord's, or a local id), a display ``name``, ``local`` (signed in with
    ``/api/local``) and ``expires_at`` (unix seconds).
    """

    user_id: int
    name: str
    local: bool
    expires_at: float


def derive_key(secret: str, purpose: str) -> bytes:
    """A key for ``purpose`` derived from ``secret`` (HMAC-SHA256).

    The secret is never used as a key itself, so a leaked session key does not reveal it.
    """
    return hmac.new(secret.encode(), purpose.encode(), hashlib.sha256).digest()


def local_user_id(number: int) -> int:
    """The ``number``-th local user's id (``number`` >= 1): never a Discord id."""
    if not 1 <= number < LOCAL_ID_LIMIT - LOCAL_ID_BASE:
        raise ValueError(f"local user number out of range: {number}")
    return LOCAL_ID_BASE + number


def is_local_id(user_id: int) -> bool:
    """True for an id :func:`local_user_id` gave."""
    return LOCAL_ID_BASE < user_id < LOCAL_ID_LIMIT


class Sessions:
    """Signs and checks the server's sessions (``itsdangerous.URLSafeTimedSerializer``).

    ``key``: the signing key (bytes); ``ttl``: seconds a session lives; ``clock()``: unix
    seconds.
    """

    def __init__(self, key: bytes, *, ttl: float = 12 * 3600.0, clock: Any = time.time) -> None:
        self.ttl = ttl
        self.clock = clock
        signer = type(
            "ClockSigner", (TimestampSigner,), {"get_timestamp": lambda _: int(self.clock())}
        )
        self._serializer = URLSafeTimedSerializer(key, salt=SESSION_SALT, signer=signer)

    def issue(self, user_id: int, name: str, *, local: bool = False) -> tuple[str, float]:
        """A new session for ``user_id``: ``(token, expires_at)``.

        Every call gives a different token (a random nonce ``r``): two sign-ins of one user
        in the same second are two sessions, whose WebSockets do not replace each other.
        """
        now = self.clock()
        payload = {
            "u": str(user_id),
            "n": name,
            "l": local,
            "i": int(now),
            "r": secrets.token_urlsafe(9),
        }
        token = self._serializer.dumps(payload)
        return token, float(int(now)) + self.ttl

    def check(self, token: object) -> SessionUser:
        """The user of a session; BadSession (forged, malformed) or ExpiredSession."""
        if not isinstance(token, str) or not token or len(token) > 2048:
            raise BadSession("no session")
        now = self.clock()
        try:
            payload, signed_at = self._serializer.loads(token, max_age=None, return_timestamp=True)
        except SignatureExpired as exc:  # pragma: no cover - max_age is checked below
            raise ExpiredSession(str(exc)) from None
        except BadSignature:
            raise BadSession("bad signature") from None
        issued = signed_at.timestamp()
        if issued > now + 60:
            raise BadSession("issued in the future")
        if now - issued > self.ttl:
            raise ExpiredSession("expired")
        try:
            user_id = int(payload["u"])
            name = str(payload["n"])
            local = bool(payload["l"])
        except (KeyError, TypeError, ValueError):
            raise BadSession("malformed") from None
        return SessionUser(user_id, name, local, issued + self.ttl)


class SeenCodes:
    """OAuth2 codes already exchanged, kept ``ttl`` seconds (Discord's codes live 10 min).

    A code posted twice is a replay: refused without asking Discord.
    """

    def __init__(self, ttl: float = 600.0, *, limit: int = 100_000) -> None:
        self.ttl = ttl
        self.limit = limit
        self._seen: OrderedDict[str, float] = OrderedDict()

    def first_use(self, code: str, now: float) -> bool:
        """Note ``code``; True the first time it is seen within ``ttl``."""
        while self._seen and (
            next(iter(self._seen.values())) < now - self.ttl or len(self._seen) > self.limit
        ):
            self._seen.popitem(last=False)
        digest = hashlib.sha256(code.encode()).hexdigest()
        if digest in self._seen:
            return False
        self._seen[digest] = now
        return True


@dataclass(frozen=True, slots=True)
class DiscordUser:
    """The user Discord's ``/users/@me`` names: ``id``, the name to show, the avatar hash."""

    id: int
    name: str
    avatar: str | None = None


class DiscordOAuth:
    """Exchanges an Activity's OAuth2 code with Discord and reads the user it belongs to.

    ``api``: Discord's API base URL (``https://discord.com/api/v10``; tests point it at a local
    fake); ``client_id``, ``client_secret``: the application's (Developer Portal, OAuth2).
    """

    def __init__(self, api: str, client_id: str, client_secret: str) -> None:
        self.api = api.rstrip("/")
        self.client_id = client_id
        self._secret = client_secret
        self._http: aiohttp.ClientSession | None = None

    def __repr__(self) -> str:  # never show the secret
        return f"DiscordOAuth(api={self.api!r}, client_id={self.client_id!r})"

    def _client(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=HTTP_TIMEOUT_S))
        return self._http

    async def close(self) -> None:
        """Close the HTTP client."""
        if self._http is not None:
            await self._http.close()
            self._http = None

    async def exchange(self, code: str) -> tuple[str, DiscordUser]:
        """``(access_token, user)`` for an OAuth2 ``code``.

        Raises BadCode when Discord refuses the code (4xx) or the token (4xx on /users/@me),
        DiscordUnreachable when Discord cannot be reached or answers 5xx or nonsense.
        """
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        http = self._client()
        try:
            async with http.post(f"{self.api}/oauth2/token", data=form) as answer:
                body = await _json(answer)
                if 400 <= answer.status < 500:
                    raise BadCode(str(body.get("error", answer.status)))
                if answer.status != 200:
                    raise DiscordUnreachable(f"oauth2/token answered {answer.status}")
            token = body.get("access_token")
            if not isinstance(token, str) or not token:
                raise DiscordUnreachable("oauth2/token gave no access_token")
            headers = {"Authorization": f"Bearer {token}"}
            async with http.get(f"{self.api}/users/@me", headers=headers) as answer:
                me = await _json(answer)
                if 400 <= answer.status < 500:
                    raise BadCode(f"users/@me answered {answer.status}")
                if answer.status != 200:
                    raise DiscordUnreachable(f"users/@me answered {answer.status}")
        except (TimeoutError, aiohttp.ClientError) as exc:
            raise DiscordUnreachable(type(exc).__name__) from None
        raw_id = me.get("id")
        if not isinstance(raw_id, str) or not raw_id.isdecimal() or int(raw_id) < LOCAL_ID_LIMIT:
            raise DiscordUnreachable("users/@me gave no user id")
        name = me.get("global_name") or me.get("username") or raw_id
        avatar = me.get("avatar")
        avatar = avatar if isinstance(avatar, str) else None
        return token, DiscordUser(int(raw_id), str(name)[:32], avatar)


async def _json(answer: aiohttp.ClientResponse) -> dict[str, Any]:
    try:
        body = await answer.json(content_type=None)
    except ValueError:
        if answer.status >= 500:
            return {}
        raise DiscordUnreachable("not JSON") from None
    return body if isinstance(body, dict) else {}


def random_key() -> str:
    """A new random signing key (hex), for local mode's meta table."""
    return secrets.token_hex(32)
