"""A game nobody plays never waits for nothing (issue 36.1): every deadline is there when due.

Nobody clicks, the turn timer is 10 s and the AI takes no pause: each absent player's turn is
played by the AI when its timer runs out, a seat turns away after three such turns, and from
then on the AI plays it at once. Before the fix a seat that turned away (written by the timers
cog after the step, outside its transaction) could overwrite the deadline of the AI's next
step with a stale one, dropped when it fell due: the game stood still until the re-arm sweep,
about 60 s later. Here the longest wait between two steps (and from the start to the first
one) is at most the turn timer plus the AI's pause, and the sweep re-arms nothing (its metric
``hats_deadlines_rearmed_total`` stays where it was).

Time is simcord's virtual clock; the steps' stored times say when each step was made. With
``ai_delay`` 0 every AI step falls due at the instant the step before it is stored, so a seat
change made after a step always meets the AI's next step in flight (the race of the issue).
``tests/bot/test_two_processes_bot.py`` runs these with a second process on PostgreSQL.
"""

from __future__ import annotations

import itertools

import pytest
from prometheus_client import REGISTRY

from data import GameStatus
from tests.bot.helpers import session_of

TIMER = 10
"""The lobby's turn timer, seconds (``/hats new timer:10``)."""
AI_DELAY = 0.0
"""The AI's pause before a step, seconds."""
RUN_FOR = 1800
"""Virtual seconds a game (or a round) may take at most here."""


@pytest.fixture
def bot_options():
    """No default timer (the lobby sets it), no AI pause, every edit at once."""
    return {"turn_timer": None, "ai_delay": AI_DELAY, "edit_limit": None}


@pytest.fixture
def other_process():
    """SQLite: the bot is the only process (PostgreSQL runs a second one, see the docstring)."""
    return None


@pytest.fixture
def allowed_gap(other_process):
    """The longest wait allowed between two steps: the turn timer plus the AI's pause.

    With a second process, a deadline one process wrote is seen by the other at its next
    look, at most ``service.runner.POLL_SECONDS`` later (what a poll costs, not a stall); on
    a busy machine a look may come a poll or two late, so three polls are allowed: still far
    below the stall this guards against (a minute).
    """
    return TIMER + AI_DELAY + (3 * other_process.poll if other_process is not None else 0.0)


def rearmed() -> float:
    """The re-arm sweep's count so far (every process of this test shares the registry)."""
    return REGISTRY.get_sample_value("hats_deadlines_rearmed_total") or 0.0


async def step_times(store, game_id: int) -> list[float]:
    """When the game was created, then when each of its steps was stored (unix seconds)."""
    row = await store.games.get_game(game_id)
    times = [row.created_at]
    for seq in range(await store.steps.step_count(game_id)):
        times.append((await store.steps.stored_step(game_id, seq))[2])
    return times


def longest_gap(times: list[float]) -> float:
    return max(b - a for a, b in itertools.pairwise(times))


async def run_out(env, game_ids: list[int]) -> None:
    """Let virtual time pass (nobody acts) until every game is finished."""
    store = env.bot.store
    for _ in range(RUN_FOR // 30):
        rows = [await store.games.get_game(g) for g in game_ids]
        if all(r.status is not GameStatus.LIVE for r in rows):
            return
        await env.advance_time(30)
    raise AssertionError(f"games {game_ids} still live after {RUN_FOR} s")


async def start_four_seat_game(world, channel, humans: int) -> int:
    """``humans`` players and AI seats up to four start a game in ``channel``; its id."""
    alice = world.players[0]
    opened = await alice.slash(channel, "hats new", timer=TIMER)
    lobby = opened.response.message
    for player in world.players[1:humans]:
        await player.click(lobby, label="Join")
    for _ in range(4 - humans):
        await alice.slash(channel, "hats ai add", level="normal")
    await alice.click(lobby, label="Start")
    session = await session_of(world.env, channel)
    assert len(session.seats) == 4
    return session.id


@pytest.mark.simcord(settle_timeout=60.0)  # the away seats' AI plays dozens of steps at once
async def test_four_seat_games_nobody_plays_move_on_at_every_deadline(
    world, other_process, allowed_gap
):
    """Three absent players and an AI seat (an absent player's seat followed by an AI's), in
    each of three channels at once (a seat change races an AI step more than once)."""
    before = rearmed()
    world.env.bot.pictures.enabled = False  # hands and tables in text: this is about time
    channels = [world.channel] + [world.guild.create_text_channel(f"hats-{i}") for i in (2, 3)]
    games = [await start_four_seat_game(world, channel, 3) for channel in channels]
    await run_out(world.env, games)
    for game_id in games:
        times = await step_times(world.env.bot.store, game_id)
        assert len(times) > 40  # a whole game
        assert longest_gap(times) <= allowed_gap, game_id
    assert rearmed() == before
    assert other_process is None or other_process.moves > 0  # both processes played


@pytest.mark.simcord(settle_timeout=60.0)
async def test_a_game_night_round_nobody_plays_moves_on_at_every_deadline(
    simcord_env, other_process, allowed_gap
):
    from tests.bot.test_tournament import Night, open_tournament

    before = rearmed()
    night = Night(simcord_env)  # seven players: tables of 3, 2 and 2
    tid, message_id = await open_tournament(night, name="Quiet night", rounds=1, timer=TIMER)
    await night.players[0].click(night.message(message_id), label="Start")
    view = await night.view(tid)
    games = [t.game_id for t in view.round_tables(1)]
    assert games and all(games)
    await run_out(simcord_env, games)
    for game_id in games:
        times = await step_times(simcord_env.bot.store, game_id)
        assert longest_gap(times) <= allowed_gap, game_id
    assert rearmed() == before
    assert other_process is None or other_process.moves > 0
