"""Database faults on every write path: every interaction is answered privately, nothing changes.

Faults are SQLite's own errors raised on chosen statements (tests/bot/faults.py); the full-disk
tests with a real filesystem are in test_full_disk.py, the crash tests in test_outbox_crash.py.
"""

from __future__ import annotations

import logging
import random

import pytest

import service.games
from cogs.controls import action_custom_id, card_select_custom_id
from data import GameStatus
from engine import ActionKind
from tests.bot.faults import inject, warnings_and_errors
from tests.bot.helpers import (
    act_on_hand,
    bot_messages,
    custom_ids,
    dm_of,
    open_and_start,
    record_posts,
    session_of,
)

NOT_SAVED = "Your move was not saved, so nothing changed"
NOTHING_CHANGED = "That could not be saved, so nothing changed"
WRITES = r"^\s*(COMMIT|INSERT|UPDATE|DELETE)"  # every write, as on a full disk


@pytest.fixture(autouse=True)
def _warnings(caplog):
    caplog.set_level(logging.WARNING)


def player_at(world, session, seat):
    user_id = session.seats[seat].user_id
    return next(p for p in world.players if p.user.id == user_id)


def pick(session, rng):
    """A random legal action of the seat to move (as tests.bot.helpers.play_one picks)."""
    seat = session.game.to_move
    legal = session.game.legal_actions(seat)
    kinds = sorted({a.kind for a in legal}, key=lambda k: k.value)
    kind = rng.choice(kinds)
    return seat, rng.choice([a for a in legal if a.kind is kind])


async def click_action(session, player, action):
    """Take ``action`` with the player's latest hand DM; the button's interaction result."""
    return await act_on_hand(session, player, dm_of(player).last_message, action)


def ends_game(session, seat, action) -> bool:
    probe = session.game.copy()
    probe.apply(seat, action)
    return probe.is_over


async def play_until_last_step(world, session, rng):
    """Play random moves until the next one ends the game; return (player, action)."""
    while True:
        seat, action = pick(session, rng)
        player = player_at(world, session, seat)
        if ends_game(session, seat, action):
            return player, action
        await click_action(session, player, action)


def end_posts(world):
    return record_posts(world.env, world.channel)


def assert_one_warning(caplog, *needles):
    warnings, bad = warnings_and_errors(caplog)
    assert not bad, [r.getMessage() for r in bad]
    hits = [r for r in warnings if all(n in r.getMessage() for n in needles)]
    assert len(hits) >= 1, [r.getMessage() for r in warnings]
    assert all("\n" not in r.getMessage() for r in warnings)


async def test_dm_button_move_on_a_read_only_store(world, caplog):
    session = await open_and_start(world, 2)
    store = world.env.bot.store
    seat, action = pick(session, random.Random(1))
    player = player_at(world, session, seat)
    before, version = session.game.snapshot(), session.version
    fault = inject(store, r"INSERT INTO steps", "read_only")
    result = await click_action(session, player, action)
    assert result.ephemeral and NOT_SAVED in result.response.content
    assert "cannot be written" in result.response.content
    assert session.version == version and session.game.snapshot() == before
    assert await store.steps.step_count(session.id) == version
    assert_one_warning(caplog, "read_only", "not saved")
    fault.clear()
    await click_action(session, player, action)  # the same controls work once it is writable
    assert session.version == version + 1
    assert await store.steps.step_count(session.id) == version + 1


async def test_an_error_reported_after_the_step_was_stored_counts_the_step(world, caplog):
    """What the player is told follows what the store holds, not the error it reported."""
    session = await open_and_start(world, 2)
    seat, action = pick(session, random.Random(6))
    player = player_at(world, session, seat)
    # the step's transaction (the step, then its deadlines judged on the stored seats)
    fault = inject(world.env.bot.store, r"^\s*COMMIT", "io", after=True, times=1)
    result = await click_action(session, player, action)
    fault.clear()
    assert fault.hits == 1
    assert session.version == 1 and await world.env.bot.store.steps.step_count(session.id) == 1
    assert "not saved" not in str(result.response.content)  # the hand, redrawn after the move
    assert_one_warning(caplog, "stored despite an error")


async def test_a_start_stored_despite_a_reported_error_starts_the_game(world, caplog):
    alice, bob = world.players[:2]
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    await bob.click(lobby, label="Join")
    # the start's own commit only (the first deadlines are written after it, in their own)
    fault = inject(world.env.bot.store, r"^\s*COMMIT", "io", after=True, times=1)
    r = await alice.click(lobby, label="Start")
    fault.clear()
    assert fault.hits == 1 and not r.ephemeral  # the lobby message says the game started
    session = await session_of(world.env, world.channel)
    assert (
        session is not None and await world.env.bot.games.lobby_in_channel(world.channel.id) is None
    )
    assert dm_of(alice).last_message is not None and dm_of(bob).last_message is not None
    assert_one_warning(caplog, "stored despite an error")


async def test_slash_move_on_a_full_store_then_ephemeral_hand_controls(world, caplog):
    session = await open_and_start(world, 2)
    seat = session.game.to_move
    player = player_at(world, session, seat)
    card = session.game.hands[seat][0]
    fault = inject(world.env.bot.store, r"INSERT INTO steps", "full")
    r = await player.slash(world.channel, "hats blackhat", card=card.code)
    assert r.ephemeral and NOT_SAVED in r.response.content and "disk is full" in r.response.content
    assert session.version == 0
    # the /hats hand controls (an ephemeral message) answer the same way
    hand = await player.slash(world.channel, "hats hand")
    message = hand.response.message
    await player.select(message, [card.code], custom_id=card_select_custom_id(session.id, 0))
    black = next(
        a
        for a in session.game.legal_actions(seat)
        if a.kind is ActionKind.BLACK_HAT and a.card is card
    )
    r = await player.click(message, custom_id=action_custom_id(session.id, 0, black))
    assert r.ephemeral and NOT_SAVED in r.response.content
    assert session.version == 0
    assert fault.hits >= 1
    assert_one_warning(caplog, "full")
    fault.clear()
    ok = await player.slash(world.channel, "hats blackhat", card=card.code)
    assert ok.ephemeral and session.version == 1


async def test_last_step_fails_then_finishes_exactly_once(world, caplog):
    """Fault 2: the end-of-game write fails at the last step: nothing is stored, nothing over."""
    session = await open_and_start(world, 2)
    store = world.env.bot.store
    player, action = await play_until_last_step(world, session, random.Random(5))
    version = session.version
    fault = inject(store, r"INSERT INTO results", "io")
    result = await click_action(session, player, action)
    assert result.ephemeral and NOT_SAVED in result.response.content
    assert not session.game.is_over and session.version == version
    assert (await store.games.get_game(session.id)).status is GameStatus.LIVE
    assert await store.steps.step_count(session.id) == version  # the step was not kept alone
    assert end_posts(world) == []
    hand = await player.slash(world.channel, "hats hand")  # the game is still there
    assert hand.response.message.components
    assert_one_warning(caplog, "io")
    fault.clear()
    await click_action(session, player, action)
    assert session.game.is_over
    assert (await store.games.get_game(session.id)).status is GameStatus.FINISHED
    assert len(end_posts(world)) == 1
    assert all(i.delivered_at is not None for i in await store.outbox.items(session.id))
    record = await player.slash(world.channel, "hats record")
    assert record.response.attachments
    new = await player.slash(world.channel, "hats new")  # the channel is free again
    assert not new.ephemeral


async def test_lobby_buttons_and_commands_on_a_failing_store(world, caplog):
    alice, bob, carol = world.players[:3]
    store = world.env.bot.store
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    busy = inject(store, r"UPDATE lobbies", "busy")
    r = await bob.click(lobby, label="Join")
    assert r.ephemeral and NOTHING_CHANGED in r.response.content and "busy" in r.response.content
    row = await world.env.bot.games.lobby_in_channel(world.channel.id)
    assert [s.user_id for s in row.seats] == [alice.user.id]
    assert [s.user_id for s in (await store.lobbies.get_lobby(row.id)).seats] == [alice.user.id]
    busy.clear()
    await bob.click(lobby, label="Join")
    full = inject(store, WRITES, "full")
    r = await alice.click(lobby, label="Start")
    assert r.ephemeral and NOTHING_CHANGED in r.response.content
    assert (await session_of(world.env, world.channel)) is None
    assert await store.lobbies.get_lobby(row.id) is not None
    assert await store.games.list_live() == []
    r = await alice.slash(world.channel, "hats lobby cancel")
    assert r.ephemeral and NOTHING_CHANGED in r.response.content
    for label in ("Cancel", "Leave"):  # the other lobby buttons and the Add AI select
        r = await alice.click(lobby, label=label)
        assert r.ephemeral and NOTHING_CHANGED in r.response.content, label
    select_id = next(c for c in custom_ids(lobby) if c.startswith("hats:ai:"))
    r = await alice.select(lobby, ["hard"], custom_id=select_id)
    assert r.ephemeral and NOTHING_CHANGED in r.response.content
    row = await world.env.bot.games.lobby_in_channel(world.channel.id)
    assert row is not None and [s.user_id for s in row.seats] == [alice.user.id, bob.user.id]
    other = world.guild.create_text_channel("other")
    r = await carol.slash(other, "hats new")
    assert r.ephemeral and NOTHING_CHANGED in r.response.content
    full.clear()
    assert_one_warning(caplog, "full")
    await alice.click(lobby, label="Start")
    session = await session_of(world.env, world.channel)
    assert session is not None
    tables = [m for m in bot_messages(world.env, world.channel) if "hats:t:" in str(custom_ids(m))]
    assert len(tables) == 1
    assert dm_of(alice).last_message is not None and dm_of(bob).last_message is not None


async def test_a_write_lock_held_by_another_process_is_answered_in_time(world, caplog, db_path):
    """A real lock: another connection holds the write lock; the click waits the runtime
    busy timeout (well under Discord's 3 s), then says the database is busy."""
    import sqlite3
    import time

    from data.store import RUNTIME_BUSY_TIMEOUT_MS

    session = await open_and_start(world, 2)
    seat, action = pick(session, random.Random(4))
    player = player_at(world, session, seat)
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        started = time.monotonic()
        result = await click_action(session, player, action)
        took = time.monotonic() - started
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert result.ephemeral and NOT_SAVED in result.response.content
    assert "busy" in result.response.content
    assert session.version == 0
    assert RUNTIME_BUSY_TIMEOUT_MS / 1000 <= took < 3.0
    assert_one_warning(caplog, "busy")
    await click_action(session, player, action)
    assert session.version == 1


async def test_record_command_on_an_unreadable_store(world, caplog):
    alice = world.players[0]
    fault = inject(world.env.bot.store, r"FROM games", "cannot_open")
    r = await alice.slash(world.channel, "hats record")
    assert r.ephemeral and "cannot open its database" in r.response.content
    fault.clear()
    assert_one_warning(caplog, "cannot_open")
    # it reached the command tree's handler (simcord records that): a StoreFault, answered
    assert [type(getattr(e, "original", e)).__name__ for e in world.env.errors] == ["StoreFault"]


async def test_an_unexpected_error_in_a_button_is_answered(world, caplog, monkeypatch):
    session = await open_and_start(world, 2)
    seat, action = pick(session, random.Random(3))
    player = player_at(world, session, seat)
    play = world.env.bot.get_cog("PlayCog")

    async def broken(interaction, cmd):
        raise RuntimeError("boom")

    monkeypatch.setattr(play, "on_hand_command", broken)
    result = await click_action(session, player, action)
    assert result.ephemeral and "Something went wrong on my side" in result.response.content
    assert session.version == 0


async def test_message_and_outbox_writes_fail_at_start(world, caplog, make_bot):
    """The table and hands are shown once though their ids and the delivery are not stored."""
    alice, bob = world.players[:2]
    store = world.env.bot.store
    lost_ids = inject(store, r"INSERT INTO game_messages", "read_only")
    lost_mark = inject(store, r"UPDATE outbox SET delivered_at", "io")
    session = await open_and_start(world, 2)

    def tables():
        return [
            m for m in bot_messages(world.env, world.channel) if "hats:t:" in str(custom_ids(m))
        ]

    assert len(tables()) == 1
    assert dm_of(alice).last_message and dm_of(bob).last_message
    assert [i.delivered_at for i in await store.outbox.items(session.id)] == [None]
    seat, action = pick(session, random.Random(2))
    await click_action(session, player_at(world, session, seat), action)
    assert session.version == 1  # steps are not affected
    lost_ids.clear()
    lost_mark.clear()
    await world.env.advance_time(61)  # the stored retry marks the start delivered
    assert [i.delivered_at is not None for i in await store.outbox.items(session.id)] == [True]
    assert len(tables()) == 1
    await world.env.restart_bot(make_bot())
    assert len(tables()) == 1  # delivered once: the restored bot does not post it again
    assert_one_warning(caplog, "io")


NOT_KNOWN = "it is not known yet whether your move was saved"


@pytest.mark.parametrize("stored", [True, False], ids=["stored", "not-stored"])
async def test_a_move_whose_commit_outcome_is_unknown_is_never_called_not_saved(
    world, caplog, monkeypatch, stored
):
    """The commit fails and the store cannot be read back within the interaction's time: the
    player is told the outcome is not known yet, then (a followup) what the store holds."""
    monkeypatch.setattr(service.games, "RESOLVE_DELAYS_S", (0.0, 0.01))  # real pauses: short
    monkeypatch.setattr(service.games, "RESOLVE_LATER_PAUSE_S", (0.01, 0.01))
    session = await open_and_start(world, 2)
    store = world.env.bot.store
    seat, action = pick(session, random.Random(6))
    player = player_at(world, session, seat)
    other = player_at(world, session, 1 - seat)
    pings = len(list(dm_of(other).history()))
    if stored:  # the step's transaction commits, then the error is reported
        commit = inject(store, r"^\s*COMMIT", "io", after=True, times=1)
    else:
        commit = inject(store, r"INSERT INTO steps", "io")
    # The step cannot be read back within the interaction's time (2 reads), then it can.
    reads = len(service.games.RESOLVE_DELAYS_S)
    inject(store, r"SELECT step, actor, at FROM steps", "io", times=reads)
    result = await click_action(session, player, action)
    commit.clear()
    assert result.ephemeral and NOT_KNOWN in result.response.content
    assert "not saved" not in result.response.content
    [followup] = result.followups  # once the store answered
    assert followup.ephemeral
    assert await store.steps.step_count(session.id) == (1 if stored else 0)
    fresh = await world.env.bot.games.session(session.id)
    assert fresh.version == (1 if stored else 0)
    if stored:
        assert "Your move was saved after all" in followup.content
    else:
        assert "Your move was not saved, so nothing changed" in followup.content
    assert_one_warning(caplog, "not known yet")
    if stored and fresh.game.to_move != seat:  # the turn passed: the next player is pinged
        assert len(list(dm_of(other).history())) > pings
