"""Fixtures for the Activity's browser app: npm, one build per session, Chromium, fake server.

The app (``activity/``) is installed and built once per test session, whatever the number of
xdist workers (a file lock in the session's shared temporary folder; the first worker builds,
the others wait and reuse its result), through ``scripts/build_activity.py``, the same code
as the README's start command. The build starts in a background thread as soon as a worker
has collected a test that needs it (``pytest_collection_finish``), so it runs while the
workers play the other tests instead of holding one of them up; the suite orders the tests
that need it last (tests/conftest.py). Where Node.js/npm, Playwright or Debian's Chromium are
missing these tests skip, except under CI (``CI=true``), where they fail: CI never skips (as
the PostgreSQL tests, tests/conftest.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parents[2]
ACTIVITY = ROOT / "activity"
CHROMIUM = "/usr/bin/chromium"
AXE = ACTIVITY / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 360, "height": 640}
"""Portrait phone viewport (CSS pixels), issue 28 section 3."""


def in_ci() -> bool:
    """True under CI (``CI=true``), where a missing tool fails instead of skipping."""
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def missing(reason: str) -> NoReturn:
    """A tool the browser tests need is missing: fail under CI, else skip."""
    if in_ci():
        pytest.fail(f"CI: {reason}")
    pytest.skip(reason)


def _load_build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_activity", ROOT / "scripts" / "build_activity.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_activity = _load_build_script()


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ReadyLine:
    """Reads a subprocess's stdout in a thread until a line matches ``pattern``.

    ``wait(timeout)`` returns the match (raises RuntimeError with the output so far when the
    process exits or ``timeout`` seconds pass first); the thread keeps draining the pipe after,
    so a chatty process never blocks on a full pipe.
    """

    def __init__(self, process: subprocess.Popen[str], pattern: str) -> None:
        self.process = process
        self.pattern = re.compile(pattern)
        self.lines: list[str] = []
        self.match: re.Match[str] | None = None
        self._found = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            if self.match is None and (match := self.pattern.search(line)):
                self.match = match
                self._found.set()
        self._found.set()  # end of output: wake the waiter

    def wait(self, timeout: float = 30) -> re.Match[str]:
        """The matching line's match object; RuntimeError when none came."""
        self._found.wait(timeout)
        if self.match is None:
            output = "".join(self.lines)[-3000:]
            raise RuntimeError(f"no line matching {self.pattern.pattern!r}; output:\n{output}")
        return self.match


@pytest.fixture(scope="session")
def npm() -> str:
    """The npm executable (Node.js too must be on PATH)."""
    found = build_activity.find_npm()
    if found is None:
        missing("Node.js/npm not found: the Activity's browser app cannot be built or tested")
    return found


def _shared_dir(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


def build_once(npm: str, shared: Path) -> dict[str, Any]:
    """Install and build the app unless this session did already; returns the stored result.

    ``shared``: the session's folder common to every xdist worker. The result is
    ``{"ok": bool, "output": npm's output on failure, "seconds": float}``; whoever comes second
    (a worker's fixture, the background build) waits on the lock and reads it.
    """
    result_file = shared / "activity-build.json"
    with FileLock(str(shared / "activity-build.lock")):
        if not result_file.exists():
            started = time.monotonic()
            try:
                build_activity.install(npm)
                build_activity.build(npm, force=True)
                result = {"ok": True, "output": ""}
            except build_activity.NpmFailed as exc:
                result = {"ok": False, "output": exc.output}
            result["seconds"] = round(time.monotonic() - started, 1)
            result_file.write_text(json.dumps(result))
        return json.loads(result_file.read_text())


def needs_build(item: pytest.Item) -> bool:
    """True when the test uses the session's build of the app (directly or through a fixture)."""
    return "client_dist" in getattr(item, "fixturenames", ())


_background: list[threading.Thread] = []


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the app's build in the background when a collected test needs it (see above)."""
    if session.config.option.collectonly:
        return
    npm = build_activity.find_npm()
    if npm is None or not any(needs_build(item) for item in session.items):
        return
    worker_id = os.environ.get("PYTEST_XDIST_WORKER", "master")
    shared = _shared_dir(session.config._tmp_path_factory, worker_id)  # type: ignore[attr-defined]
    thread = threading.Thread(target=build_once, args=(npm, shared), daemon=True)
    thread.start()
    _background.append(thread)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Never leave npm half-way through writing activity/dist behind."""
    for thread in _background:
        thread.join()


@pytest.fixture(scope="session")
def client_dist(npm: str, tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """``activity/dist`` freshly built this session: ``npm ci`` (when stale) + ``npm run build``.

    Runs once per session across xdist workers (usually already done by the background build);
    a failed step fails every test that needs the build, with npm's output.
    """
    result = build_once(npm, _shared_dir(tmp_path_factory, worker_id))
    if not result["ok"]:
        pytest.fail(f"building the Activity's client failed:\n{result['output']}")
    return build_activity.DIST


def need_chromium() -> None:
    """Playwright and Debian's Chromium are here (else skip, or fail under CI)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing("Playwright is not installed (pip install -e '.[test]')")
    if not os.access(CHROMIUM, os.X_OK):
        missing(f"{CHROMIUM} not found (apt-get install chromium)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (no browser download).

    One per test module: Playwright's sync API holds an event loop of its own in this thread
    while it runs, so it must be gone before an asyncio test (tests/activity/test_mixed_game.py
    drives its browser from a thread of its own).
    """
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


def _start_fake_server() -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    process = subprocess.Popen(
        ["node", str(ACTIVITY / "scripts" / "fake-server.mjs"), "--port", str(port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        ReadyLine(process, r"fake server on http://").wait()
    except RuntimeError:
        process.kill()
        raise
    return process, f"http://127.0.0.1:{port}"


def _stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="session")
def fake_server(client_dist: Path) -> Iterator[str]:
    """activity/scripts/fake-server.mjs serving this session's build; yields its URL.

    Shared by the tests that only look (its canned games are per channel, for every user):
    a test that plays a move takes ``own_fake_server``.
    """
    process, base = _start_fake_server()
    yield base
    _stop(process)


@pytest.fixture
def own_fake_server(client_dist: Path) -> Iterator[str]:
    """A fake server of this test's own, with the canned games as dealt; yields its URL."""
    process, base = _start_fake_server()
    yield base
    _stop(process)


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A fresh page at 360 × 640 (portrait phone), English, reduced motion."""
    context = browser.new_context(viewport=PHONE, locale="en-US", reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def local_bot(client_dist: Path, tmp_path: Path) -> Iterator[Any]:
    """The real bot in local mode (``bot.py --local``, a ``tests.activity.local_bot.LocalBot``),
    killed at the end whatever happened."""
    from tests.activity.local_bot import LocalBot  # it imports this module's helpers

    bot = LocalBot(tmp_path)
    bot.start()
    yield bot
    bot.kill()
