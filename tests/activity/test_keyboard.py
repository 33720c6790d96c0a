"""Every control is reachable with Tab, and a whole turn plays from the keyboard (issue 28 s. 3).

In Debian's Chromium at 360 × 640 against the fake server's canned games: the Tab order
reaches each hand card, each slot, each action and each lobby or end-screen control (nothing
focusable is left out, nothing is a trap), and a turn is played with Tab, Enter and Space
alone: a card, then a lit slot.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.activity.test_accessibility import open_scene, server_for

pytestmark = pytest.mark.browser

CONTROLS = """() => [...document.querySelectorAll(
    'button, select, input, textarea, a[href], [tabindex]:not([tabindex="-1"])')]
  .filter((el) => !el.disabled && el.getClientRects().length)
  .map((el) => el.dataset.testid || el.outerHTML.slice(0, 80))"""
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
        ("three-seats", "1", ["hand-", "slot-1", "slot-6", "auto-end", "action-hint"]),
        ("four-seats-teams", "4", ["hand-", "slot-1", "slot-6", "chat-open"]),
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
        hand = [name for name in order if name.startswith("hand-")]
        assert len(hand) == phone.locator("[data-testid^=hand-]").count()


def test_a_turn_plays_from_the_keyboard_alone(phone, own_fake_server):
    open_scene(phone, own_fake_server, "1")
    game = phone.locator("[data-testid=game]")
    step = game.get_attribute("data-step")
    card = tab_to(phone, "[data-testid^=hand-]:not([aria-disabled=true])")
    phone.keyboard.press("Enter")
    assert phone.get_attribute(f"[data-testid={card}]", "aria-pressed") == "true"
    slot = tab_to(phone, "[data-testid^=slot-].target")
    phone.keyboard.press("Space")
    phone.wait_for_function(
        "(s) => document.querySelector('[data-testid=game]').dataset.step !== s", arg=step
    )
    # The card went to the slot (the fake server plays R7 exchanges as the engine does).
    assert phone.get_attribute(f"[data-testid={slot}]", "data-card") == card.removeprefix("hand-")
    assert phone.locator(f"[data-testid={card}]").count() == 0
