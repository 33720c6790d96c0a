"""The people at the table in a real Chromium at 360 × 640 (issue 34 s. 3, issue 35 s. 9, 12).

Against the real bot in local mode (``bot.py --local``): Ana picks German in the sign-in's
language menu, Bo's browser speaks French, Cy only watches. Each seat shows its player's
avatar (local players: initials on a colour drawn from the name) and the player to move is
ringed; both players see "1 watching" in their language; Ana's 👍 shows on her seat in
Bo's and Cy's pages; Ana's German is remembered across a reload. Ana's browser is in the
dark theme (``prefers-color-scheme: dark``): axe-core finds no contrast failure on her screens,
nor on any canned screen of the fake server in the dark. No page scrolls in any of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.activity.conftest import ACTIVITY, PHONE
from tests.activity.local_bot import assert_fits
from tests.activity.test_accessibility import SCREENS, open_scene, serious_violations

pytestmark = pytest.mark.browser

GAME = "[data-testid=game]"
DARK_BG = "rgb(30, 31, 34)"


def catalog(lang: str) -> dict[str, Any]:
    return json.loads((ACTIVITY / "src" / "generated" / "i18n" / f"{lang}.json").read_text())


def says(lang: str, msgid: str) -> str:
    return catalog(lang)["messages"].get(msgid, msgid)


def watching(lang: str, n: int) -> str:
    forms = catalog(lang)["plurals"]["{n} watching"]
    return (forms[0] if n == 1 else forms[1]).replace("{n}", str(n))


@pytest.fixture
def pages(browser: Any) -> Iterator[Any]:
    """``open(locale, dark=False)``: a fresh 360 × 640 page; no JavaScript error on any."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(locale: str, *, dark: bool = False) -> Any:
        context = browser.new_context(
            viewport=PHONE,
            locale=locale,
            reduced_motion="reduce",
            color_scheme="dark" if dark else "light",
        )
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def seat_of(page: Any) -> int:
    return page.evaluate("() => window.hats.store.state.view.seat")


def test_avatars_reactions_watchers_and_the_language_menu(pages, local_bot):
    ana = pages("en-US", dark=True)
    ana.goto(local_bot.url)
    ana.wait_for_selector("[data-testid=signin]")
    ana.select_option("[data-testid=language-menu]", "de")
    ana.wait_for_function("() => document.documentElement.lang === 'de'")
    assert ana.inner_text("[data-testid=name-submit]") == says("de", "Play")
    assert_fits(ana, "sign-in, German")
    ana.fill("[data-testid=name-input]", "Ana Lopez")
    ana.click("[data-testid=name-submit]")
    ana.wait_for_selector("[data-testid=lobby-empty]")
    assert ana.inner_text("[data-testid=lobby-open]") == says("de", "Open a new lobby")
    assert ana.input_value("[data-testid=language-menu]") == "de"
    ana.click("[data-testid=lobby-open]")
    ana.wait_for_selector("[data-testid=lobby-seat-0] [data-avatar=drawn]")
    assert ana.inner_text("[data-testid=lobby-seat-0] [data-avatar=drawn]") == "AL"
    assert_fits(ana, "lobby, German, dark")

    bo = pages("fr-FR")
    bo.goto(local_bot.url + "?name=Bo")
    bo.click("[data-testid=lobby-join]")
    ana.wait_for_selector("[data-testid=lobby-seat-1] [data-avatar=drawn]")
    ana.click("[data-testid=lobby-start]")
    for page in (ana, bo):
        page.wait_for_selector(GAME)
    ana_seat, bo_seat = seat_of(ana), seat_of(bo)
    # each sees the other's drawn avatar on their seat, and one ring: the player to move
    assert ana.inner_text(f"[data-testid=seat-{bo_seat}] [data-avatar=drawn]") == "BO"
    assert bo.inner_text(f"[data-testid=seat-{ana_seat}] [data-avatar=drawn]") == "AL"
    for page in (ana, bo):
        assert page.locator(".avatar.active").count() == 1
        assert page.locator("[data-testid=watching]").count() == 0  # nobody watches yet

    cy = pages("en-US")
    cy.goto(local_bot.url + "?name=Cy")
    cy.wait_for_selector(GAME)
    assert seat_of(cy) is None
    ana.wait_for_selector(f"[data-testid=watching]:has-text('{watching('de', 1)}')")
    bo.wait_for_selector(f"[data-testid=watching]:has-text('{watching('fr', 1)}')")
    for page, when in ((ana, "Ana"), (bo, "Bo"), (cy, "Cy")):
        assert_fits(page, f"game, {when}")

    # Ana's 👍 on her seat, for everyone at the table
    ana.click("[data-testid=react]")
    ana.click("[data-testid='react-👍']")
    for page in (bo, cy):
        shown = page.wait_for_selector(f"[data-testid=reaction-{ana_seat}]")
        assert shown.inner_text() == "👍"
    assert cy.locator("[data-testid=react]").count() == 0  # a spectator has no reactions

    # the dark theme is on, and its contrast passes axe-core with the table bar showing
    assert ana.evaluate("() => getComputedStyle(document.body).backgroundColor") in (
        DARK_BG,
        "rgba(0, 0, 0, 0)",
    )
    assert ana.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") == (
        DARK_BG
    )
    assert serious_violations(ana) == []

    # the language is remembered across a reload
    ana.reload()
    ana.wait_for_selector(GAME)
    assert ana.evaluate("() => document.documentElement.lang") == "de"
    assert ana.evaluate("() => window.hats.store.state.language") == "de"


@pytest.mark.parametrize(
    ("screen", "channel"),
    [
        ("three-seats-your-turn", "1"),
        ("four-seats-teams", "4"),
        ("swap-to-answer", "5"),
        ("spectator", "6"),
        ("end-teams", "7"),
        ("end-three-seats", "8"),
        ("lobby", "10"),
    ],
)
def test_the_dark_theme_meets_wcag_aa_contrast(pages, request, screen, channel):
    page = pages("en-US", dark=True)
    base = request.getfixturevalue("own_fake_server" if channel == "10" else "fake_server")
    open_scene(page, base, channel)
    page.wait_for_selector(SCREENS)
    assert page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") == (
        DARK_BG
    )
    assert serious_violations(page) == []
