"""Child of test_crash_cluster: a fork server of player processes that share the same games.

Usage: ``crash_players.py URL``. It imports the bot's modules once (a fresh interpreter takes
over a second to import discord.py; a fork takes milliseconds, so a hundred restarts fit in
the test's time), prints ``ZYGOTE <pid>`` and reads commands on stdin:

``SPAWN <name> <seed>``: fork a player process; answers ``SPAWNED <name> <pid>``. The player
opens its own Store on URL (its own pool and origin), starts a GameService and plays random
legal moves (several tasks at once) on the store's live games until none is left (it reads
them again when the ones it knew are over), printing on
the shared stdout, one ``write`` per line (atomic: shorter than PIPE_BUF):

- ``<name> READY``: the service is started (it watches the other processes' changes);
- ``<name> ACK <game id> <seq> <step json>``: a step this process acknowledged (committed);
- ``<name> IDLE``: no live game left; it then waits to be killed.

End of stdin: the server exits, and its players die with it (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import asyncio
import ctypes
import json
import os
import random
import signal
import sys
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from data import open_store
from service import GameService
from tests.cluster.cluster_util import play_once

WORKERS = 4
"""Tasks per player process, each moving a randomly chosen live game."""
PR_SET_PDEATHSIG = 1


def out(line: str) -> None:
    """One line on stdout in a single write (several processes share the pipe)."""
    os.write(1, (line + "\n").encode())


async def play(url: str, name: str, seed: int) -> None:
    store = await open_store(url)

    def dispatch(event: str, *args: Any) -> None:
        if event == "hats_step":
            session, step_event = args[0], args[1]
            step = session.game.steps[step_event.number].to_dict()
            text = json.dumps(step, separators=(",", ":"), sort_keys=True)
            out(f"{name} ACK {session.id} {step_event.number} {text}")

    svc = GameService(store, lambda: 0, dispatch=dispatch)
    await svc.start()
    out(f"{name} READY")
    live: list[int] = []
    rng = random.Random(seed)

    async def worker() -> None:
        while True:
            if not live:  # (again: the test adds games while it kills players)
                ids = [row.id for row in await store.games.list_live()]
                if not ids:
                    return
                if not live:
                    live.extend(ids)
            game_id = rng.choice(live)
            if await play_once(svc, game_id, rng) is None and game_id in live:
                live.remove(game_id)

    await asyncio.gather(*(worker() for _ in range(WORKERS)))
    out(f"{name} IDLE")
    await asyncio.Event().wait()


def player(url: str, name: str, seed: int, zygote: int) -> None:
    """The forked player: never reads its stdin, never exits by itself (its pid stays its own
    until the test kills it), dies with the server."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != zygote:  # the server died before prctl
        os._exit(1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    try:
        asyncio.run(play(url, name, seed))
    except BaseException:  # told on stderr; then wait to be killed like every player
        traceback.print_exc()
        sys.stderr.flush()
        signal.pause()
    os._exit(1)


def main(url: str) -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # players are reaped by the kernel
    zygote = os.getpid()
    out(f"ZYGOTE {zygote}")
    for line in sys.stdin:
        command, name, seed = line.split()
        assert command == "SPAWN"
        pid = os.fork()
        if pid == 0:
            player(url, name, int(seed), zygote)
        out(f"SPAWNED {name} {pid}")


if __name__ == "__main__":
    main(sys.argv[1])
