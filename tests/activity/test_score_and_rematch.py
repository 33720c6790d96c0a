"""The running score and the rematch against the real bot in local mode (issue 35.1, 35.2).

Debian's Chromium at 360 × 640 plays whole games against ``bot.py --local``:

* in German, a 3-seat game with two AI players: at every step the page shows, each seat's
  running score on screen equals the rules' score at that step (the game rebuilt from the
  store and replayed to that step by the engine: R15–R18 on that board, engine.scoring), and
  the end's breakdown (collection, black hats, favourite hat, cookie) is the engine's;
* in English, two players in two tabs and a spectator in a third: Rematch on the end screen
  takes every tab to the new lobby, both players seated.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from data import open_store
from data.restore import rebuild_game
from engine.scoring import provisional_scores
from tests.activity.conftest import PHONE
from tests.activity.local_bot import (
    STEP_PASSED,
    assert_fits,
    play_one_action,
    sit_down_with_two_ais,
    wait_my_move,
)

pytestmark = pytest.mark.browser

RECORD_SCORES = """() => {
  window.__scores = [];
  const record = () => {
    // each score carries the step of the view it was drawn from
    const pills = [...document.querySelectorAll("[data-testid^=score-]")];
    const steps = new Set(pills.map((el) => el.dataset.step));
    if (!pills.length || steps.size !== 1) return;
    const scores = {};
    for (const el of pills) scores[el.dataset.testid.slice(6)] = Number(el.dataset.score);
    window.__scores.push({ step: Number(pills[0].dataset.step), scores });
  };
  new MutationObserver(record).observe(document.body, {
    subtree: true, childList: true, attributes: true,
    attributeFilter: ["data-step", "data-score"],
  });
  record();
}"""


async def _rules_scores(db_path: Path, game_id: int, steps_seen: list[int]) -> dict[str, Any]:
    store = await open_store(db_path)
    try:
        row = await store.games.get_game(game_id)
        assert row is not None
        steps = await store.steps.load_steps(game_id)
    finally:
        await store.close()
    running = {}
    for n in steps_seen:
        game = rebuild_game(row, steps[:n])
        if game.result is None:
            obs = game.observation(None)
            running[n] = list(
                provisional_scores(obs.board, obs.collections, obs.black_hat_counts, obs.cookie)
            )
    end = rebuild_game(row, steps).result
    assert end is not None
    parts = [
        {
            "collection": s.collection - s.black_hats,
            "black_hats": s.black_hats,
            "favourite": s.favourite,
            "cookie": s.cookie,
        }
        for s in end.scores
    ]
    return {"running": running, "parts": parts}


def rules_scores(db_path: Path, game_id: int, steps_seen: list[int]) -> dict[str, Any]:
    # off the Playwright thread, which owns an event loop of its own
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(
            lambda: asyncio.run(_rules_scores(db_path, game_id, steps_seen))
        ).result()


def german_phone(browser: Any) -> Any:
    context = browser.new_context(viewport=PHONE, locale="de-DE", reduced_motion="reduce")
    return context.new_page()


def test_the_running_score_on_screen_is_the_rules_score_at_every_step(browser, local_bot):
    page = german_phone(browser)
    try:
        sit_down_with_two_ais(page, local_bot.url)
        page.wait_for_selector("[data-testid=game]")
        page.evaluate(RECORD_SCORES)
        rng = random.Random(35)
        while True:
            state = wait_my_move(page)
            if state["end"]:
                break
            assert_fits(page, f"step {state['step']}")
            play_one_action(page, state, rng)
            page.wait_for_function(STEP_PASSED, arg=state["step"], timeout=60_000)
        seen = page.evaluate("() => window.__scores")
        by_step = {r["step"]: r["scores"] for r in seen if len(r["scores"]) == 3}
        game_id = int(state["game"])
        rules = rules_scores(local_bot.db_path, game_id, sorted(by_step))
        assert len(rules["running"]) >= 16, sorted(by_step)  # at least each of Ana's turns
        for step, expected in rules["running"].items():
            shown = [by_step[step][str(seat)] for seat in range(3)]
            assert shown == expected, f"step {step}: shown {shown}, the rules say {expected}"
        page.wait_for_selector("[data-testid=end-screen]")
        assert_fits(page, "end")
        for seat, parts in enumerate(rules["parts"]):
            row = page.locator(f"[data-testid=parts-{seat}]")
            for name, value in parts.items():
                text = row.locator(f"[data-part={name}] b").inner_text()
                assert int(text.replace("+", "").replace("−", "-")) == value, (seat, name)
            assert page.locator(f"[data-testid=fav-{seat}]").count() == 1
        assert page.locator("[data-testid=why]").inner_text()
    finally:
        page.context.close()


def _tab(browser: Any, url: str, name: str) -> Any:
    context = browser.new_context(viewport=PHONE, locale="en-US", reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{url}?name={name}")
    return page


def test_rematch_takes_every_tab_of_the_finished_game_to_the_new_lobby(browser, local_bot):
    ana = _tab(browser, local_bot.url, "Ana")
    ben = _tab(browser, local_bot.url, "Ben")
    cleo = None
    try:
        ana.click("[data-testid=lobby-open]")
        ben.click("[data-testid=lobby-join]")
        ana.wait_for_function(
            "() => document.querySelectorAll('[data-testid^=lobby-seat-]:not(.empty)').length == 2"
        )
        ana.click("[data-testid=lobby-start]")
        for page in (ana, ben):
            page.wait_for_selector("[data-testid=game]")
        cleo = _tab(browser, local_bot.url, "Cleo")  # watches the game
        cleo.wait_for_selector("[data-testid=game][data-seat=spectator]")
        rng = random.Random(1)
        view = "() => window.hats.store.state.view"
        while True:
            current = ana.evaluate(view)
            if current["result"]:
                break
            mover = ana if current["to_move"] == current["seat"] else ben
            state = wait_my_move(mover)
            if state["end"]:
                break
            play_one_action(mover, state, rng)
            mover.wait_for_function(STEP_PASSED, arg=state["step"], timeout=60_000)
            after = mover.evaluate(view)["step"]
            ana.wait_for_function("(s) => window.hats.store.state.view.step >= s", arg=after)
        for page in (ana, ben, cleo):
            page.wait_for_selector("[data-testid=end-screen]")
        ana.click("[data-testid=rematch]")
        for page in (ana, ben, cleo):
            page.wait_for_selector("[data-testid=lobby]", timeout=10_000)
            page.wait_for_function(
                "() => document.querySelectorAll("
                "'[data-testid^=lobby-seat-]:not(.empty)').length == 2"
            )
            # each seat's name (people put an avatar with the initials beside it)
            seats = page.locator("[data-testid^=lobby-seat-]:not(.empty) .name").all_inner_texts()
            assert sorted(seats) == ["Ana", "Ben"], seats
            assert_fits(page, "the rematch's lobby")
    finally:
        for page in (ana, ben, *([cleo] if cleo else [])):
            page.context.close()
