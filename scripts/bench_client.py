"""Activity client benchmark: first render at 360 x 640 with the CPU throttled 4x, and its size.

Usage:
    python scripts/bench_client.py [--runs 7] [--throttle 4] [--channel 1]
                                   [--server fake|local|URL] [--no-build]

Builds the client (``scripts/build_activity.py``: npm ci when needed, ``npm run build``), then
serves it with ``--server``:
  ``fake``   activity/scripts/fake-server.mjs (canned games; ``--channel 1``: a 3-seat game at
             your turn, the fullest screen);
  ``local``  the real bot in local mode (``bot.py --local``, a temporary SQLite file, a free
             port), whose first screen for a new player is the channel's lobby;
  a URL      a server already running (local mode).

Each run opens a new browser context (empty cache, new session) in Debian's Chromium
(Playwright, ``executable_path``), sets Chromium's CPU throttling (CDP
``Emulation.setCPUThrottlingRate``, rate 4 = four times slower) before the navigation, and
loads ``/?channel_id=N&name=Bench`` (local sign-in, no prompt). Loopback network, not
throttled. Figures per run, in milliseconds from the navigation's start
(``performance.timeOrigin``):
  first paint      Chromium's first-contentful-paint (the "Connecting" line);
  first render     the first screen with the game's state drawn: the game, the lobby, the end
                   screen or "no lobby here" (a MutationObserver's ``performance.now()``);
then the median, minimum and maximum over ``--runs`` runs (one warm-up run first, not counted,
which also lets the OS cache the files). Then ``npm run size``: the JavaScript + CSS in
``dist/assets``, raw and gzipped (level 9). Goals (issue 28): first render <= 1500 ms,
<= 150 KB gzipped.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.activity.conftest import ReadyLine, build_activity, free_port
from tests.activity.local_bot import LocalBot

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
SCREENS = (
    "[data-testid=game], [data-testid=end-screen], [data-testid=lobby], [data-testid=lobby-empty]"
)
MARK = """
(() => {
  const screens = SCREENS;
  const seen = () => {
    if (window.__firstRender === undefined && document.querySelector(screens)) {
      window.__firstRender = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(seen);
  document.addEventListener("DOMContentLoaded", () => {
    observer.observe(document.documentElement, { childList: true, subtree: true });
    seen();
  });
})();
""".replace("SCREENS;", json.dumps(SCREENS) + ";")
FIGURES = """() => ({
  firstPaint: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime ?? null,
  firstRender: window.__firstRender,
})"""


def start_server(kind: str, workdir: Path) -> tuple[Any, str]:
    """Start the ``fake`` or ``local`` server (or use a URL); returns (its stopper, base URL)."""
    if kind.startswith("http"):
        return (lambda: None), kind.rstrip("/")
    if kind == "local":
        bot = LocalBot(workdir)
        bot.start()
        return bot.stop, bot.url.rstrip("/")
    port = free_port()
    process = subprocess.Popen(
        ["node", str(ROOT / "activity" / "scripts" / "fake-server.mjs"), "--port", str(port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    ReadyLine(process, r"fake server on http://").wait()
    return process.terminate, f"http://127.0.0.1:{port}"


def measure(browser, base: str, channel: str, throttle: float) -> dict[str, float]:
    """One cold load in a new context with the CPU throttled; the figures in ms."""
    context = browser.new_context(viewport={"width": 360, "height": 640}, locale="en-US")
    page = context.new_page()
    page.add_init_script(MARK)
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(f"{base}/?channel_id={channel}&name=Bench")
    page.wait_for_selector(SCREENS, timeout=60_000)
    page.wait_for_function("window.__firstRender !== undefined")
    figures = page.evaluate(FIGURES)
    context.close()
    return figures


def size_line() -> str:
    """``npm run size``'s total line (JS + CSS raw and gzipped)."""
    run = subprocess.run(
        ["npm", "run", "--silent", "size"],
        cwd=ROOT / "activity",
        capture_output=True,
        text=True,
        check=True,
    )
    return next(line for line in run.stdout.splitlines() if line.startswith("total"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--throttle", type=float, default=4.0)
    parser.add_argument("--channel", default="1")
    parser.add_argument("--server", default="fake", help="fake, local or a URL")
    parser.add_argument("--no-build", action="store_true")
    args = parser.parse_args(argv)
    if not args.no_build:
        npm = build_activity.find_npm()
        if npm is None:
            raise SystemExit(build_activity.NO_NPM)
        build_activity.install(npm)
        build_activity.build(npm)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="hats-bench-client-") as tmp:
        stop, base = start_server(args.server, Path(tmp))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM)
                measure(browser, base, args.channel, args.throttle)  # warm-up
                runs = [
                    measure(browser, base, args.channel, args.throttle) for _ in range(args.runs)
                ]
                version = browser.version
                browser.close()
        finally:
            stop()
    print(
        f"Chromium {version}, 360x640, CPU throttled {args.throttle:g}x, server {args.server}, "
        f"channel {args.channel}, {args.runs} runs, load average {load:.1f} on "
        f"{os.cpu_count()} cores"
    )
    for key, label in (("firstPaint", "first paint"), ("firstRender", "first render")):
        values = [r[key] for r in runs if r[key] is not None]
        if not values:
            print(f"{label:13} n/a")
            continue
        print(
            f"{label:13} median {statistics.median(values):7.0f} ms   "
            f"min {min(values):7.0f} ms   max {max(values):7.0f} ms"
        )
    print(size_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
