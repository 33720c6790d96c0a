"""``python bot.py --local`` as a subprocess for the browser tests, and the referee's result.

:class:`LocalBot` starts the real bot in local mode on a free port over a temporary SQLite
file with ``HATS_AI_DELAY=0`` (no token, no Discord), waits for the address it prints, and
can be killed and started again on the same port and database (a crash and a restart).
:func:`referee_result` rebuilds a finished game from the store with the engine (R14-R20).
The other functions are a browser player's taps on the app (a Playwright page), shared by the
tests and scripts/activity_screenshots.py.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from data import open_store
from data.restore import rebuild_game
from tests.activity.conftest import ROOT, ReadyLine, free_port

MY_MOVE = """() => {
  const v = window.hats && window.hats.store.state.view;
  if (!v) return null;
  if (v.result) return { end: true, step: v.step, game: v.game_id };
  if (v.to_move === v.seat)
    return { end: false, step: v.step, game: v.game_id, main_done: v.main_done };
  return null;
}"""
SCROLL = """() => ({
  height: document.scrollingElement.scrollHeight, innerHeight,
  width: document.scrollingElement.scrollWidth, innerWidth,
})"""
STEP_PASSED = "(s) => window.hats.store.state.view && window.hats.store.state.view.step > s"


@dataclass
class LocalBot:
    """The bot in local mode under ``folder`` (its database ``hats.sqlite3``) on ``port``."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None
    starts: int = 0

    @property
    def db_path(self) -> Path:
        return self.folder / "hats.sqlite3"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> str:
        """Start ``bot.py --local``; returns the address it printed (RuntimeError if none)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("HATS_", "DISCORD_"))}
        env |= {
            "HATS_WEB_PORT": str(self.port),
            "HATS_DB_PATH": str(self.db_path),
            "HATS_AI_DELAY": "0",
            "PYTHONPATH": str(ROOT),
        }
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "bot.py"), "--local"],
            cwd=self.folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.starts += 1
        try:
            match = ReadyLine(self.process, r"open (http://\S+) in a browser").wait(60)
        except RuntimeError:
            self.kill()
            raise
        return match.group(1)

    def kill(self) -> None:
        """SIGKILL (a crash: nothing is flushed or closed cleanly) and reap the process."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)
        self.process = None

    def stop(self) -> int | None:
        """SIGTERM (Ctrl+C's clean stop); returns the exit status."""
        if self.process is None:
            return None
        self.process.terminate()
        status = self.process.wait(timeout=30)
        self.process = None
        return status


@dataclass(frozen=True)
class Referee:
    """A finished game's result: seats best first, each seat's place and points, winners.

    ``places[s]`` is seat s's place (1 = a winner; seats the rules cannot separate share
    one; engine.scoring.standings, R19-R20).
    """

    ranking: list[int]
    places: list[int]
    totals: list[int]
    winners: list[int]
    ai_levels: list[str | None] = field(default_factory=list)


async def _referee(db_path: Path, game_id: int) -> Referee:
    store = await open_store(db_path)
    try:
        row = await store.games.get_game(game_id)
        assert row is not None, f"game {game_id} is not in the store"
        steps = await store.steps.load_steps(game_id)
        seats = await store.games.seats(game_id)
    finally:
        await store.close()
    game = rebuild_game(row, steps)
    assert game.result is not None, f"game {game_id} is not over after {len(steps)} steps"
    result = game.result
    levels = [s.ai_level for s in sorted(seats, key=lambda s: s.seat)]
    totals = [s.total for s in result.scores]
    return Referee(list(result.order), list(result.places), totals, list(result.winners), levels)


def referee_result(db_path: Path, game_id: int) -> Referee:
    """Rebuild game ``game_id`` from the store at ``db_path`` by replay and score it."""
    return asyncio.run(_referee(db_path, game_id))


def assert_fits(page: Any, when: str) -> None:
    """No scrolling at 360 × 640: the whole turn is one screen (issue 28 section 3)."""
    size = page.evaluate(SCROLL)
    assert size["height"] <= size["innerHeight"], f"{when}: the page scrolls: {size}"
    assert size["width"] <= size["innerWidth"], f"{when}: the page scrolls sideways: {size}"


def sit_down_with_two_ais(page: Any, url: str, *, start: bool = True, query: str = "") -> None:
    """Sign in as Ana, open the lobby, add two AI players (easy, normal) and start.

    ``query``: more URL parameters (``&guild_id=none``: the SDK mock in a DM or group DM).
    """
    page.goto(url + "?name=Ana" + query)
    page.click("[data-testid=lobby-open]")
    for level in ("easy", "normal"):
        seats = page.locator("[data-testid^=lobby-seat-]:not(.empty)").count()
        page.select_option("[data-testid=lobby-ai-level]", level)
        page.click("[data-testid=lobby-ai-add]")
        page.wait_for_function(
            "(n) => document.querySelectorAll('[data-testid^=lobby-seat-]:not(.empty)').length > n",
            arg=seats,
        )
    assert_fits(page, "lobby")
    if not start:
        return
    page.click("[data-testid=lobby-start]")
    page.wait_for_selector("[data-testid=game], [data-testid=end-screen]")


def wait_my_move(page: Any) -> dict[str, Any]:
    """Wait until it is this player's move or the game is over; the view's gist."""
    state = page.wait_for_function(MY_MOVE, timeout=60_000).json_value()
    if not state["end"]:
        page.wait_for_selector(f"[data-testid=game][data-step='{state['step']}']")
    return state


def play_one_action(page: Any, state: dict[str, Any], rng: random.Random) -> str:
    """Tap as a player would: a card then a lit slot (or Black hat), or End turn."""
    if state["main_done"]:
        page.click("[data-testid=action-end-turn]")
        return "end turn"
    cards = page.locator("[data-testid^=hand-]:not([aria-disabled=true])")
    card = cards.nth(rng.randrange(cards.count()))
    name = card.get_attribute("data-testid")
    card.click()
    targets = page.locator("[data-testid^=slot-].target")
    if targets.count():
        slot = targets.nth(rng.randrange(targets.count()))
        what = f"{name} on {slot.get_attribute('data-testid')}"
        slot.click()
    else:
        page.click("[data-testid=action-black-hat]")
        what = f"{name} as a black hat"
    return what


def shown_result(page: Any) -> Referee:
    """The end screen as a player reads it: seats in order, their places, points, 🏆 rows."""
    page.wait_for_selector("[data-testid=end-screen]")
    ranking, places, totals, winners = [], {}, {}, []
    for row in page.locator("[data-testid^=rank-]").all():
        seat = int(row.get_attribute("data-testid").removeprefix("rank-"))
        ranking.append(seat)
        places[seat] = int(row.locator(".rank").inner_text().strip().rstrip("."))
        points = re.search(r"-?\d+", row.locator(".total").inner_text())
        assert points is not None
        totals[seat] = int(points.group())
        if "winner" in (row.get_attribute("class") or "").split():
            winners.append(seat)
    return Referee(
        ranking,
        [places[s] for s in sorted(places)],
        [totals[s] for s in sorted(totals)],
        sorted(winners),
    )
