"""The bot shares its PostgreSQL store with another process that acts on the same game.

The other process is a GameService on its own Store (its own pool and origin), as a second
bot process would be. Its step reaches the bot by LISTEN/NOTIFY: the bot drops its copy, the
next interaction loads the game as stored, and a control drawn before that step is refused.

The games nobody plays of ``test_no_stall`` run here too, with a second process that fires
the AI's moves (its own DeadlineRunner, claiming ``ai`` deadlines against the bot's): a seat
change in one process meets the AI's step in the other, and no deadline is lost (issue 36.1).
"""

from __future__ import annotations

import random

import pytest

from cogs.clock import now
from cogs.scheduler import _BotRunner
from data import open_store
from service import DeadlinePolicy, GameService
from service.deadlines import AI, AI_RETRY
from service.due import fire_ai
from service.runner import POLL_SECONDS
from tests.bot.helpers import (
    card_select_custom_id,
    dm_of,
    open_and_start,
    play_one,
    session_of,
    text_of,
)
from tests.bot.test_no_stall import (  # noqa: F401
    AI_DELAY,
    allowed_gap,
    bot_options,
    test_a_game_night_round_nobody_plays_moves_on_at_every_deadline,
    test_four_seat_games_nobody_plays_move_on_at_every_deadline,
)

pytestmark = pytest.mark.postgres


@pytest.fixture
async def other_process(simcord_env, pg_url):
    """A second process on the bot's database that plays the AI's moves when they fall due.

    Its own Store and GameService (the bot's deadline rules), and a runner that claims the
    ``ai`` deadlines (the turn timers stay with the bot: an auto-played turn speaks Discord).
    Its tasks belong to the bot's scope, so simcord waits for them as for the bot's own.
    """
    store = await open_store(pg_url)

    def dispatch(name: str, *args) -> None:
        if name == "hats_deadline":
            runner.nudge(args[0])

    games = GameService(
        store,
        lambda: 1,
        dispatch=dispatch,
        deadlines=DeadlinePolicy(ai_delay=AI_DELAY),
        clock=now,
    )
    await games.start()

    async def fire(row) -> None:
        if await fire_ai(games, row) is not None:
            runner.moves += 1

    runner = _BotRunner(
        simcord_env.bot,
        store,
        fire,
        claimer=store.origin,
        poll=POLL_SECONDS,
        clock=now,
        kinds=(AI, AI_RETRY),
    )
    runner.moves = 0  # the AI steps this process made
    with simcord_env._bot_scope():
        runner.start()
    yield runner
    await runner.stop()
    await store.close()


@pytest.fixture
def db_path(pg_url):
    """The bot's database: a PostgreSQL URL."""
    return pg_url


async def test_a_move_made_by_another_process_is_what_the_bot_acts_on_next(world, pg_url):
    env = world.env
    session = await open_and_start(world, 2)
    seat = session.game.to_move
    player = next(p for p in world.players if p.user.id == session.seats[seat].user_id)
    old_hand = dm_of(player).last_message
    async with await open_store(pg_url) as other_store:
        other = GameService(other_store, lambda: 1, dispatch=lambda *args: None, clock=now)
        await other.start()
        theirs = await other.session(session.id)
        main = next(a for a in theirs.game.legal_actions(seat) if a.kind.is_main)
        noticed = env.bot.wait_for(
            "hats_game_changed", check=lambda c: c.game_id == session.id, timeout=10
        )
        await other.play(theirs, seat, main, version=theirs.version)
        change = await noticed  # the notification comes from the database server
        assert change.seq == 0 and change.origin == other_store.origin
        assert env.bot.games.cached(session.id) is None  # the bot's copy was dropped
        fresh = await session_of(env, world.channel)
        assert fresh.version == theirs.version == 1
        assert fresh.game.snapshot() == theirs.game.snapshot()
        # A control of the hand drawn before the other process's move is out of date now.
        before = session.game.legal_actions(seat)  # the bot's dropped copy: version 0
        other_main = next(a for a in before if a.kind.is_main and a != main)
        stale = await player.user.select(
            old_hand, [other_main.card.code], custom_id=card_select_custom_id(session.id, 0)
        )
        text = text_of(stale.response.message)
        assert "out of date, so nothing was done" in text  # one line (issue 36.4)
        assert (await other_store.steps.step_count(session.id)) == 1
        # The game goes on from the stored state, through the bot.
        rng = random.Random(5)
        for _ in range(6):
            current = await session_of(env, world.channel)
            await play_one(world, current, rng, via_slash=True)
        assert (await other_store.steps.step_count(session.id)) == 7
        theirs = await other.session(session.id)
        assert theirs.version == 7  # the other process sees the bot's moves too
