"""Rendering off the event loop; recent pictures kept per game, version, language, viewer.

A picture depends only on the game's state version, the language, the viewer (None for the
public table and the end) and the names shown, so one render serves every message of that
state. Renders run one at a time in a worker thread (Pillow's fonts are not thread-safe, and
the GIL would serialise most of the work anyway) from a priority queue: a picture a player is
waiting for (the answer to their click) goes before background ones (the table edit, the
other players' DMs), so a move's answer waits for at most one render in progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import queue
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["PictureCache", "PictureKey", "RenderWorker"]


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


URGENT = 0
"""Priority of a picture a player is waiting for (an interaction's answer)."""
BACKGROUND = 1
"""Priority of every other picture (table edits, other players' DMs)."""


def _settle(future: asyncio.Future[bytes], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class RenderWorker:
    """One daemon thread running render jobs by priority (lower first), then in order."""

    def __init__(self) -> None:
        """Create the queue; the thread starts with the first job."""
        self._queue: queue.PriorityQueue[tuple[int, int, Callable[[], bytes], Any]] = (
            queue.PriorityQueue()
        )
        self._order = itertools.count()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()

    def submit(self, render: Callable[[], bytes], priority: int) -> asyncio.Future[bytes]:
        """Queue ``render``; the future (of the running loop) gets its bytes or its error."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        self._queue.put((priority, next(self._order), render, (loop, future)))
        with self._start:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="pictures", daemon=True)
                self._thread.start()
        return future

    def _run(self) -> None:
        while True:
            _priority, _order, render, (loop, future) = self._queue.get()
            result, error = None, None
            try:
                result = render()
            except BaseException as exc:
                error = exc
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, future, result, error)


_WORKER = RenderWorker()


class PictureCache:
    """Renders PNGs in the worker thread and keeps the last ``size`` of them.

    Concurrent requests for one key share one render. A failed render is not kept.
    """

    def __init__(self, size: int = 256, worker: RenderWorker | None = None) -> None:
        """Keep at most ``size`` pictures (least recently used dropped first)."""
        self.size = size
        self.worker = worker or _WORKER
        self._done: OrderedDict[PictureKey, bytes] = OrderedDict()
        self._pending: dict[PictureKey, asyncio.Future[bytes]] = {}
        self.renders = 0
        """How many renders actually ran (for tests and benchmarks)."""

    def peek(self, key: PictureKey) -> bytes | None:
        """The PNG for ``key`` if it is already drawn, else None (nothing is drawn)."""
        data = self._done.get(key)
        if data is not None:
            self._done.move_to_end(key)
        return data

    async def get(
        self, key: PictureKey, render: Callable[[], bytes], *, urgent: bool = False
    ) -> bytes:
        """The PNG for ``key``: cached, or ``render()`` run in the worker thread.

        ``urgent``: a player waits for it (goes before background renders). Exceptions of
        ``render`` propagate to every waiter of that key.
        """
        data = self._done.get(key)
        if data is not None:
            self._done.move_to_end(key)
            return data
        pending = self._pending.get(key)
        if pending is None:
            self.renders += 1
            pending = self.worker.submit(render, URGENT if urgent else BACKGROUND)
            self._pending[key] = pending
            pending.add_done_callback(lambda f: self._finish(key, f))
        return await asyncio.shield(pending)

    def _finish(self, key: PictureKey, future: asyncio.Future[bytes]) -> None:
        self._pending.pop(key, None)
        if future.cancelled() or future.exception() is not None:
            return
        self._done[key] = future.result()
        while len(self._done) > self.size:
            self._done.popitem(last=False)

    def forget(self, game: int) -> None:
        """Drop every kept picture of ``game`` (when it ends or is removed)."""
        for key in [k for k in self._done if k.game == game]:
            del self._done[key]
