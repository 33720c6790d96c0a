"""Crash test: SIGKILL a writer at random moments; no acknowledged step is ever lost.

Runs on both backends (``target``: an SQLite file, a PostgreSQL URL). The child
(scripts/crash_writer.py) plays random games into the store and prints
``STEP <game> <seq>`` right after each commit. This test kills it with SIGKILL after a random
number of printed steps (sometimes during start-up, restore or migration), 25 times, then checks
with a fresh connection that the file passes ``PRAGMA integrity_check`` and holds every printed
step. No sleeps: the test only waits on the child's output and exit.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

from storetest_util import ROOT, raw_query

from data import GameStatus, open_store, restore

WRITER = ROOT / "scripts" / "crash_writer.py"
KILLS = 25
CHILD_LIMIT_S = 30.0  # a watchdog kills a child that hangs; normal runs take well under 1 s


class Writer:
    """One crash_writer child and the lines it printed."""

    def __init__(self, db: Path | str, seed: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(WRITER), str(db), str(seed)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        self.watchdog = threading.Timer(CHILD_LIMIT_S, self.proc.kill)
        self.watchdog.start()
        self.lines: list[str] = []

    def read_until_steps(self, steps: int) -> None:
        """Read printed lines until ``steps`` STEP lines (0: until READY) or the child ends."""
        assert self.proc.stdout is not None
        seen = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return
            self.lines.append(line.strip())
            if line.startswith("STEP"):
                seen += 1
            if (steps == 0 and line.startswith("READY")) or (steps and seen >= steps):
                return

    def kill(self) -> str:
        """SIGKILL the child, collect what it printed before dying; return its stderr."""
        self.proc.send_signal(signal.SIGKILL)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        # Read through the same buffered file objects as readline (communicate() would skip
        # lines already sitting in their buffers); the pipes end when the child is gone.
        out = self.proc.stdout.read()
        err = self.proc.stderr.read()
        self.proc.wait(timeout=CHILD_LIMIT_S)
        self.watchdog.cancel()
        self.lines.extend(line.strip() for line in out.splitlines() if line.strip())
        assert self.proc.returncode == -signal.SIGKILL, f"the writer died by itself:\n{err}"
        return err


async def test_sigkill_at_random_moments_never_loses_an_acknowledged_step(target: Path | str):
    db = target  # an SQLite file, or a PostgreSQL URL (the writer opens either)
    rng = random.Random(1789)
    acked: dict[int, set[int]] = defaultdict(set)
    finished: set[int] = set()
    expected: dict[int, int] = {}  # the next seq each game's writer must print
    started = time.monotonic()
    for run in range(KILLS):
        writer = Writer(db, seed=run)
        roll = rng.random()
        if roll < 0.12:
            pass  # kill at once: during interpreter start-up, opening or migrating
        elif roll < 0.24:
            writer.read_until_steps(0)  # right after the restore
        else:
            writer.read_until_steps(rng.randint(1, 90))
        writer.kill()
        for line in writer.lines:
            kind, *fields = line.split()
            if kind == "READY":  # a restarted writer resumes after every step it printed
                game_id, next_seq = map(int, fields)
                assert next_seq > max(acked[game_id], default=-1)
                expected[game_id] = next_seq
            elif kind == "STEP":  # (a step committed but killed before its line is not printed)
                game_id, seq = map(int, fields)
                assert seq == expected.get(game_id, 0)
                expected[game_id] = seq + 1
                acked[game_id].add(seq)
            elif kind == "FINISHED":
                finished.add(int(fields[0]))
    elapsed = time.monotonic() - started

    if isinstance(db, Path):
        with sqlite3.connect(db) as conn:  # a plain connection, not the store's
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    stored = defaultdict(set)
    for game_id, seq in await raw_query(db, "SELECT game_id, seq FROM steps"):
        stored[game_id].add(seq)
    for game_id, seqs in acked.items():
        assert seqs <= stored[game_id], f"game {game_id} lost acknowledged steps"
    assert sum(map(len, acked.values())) > 300, "the writer should have done real work"
    assert finished, "some kills should come after finished games"
    assert elapsed < 60

    async with await open_store(db) as store:
        assert await store.integrity_check() == ["ok"]
        restored = await restore(store)
        assert restored.failed == []
        assert len(restored.games) <= 1  # one live game in the writer's channel
        for game_id in finished:
            row = await store.games.get_game(game_id)
            assert row is not None and row.status is GameStatus.FINISHED
            assert await store.results.get_record(game_id) is not None
