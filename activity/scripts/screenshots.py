"""Screenshots of the app against the fake server, and a no-scrolling check (issue 28).

Starts ``scripts/fake-server.mjs`` (serving ``dist/``: run ``npm run build`` first), opens
each canned scene in Debian's Chromium through Playwright (``executable_path``, no browser
download) at 360 × 640 portrait, 640 × 360 landscape and 1280 × 800 desktop, saves a PNG per
scene and size, and fails when a page scrolls or a control leaves the viewport.

Usage: ``.venv/bin/python activity/scripts/screenshots.py [--out DIR] [--scene NAME ...]``
(needs ``pip install playwright``; prints one line per screenshot).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
SIZES = {"portrait": (360, 640), "landscape": (640, 360), "desktop": (1280, 800)}
SCENES = {
    "three-seats": "1",
    "two-seats": "2",
    "team-long-names": "4",
    "swap-answer": "5",
    "spectator": "6",
    "end-teams": "7",
    "end-three": "8",
    "lobby": "10",
    "no-lobby": "11",
}
CHECK = """() => {
  const root = document.scrollingElement;
  const w = innerWidth, h = innerHeight;
  const out = [];
  if (root.scrollHeight > h + 1) out.push(`page scrolls vertically: ${root.scrollHeight} > ${h}`);
  if (root.scrollWidth > w + 1) out.push(`page scrolls horizontally: ${root.scrollWidth} > ${w}`);
  for (const el of document.querySelectorAll('button, select, input, [data-testid^="slot-"]')) {
    const r = el.getBoundingClientRect();
    if (!r.width || el.closest('.chat')) continue;
    if (r.bottom > h + 1 || r.right > w + 1 || r.top < -1 || r.left < -1)
      out.push(`${el.dataset.testid || el.textContent.trim()} outside: ${JSON.stringify(r)}`);
  }
  for (const el of document.querySelectorAll('.cell')) {
    if (el.scrollHeight > el.clientHeight + 2)
      out.push(`area ${el.style.gridArea} overflows: ${el.scrollHeight} > ${el.clientHeight}`);
  }
  return out;
}"""


def wait_for_server(url: str) -> None:
    """Wait up to 5 s for ``url`` to answer; raises RuntimeError when it does not."""
    for _ in range(50):
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the fake server did not start at {url}")


def reconnect_check(browser, base: str, out: Path) -> int:
    """Play a move, drop every socket (a bot restart), and see the app resume by itself."""
    page = browser.new_page(viewport={"width": 360, "height": 640})
    page.goto(f"{base}/?channel_id=1&name=Ana")
    page.wait_for_selector("[data-testid=game]")
    step = page.get_attribute("[data-testid=game]", "data-step")
    page.click("[data-testid^=hand-]:not([aria-disabled=true])")
    page.click("[data-testid^=slot-].target")
    page.wait_for_function(
        f"document.querySelector('[data-testid=game]').dataset.step !== '{step}'"
    )
    urllib.request.urlopen(urllib.request.Request(base + "/fake/drop", method="POST")).read()
    page.wait_for_selector("[data-testid=conn-status]")
    page.screenshot(path=str(out / "reconnecting-portrait.png"))
    page.wait_for_selector("[data-testid=conn-status]", state="detached", timeout=10_000)
    hello = page.evaluate("window.hats.conn.resume")
    ok = hello is not None and hello["game_id"] == "3"
    print(f"reconnect: resumed {hello} {'ok' if ok else 'FAIL'}")
    page.close()
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    """Take every screenshot and run the checks; returns the exit status (1: a check failed)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/act-shots")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--scene", action="append", choices=sorted(SCENES))
    parser.add_argument("--size", action="append", choices=sorted(SIZES))
    parser.add_argument("--lang", default="en-US")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    server = subprocess.Popen(
        ["node", str(HERE / "fake-server.mjs"), "--port", str(args.port)],
        stdout=subprocess.DEVNULL,
    )
    failures = 0
    try:
        base = f"http://127.0.0.1:{args.port}"
        wait_for_server(base + "/api/config")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium")
            for scene in args.scene or SCENES:
                for size in args.size or SIZES:
                    w, h = SIZES[size]
                    page = browser.new_page(viewport={"width": w, "height": h}, locale=args.lang)
                    page.goto(f"{base}/?channel_id={SCENES[scene]}&name=Ana")
                    page.wait_for_selector(
                        "[data-testid=game], [data-testid=end-screen], [data-testid=lobby], "
                        "[data-testid=lobby-empty]"
                    )
                    page.wait_for_timeout(500)  # animations settle
                    path = out / f"{scene}-{size}.png"
                    page.screenshot(path=str(path))
                    problems = page.evaluate(CHECK)
                    failures += bool(problems)
                    status = "ok" if not problems else "FAIL " + json.dumps(problems)
                    print(f"{path} {status}")
                    page.close()
            failures += reconnect_check(browser, base, out)
            browser.close()
    finally:
        server.terminate()
        server.wait()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
