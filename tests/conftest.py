"""Session fixtures shared by every test package, and the order the suite runs in.

A real PostgreSQL server, started once per process (each xdist worker has its own). Tests that
need it are marked ``postgres``. Without PostgreSQL's binaries they are skipped, except under
CI (``CI=true``), where a server that cannot start fails them: CI never skips.

The order: the slowest test files first, by the seconds recorded in ``tests/durations.json``,
so that the xdist workers end on short tests and finish together; the files whose tests need
the Activity's browser app built come last, so that its build (started in the background as
the session begins, tests/activity/conftest.py) is done before they ask for it. Tests keep
their order inside a file (module fixtures are set up once). ``pytest --store-durations``
records the file again (run it with the whole suite, at ``-n 2``, after a change of weight).
"""

from __future__ import annotations

import itertools
import json
import os
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

from tests.pgserver import PgServer

_names = itertools.count(1)


def _temporary_folders_in_memory() -> None:
    """``tmp_path`` under /dev/shm (a tmpfs) unless ``PYTEST_DEBUG_TEMPROOT`` says otherwise.

    The bot and store tests write SQLite files with ``synchronous=FULL``: on the shared disk
    every commit waits for an fsync (2-6 ms, far more while other suites run), in memory none.
    SQLite does the same work either way (a process killed by a test loses nothing in both);
    only a power cut tells them apart, which no test makes. pytest reads this variable when
    it first makes its base folder, after the conftest files are loaded (xdist's workers get
    theirs from the controller, which has it too).
    """
    shm = Path("/dev/shm")
    if "PYTEST_DEBUG_TEMPROOT" not in os.environ and shm.is_dir() and os.access(shm, os.W_OK):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(shm)


_temporary_folders_in_memory()

DURATIONS = Path(__file__).with_name("durations.json")
"""Recorded seconds per test file (setup + call + teardown of its tests), slowest first."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--store-durations",
        action="store_true",
        help="record each test file's seconds into tests/durations.json (the suite's order)",
    )


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _needs_build(item: pytest.Item) -> bool:
    return "client_dist" in getattr(item, "fixturenames", ())


@pytest.hookimpl(tryfirst=True)  # before --ff/--nf and -k/-m, which then apply on top
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slowest files first, files needing the Activity's build last (see the docstring)."""
    try:
        seconds: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        seconds = {}
    late = {_file(item.nodeid) for item in items if _needs_build(item)}
    first_seen: dict[str, int] = {}
    for index, item in enumerate(items):
        first_seen.setdefault(_file(item.nodeid), index)

    def key(item: pytest.Item) -> tuple[bool, float, int]:
        name = _file(item.nodeid)
        return (name in late, -seconds.get(name, 0.0), first_seen[name])

    items.sort(key=key)  # stable: a file's tests keep their order


_spent: defaultdict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when in ("setup", "call", "teardown"):
        _spent[_file(report.nodeid)] += report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    if not config.getoption("store_durations") or hasattr(config, "workerinput"):
        return  # only the controller (or a run without xdist) writes the file
    ordered = dict(sorted(((k, round(v, 2)) for k, v in _spent.items()), key=lambda kv: -kv[1]))
    DURATIONS.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def unavailable(reason: str) -> NoReturn:
    """PostgreSQL cannot start: fail under CI (never skip silently there), else skip."""
    if _in_ci():
        pytest.fail(f"CI: PostgreSQL could not start: {reason}")
    pytest.skip(f"PostgreSQL could not start: {reason}")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One throwaway PostgreSQL cluster for the whole session (stopped at the end)."""
    try:
        server = PgServer.start()
    except (RuntimeError, OSError) as exc:
        unavailable(str(exc))
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """A URL whose sessions see a new, empty schema on the session's server (dropped after).

    A schema rather than a database: milliseconds instead of 0.4 s per test. The store works
    in the URL's ``search_path`` schema exactly as in a database of its own.
    """
    name = f"hats_{next(_names)}"
    url = pg_server.create_schema(name)
    yield url
    pg_server.drop_schema(name)
