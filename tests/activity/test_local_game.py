"""A real Chromium plays whole games against the real bot in local mode (issue 28 s. 4, 5).

``bot.py --local`` runs as a subprocess (a free port, a temporary SQLite file,
``HATS_AI_DELAY=0``); Debian's Chromium at 360 × 640 signs in with a name, opens the lobby,
adds two AI players, starts, and plays every one of its turns by tapping a card and then a lit
slot (or Black hat), then End turn, as a person would. At every turn the page does not scroll;
at the end the ranking, the totals and the winners on screen are the referee's: the game
rebuilt from the store by replaying its steps with the engine (R14-R20). And a bot killed
mid-turn and started again on the same port and database: the page resumes by itself (no
reload), the move made before the crash is still there, and the game goes on.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.activity.local_bot import LocalBot, Referee, referee_result

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


@pytest.fixture
def local_bot(client_dist: Path, tmp_path: Path) -> Iterator[LocalBot]:
    """The real bot in local mode, killed at the end whatever happened."""
    bot = LocalBot(tmp_path)
    bot.start()
    yield bot
    bot.kill()


def assert_fits(page: Any, when: str) -> None:
    """No scrolling at 360 × 640: the whole turn is one screen (issue 28 section 3)."""
    size = page.evaluate(SCROLL)
    assert size["height"] <= size["innerHeight"], f"{when}: the page scrolls: {size}"
    assert size["width"] <= size["innerWidth"], f"{when}: the page scrolls sideways: {size}"


def sit_down_with_two_ais(page: Any, url: str) -> None:
    """Sign in as Ana, open the lobby, add two AI players (easy, normal) and start."""
    page.goto(url + "?name=Ana")
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
    """The end screen as a player reads it: seats in order, their points, the 🏆 rows."""
    page.wait_for_selector("[data-testid=end-screen]")
    ranking, totals, winners = [], {}, []
    for row in page.locator("[data-testid^=rank-]").all():
        seat = int(row.get_attribute("data-testid").removeprefix("rank-"))
        ranking.append(seat)
        points = re.search(r"-?\d+", row.locator(".total").inner_text())
        assert points is not None
        totals[seat] = int(points.group())
        if "winner" in (row.get_attribute("class") or "").split():
            winners.append(seat)
    return Referee(ranking, [totals[s] for s in sorted(totals)], sorted(winners), [])


def referee(bot: LocalBot, game_id: str) -> Referee:
    # Off the Playwright thread, which owns an event loop of its own.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(referee_result, bot.db_path, int(game_id)).result()


def test_a_whole_three_seat_game_at_360x640_ends_with_the_referees_result(phone, local_bot):
    sit_down_with_two_ais(phone, local_bot.url)
    rng = random.Random(28)
    actions = 0
    turns_seen = set()
    while True:
        state = wait_my_move(phone)
        assert_fits(phone, f"step {state['step']}")
        if state["end"]:
            break
        turns_seen.add(phone.get_attribute("[data-testid=game]", "data-step"))
        play_one_action(phone, state, rng)
        actions += 1
        phone.wait_for_function(STEP_PASSED, arg=state["step"], timeout=60_000)
    assert_fits(phone, "end")
    game_id = state["game"]
    expected = referee(local_bot, game_id)
    shown = shown_result(phone)
    assert shown.ranking == expected.ranking
    assert shown.totals == expected.totals
    assert shown.winners == sorted(expected.winners)
    assert expected.ai_levels.count(None) == 1 and len(expected.ai_levels) == 3
    assert actions >= 8  # 8 turns each (R6): at least one action per turn of Ana's


def test_a_restart_mid_turn_resumes_without_a_reload_and_the_game_goes_on(phone, local_bot):
    sit_down_with_two_ais(phone, local_bot.url)
    rng = random.Random(5)
    state = wait_my_move(phone)
    while state["main_done"]:  # Auto end turn may be on: reach a turn's start
        play_one_action(phone, state, rng)
        state = wait_my_move(phone)
    phone.evaluate("() => { window.__sameDocument = true; }")
    made = play_one_action(phone, state, rng)
    phone.wait_for_function(STEP_PASSED, arg=state["step"])
    before = phone.evaluate("() => window.hats.store.state.view")
    # The bot crashes mid-turn (SIGKILL: main action made, turn not ended) and comes back.
    local_bot.kill()
    phone.wait_for_selector("[data-testid=conn-status]")
    local_bot.start()
    phone.wait_for_selector("[data-testid=conn-status]", state="detached", timeout=60_000)
    assert phone.evaluate("() => window.__sameDocument") is True, "the page was reloaded"
    after = phone.evaluate("() => window.hats.store.state.view")
    assert after["game_id"] == before["game_id"]
    assert after["step"] >= before["step"], f"{made} was lost"
    assert after["collections"] == before["collections"] or after["step"] > before["step"]
    # The game goes on: Ana ends this turn, both AIs play theirs, Ana's next turn comes.
    state = wait_my_move(phone)
    if state["main_done"]:
        play_one_action(phone, state, rng)
        phone.wait_for_function(STEP_PASSED, arg=state["step"], timeout=60_000)
        state = wait_my_move(phone)
    later = phone.evaluate("() => window.hats.store.state.view")
    assert state["end"] or later["round"] == before["round"] + 1, (before["round"], later)
    assert_fits(phone, "after the restart")
    assert local_bot.starts == 2
