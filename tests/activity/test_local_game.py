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
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.activity.local_bot import (
    STEP_PASSED,
    LocalBot,
    Referee,
    assert_fits,
    play_one_action,
    referee_result,
    shown_result,
    sit_down_with_two_ais,
    wait_my_move,
)

pytestmark = pytest.mark.browser


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
    assert shown.places == expected.places
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
