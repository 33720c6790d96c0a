"""The suite's order (tests/conftest.py): slowest files first, files needing the build last."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import tests.conftest as suite


@dataclass
class Item:
    nodeid: str
    fixturenames: list[str] = field(default_factory=list)


def test_slowest_files_first_build_files_last_and_a_files_tests_keep_their_order(
    tmp_path, monkeypatch
):
    recorded = tmp_path / "durations.json"
    recorded.write_text(json.dumps({"tests/b.py": 9.0, "tests/c.py": 30.0, "tests/web.py": 50.0}))
    monkeypatch.setattr(suite, "DURATIONS", recorded)
    items = [
        Item("tests/a.py::test_new"),  # never recorded: after the recorded ones, in place
        Item("tests/web.py::test_page", ["client_dist"]),
        Item("tests/b.py::test_one"),
        Item("tests/web.py::test_other"),
        Item("tests/c.py::test_slow"),
        Item("tests/b.py::test_two"),
    ]
    suite.pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [
        "tests/c.py::test_slow",
        "tests/b.py::test_one",
        "tests/b.py::test_two",
        "tests/a.py::test_new",
        "tests/web.py::test_page",
        "tests/web.py::test_other",
    ]


def test_without_a_durations_file_the_collected_order_stays(tmp_path, monkeypatch):
    monkeypatch.setattr(suite, "DURATIONS", tmp_path / "missing.json")
    items = [Item("tests/b.py::test_x"), Item("tests/a.py::test_y"), Item("tests/b.py::test_z")]
    suite.pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [
        "tests/b.py::test_x",
        "tests/b.py::test_z",
        "tests/a.py::test_y",
    ]
