"""No serious or critical accessibility violation on any screen at 360 × 640 (issue 28 s. 3, 5).

axe-core (npm, pinned in activity/package.json) runs inside Debian's Chromium on every screen
the app has, served with canned games by activity/scripts/fake-server.mjs: sign-in, lobby (and
no lobby yet), the game at 2, 3 and 4 seats (teams), a card chosen with its targets lit, a
partner's swap offer to answer, the team chat open, a spectator, and both end screens.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.activity.conftest import AXE

SCREENS = "[data-testid=game], [data-testid=end-screen], [data-testid=lobby], " + (
    "[data-testid=lobby-empty], [data-testid=signin]"
)

pytestmark = pytest.mark.browser
LOBBY_CHANNELS = ("10", "11")
RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
    }));
}"""


def serious_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN_AXE)


def server_for(request: pytest.FixtureRequest, channel: str) -> str:
    """The shared fake server, or one of the test's own for a lobby (hosted by its first user)."""
    shared = channel not in LOBBY_CHANNELS
    return request.getfixturevalue("fake_server" if shared else "own_fake_server")


def open_scene(page: Any, base: str, channel: str, *, name: str | None = "Ana") -> None:
    query = f"?channel_id={channel}" + (f"&name={name}" if name else "")
    page.goto(base + "/" + query)
    page.wait_for_selector(SCREENS)


@pytest.mark.parametrize(
    ("screen", "channel"),
    [
        ("lobby", "10"),
        ("no-lobby", "11"),
        ("three-seats-your-turn", "1"),
        ("two-seats", "2"),
        ("four-seats-teams", "4"),
        ("swap-to-answer", "5"),
        ("spectator", "6"),
        ("end-teams", "7"),
        ("end-three-seats", "8"),
    ],
)
def test_no_serious_violation(phone, request, screen, channel):
    open_scene(phone, server_for(request, channel), channel)
    assert serious_violations(phone) == []


def test_no_serious_violation_on_the_sign_in(phone, fake_server):
    open_scene(phone, fake_server, "1", name=None)
    assert phone.is_visible("[data-testid=name-input]")
    assert serious_violations(phone) == []


def test_no_serious_violation_with_a_card_chosen(phone, fake_server):
    open_scene(phone, fake_server, "1")
    phone.click("[data-testid^=hand-]:not([aria-disabled=true])")
    phone.wait_for_selector("[data-testid^=slot-].target")
    assert serious_violations(phone) == []


def test_no_serious_violation_with_the_team_chat_open(phone, fake_server):
    open_scene(phone, fake_server, "4")
    phone.click("[data-testid=chat-open]")
    phone.wait_for_selector("[data-testid=chat-input]")
    assert serious_violations(phone) == []
