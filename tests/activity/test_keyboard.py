"""Every control is reachable from the keyboard, and a whole turn takes a few keys (issue 28
s. 3, issue 35.13).

In Debian's Chromium at 360 × 640 against the fake server's canned games: the Tab order
reaches each action and each lobby or end-screen control, and the hand and the tea table's
slots once each (one Tab stop per group); the arrow keys reach every card and every slot
inside them (nothing focusable is left out, nothing is a trap). A turn is played with Tab,
the arrows and Enter alone, in at most 10 key presses (33 before the arrows): a card, then a
lit slot, the focus going on to the lit slots by itself.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.activity.test_accessibility import open_scene, server_for

pytestmark = pytest.mark.browser

CONTROLS = """() => [...document.querySelectorAll(
    'button, select, input, textarea, a[href], [tabindex]')]
  .filter((el) => !el.disabled && el.getClientRects().length && el.tabIndex >= 0)
  .map((el) => el.dataset.testid || el.outerHTML.slice(0, 80))"""
GROUP = """(g) => [...document.querySelectorAll(`[data-testid=${g}] button`)]
  .map((el) => el.dataset.testid)"""
FOCUSED = """() => { const el = document.activeElement;
  return el && el !== document.body ? (el.dataset.testid || el.outerHTML.slice(0, 80)) : null; }"""


def tab_cycle(page: Any, limit: int = 80) -> list[str]:
    """The controls in Tab order, once round the page (from the document's start)."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    order: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None or (order and focused == order[0]):
            break
        order.append(focused)
    return order


def tab_to(page: Any, selector: str, limit: int = 80) -> str:
    """Press Tab until the focused element matches ``selector``; returns its test id."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return page.evaluate(FOCUSED)
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize(
    ("screen", "channel", "must_reach"),
    [
        ("three-seats", "1", ["hand-", "slot-", "sound", "guide-open", "auto-end", "action-hint"]),
        ("four-seats-teams", "4", ["hand-", "slot-", "chat-open", "guide-open"]),
        ("swap-to-answer", "5", ["hand-", "action-"]),
        ("lobby", "10", ["lobby-start", "lobby-ai-add", "lobby-ai-level", "lobby-cancel"]),
        ("no-lobby", "11", ["lobby-open"]),
        ("end", "8", ["rematch"]),
    ],
)
def test_tab_reaches_every_control(phone, request, screen, channel, must_reach):
    open_scene(phone, server_for(request, channel), channel)
    controls = phone.evaluate(CONTROLS)
    order = tab_cycle(phone)
    assert sorted(order) == sorted(controls), "Tab order and the page's controls differ"
    assert len(set(order)) == len(order), f"a control is reached twice: {order}"
    for wanted in must_reach:
        assert any(name.startswith(wanted) for name in order), f"{wanted} not in {order}"
    if channel in ("1", "4"):
        for group, prefix in (("hand", "hand-"), ("table", "slot-")):
            stops = [name for name in order if name.startswith(prefix)]
            assert len(stops) == 1, f"{group}: one Tab stop, not {stops}"
            members = phone.evaluate(GROUP, group)
            phone.focus(f"[data-testid={stops[0]}]")
            reached = {stops[0]}
            for _ in range(len(members)):
                phone.keyboard.press("ArrowRight")
                reached.add(phone.evaluate(FOCUSED))
            if group == "table":  # no card chosen: every slot is reachable
                assert reached == set(members), f"{group}: the arrows reach {reached}"
            else:  # on a turn the arrows skip the cards that cannot be played
                playable = phone.evaluate(
                    """() => [...document.querySelectorAll(
                    '[data-testid=hand] button:not([aria-disabled=true])')]
                    .map((el) => el.dataset.testid)"""
                )
                assert reached == set(playable or members), f"{group}: {reached}"


def test_a_turn_plays_from_the_keyboard_alone(phone, own_fake_server):
    open_scene(phone, own_fake_server, "1")
    game = phone.locator("[data-testid=game]")
    step = game.get_attribute("data-step")
    phone.evaluate("() => document.activeElement && document.activeElement.blur()")
    presses = 0

    def press(key: str) -> None:
        nonlocal presses
        phone.keyboard.press(key)
        presses += 1

    for _ in range(10):  # Tab to the hand: the header's tools and the table come first
        press("Tab")
        if phone.evaluate("() => document.activeElement.matches('[data-testid^=hand-]')"):
            break
    card = phone.evaluate(FOCUSED)
    assert card.startswith("hand-") and presses <= 5, (card, presses)
    press("Enter")
    assert phone.get_attribute(f"[data-testid={card}]", "aria-pressed") == "true"
    # The focus went on to the first lit slot by itself.
    phone.wait_for_function("() => document.activeElement.matches('[data-testid^=slot-].target')")
    press("ArrowRight")  # the arrows stay on lit slots
    assert phone.evaluate("() => document.activeElement.matches('.slot.target')")
    slot = phone.evaluate(FOCUSED)
    press("Enter")
    phone.wait_for_function(
        "(s) => document.querySelector('[data-testid=game]').dataset.step !== s", arg=step
    )
    # The card went to the slot (the fake server plays R7 exchanges as the engine does).
    assert phone.get_attribute(f"[data-testid={slot}]", "data-card") == card.removeprefix("hand-")
    assert phone.locator(f"[data-testid={card}]").count() == 0
    print(f"a keyboard turn: {presses} key presses")
    assert presses <= 10, f"a turn took {presses} key presses"  # 33 before issue 35.13
