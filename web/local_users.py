"""Who is who in local mode (``POST /api/local``), kept across restarts (issue 34 section 4).

Local mode has no Discord to say who a person is: a player signs in with a name. Two
registries give the local user ids (:func:`web.auth.local_user_id`, never a Discord id):

- :class:`CountedLocalUsers`: a counter in memory (a web server built by a test);
- :class:`StoredLocalUsers` (``bot.py --local``): the counter and each id's name are kept in
  the store's ``meta`` table, so an id is never given twice, also after a crash (the next
  number is written before the id is handed out), and a name that holds a seat of the local
  table's live game or open lobby signs back into that seat: the same user id, so the same
  seat and hand (R21 is kept: the engine shows a seat its own hand only).

Names are compared after :func:`name_key` (Unicode case folding, inner spaces collapsed), so
"ana" signs back in as "Ana". Where two seats hold the same name, a seat with no live
connection comes first (two people who both chose "Ana" each get one).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from web.auth import local_user_id

if TYPE_CHECKING:
    from data import Store
    from service import GameService

__all__ = ["CountedLocalUsers", "LocalUsers", "StoredLocalUsers", "name_key"]

NEXT_KEY = "local_users_next"
"""The store's meta key of the next local user number (a decimal string)."""
NAME_KEY = "local_user_name:{user_id}"
"""The store's meta key of a local user id's name."""


def name_key(name: str) -> str:
    """A name as sign-ins compare it: case folded, whitespace collapsed."""
    return " ".join(name.split()).casefold()


class LocalUsers(Protocol):
    """Gives the user id of a local sign-in."""

    async def sign_in(self, name: str) -> int:
        """The user id for a player signing in as ``name`` (1-32 printable characters)."""
        ...


class CountedLocalUsers:
    """A new id for every sign-in, counted in memory (from 1 in each process)."""

    def __init__(self) -> None:
        self._count = 0

    async def sign_in(self, name: str) -> int:
        """A new local user id (``name`` is not looked at)."""
        self._count += 1
        return local_user_id(self._count)


class StoredLocalUsers:
    """Local user ids kept in ``store``'s meta table; a seated name gets its seat back.

    ``games``: the service (the local table's game and lobby); ``channel_id``: local mode's
    one channel; ``connected(user_id)``: whether that user has a live WebSocket now (a seat
    nobody holds comes first among seats of one name).
    """

    def __init__(
        self,
        store: Store,
        games: GameService,
        channel_id: int,
        connected: Callable[[int], bool] = lambda user_id: False,
    ) -> None:
        self.store = store
        self.games = games
        self.channel_id = channel_id
        self.connected = connected
        self._lock = asyncio.Lock()

    async def seated_users(self) -> list[int]:
        """Human user ids of the local table's live game, then of its open lobby (in seat order)."""
        found: list[int] = []
        session = await self.games.session_in_channel(self.channel_id)
        if session is not None:
            found.extend(s.user_id for s in session.seats if s.user_id is not None)
        lobby = await self.games.lobby_in_channel(self.channel_id)
        if lobby is not None:
            found.extend(s.user_id for s in lobby.seats if s.user_id is not None)
        return list(dict.fromkeys(found))

    async def name_of(self, user_id: int) -> str | None:
        """The name ``user_id`` signed in with, or None (not a stored local user)."""
        return await self.store.meta.get(NAME_KEY.format(user_id=user_id))

    async def names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """``user_id -> name`` of the stored local users among ``user_ids``."""
        found: dict[int, str] = {}
        for user_id in user_ids:
            name = await self.name_of(user_id)
            if name is not None:
                found[user_id] = name
        return found

    async def sign_in(self, name: str) -> int:
        """The seat holder's id when ``name`` holds a seat at the local table, else a new id.

        Raises StoreError when the store cannot be read or written (the sign-in fails; no id
        is handed out that was not written first).
        """
        async with self._lock:
            wanted = name_key(name)
            holders = [
                user_id
                for user_id, held in (await self.names(await self.seated_users())).items()
                if name_key(held) == wanted
            ]
            if holders:
                free = [u for u in holders if not self.connected(u)]
                return (free or holders)[0]
            raw = await self.store.meta.get(NEXT_KEY)
            number = int(raw) if raw is not None and raw.isdecimal() else 1
            await self.store.meta.set(NEXT_KEY, str(number + 1))
            user_id = local_user_id(number)
            await self.store.meta.set(NAME_KEY.format(user_id=user_id), name)
            return user_id
