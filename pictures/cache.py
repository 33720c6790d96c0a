"""Rendering off the event loop; recent pictures kept per game, version, language, viewer.

A picture depends only on the game's state version, the language and the viewer (None for
the public table and the end), so one render serves every edit of the same state: the table
edit and a re-post, or two players with the same language asking for the end screen.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["PictureCache", "PictureKey"]


@dataclass(frozen=True, slots=True)
class PictureKey:
    """What a picture depends on.

    ``kind`` ("table", "hand", "end"), ``game`` id, state ``version``, ``language`` (the Tr's
    locale), ``viewer`` seat (None for the public pictures) and the seats' display ``names``
    (a player may be seen under a new name between two steps).
    """

    kind: str
    game: int
    version: int
    language: str
    viewer: int | None = None
    names: tuple[str, ...] = ()


class PictureCache:
    """Renders PNGs in a worker thread (``asyncio.to_thread``) and keeps the last ``size``.

    Concurrent requests for one key share one render. A failed render is not kept.
    """

    def __init__(self, size: int = 256) -> None:
        """Keep at most ``size`` pictures (least recently used dropped first)."""
        self.size = size
        self._done: OrderedDict[PictureKey, bytes] = OrderedDict()
        self._pending: dict[PictureKey, asyncio.Future[bytes]] = {}
        self.renders = 0
        """How many renders actually ran (for tests and benchmarks)."""

    async def get(self, key: PictureKey, render: Callable[[], bytes]) -> bytes:
        """The PNG for ``key``: cached, or ``render()`` run in a worker thread.

        Exceptions of ``render`` propagate to every waiter of that key.
        """
        data = self._done.get(key)
        if data is not None:
            self._done.move_to_end(key)
            return data
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            self.renders += 1
            data = await asyncio.to_thread(render)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning without waiters
            raise
        finally:
            self._pending.pop(key, None)
        future.set_result(data)
        self._done[key] = data
        while len(self._done) > self.size:
            self._done.popitem(last=False)
        return data

    def forget(self, game: int) -> None:
        """Drop every kept picture of ``game`` (when it ends or is removed)."""
        for key in [k for k in self._done if k.game == game]:
            del self._done[key]
