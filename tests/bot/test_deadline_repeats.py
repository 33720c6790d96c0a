"""A deadline fires at least once: every one fired twice here, and the repeat changes nothing.

A deadline can fire twice (its claimer killed before completing it, or the completion lost in
a database crash: another process claims it again when the lease runs out). Here the
scheduler's runner fires every deadline twice in a row, as such a repeat would; the second
firing must make no step (no second move, no second auto-played turn), and no player gets a
DM twice (reminder, swap lapse), nor the channel a post twice (lobby expiry).
Kinds covered: ``turn``, ``reminder``, ``ai``, ``swap`` (R10 lapse), ``expire`` (lobby).
"""

from __future__ import annotations

import random
from collections import Counter
from contextvars import ContextVar

import pytest

from engine import ActionKind
from tests.bot.helpers import act_on_hand, custom_ids, dm_of, open_and_start, play_one, session_of

TURN = 60
SWAP_TIMEOUT = 30
"""Shorter than a turn: the offer lapses before the partner's turn deadline."""


@pytest.fixture
def bot_options():
    return {
        "turn_timer": TURN,
        "ai_delay": 0.0,
        "swap_timeout": float(SWAP_TIMEOUT),
        "lobby_expiry": 600.0,
        "edit_limit": None,
    }


FIRING: ContextVar[tuple[str, int] | None] = ContextVar("firing", default=None)
"""(kind, 1 or 2): the firing of a deadline the code running now belongs to."""


@pytest.fixture
def repeats(world):
    """Fire every deadline twice; count the steps each firing made (kind, attempt) -> steps.

    The handlers run in the firing's context (asyncio tasks copy it), so a step stored by a
    repeat is counted as such, while the next deadline that fires meanwhile is not.
    """
    bot = world.env.bot
    runner = bot.get_cog("SchedulerCog").runner
    fire = runner.fire
    games = bot.games
    play = games.play
    steps: Counter[tuple[str, int]] = Counter()

    async def counted(*args, **kwargs):
        event = await play(*args, **kwargs)
        firing = FIRING.get()
        if firing is not None:
            steps[firing] += 1
        return event

    async def twice(row) -> None:
        for attempt in (1, 2):  # the same row again: a second claim after a lost completion
            token = FIRING.set((row.kind, attempt))
            try:
                await fire(row)
            finally:
                FIRING.reset(token)
            steps[(row.kind, attempt)] += 0  # fired, even without a step

    games.play = counted
    runner.fire = twice
    return steps


def texts(channel) -> Counter[str]:
    return Counter(m.content for m in channel.history() if m.content)


def assert_repeats_idle(steps, *kinds):
    """Each of ``kinds`` fired; no repeat of any deadline made a step."""
    assert {kind for kind, _ in steps} >= set(kinds), steps
    assert not [(kind, n) for (kind, attempt), n in steps.items() if attempt == 2 and n], steps


async def test_a_turn_deadline_and_its_reminder_fired_twice_act_once(world, repeats):
    session = await open_and_start(world, 2)
    seat = session.game.to_move
    absent = next(p for p in world.players if p.user.id == session.seats[seat].user_id)
    before = session.version
    await world.env.advance_time(TURN + 1)
    session = await world.env.bot.games.session(session.id)
    assert session.version > before and session.game.to_move != seat  # one turn auto-played
    assert session.seats[seat].auto_turns == 1  # not 2
    # the reminder sends nothing (issue 36.2: the hand DM counts the time down)
    assert not [t for t in texts(dm_of(absent)) if "Half of your time" in t]
    assert_repeats_idle(repeats, "turn", "reminder")
    assert repeats[("turn", 1)] > 0  # the first firing played the turn


async def test_ai_deadlines_fired_twice_make_one_step_each(world, repeats):
    alice = world.players[0]
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    await alice.slash(world.channel, "hats ai add", level="easy")
    await alice.click(lobby, label="Start")
    session = await session_of(world.env, world.channel)
    rng = random.Random(4)
    while not session.game.is_over:
        await play_one(world, session, rng)
        session = await world.env.bot.games.session(session.id) or session
    assert_repeats_idle(repeats, "ai")
    assert repeats[("ai", 1)] > 5


async def test_a_lapsing_swap_offer_and_a_lobby_expiry_fired_twice_act_once(world, repeats):
    session = await open_and_start(world, 4)
    rng = random.Random(8)
    game = session.game
    while True:  # play until the seat to move may offer a swap
        legal = game.legal_actions(game.to_move)
        offers = [a for a in legal if a.kind is ActionKind.OFFER_SWAP]
        if offers:
            break
        await play_one(world, session, rng)
    offerer = game.to_move
    player = next(p for p in world.players if p.user.id == session.seats[offerer].user_id)
    hand = next(m for m in reversed(dm_of(player).history()) if custom_ids(m))  # the live hand
    await act_on_hand(session, player, hand, offers[0])
    assert game.pending_offer is not None
    await world.env.advance_time(SWAP_TIMEOUT + 1)
    assert game.pending_offer is None
    for p in world.players[:4]:
        lapsed = [t for t, n in texts(dm_of(p)).items() if "lapsed" in t for _ in range(n)]
        assert len(lapsed) <= 1, (p, lapsed)
    lapsed_to = [p for p in world.players[:4] if any("lapsed" in t for t in texts(dm_of(p)))]
    assert len(lapsed_to) == 2  # the offerer and the partner, once each
    assert_repeats_idle(repeats, "swap")

    other = world.guild.create_text_channel("lobby")
    await world.players[4].slash(other, "hats new")
    await world.env.advance_time(601)
    expired = [t for t in texts(other) if "expired" in t]
    assert await world.env.bot.games.lobby_in_channel(other.id) is None
    assert len(expired) <= 1
    assert_repeats_idle(repeats, "expire")
