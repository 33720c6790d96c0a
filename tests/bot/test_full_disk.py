"""A real full disk under the database: a small tmpfs mounted by the test and filled up.

Mid-game, at a game's last step and in a lobby: every click is answered privately, nothing
changes while the disk is full, and once there is room again the same click works and a game
finishes exactly once. Needs root (``mount -t tmpfs``); skipped with the reason elsewhere.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import random
import subprocess

import pytest

from data import GameStatus
from tests.bot.faults import warnings_and_errors
from tests.bot.helpers import open_and_start
from tests.bot.test_db_faults import (
    NOT_SAVED,
    NOTHING_CHANGED,
    click_action,
    end_posts,
    pick,
    play_until_last_step,
    player_at,
)

DISK_BYTES = 4 * 1024 * 1024


def _mount(target) -> str | None:
    """Mount a tmpfs at ``target``; the reason it cannot be done, or None."""
    if os.geteuid() != 0:
        return "mounting a tmpfs needs root"
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES}", "tmpfs", str(target)],
        capture_output=True,
        text=True,
        check=False,
    )
    return None if done.returncode == 0 else f"mount -t tmpfs failed: {done.stderr.strip()}"


class Disk:
    """The small filesystem under the database; ``fill()`` takes all its room, ``free()``."""

    def __init__(self, root) -> None:
        self.root = root
        self.filler = root / "filler"

    def fill(self) -> None:
        with open(self.filler, "ab", buffering=0) as f:
            for size in (1 << 16, 4096, 512, 1):
                try:
                    while True:
                        f.write(b"\0" * size)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC
        assert os.statvfs(self.root).f_bavail == 0

    def free(self) -> None:
        self.filler.unlink()


@pytest.fixture
def disk(tmp_path):
    root = tmp_path / "disk"
    root.mkdir()
    reason = _mount(root)
    if reason is not None:
        pytest.skip(f"no real full disk here: {reason}")
    yield Disk(root)
    subprocess.run(["umount", "-l", str(root)], check=False)


@pytest.fixture
def db_path(disk):
    return disk.root / "hats.sqlite3"


@pytest.fixture(autouse=True)
def _warnings(caplog):
    caplog.set_level(logging.WARNING)


def assert_no_tracebacks(caplog):
    warnings, bad = warnings_and_errors(caplog)
    assert not bad, [r.getMessage() for r in bad]
    assert any("full" in r.getMessage() for r in warnings)


async def test_full_disk_mid_game(world, disk, caplog):
    session = await open_and_start(world, 2)
    rng = random.Random(11)
    for _ in range(4):
        seat, action = pick(session, rng)
        await click_action(session, player_at(world, session, seat), action)
    seat, action = pick(session, rng)
    player = player_at(world, session, seat)
    before, version = session.game.snapshot(), session.version
    disk.fill()
    try:
        result = await click_action(session, player, action)
        assert result.ephemeral and NOT_SAVED in result.response.content
        assert "disk is full" in result.response.content
        assert session.version == version and session.game.snapshot() == before
        assert await world.env.bot.store.steps.step_count(session.id) == version
    finally:
        disk.free()
    await click_action(session, player, action)
    assert session.version == version + 1
    assert await world.env.bot.store.steps.step_count(session.id) == version + 1
    assert_no_tracebacks(caplog)


async def test_full_disk_at_the_last_step(world, disk, caplog):
    session = await open_and_start(world, 2)
    store = world.env.bot.store
    player, action = await play_until_last_step(world, session, random.Random(21))
    version = session.version
    disk.fill()
    try:
        result = await click_action(session, player, action)
        assert result.ephemeral and NOT_SAVED in result.response.content
        assert not session.game.is_over and session.version == version
        assert (await store.games.get_game(session.id)).status is GameStatus.LIVE
        assert end_posts(world) == []
    finally:
        disk.free()
    await click_action(session, player, action)
    assert session.game.is_over
    assert (await store.games.get_game(session.id)).status is GameStatus.FINISHED
    assert len(end_posts(world)) == 1
    assert_no_tracebacks(caplog)


async def test_full_disk_in_a_lobby(world, disk, caplog):
    alice, bob = world.players[:2]
    lobby = (await alice.slash(world.channel, "hats new")).response.message
    disk.fill()
    try:
        r = await bob.click(lobby, label="Join")
        assert r.ephemeral and NOTHING_CHANGED in r.response.content
        assert len((await world.env.bot.games.lobby_in_channel(world.channel.id)).seats) == 1
    finally:
        with contextlib.suppress(FileNotFoundError):
            disk.free()
    await bob.click(lobby, label="Join")
    assert len((await world.env.bot.games.lobby_in_channel(world.channel.id)).seats) == 2
    disk.fill()
    try:
        r = await alice.click(lobby, label="Start")
        assert r.ephemeral and NOTHING_CHANGED in r.response.content
        assert await world.env.bot.games.session_in_channel(world.channel.id) is None
    finally:
        disk.free()
    await alice.click(lobby, label="Start")
    assert await world.env.bot.games.session_in_channel(world.channel.id) is not None
    assert_no_tracebacks(caplog)
