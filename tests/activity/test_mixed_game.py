"""A mixed game to the end: Alice in the Activity (Chromium), Bob by DM buttons, an AI (s. 2, 5).

One process: the real bot under simcord (the in-memory Discord) with its Activity web server
on a free port (``web_port=0``), as ``HATS_WEB_PORT`` opens it. Alice's browser (Debian's
Chromium at 360 × 640, driven from a thread of its own so the bot's event loop keeps serving)
opens the app at the channel's table; Bob plays from his hand DM; an easy AI fills the third
seat. Every one of Alice's moves is a tap in the page, every one of Bob's a DM click, and the
end screen in the page equals the bot's own result.

Sign-in: the browser is not inside Discord, so the test answers the app's ``/api/config`` (as
local mode would) and ``/api/local`` with a session the server issued for Alice's Discord id;
the WebSocket, the views and the moves are the server's own. The OAuth2 code exchange that
normally yields that session is tested in tests/web/test_api.py. Outside local mode the server
trusts only an Activity instance Discord lists Alice in (docs/activity-places.md): the test
plays Discord's part with a known instance at the channel (web.instances.KnownInstances) and
the SDK's part by sending its id in the page's ``hello``.
"""

from __future__ import annotations

import asyncio
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cogs.controls import action_custom_id, card_select_custom_id
from tests.activity.conftest import CHROMIUM, PHONE, need_chromium
from tests.activity.local_bot import (
    STEP_PASSED,
    assert_fits,
    play_one_action,
    shown_result,
    wait_my_move,
)
from tests.bot.conftest import (  # noqa: F401 (fixtures)
    db_path,
    make_bot,
    migrated_store,
    simcord_bot,
    world,
)
from tests.bot.helpers import act_on_hand, custom_ids, dm_of, record_posts, session_of
from web.instances import InstanceCache, KnownInstances

pytestmark = pytest.mark.browser


@pytest.fixture
def bot_options():
    return {"turn_timer": None, "ai_delay": 0.0, "edit_limit": None, "web_port": 0}


class Browser:
    """Chromium driven by Playwright's sync API from one thread of its own.

    ``await browser.run(fn, *args)`` calls ``fn(page, *args)`` in that thread; the test's
    event loop (the bot's, simcord's and the web server's) runs meanwhile.
    """

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="chromium")
        self.page: Any = None
        self._playwright: Any = None

    def _open(self) -> None:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        browser = self._playwright.chromium.launch(executable_path=CHROMIUM)
        context = browser.new_context(viewport=PHONE, locale="en-US", reduced_motion="reduce")
        self.page = context.new_page()

    def _close(self) -> None:
        if self._playwright is not None:
            self._playwright.stop()

    async def run(self, fn: Any, *args: Any) -> Any:
        """``fn(page, *args)`` in the browser's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, lambda: fn(self.page, *args))

    async def start(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self.pool, self._open)

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self.pool, self._close)
        self.pool.shutdown()


INSTANCE = "i-mixed-table"
"""The Activity instance Alice's page says it runs in (the SDK's ``instanceId`` in Discord)."""

SEND_INSTANCE = """(id) => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const frame = typeof data === "string" && data.includes('"hello"') ? JSON.parse(data) : null;
    if (frame && frame.t === "hello") data = JSON.stringify({ ...frame, instance_id: id });
    return send.call(this, data);
  };
}"""
"""The page's hello carries the instance id, as the Discord SDK's would."""


def sign_in_as(page: Any, base: str, channel: Any, session: str, user: Any) -> None:
    """Open the app at ``channel`` signed in as ``user`` with a session the server issued."""
    config = {"client_id": "0", "local": True, "protocol": "hats-activity/1"}
    page.add_init_script(f"({SEND_INSTANCE})({INSTANCE!r})")
    answer = {
        "session": session,
        "user": {"id": str(user.id), "name": user.name},
        "expires_at": time.time() + 3600,
    }
    page.route("**/api/config", lambda route: route.fulfill(json=config))
    page.route("**/api/local", lambda route: route.fulfill(json=answer))
    page.goto(f"{base}?channel_id={channel.id}&guild_id={channel.guild.id}&name={user.name}")
    page.wait_for_selector("[data-testid=game]")


def alice_moves(page: Any, step: int, rng: random.Random) -> str:
    """Alice's one action in the page once it shows step ``step``; waits for the next step."""
    page.wait_for_function(
        "(s) => { const v = window.hats.store.state.view; return v && v.step >= s; }", arg=step
    )
    state = wait_my_move(page)
    assert state["step"] == step, (state, step)
    assert_fits(page, f"step {step}")
    what = play_one_action(page, state, rng)
    page.wait_for_function(STEP_PASSED, arg=step, timeout=30_000)
    return what


def view_at_least(page: Any, step: int) -> dict[str, Any]:
    page.wait_for_function(
        "(s) => { const v = window.hats.store.state.view; return v && v.step >= s; }",
        arg=step,
        timeout=30_000,
    )
    return page.evaluate("() => window.hats.store.state.view")


async def bob_moves(table: Any, session: Any, bob: Any, rng: random.Random) -> bool:
    """Bob's random legal action with the controls of his hand DM; True when it had them.

    Without them he taps the controls of ``/hats hand`` instead, as the one-line turn ping
    tells him to. Seen here (reported, not asserted): his first turn ping is that one line,
    because a move made in the Activity counts as a slash command for
    ``cogs.play.plays_by_slash``; and under simcord the hand DM of a turn that follows a
    step made from the page or by an AI sometimes arrives only virtual seconds later.
    """
    game = session.game
    legal = game.legal_actions(game.to_move)
    kind = rng.choice(sorted({a.kind for a in legal}, key=lambda k: k.value))
    action = rng.choice([a for a in legal if a.kind is kind])
    message = dm_of(bob).last_message
    if action_custom_id(session.id, session.version, action) in custom_ids(message) or (
        card_select_custom_id(session.id, session.version) in custom_ids(message)
    ):
        await act_on_hand(session, bob, message, action)
        return True
    message = (await bob.slash(table.channel, "hats hand")).response.message
    card = getattr(action, "card", None)
    if card is not None:
        select_id = card_select_custom_id(session.id, session.version)
        await bob.select(message, [card.code], custom_id=select_id)
    await bob.click(message, custom_id=action_custom_id(session.id, session.version, action))
    return False


async def test_alice_in_the_activity_bob_by_dm_and_an_ai_play_to_the_end(world, client_dist):  # noqa: F811
    need_chromium()
    env, alice, bob = world.env, world.players[0], world.players[1]
    web = env.bot.web
    assert web is not None, "web_port=0 opens the Activity's web server"
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    await bob.click(lobby, label="Join")
    await alice.slash(world.channel, "hats ai add", level="easy")
    lobby = next(m for m in world.channel.history() if m.id == lobby.id)
    await alice.click(lobby, label="Start")
    session = await session_of(env, world.channel)
    users = [s.user_id for s in session.seats]
    assert sorted(u for u in users if u) == sorted([alice.user.id, bob.user.id])

    browser = Browser()
    await browser.start()
    try:
        known = KnownInstances()  # Discord lists Alice in the channel's Activity instance
        known.join(INSTANCE, alice.user.id, channel_id=world.channel.id, guild_id=world.guild.id)
        web.instances = InstanceCache(known)
        token, _ = web.sessions.issue(alice.user.id, alice.user.name)
        await browser.run(sign_in_as, web.address, world.channel, token, alice.user)
        rng = random.Random(28)
        moves = {"alice": 0, "bob": 0, "bob_dm": 0}
        while not session.game.is_over:
            await env.settle()  # the DMs and table edits of steps made from the page or by AIs
            step = session.version
            mover = users[session.game.to_move]
            if mover == alice.user.id:
                await browser.run(alice_moves, step, rng)
                moves["alice"] += 1
            elif mover == bob.user.id:
                # Bob taps his hand DM's controls; Alice's page follows live.
                moves["bob_dm"] += await bob_moves(world, session, bob, rng)
                moves["bob"] += 1
                seen = await browser.run(view_at_least, step + 1)
                assert seen["step"] >= step + 1
            else:
                await env.advance_time(1)  # the AI's move is a deadline (HATS_AI_DELAY=0)
            assert session.version > step, f"nobody moved at step {step}"
        result = session.game.result
        assert result is not None
        totals = [s.total for s in result.scores]
        final = await browser.run(view_at_least, session.version)
        assert final["result"] is not None
        shown = await browser.run(shown_result)
        assert shown.ranking == list(result.order)
        assert shown.places == list(result.places)
        assert shown.totals == totals
        assert shown.winners == sorted(result.winners)
        await browser.run(assert_fits, "end")
    finally:
        await browser.close()
    assert moves["alice"] >= 8 and moves["bob"] >= 8  # every turn of both (R6: 8 turns each)
    assert moves["bob_dm"] >= 1, moves  # some of his moves straight from his hand DM
    # The channel got the end post with the game's record, as in an all-DM game.
    posts = record_posts(env, world.channel)
    assert posts[-1].attachments[0].filename == f"hats-game-{session.id}.json"
