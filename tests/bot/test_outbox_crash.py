"""Faults 3 and 4: a bot killed between a commit and its announcement announces after restart.

A child process (tests/bot/crash_child.py) commits a game's start or its last step on the test
bot's database and is SIGKILLed right after the commit; the restored bot must post exactly
once what was owed (table, hands and the first player's ping; or the end screen), and a
second restart must post nothing more. No sleeps: the test waits on the child's output.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

from data import GameStatus
from tests.bot.helpers import (
    bot_messages,
    custom_ids,
    dm_of,
    open_and_start,
    record_posts,
    session_of,
    walk_components,
)

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[2]


def commit_and_kill(db_path, world, mode: str) -> int:
    """Run the child until it committed, SIGKILL it; the game id it committed."""
    alice, bob = world.players[:2]
    args = [str(db_path), world.guild.id, world.channel.id, alice.user.id, bob.user.id, mode]
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), *map(str, args)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        line = proc.stdout.readline()
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    finally:
        watchdog.cancel()
    assert line.startswith("COMMITTED"), proc.stderr.read()
    assert proc.returncode == -signal.SIGKILL
    return int(line.split()[1])


def tables(world):
    return [m for m in bot_messages(world.env, world.channel) if "hats:t:" in str(custom_ids(m))]


def dms(player):
    channel = dm_of(player)
    return [] if channel is None else list(channel.history())


async def test_killed_after_start_commit_restored_bot_posts_table_and_hands_once(
    world, make_bot, db_path
):
    alice, bob = world.players[:2]
    game_id = commit_and_kill(db_path, world, "start")
    assert tables(world) == [] and dms(alice) == [] and dms(bob) == []
    await world.env.restart_bot(make_bot())
    session = await session_of(world.env, world.channel)
    assert session is not None and session.id == game_id
    assert len(tables(world)) == 1
    assert len(dms(alice)) == 1 and len(dms(bob)) == 1
    mover = alice if session.seats[session.game.to_move].user_id == alice.user.id else bob
    assert custom_ids(dms(mover)[0])  # the live hand DM, with its controls
    items = await world.env.bot.store.outbox.items(game_id)
    assert [i.delivered_at is not None for i in items] == [True]
    await world.env.restart_bot(make_bot())
    assert len(tables(world)) == 1 and len(dms(alice)) == 1 and len(dms(bob)) == 1


async def test_killed_after_last_step_commit_restored_bot_posts_the_end_once(
    world, make_bot, db_path
):
    game_id = commit_and_kill(db_path, world, "end")

    def ends():
        return record_posts(world.env, world.channel)

    assert ends() == []
    await world.env.restart_bot(make_bot())
    assert len(ends()) == 1
    assert "hats-game" in ends()[0].attachments[0].filename
    labels = [getattr(c, "label", None) for c in walk_components(ends()[0].components)]
    assert "Rematch" in labels
    store = world.env.bot.store
    assert (await store.games.get_game(game_id)).status is GameStatus.FINISHED
    await world.env.restart_bot(make_bot())
    assert len(ends()) == 1


async def test_a_game_over_but_live_in_the_store_is_finished_and_announced(world, make_bot):
    """An older version stored the last step without the finish: the game's first use after the
    restart (here /hats new in its channel) finishes it and posts its end, once."""
    session = await open_and_start(world, 2)
    store = world.env.bot.store
    probe = session.game.copy()
    rng = random.Random(3)
    steps = []
    while not probe.is_over:
        seat = probe.to_move
        action = rng.choice(probe.legal_actions(seat))
        probe.apply(seat, action)
        steps.append(probe.steps[-1].to_dict())
    for seq, step in enumerate(steps, start=session.version):
        await store.steps.append_step(session.id, seq, step, at=0.0)
    await world.env.restart_bot(make_bot())

    def ends():
        return record_posts(world.env, world.channel)

    assert ends() == []  # nothing is replayed at start-up
    r = await world.players[0].slash(world.channel, "hats new")
    assert r.response.message is not None  # the lobby opens
    assert len(ends()) == 1
    assert (await store.games.get_game(session.id)).status is GameStatus.FINISHED
    await world.env.restart_bot(make_bot())
    assert len(ends()) == 1


async def test_an_unfinished_game_whose_finish_fails_at_restore_finishes_later(
    world, make_bot, db_path
):
    """The finish of such a game fails at restore (full disk): the next /hats new, or the
    retry within a minute, finishes it and posts its end once; no restart needed."""
    from data import open_store
    from tests.bot.faults import inject

    session = await open_and_start(world, 2)
    store = world.env.bot.store
    probe = session.game.copy()
    rng = random.Random(8)
    seq = session.version
    while not probe.is_over:
        probe.apply(probe.to_move, rng.choice(probe.legal_actions(probe.to_move)))
        await store.steps.append_step(session.id, seq, probe.steps[-1].to_dict(), at=0.0)
        seq += 1
    bot = make_bot()
    bot.store = await open_store(db_path)
    fault = inject(bot.store, r"INSERT INTO results", "full")
    await world.env.restart_bot(bot)

    def ends():
        return record_posts(world.env, world.channel)

    assert ends() == []
    alice = world.players[0]
    r = await alice.slash(world.channel, "hats new")
    assert r.ephemeral and "disk is full" in r.response.content
    fault.clear()
    await world.env.advance_time(61)  # the stored retry
    assert len(ends()) == 1
    assert (await bot.store.games.get_game(session.id)).status is GameStatus.FINISHED
    r = await alice.slash(world.channel, "hats new")
    assert not r.ephemeral  # the channel is free
    assert len(ends()) == 1
