"""Build the Activity's browser app (``activity/`` -> ``activity/dist/``) where npm is here.

The README's start command runs it before the bot, and the tests (tests/activity/) use its
functions: ``npm ci`` when ``activity/node_modules`` does not hold what ``package-lock.json``
locks (a stamp with the lock file's hash), then ``npm run build`` when ``dist/`` is older than
the app's sources (``--force``: always). npm's output is shown only when a step fails.

Where Node.js or npm is missing it prints one line and exits 0: the bot still runs (the
channel game, slash commands and DM buttons), only its web server has no Activity page
until the app is built (install Node.js 20+ with npm, then run this again).

Usage: ``python scripts/build_activity.py [--force] [--quiet]``
Exit status: 0 built, current or skipped (no npm); 1 an npm step failed (its output shown).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ACTIVITY = ROOT / "activity"
DIST = ACTIVITY / "dist"
STAMP = ACTIVITY / "node_modules" / ".hats-lock-sha256"
SOURCES = (
    "src",
    "index.html",
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "vite.config.ts",
)
NO_NPM = (
    "activity: Node.js/npm not found, so the bot runs without the Activity page (the game in "
    "channels and DMs is unaffected); install Node.js 20+ with npm, then run "
    "`python scripts/build_activity.py`"
)


class NpmFailed(RuntimeError):
    """An npm step exited non-zero; ``output`` holds its command, stdout and stderr."""

    def __init__(self, command: list[str], output: str) -> None:
        super().__init__(f"{' '.join(command)} failed")
        self.output = f"$ (cd activity && {' '.join(command)})\n{output}"


def find_npm() -> str | None:
    """The ``npm`` executable when both ``node`` and ``npm`` are on PATH, else None."""
    npm = shutil.which("npm")
    return npm if npm and shutil.which("node") else None


def run_npm(npm: str, *args: str, timeout: float = 600) -> str:
    """Run ``npm <args>`` in activity/ with this Python for export-data; returns its output.

    Raises NpmFailed (with the output) on a non-zero exit or after ``timeout`` seconds.
    """
    env = {**os.environ, "HATS_PYTHON": sys.executable}
    env["NO_COLOR"] = "1"  # plain output, to show or parse
    env.pop("FORCE_COLOR", None)
    env.setdefault("npm_config_fund", "false")
    env.setdefault("npm_config_audit", "false")
    env.setdefault("npm_config_update_notifier", "false")
    command = [npm, *args]
    try:
        run = subprocess.run(
            command, cwd=ACTIVITY, env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired as exc:
        raise NpmFailed(["npm", *args], f"timed out after {timeout:.0f} s\n{exc.output}") from exc
    output = run.stdout + run.stderr
    if run.returncode != 0:
        raise NpmFailed(["npm", *args], output)
    return output


def lock_hash() -> str:
    """The SHA-256 of ``activity/package-lock.json`` (what ``npm ci`` installs)."""
    return hashlib.sha256((ACTIVITY / "package-lock.json").read_bytes()).hexdigest()


def install(npm: str) -> bool:
    """``npm ci`` unless node_modules already holds the locked packages; True when it ran."""
    if STAMP.exists() and STAMP.read_text().strip() == lock_hash():
        return False
    run_npm(npm, "ci")
    STAMP.write_text(lock_hash() + "\n")
    return True


def _newest_source() -> float:
    newest = 0.0
    for name in SOURCES:
        path = ACTIVITY / name
        files = path.rglob("*") if path.is_dir() else [path]
        for file in files:
            if file.is_file():
                newest = max(newest, file.stat().st_mtime)
    return newest


def is_current() -> bool:
    """True when ``dist/index.html`` exists and is newer than every source of the app."""
    index = DIST / "index.html"
    return index.exists() and index.stat().st_mtime >= _newest_source()


def build(npm: str, *, force: bool = False) -> bool:
    """``npm run build`` (export-data, ``tsc --noEmit``, vite) unless current; True when it ran."""
    if not force and is_current():
        return False
    run_npm(npm, "run", "build")
    return True


def main(argv: list[str] | None = None) -> int:
    """Install and build as needed; returns the exit status (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="build even when dist/ is current")
    parser.add_argument("--quiet", action="store_true", help="print only failures")
    args = parser.parse_args(argv)
    npm = find_npm()
    if npm is None:
        print(NO_NPM, file=sys.stderr)
        return 0
    try:
        installed = install(npm)
        built = build(npm, force=args.force)
    except NpmFailed as exc:
        print(exc.output, file=sys.stderr)
        print(f"activity: {exc}; the bot can still run without the Activity page", file=sys.stderr)
        return 1
    if not args.quiet:
        done = "built activity/dist" if built else "activity/dist is current"
        print(f"activity: {done}{' (npm ci ran)' if installed else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
