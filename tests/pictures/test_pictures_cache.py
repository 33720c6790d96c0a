"""Rendering off the event loop, once per game, state version, language and viewer."""

from __future__ import annotations

import asyncio
import threading

import pytest

from pictures import PictureCache, PictureKey
from pictures.cache import RenderWorker


async def test_renders_in_a_worker_thread_once_per_key():
    cache = PictureCache()
    threads = []

    def render():
        threads.append(threading.current_thread())
        return b"png"

    key = PictureKey("table", 1, 5, "en")
    assert await cache.get(key, render) == b"png"
    assert await cache.get(key, render) == b"png"
    assert cache.renders == 1
    assert threads and threads[0] is not threading.main_thread()
    await cache.get(PictureKey("table", 1, 6, "en"), render)  # the next state
    await cache.get(PictureKey("table", 1, 6, "fr"), render)  # another language
    await cache.get(PictureKey("hand", 1, 6, "fr", viewer=0), render)
    await cache.get(PictureKey("hand", 1, 6, "fr", viewer=1), render)  # another viewer
    assert cache.renders == 5


async def test_concurrent_requests_share_one_render_and_the_loop_stays_free():
    cache = PictureCache()
    started, release = threading.Event(), threading.Event()

    def slow():
        started.set()
        # Released by the event loop below: had the render blocked the loop, it would time out.
        return b"slow" if release.wait(5) else b"blocked the loop"

    key = PictureKey("table", 2, 1, "en")
    first = asyncio.create_task(cache.get(key, slow))
    second = asyncio.create_task(cache.get(key, slow))
    await asyncio.to_thread(started.wait, 5)
    release.set()
    assert await first == await second == b"slow"
    assert cache.renders == 1


async def test_oldest_pictures_are_dropped_and_failures_not_kept():
    cache = PictureCache(size=2)
    for version in range(3):
        await cache.get(PictureKey("table", 3, version, "en"), lambda: b"x")
    await cache.get(PictureKey("table", 3, 0, "en"), lambda: b"x")
    assert cache.renders == 4  # version 0 was dropped

    def boom():
        raise RuntimeError("no font")

    key = PictureKey("end", 3, 9, "en")
    with pytest.raises(RuntimeError):
        await cache.get(key, boom)
    assert await cache.get(key, lambda: b"ok") == b"ok"
    cache.forget(3)
    await cache.get(key, lambda: b"ok")
    assert cache.renders == 7


async def test_a_picture_a_player_waits_for_goes_before_background_ones():
    cache = PictureCache(worker=RenderWorker())
    started, release = threading.Event(), threading.Event()
    order = []

    def busy():
        started.set()
        release.wait(5)
        order.append("busy")
        return b"busy"

    def job(name):
        def render():
            order.append(name)
            return name.encode()

        return render

    tasks = [asyncio.create_task(cache.get(PictureKey("table", 9, 0, "en"), busy))]
    await asyncio.to_thread(started.wait, 5)
    for version, name in ((1, "table"), (2, "dm")):
        key = PictureKey(name, 9, version, "en")
        tasks.append(asyncio.create_task(cache.get(key, job(name))))
    urgent = PictureKey("hand", 9, 2, "en", viewer=0)
    tasks.append(asyncio.create_task(cache.get(urgent, job("answer"), urgent=True)))
    await asyncio.sleep(0)  # every request is queued while the first render runs
    release.set()
    await asyncio.gather(*tasks)
    assert order == ["busy", "answer", "table", "dm"]
