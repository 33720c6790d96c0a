"""Nothing cut, every control reachable by a thumb, every card in sight (issue 35.3, 35.6, 35.7).

In Debian's Chromium at 360 × 640, in English and German (and French for the longest
labels), against the fake server's canned screens: no text anywhere is clipped (neither cut
with an ellipsis, ``scrollWidth > clientWidth`` with ``text-overflow``, nor hidden by a box
that clips it or by the edge of the screen), every control is at least 44 × 44 CSS px, the
page does not scroll; in a 4-player team game in round 8 with names of 20 characters every
name and every card of every collection is on screen whole; a refusal shows in full until it
is tapped away.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.activity.conftest import PHONE
from tests.activity.local_bot import assert_fits

pytestmark = pytest.mark.browser

NAME = "Annabelle Kowalczyk Z"[:20]
"""The viewer's name: 20 characters, as the other players' in scenes 9 and 12."""

CLIPPED = """() => {
  const out = [];
  const describe = (el) => (el.dataset.testid || el.className || el.tagName) + ": " +
    (el.textContent || "").trim().slice(0, 60);
  for (const el of document.querySelectorAll("body *")) {
    const inArt = el.parentElement && el.parentElement.closest("svg");
    if (!el.getClientRects().length || inArt) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === "hidden") continue;
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const card = el.classList.contains("face");
    if (!text && !card) continue;
    if (text && cs.textOverflow !== "clip" && el.scrollWidth > el.clientWidth + 1) {
      out.push("ellipsis " + describe(el));
      continue;
    }
    if (text && (cs.overflowX !== "visible" || cs.overflowY !== "visible") &&
        (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) {
      out.push("overflows itself " + describe(el));
      continue;
    }
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
      out.push("off screen " + describe(el));
      continue;
    }
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const acs = getComputedStyle(a);
      if (acs.overflowX === "visible" && acs.overflowY === "visible") continue;
      const ar = a.getBoundingClientRect();
      if (r.left < ar.left - 1 || r.right > ar.right + 1 ||
          r.top < ar.top - 1 || r.bottom > ar.bottom + 1) {
        out.push("clipped by " + (a.dataset.testid || a.className) + " " + describe(el));
        break;
      }
    }
  }
  return out;
}"""

SMALL_CONTROLS = """() => [...document.querySelectorAll("button, select, input, textarea, a[href]")]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
  .map((el) => ({
    id: el.dataset.testid || el.outerHTML.slice(0, 60), r: el.getBoundingClientRect() }))
  .filter(({ r }) => r.width < 43.5 || r.height < 43.5)
  .map(({ id, r }) => `${id}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""

SCREENS = (
    "[data-testid=game], [data-testid=end-screen], [data-testid=lobby], [data-testid=lobby-empty]"
)

SCENES = {
    "1": "3 seats, your turn",
    "2": "2 seats",
    "4": "4 seats, teams, names of 32 characters (Discord's longest)",
    "7": "the end of that game",
    "5": "a partner's swap offer to answer",
    "6": "a spectator",
    "8": "the end of a 3-seat game",
    "9": "4 seats, teams, round 8, names of 20 characters",
    "12": "the end of that 4-seat game",
    "10": "the lobby",
}


def open_page(browser: Any, base: str, channel: str, locale: str) -> Any:
    context = browser.new_context(viewport=PHONE, locale=locale, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{base}/?channel_id={channel}&name={NAME}")
    page.wait_for_selector(SCREENS)
    return page


def assert_whole(page: Any, when: str) -> None:
    """No clipped text, no small control, no scrolling."""
    assert page.evaluate(CLIPPED) == [], f"{when}: text is cut"
    assert page.evaluate(SMALL_CONTROLS) == [], f"{when}: controls under 44 x 44 px"
    assert_fits(page, when)


@pytest.mark.parametrize("locale", ["en-US", "de-DE", "fr-FR"])
@pytest.mark.parametrize("channel", list(SCENES))
def test_no_text_is_cut_and_every_control_is_44_px(browser, request, channel, locale):
    base = request.getfixturevalue("own_fake_server" if channel == "10" else "fake_server")
    page = open_page(browser, base, channel, locale)
    try:
        assert_whole(page, f"{SCENES[channel]} ({locale})")
        playable = page.locator("[data-testid^=hand-]:not([aria-disabled=true])")
        if playable.count():  # a chosen card rises, its actions show
            playable.first.click()
            assert page.locator(".hand-card.selected").count() == 1
            assert_whole(page, f"{SCENES[channel]}, a card chosen ({locale})")
    finally:
        page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_every_name_and_collection_card_fits_in_round_8_of_a_team_game(
    browser, fake_server, locale
):
    page = open_page(browser, fake_server, "9", locale)
    try:
        view = page.evaluate("() => window.hats.store.state.view")
        assert view["round"] == 8 and view["teams"]
        assert all(len(name) >= 19 for name in view["names"])
        for seat, collection in enumerate(view["collections"]):
            box = "mine" if seat == view["seat"] else f"seat-{seat}"
            assert len(collection) >= 5, collection
            shown = page.evaluate(
                """(box) => { const b = document.querySelector(`[data-testid=${box}]`);
                  const r = b.getBoundingClientRect();
                  return [...b.querySelectorAll(".chips:not(.blacks) .face")].map((f) => {
                    const c = f.getBoundingClientRect();
                    return c.left >= r.left && c.right <= r.right && c.top >= r.top &&
                      c.bottom <= r.bottom && c.right <= innerWidth && c.width >= 16;
                  }); }""",
                box,
            )
            assert shown == [True] * len(collection), (seat, shown)
            if box != "mine":
                name = page.locator(f"[data-testid={box}] .name").inner_text()
                assert name == view["names"][seat]
        assert_whole(page, f"round 8 ({locale})")
    finally:
        page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_a_refusal_shows_in_full_until_tapped(browser, own_fake_server, locale):
    page = open_page(browser, own_fake_server, "1", locale)
    try:
        view = page.evaluate("() => window.hats.store.state.view")
        card, text = next(iter(view["blocked"].items()))
        legal = {a["slot"] for a in view["legal"] if a.get("card") == card and "slot" in a}
        slot = next(s for s in range(1, 7) if s not in legal)
        page.click(f"[data-testid=hand-{card}]")
        page.click(f"[data-testid=slot-{slot}]", force=True)  # aria-disabled: it says why
        toast = page.locator("[data-testid=toast-text]")
        assert toast.inner_text() == text
        assert_whole(page, f"a refusal ({locale})")
        page.click("[data-testid=events]")  # a tap elsewhere leaves it
        assert toast.count() == 1, "the refusal went away without a tap on it"
        toast.click()
        assert page.locator("[data-testid=toast]").count() == 0
    finally:
        page.context.close()


@pytest.mark.parametrize("size", [(640, 360), (1280, 800)])
@pytest.mark.parametrize("channel", ["1", "4", "9", "12"])
def test_nothing_is_cut_in_landscape_and_on_desktop(browser, fake_server, channel, size):
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="de-DE", reduced_motion="reduce"
    )
    page = context.new_page()
    try:
        page.goto(f"{fake_server}/?channel_id={channel}&name={NAME}")
        page.wait_for_selector(SCREENS)
        assert_whole(page, f"{SCENES[channel]} at {width}x{height}")
    finally:
        context.close()
