"""The Activity's browser app builds, type-checks, passes its own unit tests and fits its budget.

Issue 28 sections 3, 5 and 6: the client is TypeScript strict (``tsc --noEmit``, run by
``npm run build``), its Vitest suite passes, and its JavaScript + CSS stay within 150 KB
gzipped (``npm run size`` exits 1 over budget). A failure shows npm's own output.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.activity.conftest import ACTIVITY, ROOT, build_activity

pytestmark = pytest.mark.browser


def npm_run(npm: str, *args: str) -> str:
    try:
        return build_activity.run_npm(npm, *args, timeout=240)
    except build_activity.NpmFailed as exc:
        pytest.fail(exc.output)


def test_the_build_type_checks_and_writes_the_page_and_its_assets(client_dist: Path):
    scripts = json.loads((ACTIVITY / "package.json").read_text())["scripts"]
    assert "tsc --noEmit" in scripts["build"], "npm run build must type-check (strict)"
    index = (client_dist / "index.html").read_text()
    assets = re.findall(r'(?:src|href)="\./?(assets/[^"]+)"', index)
    assert any(a.endswith(".js") for a in assets), index
    for asset in assets:
        assert (client_dist / asset).is_file(), f"index.html names a missing {asset}"


def test_the_unit_tests_pass(npm: str, client_dist: Path):
    output = npm_run(npm, "test")
    assert re.search(r"Tests\s+\S*\d+ passed", output), output


def test_javascript_and_css_fit_150_kb_gzipped(npm: str, client_dist: Path):
    output = npm_run(npm, "run", "size")
    total = re.search(r"total JS \+ CSS .* gzip\s+([\d.]+) KB", output)
    assert total is not None, output
    assert float(total.group(1)) <= 150


def test_without_npm_the_start_command_goes_on_and_says_how_to_build(tmp_path: Path):
    # A PATH with Python but no node/npm: the README's start command must still start the bot.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_activity.py")],
        env={**os.environ, "PATH": str(bin_dir)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "without the Activity page" in lines[0]
    assert "scripts/build_activity.py" in lines[0]


def test_a_current_build_is_not_redone(npm: str, client_dist: Path):
    # After this session's build the start command's check finds nothing to do (no npm run).
    assert build_activity.is_current()
    stamp = build_activity.STAMP.read_text().strip()
    assert stamp == build_activity.lock_hash()
