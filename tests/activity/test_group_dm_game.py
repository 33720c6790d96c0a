"""A real Chromium plays a whole game of an Activity opened in a group DM (issue 34.2, 34.6).

``bot.py --local`` as in test_local_game; the SDK mock is set to a private channel
(``guild_id=none``: no server, as Discord's DMs and group DMs). At 360 x 640 the lobby says the
game is unrated, Ana adds two AI players, starts and plays every turn by tapping, and the end
on screen is the referee's; the stored game is an Activity-only one (unrated, no channel).
"""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from tests.activity.local_bot import (
    STEP_PASSED,
    assert_fits,
    play_one_action,
    shown_result,
    sit_down_with_two_ais,
    wait_my_move,
)
from tests.activity.test_local_game import referee

pytestmark = pytest.mark.browser

GROUP_DM = "&guild_id=none&channel_id=545454545454"


def test_a_whole_group_dm_game_at_360x640(phone, local_bot):
    sit_down_with_two_ais(phone, local_bot.url, start=False, query=GROUP_DM)
    note = phone.locator("[data-testid=lobby-note]")
    assert note.is_visible() and "Unrated" in note.inner_text()
    phone.click("[data-testid=lobby-start]")
    phone.wait_for_selector("[data-testid=game], [data-testid=end-screen]")
    rng = random.Random(34)
    while True:
        state = wait_my_move(phone)
        assert_fits(phone, f"step {state['step']}")
        if state["end"]:
            break
        play_one_action(phone, state, rng)
        phone.wait_for_function(STEP_PASSED, arg=state["step"], timeout=60_000)
    assert_fits(phone, "end")
    expected = referee(local_bot, state["game"])
    shown = shown_result(phone)
    assert shown.ranking == expected.ranking and shown.totals == expected.totals
    with sqlite3.connect(local_bot.db_path) as db:
        (settings,) = db.execute(
            "SELECT settings FROM games WHERE id = ?", (int(state["game"]),)
        ).fetchone()
    assert json.loads(settings).get("activity_only") is True  # unrated, lives in the Activity
