"""The people at the table: the names and avatars the Activity shows (issue 34 section 3).

Only what Discord said, never what a client claims: the user's global name and avatar hash
from ``GET /users/@me`` at sign-in (``web.auth``), a member's server nickname and server
avatar from the interactions and the gateway's member cache (the bot hands them in with
:meth:`People.note_member`). Local mode knows neither: its players have no avatar here (the
client draws one from the name).

An avatar is sent as a path on Discord's CDN (``https://cdn.discordapp.com/<path>``, Discord
docs "Image Formatting"): the server avatar ``guilds/{guild}/users/{user}/avatars/{hash}.png``
where the member has one, else the user's ``avatars/{user}/{hash}.png``, else the default
avatar ``embed/avatars/{(user >> 22) % 6}.png``. The client loads it through the Activity's
URL mapping (``/discord-cdn`` -> ``cdn.discordapp.com``): an Activity's iframe may only load
mapped addresses.
"""

from __future__ import annotations

import re
from collections import ChainMap
from collections.abc import Mapping, MutableMapping

from web.auth import LOCAL_ID_LIMIT

__all__ = ["CDN_MAPPING", "People", "avatar_path"]

CDN_MAPPING = ("/discord-cdn", "cdn.discordapp.com")
"""The Activity's URL mapping (prefix, target) of Discord's CDN (Developer Portal)."""
HASH = re.compile(r"^(a_)?[0-9a-f]{1,64}$")
"""An avatar hash as Discord gives it (hex, ``a_`` for an animated one)."""


def avatar_path(
    user_id: int, user_hash: str | None, guild_id: int | None = None, member_hash: str | None = None
) -> str | None:
    """The CDN path of a Discord user's avatar (see the module doc); None for a local id.

    ``member_hash`` (a server avatar) wins over ``user_hash`` (the user's own); without
    either, Discord's default avatar for the id. Malformed hashes are ignored.
    """
    if user_id < LOCAL_ID_LIMIT:
        return None
    if member_hash and guild_id and HASH.match(member_hash):
        return f"guilds/{guild_id}/users/{user_id}/avatars/{member_hash}.png"
    if user_hash and HASH.match(user_hash):
        return f"avatars/{user_id}/{user_hash}.png"
    return f"embed/avatars/{(user_id >> 22) % 6}.png"


class People:
    """Names and avatar hashes Discord gave, by user and by server membership.

    ``names``: user id -> display name, shared with the bot (its interactions write it).
    At most ``limit`` entries are kept per table (the oldest go first).
    """

    def __init__(self, names: MutableMapping[int, str], *, limit: int = 100_000) -> None:
        self.names = names
        self.limit = limit
        self.avatars: dict[int, str | None] = {}
        """User id -> the user's own avatar hash (None: Discord's default)."""
        self.nicks: dict[int, dict[int, str]] = {}
        """Guild id -> user id -> server nickname."""
        self.member_avatars: dict[tuple[int, int], str] = {}
        """(guild id, user id) -> server avatar hash."""

    def _trim(self, table: dict) -> None:  # type: ignore[type-arg]
        while len(table) > self.limit:
            del table[next(iter(table))]

    def note_user(self, user_id: int, name: str | None, avatar: str | None) -> None:
        """What Discord says of a user (``/users/@me``, an interaction's user)."""
        if name:
            self.names[user_id] = name[:32]
        self.avatars.pop(user_id, None)
        self.avatars[user_id] = avatar if isinstance(avatar, str) else None
        self._trim(self.avatars)

    def note_member(
        self, guild_id: int, user_id: int, nick: str | None, avatar: str | None
    ) -> None:
        """What Discord says of a server member: its nickname and server avatar (or None)."""
        nicks = self.nicks.setdefault(guild_id, {})
        nicks.pop(user_id, None)
        if nick:
            nicks[user_id] = nick[:32]
            self._trim(nicks)
        key = (guild_id, user_id)
        self.member_avatars.pop(key, None)
        if avatar:
            self.member_avatars[key] = avatar
            self._trim(self.member_avatars)
        self._trim(self.nicks)

    def names_in(self, guild_id: int | None) -> Mapping[int, str]:
        """User id -> the name to show in ``guild_id``: the server nickname, else the name."""
        nicks = self.nicks.get(guild_id or 0)
        return ChainMap(nicks, self.names) if nicks else self.names  # type: ignore[arg-type]

    def avatar(self, user_id: int | None, guild_id: int | None = None) -> str | None:
        """The CDN path of ``user_id``'s avatar in ``guild_id`` (None: AI or local player)."""
        if user_id is None:
            return None
        member = self.member_avatars.get((guild_id, user_id)) if guild_id else None
        return avatar_path(user_id, self.avatars.get(user_id), guild_id, member)
