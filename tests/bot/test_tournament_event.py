"""A tournament's timed start through a guild scheduled event, its status at each stage, a
call-off, the server's time zone, and bad inputs answered privately without changing anything.
"""

from __future__ import annotations

import random
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from data import TournamentStatus
from tests.bot.helpers import bot_messages, v2_texts
from tests.bot.test_surface import _click_forged
from tests.bot.test_tournament import TIMER, Night, open_tournament, play_round

pytestmark = pytest.mark.simcord(settle_timeout=30.0)
"""Work in the thread pool (a round's first deals, the AI's moves) takes real time: on a loaded
2-core machine more than simcord's default 5 s of settling."""

SCHEDULED, ACTIVE, COMPLETED, CANCELLED = 1, 2, 3, 4
"""Discord's guild scheduled event statuses."""


def event_of(night, row):
    return night.env.backend.get_guild(night.guild.id).scheduled_events[row.event_id]


async def stored(night, tid):
    return await night.bot.store.tournaments.get(tid)


@pytest.fixture
async def trio(simcord_env):
    return Night(simcord_env, count=4)


async def test_a_timed_start_runs_through_its_scheduled_event(trio):
    night, env = trio, trio.env
    alice = night.players[0]
    zone = await alice.slash(night.channel, "hats settings timezone", zone="europe/berlin")
    assert zone.ephemeral and "Europe/Berlin" in zone.response.content
    tid, message_id = await open_tournament(night, rounds=1, start="in 2h", timer=TIMER)
    row = await stored(night, tid)
    event = event_of(night, row)
    assert event.status == SCHEDULED and event.entity_type == 3  # external
    assert event.entity_metadata["location"].endswith(str(night.channel.id))
    assert datetime.fromisoformat(event.scheduled_start_time).timestamp() == row.start_at
    assert f"<t:{int(row.start_at)}:F>" in "\n".join(v2_texts(night.message(message_id)))
    await env.advance_time(3600)
    assert (await stored(night, tid)).status is TournamentStatus.OPEN  # not yet
    await env.advance_time(3601)  # the start time: the tournament starts by itself
    row = await stored(night, tid)
    assert row.status is TournamentStatus.RUNNING and row.round == 1
    assert event_of(night, row).status == ACTIVE
    view = await night.view(tid)
    assert [len(t.players) for t in view.round_tables(1)] == [2, 2]  # 4 players: 2 + 2
    await play_round(night, tid, random.Random(5))
    row = await stored(night, tid)
    assert row.status is TournamentStatus.FINISHED
    assert event_of(night, row).status == COMPLETED


async def test_the_server_time_zone_reads_the_start(trio):
    night = trio
    alice = night.players[0]
    choices = await alice.autocomplete(night.channel, "hats settings timezone", "zone", "berl")
    assert {"name": "Europe/Berlin", "value": "Europe/Berlin"} in choices
    refused = await alice.slash(night.channel, "hats settings timezone", zone="Mars/Olympus")
    assert refused.ephemeral and "Europe/Berlin" in refused.response.content
    assert await night.bot.store.guild_settings.timezone(night.guild.id) is None
    refused = await night.players[1].slash(
        night.channel, "hats settings timezone", zone="Asia/Tokyo"
    )
    assert refused.ephemeral and "Manage Server" in refused.response.content
    await alice.slash(night.channel, "hats settings timezone", zone="Asia/Tokyo")
    tid, _ = await open_tournament(night, start="2026-06-01 20:00")
    row = await stored(night, tid)
    assert row.start_at == datetime(2026, 6, 1, 20, 0, tzinfo=ZoneInfo("Asia/Tokyo")).timestamp()


async def test_the_host_cancels_and_the_event_is_cancelled(trio):
    night = trio
    alice, bob = night.players[:2]
    tid, message_id = await open_tournament(night, start="in 1h")
    message = night.message(message_id)
    refused = await bob.click(message, label="Cancel")
    assert refused.ephemeral and "Only the host" in refused.response.content
    await alice.click(message, label="Cancel")
    row = await stored(night, tid)
    assert row.status is TournamentStatus.CANCELLED
    assert event_of(night, row).status == CANCELLED
    assert "cancelled" in "\n".join(v2_texts(night.message(message_id)))
    # the channel is free for the next tournament
    opened = await alice.slash(night.channel, "hats tournament new")
    assert not opened.ephemeral


async def test_bad_inputs_are_answered_privately_and_change_nothing(trio):
    night, env = trio, trio.env
    alice, bob, carol = night.players[:3]
    for start, words in (
        ("2020-01-01 10:00", "in the past"),
        ("tomorrow evening", "cannot read the start time"),
        ("25:00", "cannot read the start time"),
    ):
        result = await alice.slash(night.channel, "hats tournament new", start=start)
        assert result.ephemeral and words in result.response.content, start
    with pytest.raises(Exception, match="7"):  # Discord itself refuses rounds out of 1-7
        await alice.slash(night.channel, "hats tournament new", rounds=9)
    assert await night.bot.store.tournaments.active_in_channel(night.channel.id) is None
    assert not bot_messages(env, night.channel)
    nothing = await bob.slash(night.channel, "hats tournament leave")
    assert nothing.ephemeral and "no tournament in this channel" in nothing.response.content
    # a tournament of three; a second one in the channel is refused
    opened = await alice.slash(night.channel, "hats tournament new", rounds=1)
    message = opened.response.message
    for player in (bob, carol):
        await player.click(message, label="Join")
    twice = await alice.slash(night.channel, "hats tournament new")
    assert twice.ephemeral and "already has a tournament" in twice.response.content
    again = await bob.click(night.message(message.id), label="Join")
    assert again.ephemeral and "already in this tournament" in again.response.content
    row = await night.bot.store.tournaments.active_in_channel(night.channel.id)
    await alice.click(night.message(message.id), label="Start")
    # Join after the start: a forged press of the old button (the message shows none now)
    late = night.players[3]
    result = await _click_forged(env, late, night.message(message.id), f"hats:tn:{row.id}:join")
    assert result.ephemeral and "sign-up is closed" in result.response.content
    # a 31-digit id in a forged control names no tournament
    result = await _click_forged(
        env, late, night.message(message.id), "hats:tn:" + "9" * 31 + ":join"
    )
    assert result.ephemeral and "out of date" in result.response.content
    entrants = await night.bot.store.tournaments.entrants(row.id)
    assert late.user.id not in [e.user_id for e in entrants] and len(entrants) == 3
    # only the host (or a manager) drops a player; a stranger cannot
    refused = await bob.slash(night.channel, "hats tournament drop", player=carol.user)
    assert refused.ephemeral and "Only the host" in refused.response.content
    unknown = await bob.slash(night.channel, "hats tournament standings", tournament=12345)
    assert unknown.ephemeral and "no tournament #12345" in unknown.response.content


@pytest.fixture
async def pair(simcord_env):
    return Night(simcord_env, count=2)


async def test_a_timed_start_with_too_few_players_cancels_its_event_and_says_why(pair):
    """Issue 36.8: called off at its start time for too few players, the tournament's event is
    cancelled (status 4) or deleted, never "completed", and its message says why."""
    night, env = pair, pair.env
    tid, message_id = await open_tournament(night, rounds=1, start="in 1h", timer=TIMER)
    row = await stored(night, tid)
    assert event_of(night, row).status == SCHEDULED
    await env.advance_time(3601)
    row = await stored(night, tid)
    assert row.status is TournamentStatus.CANCELLED
    events = night.env.backend.get_guild(night.guild.id).scheduled_events
    assert row.event_id not in events or events[row.event_id].status == CANCELLED
    text = "\n".join(v2_texts(night.message(message_id)))
    assert "only 2 players signed up; 3 are needed" in text
