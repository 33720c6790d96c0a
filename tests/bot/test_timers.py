"""Turn timers (reminder, auto-play, away, return), /hats kick, lobby expiry, restarts."""

from __future__ import annotations

import random

import discord
import pytest

from tests.bot.helpers import (
    custom_ids,
    dm_of,
    message_text,
    open_and_start,
    play_one,
    session_of,
    v2_texts,
)

TURN = 60


def options(**values):
    """Per-test bot settings on top of this module's ``bot_options``."""

    def mark(fn):
        fn.bot_options = values
        return fn

    return mark


@pytest.fixture
def bot_options(request):
    """60 s turns, no AI pause (``@options(...)`` overrides per test)."""
    extra = getattr(request.function, "bot_options", {})
    return {"turn_timer": TURN, "ai_delay": 0.0, "lobby_expiry": 600.0, "edit_limit": None, **extra}


def player_at(world, session, seat):
    user_id = session.seats[seat].user_id
    return next(p for p in world.players if p.user.id == user_id)


def table_text(world, session):
    message_id = session.message("table").message_id
    message = next(m for m in world.channel.history() if m.id == message_id)
    return message_text(message)


def channel_texts(world):
    return [m.content for m in world.channel.history() if m.content]


async def let_deadline_pass(world, session):
    """The seat to move does nothing for a whole turn; returns that seat."""
    seat = session.game.to_move
    await world.env.advance_time(TURN + 1)
    return seat


async def until_seat(world, session, seat, rng):
    """Everyone else plays until ``seat`` has the move."""
    while session.game.to_move != seat and not session.game.is_over:
        await play_one(world, session, rng)


async def test_no_reminder_at_half_time_then_ai_plays_the_turn_marked_on_table(world):
    session = await open_and_start(world, 2)
    seat = session.game.to_move
    absent = player_at(world, session, seat)
    before = session.version
    count = len(dm_of(absent).history())
    await world.env.advance_time(TURN / 2 + 1)
    # the hand DM counts the time down: no message of its own (issue 36.2)
    assert len(dm_of(absent).history()) == count
    assert session.version == before
    await world.env.advance_time(TURN / 2)
    assert session.version > before and session.game.to_move != seat
    assert session.auto_played
    assert session.seats[seat].auto_turns == 1 and not session.seats[seat].away
    assert "played by the AI for an absent player" in table_text(world, session)


async def test_a_move_resets_the_count_and_three_missed_turns_mark_away(world):
    session = await open_and_start(world, 2)
    rng = random.Random(4)
    seat = await let_deadline_pass(world, session)
    assert session.seats[seat].auto_turns == 1
    await until_seat(world, session, seat, rng)
    await play_one(world, session, rng)  # the player is here again: the count restarts
    assert session.seats[seat].auto_turns == 0
    for missed in (1, 2, 3):
        await until_seat(world, session, seat, rng)
        await let_deadline_pass(world, session)
        assert session.seats[seat].auto_turns == missed
    assert session.seats[seat].away and session.seats[seat].ai_level == "normal"
    name = player_at(world, session, seat).user.id
    assert any(f"<@{name}> seems to be away" in t for t in channel_texts(world))
    assert "Away: the AI (normal) plays for them." in table_text(world, session)
    # the AI now plays that seat at once, without waiting for the timer
    other = 1 - seat
    await until_seat(world, session, other, rng)
    auto_before = len(session.auto_played)
    while session.game.to_move == other:
        await play_one(world, session, rng)
    assert session.game.to_move in (other, None)
    assert len(session.auto_played) > auto_before


@options(ai_delay=30.0)
async def test_away_player_takes_the_seat_back_by_playing(world):
    session = await open_and_start(world, 2)
    rng = random.Random(8)
    seat = session.game.to_move
    for _ in range(3):
        await until_seat(world, session, seat, rng)
        await let_deadline_pass(world, session)
    assert session.seats[seat].away
    await until_seat(world, session, seat, rng)  # the AI waits its 30 s pause
    assert session.seats[seat].ai_level == "normal"
    await play_one(world, session, rng)
    assert not session.seats[seat].away and session.seats[seat].ai_level is None
    user_id = session.seats[seat].user_id
    assert any(f"<@{user_id}> is back" in t for t in channel_texts(world))
    while session.game.to_move == seat:  # finish the turn by hand
        await play_one(world, session, rng)
    await until_seat(world, session, seat, rng)
    version = session.version
    await world.env.advance_time(31)  # a pause of the AI would be over: it leaves the seat be
    assert session.version == version and session.game.to_move == seat


async def test_back_command_and_kick(world):
    session = await open_and_start(world, 3)
    alice, bob, carol = world.players[:3]
    r = await bob.slash(world.channel, "hats kick", player=carol)
    assert "Only the host" in r.response.content
    r = await alice.slash(world.channel, "hats back")
    assert r.response.content == "You were not away; nothing changed."
    carol_seat = session.seat_of(carol.user.id)
    r = await alice.slash(world.channel, "hats kick", player=carol)
    assert "removed" in r.response.content
    row = session.seats[carol_seat]
    assert row.user_id is None and row.ai_level == "normal"
    assert any(f"removed <@{carol.user.id}>" in t for t in channel_texts(world))
    assert session.row.settings["kicked"] == {str(carol_seat): carol.user.id}
    # carol's seat is the AI's now: the game goes on without her, to the end
    rng = random.Random(2)
    while not session.game.is_over:
        assert session.game.to_move != carol_seat
        await play_one(world, session, rng)
    r = await carol.slash(world.channel, "hats hand")
    assert "no game" in r.response.content.lower() or "not playing" in r.response.content.lower()


async def test_deadline_survives_a_restart(world, make_bot):
    session = await open_and_start(world, 2)
    seat = session.game.to_move
    before = session.version
    await world.env.advance_time(20)
    await world.env.restart_bot(make_bot())
    again = await world.env.bot.games.session(session.id)
    assert again is not None and again.version == before
    await world.env.advance_time(TURN - 20 + 1)
    assert again.version > before and again.game.to_move != seat
    assert again.seats[seat].auto_turns == 1


async def test_lobby_expires_after_its_last_change(world):
    alice, bob = world.players[:2]
    result = await alice.slash(world.channel, "hats new")
    lobby = result.response.message
    await world.env.advance_time(300)
    await bob.click(lobby, label="Join")
    await world.env.advance_time(301)  # 601 s after opening, 301 s after the last change
    assert await world.env.bot.games.lobby_in_channel(world.channel.id) is not None
    await world.env.advance_time(300)
    assert await world.env.bot.games.lobby_in_channel(world.channel.id) is None
    message = next(m for m in world.channel.history() if m.id == lobby.id)
    (line,) = v2_texts(message)  # one line, nothing stale
    assert "expired" in line
    assert not custom_ids(message)  # no control left


async def test_the_lobby_timer_is_set_by_hats_new_and_the_lobbys_timer_select(world):
    alice, bob = world.players[:2]
    r = await alice.slash(world.channel, "hats new", timer=5)
    assert "at least 10 seconds" in r.response.content
    assert await world.env.bot.games.lobby_in_channel(world.channel.id) is None
    r = await alice.slash(world.channel, "hats new", timer=0)
    row = await world.env.bot.games.lobby_in_channel(world.channel.id)
    assert row.settings["turn_timer"] is None
    lobby = r.response.message
    select = f"hats:lt:{row.id}"
    r = await bob.select(lobby, ["30"], custom_id=select)
    assert "Only the host" in r.response.content
    await alice.select(lobby, ["120"], custom_id=select)
    row = await world.env.bot.games.lobby_in_channel(world.channel.id)
    assert row.settings["turn_timer"] == 120


async def test_settings_timer_is_the_default_of_new_lobbies_here(world):
    alice, bob = world.players[:2]
    r = await bob.slash(world.channel, "hats settings timer", seconds=60)
    assert "Manage Server" in r.response.content
    managers = world.guild.create_role(
        "Managers", permissions=discord.Permissions(manage_guild=True)
    )
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[managers])
    r = await boss.slash(world.channel, "hats settings timer", seconds=90)
    assert r.ephemeral and "1 min 30 s" in r.response.content
    await alice.slash(world.channel, "hats new")
    row = await world.env.bot.games.lobby_in_channel(world.channel.id)
    assert row.settings["turn_timer"] == 90
    assert (await world.env.bot.store.guild_settings.options())[world.guild.id].turn_timer == 90


@options(turn_timer=None)
async def test_finished_game_button_after_restart_says_game_over(world, make_bot):
    env = world.env
    session = await open_and_start(world, 2)
    table_id = session.message("table").message_id
    # the table's last edit fails, so its buttons stay under a finished game
    for method in ("PATCH", "DELETE"):  # nor can it become (or give way to) the result
        env.inject_error(
            method, f"/channels/{world.channel.id}/messages/{table_id}", status=500, times=None
        )
    rng = random.Random(1)
    while not session.game.is_over:
        await play_one(world, session, rng)
    await env.restart_bot(make_bot())
    assert (await session_of(env, world.channel)) is None
    table = next(m for m in world.channel.history() if m.id == table_id)
    r = await world.players[0].click(table, label="Show my hand")
    assert r.response.content == "This game is over."
    env.errors  # noqa: B018 - the failed edits are logged warnings, read to acknowledge


async def test_moves_played_for_an_absent_player_stay_marked_after_a_restart(world, make_bot):
    session = await open_and_start(world, 2)
    await world.env.advance_time(TURN + 1)  # the AI plays this turn for the absent player
    marked = set(session.auto_played)
    assert marked
    await world.env.restart_bot(make_bot())
    again = await world.env.bot.games.session(session.id)
    assert again.auto_played == marked
