"""Your turn you cannot miss, moves you see happen, a guide and a hint (issue 35.4, 35.5, 35.10).

In Debian's Chromium at 360 × 640, in two languages each, against the fake server's canned
games (activity/scripts/fake-server.mjs): the turn's banner, title, ring and chime (and its
mute, remembered over a reload); a partner told that their answer to a swap is awaited; a
move's card travelling to its slot and the taken card to the collection, the slot marked
until the next move, the log's cards drawn as cards and no turn-end lines; under reduced
motion a mark and no travel; the "?" guide on one screen; one hint a turn. No state scrolls.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.activity.conftest import PHONE
from tests.activity.local_bot import assert_fits
from tests.activity.test_accessibility import open_scene, serious_violations

pytestmark = pytest.mark.browser

TEXTS = {  # the catalogs' words (texts/locales), as a player reads them
    "en": {"turn": "Your turn", "answer": "your answer is awaited", "guide": "Draw deck"},
    "de": {"turn": "Dein Zug", "answer": "Deine Antwort wird erwartet", "guide": "Nachziehstapel"},
    "fr": {"turn": "Ton tour", "answer": "on attend ta réponse", "guide": "Pioche"},
    "it": {"turn": "Il tuo turno", "answer": "si aspetta la tua risposta", "guide": "Mazzo"},
}
BOARD = "() => window.hats.store.state.view.board"
SHOTS = Path(os.environ["HATS_SHOTS"]) if os.environ.get("HATS_SHOTS") else None
"""Where to save phone screenshots of these scenes (docs/images/activity), if set."""
STEP = "() => window.hats.store.state.view.step"


@contextmanager
def page_in(browser: Any, lang: str, motion: str = "reduce") -> Iterator[Any]:
    """A fresh page at 360 × 640 in ``lang``; ``motion``: reduce or no-preference."""
    context = browser.new_context(viewport=PHONE, locale=lang, reduced_motion=motion)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_your_turn_has_a_banner_a_title_a_ring_and_a_chime_you_can_mute(
    browser, own_fake_server, lang
):
    with page_in(browser, lang, "no-preference") as page:
        open_scene(page, own_fake_server, "1")
        cue = page.wait_for_selector("[data-testid=turn-cue]")
        assert cue.get_attribute("data-kind") == "turn"
        assert cue.inner_text().strip() == TEXTS[lang]["turn"]
        assert (
            page.evaluate(
                "() => document.querySelector('[data-testid=turn-cue]').getAnimations().length"
            )
            > 0
        )  # it moves in
        assert page.title() == f"▶ {TEXTS[lang]['turn']} · Hats"
        ring = page.locator("[data-testid=timer] .ring-left")
        assert ring.count() == 1
        assert 0 < float(page.get_attribute("[data-testid=timer]", "data-fraction")) <= 1
        assert page.evaluate("() => window.hats.sound.cues") == 1
        assert_fits(page, "your turn")
        page.screenshot(path=str(SHOTS / f"your-turn-{lang}.png")) if SHOTS else None
        page.wait_for_selector("[data-testid=turn-cue]", state="detached")  # it goes away
        # One tap mutes; the choice outlives a reload.
        sound = page.locator("[data-testid=sound]")
        assert sound.get_attribute("aria-pressed") == "true"
        sound.click()
        assert sound.get_attribute("aria-pressed") == "false"
        page.reload()
        page.wait_for_selector("[data-testid=turn-cue]")
        assert page.get_attribute("[data-testid=sound]", "aria-pressed") == "false"
        assert page.evaluate("() => window.hats.sound.cues") == 0


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_a_partner_sees_that_their_answer_is_awaited(browser, fake_server, lang):
    with page_in(browser, lang) as page:
        open_scene(page, fake_server, "5")
        line = page.inner_text("[data-testid=turn-line]")
        assert TEXTS[lang]["answer"] in line, line
        cue = page.wait_for_selector("[data-testid=turn-cue]")
        assert cue.get_attribute("data-kind") == "answer"
        assert page.title().startswith("▶ ")
        assert_fits(page, "a swap to answer")
        page.screenshot(path=str(SHOTS / f"swap-answer-{lang}.png")) if SHOTS else None


def _play_a_card_on_a_slot(page: Any) -> tuple[str, str]:
    page.click("[data-testid^=hand-]:not([aria-disabled=true])")
    slot = page.locator("[data-testid^=slot-].target").first
    name = slot.get_attribute("data-testid")
    card = page.evaluate("() => window.hats.store.state.selected")
    slot.click()
    return card, name


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_move_travels_to_its_slot_and_the_slot_stays_marked(browser, own_fake_server, lang):
    with page_in(browser, lang, "no-preference") as page:
        open_scene(page, own_fake_server, "1")
        page.wait_for_selector("[data-testid=turn-cue]", state="detached")
        board = page.evaluate(BOARD)
        card, slot = _play_a_card_on_a_slot(page)
        index = int(slot.removeprefix("slot-"))
        taken = board[index - 1]
        # The card flies from the hand to the slot, the taken card to the collection (the AIs
        # answer 0.6 s later: what the move did is checked before).
        page.wait_for_function(
            f"() => window.hats.store.state.view.board[{index - 1}] === '{card}'"
        )
        step = page.evaluate(STEP)
        before = page.evaluate(BOARD)
        kinds = page.evaluate(
            "() => [...document.querySelectorAll('#flight-layer .flyer')].map((f) => f.className)"
        )
        assert any("played" in k for k in kinds) and any("taken" in k for k in kinds), kinds
        assert "moved" in page.get_attribute(f"[data-testid={slot}]", "class").split()
        assert page.locator(f"[data-testid=mine] [data-card={taken}]").count() >= 1
        page.screenshot(path=str(SHOTS / f"move-landing-{lang}.png")) if SHOTS else None
        page.wait_for_function("() => !document.querySelector('#flight-layer .flyer')")
        assert page.locator(f"[data-testid=mine] [data-card={taken}]").first.is_visible()
        # The log draws cards as cards, one line per move, and no turn-end lines.
        log = page.locator("[data-testid=events] li")
        assert log.last.locator(".card-inline").count() == 2
        assert not any("ended their turn" in t for t in log.all_inner_texts())
        assert_fits(page, "a move landing")
        # The AIs play (the fake server answers after 0.6 s): their slots are marked now.
        page.wait_for_function(
            "(s) => window.hats.store.state.view.step > s"
            " && window.hats.store.state.view.to_move === 0",
            arg=step,
        )
        after = page.evaluate(BOARD)
        changed = [i + 1 for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        marked = [
            int(t.removeprefix("slot-"))
            for t in page.evaluate(
                "() => [...document.querySelectorAll('.slot.moved')].map((s) => s.dataset.testid)"
            )
        ]
        if changed:  # an AI exchange moves the mark; a black hat clears it
            assert set(marked) <= set(changed) and marked
        assert_fits(page, "after the AIs' moves")


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_reduced_motion_marks_the_move_without_travel(browser, own_fake_server, lang):
    with page_in(browser, lang, "reduce") as page:
        open_scene(page, own_fake_server, "1")
        card, slot = _play_a_card_on_a_slot(page)
        page.wait_for_function(f"() => window.hats.store.state.view.board.includes('{card}')")
        assert page.evaluate("() => document.querySelectorAll('#flight-layer .flyer').length") == 0
        assert "moved" in page.get_attribute(f"[data-testid={slot}]", "class").split()
        animations = page.evaluate("() => document.getAnimations().length")
        assert animations == 0
        assert_fits(page, "a move under reduced motion")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_guide_explains_the_table_on_one_screen(browser, fake_server, lang):
    with page_in(browser, lang) as page:
        open_scene(page, fake_server, "2")
        page.click("[data-testid=guide-open]")
        guide = page.wait_for_selector("[data-testid=guide]")
        assert TEXTS[lang]["guide"] in guide.inner_text()
        assert page.locator("[data-testid=guide] li").count() == 6
        box = guide.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
        overflow = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid=guide] *')]
              .filter((el) => el.scrollHeight > el.clientHeight + 1 && el.clientHeight > 0)
              .map((el) => el.className || el.tagName)"""
        )
        assert overflow == [], overflow
        assert_fits(page, "the guide")
        assert serious_violations(page) == []
        page.screenshot(path=str(SHOTS / f"guide-{lang}.png")) if SHOTS else None
        page.keyboard.press("Escape")
        page.wait_for_selector("[data-testid=guide]", state="detached")
        assert page.evaluate("() => document.activeElement.dataset.testid") == "guide-open"


def test_one_hint_a_turn(browser, own_fake_server):
    with page_in(browser, "en") as page:
        open_scene(page, own_fake_server, "1")
        page.click("[data-testid=action-hint]")
        page.wait_for_function("() => window.hats.store.state.hint !== null")
        # feel shows hints (and refusals) in full in the toast, not in the two-line prompt
        assert "Hint" in page.inner_text("[data-testid=toast-text]")
        assert page.locator("[data-testid=action-hint]").count() == 0  # this turn's one hint
        assert page.locator("[data-testid^=slot-].hinted").count() == 1


FLYERS = "() => [...document.querySelectorAll('#flight-layer .flyer')].map((f) => f.className)"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_discard_and_a_black_hat_have_their_own_motion(browser, own_fake_server, lang):
    with page_in(browser, lang, "no-preference") as page:
        open_scene(page, own_fake_server, "2")  # 2 seats: a discard is allowed (R9)
        step = page.evaluate(STEP)
        page.click("[data-testid^=hand-]:not([aria-disabled=true])")
        page.click("[data-testid=action-discard]")
        page.wait_for_function("(s) => window.hats.store.state.view.step > s", arg=step)
        kinds = page.evaluate(FLYERS)
        assert any("discard" in k for k in kinds) and any("draw" in k for k in kinds), kinds
        assert page.locator("[data-testid=events] li").last.get_attribute("data-kind") == "discard"
        page.wait_for_function("() => !document.querySelector('#flight-layer .flyer')")
        step = page.evaluate(STEP)
        blacks = page.evaluate("() => window.hats.store.state.view.own_black_hats.length")
        page.click("[data-testid^=hand-]:not([aria-disabled=true])")
        page.click("[data-testid=action-black-hat]")
        page.wait_for_function("(s) => window.hats.store.state.view.step > s", arg=step)
        kinds = page.evaluate(FLYERS)
        assert any("black-hat" in k for k in kinds), kinds
        assert page.locator("[data-testid=mine] .blacks .face").count() == blacks + 1
        assert_fits(page, "a black hat landing")
