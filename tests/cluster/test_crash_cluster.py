"""Crash test of issue 13: two processes play the same games; one is SIGKILLed over and over.

Two player processes (crash_players.py: a GameService each, on one PostgreSQL database) play
random legal moves on the same live games and print ``ACK <game> <seq> <step>`` after each
acknowledged step. The test SIGKILLs one of them at random moments (sometimes during its
start-up, sometimes after a few of its steps) at least :data:`KILLS` times; each replacement
is started before the kill, so restarts overlap with play. Then the survivors carry every game
to its end. Every acknowledged step must be stored at its number with the same content, and
acknowledged once; no game has a gap; every game is finished and its record replays.
No sleeps: the test waits on the processes' output lines (with timeouts).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
import time
from collections import Counter, defaultdict
from contextlib import AsyncExitStack
from pathlib import Path

import asyncpg
import pytest

from data import open_store
from tests.cluster.cluster_util import WAIT_S, News, check_stored_games, new_games

pytestmark = pytest.mark.postgres

SERVER = Path(__file__).with_name("crash_players.py")
GAMES = 30
TOP_UP_BELOW = 15
"""While killing, more games are started whenever fewer than this many are live."""
KILLS = 100
STEPS_BEFORE_KILL = (0, 0, 1, 1, 2, 3, 5, 8)
"""A victim is killed after this many more of its own steps (0: at once), or ten times as many
of anyone's (a process that starts on games another one moves at full speed may lose every
race to it: it is killed while it tries)."""


class Players:
    """The fork server and the lines of its players: ACKs, and who is ready or idle."""

    def __init__(self, proc: asyncio.subprocess.Process, log_path: Path) -> None:
        self.proc = proc
        self.log_path = log_path
        self.pids: dict[str, int] = {}
        self.acks: list[tuple[str, int, int, dict]] = []
        self.count: Counter[str] = Counter()
        self.ready: set[str] = set()
        self.idle: set[str] = set()
        self.news = News()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, url: str, stderr, log_path: Path) -> Players:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(SERVER),
            url,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
        )
        players = cls(proc, log_path)
        await players.wait_until(lambda: "zygote" in players.pids, 60)
        return players

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            await self._read_lines(self.proc.stdout)
        finally:
            self.news.tell()  # the output ended: waiters look once more

    async def _read_lines(self, stdout: asyncio.StreamReader) -> None:
        async for raw in stdout:
            fields = raw.decode().rstrip("\n").split(" ", 4)
            if fields[0] == "ZYGOTE":
                self.pids["zygote"] = int(fields[1])
            elif fields[0] == "SPAWNED":
                self.pids[fields[1]] = int(fields[2])
            elif fields[1] == "READY":
                self.ready.add(fields[0])
            elif fields[1] == "IDLE":
                self.idle.add(fields[0])
            else:
                name, kind, game_id, seq, step = fields
                assert kind == "ACK", raw
                self.acks.append((name, int(game_id), int(seq), json.loads(step)))
                self.count[name] += 1
            self.news.tell()

    async def wait_until(self, done, timeout: float = WAIT_S) -> None:
        def done_or_ended() -> bool:
            if self.reader.done():
                self.reader.result()
                raise AssertionError("the fork server's output ended")
            return done()

        try:
            await self.news.until(done_or_ended, timeout)
        except TimeoutError:
            tail = self.log_path.read_text(errors="replace")[-3000:]
            raise AssertionError(f"the players stopped; their stderr ends with:\n{tail}") from None

    async def spawn(self, name: str, seed: int) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"SPAWN {name} {seed}\n".encode())
        await self.proc.stdin.drain()
        await self.wait_until(lambda: name in self.pids)

    def kill(self, name: str) -> None:
        os.kill(self.pids[name], signal.SIGKILL)

    async def stop(self, alive: list[str]) -> None:
        """Kill the players still ``alive``, end the server and read the last lines.

        (A player never exits by itself, so its pid is still its own until it is killed.)
        """
        for name in alive:
            if name in self.pids:
                self.kill(name)
        if self.proc.returncode is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                await asyncio.wait_for(self.proc.wait(), WAIT_S)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        await asyncio.wait_for(self.reader, WAIT_S)


async def stored_seqs(url: str) -> dict[int, list[int]]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT game_id, seq FROM steps ORDER BY game_id, seq")
    finally:
        await conn.close()
    out: dict[int, list[int]] = defaultdict(list)
    for game_id, seq in rows:
        out[game_id].append(seq)
    return out


async def test_sigkill_one_of_two_players_100_times_nothing_acknowledged_is_lost(
    pg_url: str, tmp_path: Path
):
    rng = random.Random(2013)
    started = time.monotonic()
    log_path = tmp_path / "players.log"
    async with await open_store(pg_url) as store, AsyncExitStack() as stack:
        log = stack.enter_context(log_path.open("wb"))
        rows = await new_games(store, GAMES, rng)
        players = await Players.start(pg_url, log, log_path)
        try:
            names = iter(f"p{i}" for i in range(10_000))
            active = [next(names), next(names)]
            for name in active:
                await players.spawn(name, rng.randrange(2**31))
            kills = 0
            booting = 0  # kills during a start-up
            while kills < KILLS:
                slot = rng.randrange(2)
                victim, replacement = active[slot], next(names)
                await players.spawn(replacement, rng.randrange(2**31))  # boots meanwhile
                steps = rng.choice(STEPS_BEFORE_KILL)
                target, everyone = players.count[victim] + steps, len(players.acks) + 10 * steps
                await players.wait_until(
                    lambda v=victim, t=target, e=everyone: (
                        players.count[v] >= t or len(players.acks) >= e or v in players.idle
                    )
                )
                assert victim not in players.idle, (
                    f"the games ran out after {kills} kills: {victim} acknowledged"
                    f" {players.count[victim]} steps, {target} were awaited;"
                    f" ready: {sorted(players.ready)}; others: {players.count.most_common(5)}"
                )
                booting += victim not in players.ready
                players.kill(victim)
                kills += 1
                active[slot] = replacement
                if len(await store.games.list_live()) < TOP_UP_BELOW:
                    rows += await new_games(store, 10, rng, first_channel=9000 + len(rows))
            played_while_killing = len(players.acks)
            killing_s = time.monotonic() - started
            # The survivors carry every game to its end.
            await players.wait_until(lambda: all(n in players.idle for n in active), 60)
        finally:
            await players.stop(active)
    elapsed = time.monotonic() - started
    errors = log_path.read_text(errors="replace")
    assert "Traceback" not in errors, errors[-3000:]

    acked: dict[int, list[tuple[int, dict]]] = defaultdict(list)
    for _, game_id, seq, step in players.acks:
        acked[game_id].append((seq, step))
    async with await open_store(pg_url) as store:
        stored_total = await check_stored_games(store, rows, acked)
    for game_id, seqs in (await stored_seqs(pg_url)).items():
        assert seqs == list(range(len(seqs))), f"game {game_id} has a gap"
    print(
        f"\n{kills} kills, {len(players.pids) - 1} player processes, {stored_total} steps stored,"
        f" {len(players.acks)} acknowledged ({played_while_killing} while killing),"
        f" {elapsed:.1f} s ({killing_s:.1f} s until the last kill), {booting} kills while starting"
    )
    assert played_while_killing > 300, "the players should have done real work meanwhile"
    assert booting > 0, "no player was killed during its start-up"
