"""Phone screenshots of the Activity against the real bot in local mode, for the README.

Builds the client (scripts/build_activity.py), starts ``bot.py --local`` on a free port over a
temporary database (tests/activity/local_bot.py), and in Debian's Chromium at 360 x 640 signs
in as Ana, opens a lobby with two AI players (``lobby.png``), starts, chooses a card on the
first turn so its slots light up (``turn.png``), plays the game to its end by taps and saves
the end screen (``end.png``). Fails when a page scrolls.

Usage: python scripts/activity_screenshots.py [--out docs/images/activity] [--lang en-US]
       [--round 2]  (the round of turn.png: later rounds show running scores, issue 35.2)
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.activity.conftest import CHROMIUM, PHONE, build_activity
from tests.activity.local_bot import (
    STEP_PASSED,
    LocalBot,
    assert_fits,
    play_one_action,
    sit_down_with_two_ais,
    wait_my_move,
)

ROOT = Path(__file__).resolve().parents[1]


ROUND = "() => window.hats.store.state.view.round"


def choose_the_card_with_most_slots(page) -> None:
    """Tap each playable card and keep the one that lights the most slots."""
    best, most = None, -1
    cards = page.locator("[data-testid^=hand-]:not([aria-disabled=true])")
    for i in range(cards.count()):
        cards.nth(i).click()
        lit = page.locator("[data-testid^=slot-].target").count()
        if lit > most:
            best, most = cards.nth(i).get_attribute("data-testid"), lit
    page.click(f"[data-testid={best}]")
    if page.get_attribute(f"[data-testid={best}]", "aria-pressed") != "true":
        page.click(f"[data-testid={best}]")  # a second tap on the chosen card unchooses it


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images" / "activity"))
    parser.add_argument("--lang", default="en-US")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--round", type=int, default=2, help="the round of turn.png")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    npm = build_activity.find_npm()
    if npm is None:
        raise SystemExit(build_activity.NO_NPM)
    build_activity.install(npm)
    build_activity.build(npm)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="hats-shots-") as tmp:
        bot = LocalBot(Path(tmp))
        bot.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM)
                context = browser.new_context(
                    viewport=PHONE, locale=args.lang, reduced_motion="reduce"
                )
                page = context.new_page()
                sit_down_with_two_ais(page, bot.url, start=False)
                page.screenshot(path=str(out / "lobby.png"))
                page.click("[data-testid=lobby-start]")
                state = wait_my_move(page)
                while page.evaluate(ROUND) < args.round:  # the last moves show the AIs'
                    play_one_action(page, state, rng)
                    page.wait_for_function(STEP_PASSED, arg=state["step"], timeout=60_000)
                    state = wait_my_move(page)
                # the turn's banner (feel2's cue, 2.6 s) would cover the table in the picture
                page.wait_for_selector("[data-testid=turn-cue]", state="detached")
                choose_the_card_with_most_slots(page)
                assert_fits(page, "turn")
                page.screenshot(path=str(out / "turn.png"))
                page.click("[data-testid^=hand-][aria-pressed=true]")  # choose again below
                while not state["end"]:
                    play_one_action(page, state, rng)
                    page.wait_for_function(STEP_PASSED, arg=state["step"], timeout=60_000)
                    state = wait_my_move(page)
                page.wait_for_selector("[data-testid=end-screen]")
                assert_fits(page, "end")
                page.screenshot(path=str(out / "end.png"))
                browser.close()
        finally:
            bot.kill()
    for name in ("lobby", "turn", "end"):
        print(out / f"{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
