"""``python bot.py --local`` as a subprocess for the browser tests, and the referee's result.

:class:`LocalBot` starts the real bot in local mode on a free port over a temporary SQLite
file with ``HATS_AI_DELAY=0`` (no token, no Discord), waits for the address it prints, and
can be killed and started again on the same port and database (a crash and a restart).
:func:`referee_result` rebuilds a finished game from the store with the engine (R14-R20).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cogs.render.end import rank_seats
from data import open_store
from data.restore import rebuild_game
from tests.activity.conftest import ROOT, ReadyLine, free_port


@dataclass
class LocalBot:
    """The bot in local mode under ``folder`` (its database ``hats.sqlite3``) on ``port``."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None
    starts: int = 0

    @property
    def db_path(self) -> Path:
        return self.folder / "hats.sqlite3"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> str:
        """Start ``bot.py --local``; returns the address it printed (RuntimeError if none)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("HATS_", "DISCORD_"))}
        env |= {
            "HATS_WEB_PORT": str(self.port),
            "HATS_DB_PATH": str(self.db_path),
            "HATS_AI_DELAY": "0",
            "PYTHONPATH": str(ROOT),
        }
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "bot.py"), "--local"],
            cwd=self.folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.starts += 1
        try:
            match = ReadyLine(self.process, r"open (http://\S+) in a browser").wait(60)
        except RuntimeError:
            self.kill()
            raise
        return match.group(1)

    def kill(self) -> None:
        """SIGKILL (a crash: nothing is flushed or closed cleanly) and reap the process."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)
        self.process = None

    def stop(self) -> int | None:
        """SIGTERM (Ctrl+C's clean stop); returns the exit status."""
        if self.process is None:
            return None
        self.process.terminate()
        status = self.process.wait(timeout=30)
        self.process = None
        return status


@dataclass(frozen=True)
class Referee:
    """A finished game as the engine scores it: seats best first, points, winners."""

    ranking: list[int]
    totals: list[int]
    winners: list[int]
    ai_levels: list[str | None]


async def _referee(db_path: Path, game_id: int) -> Referee:
    store = await open_store(db_path)
    try:
        row = await store.games.get_game(game_id)
        assert row is not None, f"game {game_id} is not in the store"
        steps = await store.steps.load_steps(game_id)
        seats = await store.games.seats(game_id)
    finally:
        await store.close()
    game = rebuild_game(row, steps)
    assert game.result is not None, f"game {game_id} is not over after {len(steps)} steps"
    result = game.result
    totals = [s.total for s in result.scores]
    teams = [list(t) for t in game.teams] if game.teams else None
    ranking = rank_seats(totals, result.winners, teams, [len(b) for b in result.black_hats])
    levels = [s.ai_level for s in sorted(seats, key=lambda s: s.seat)]
    return Referee(ranking, totals, list(result.winners), levels)


def referee_result(db_path: Path, game_id: int) -> Referee:
    """Rebuild game ``game_id`` from the store at ``db_path`` by replay and score it."""
    return asyncio.run(_referee(db_path, game_id))
