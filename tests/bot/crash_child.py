"""Child of test_outbox_crash: commit a game's start (or its last step), then wait to be killed.

Usage: ``crash_child.py DB GUILD CHANNEL USER1 USER2 start|end``. It drives the bot's own
GameService (the code behind /hats start and every move) on the database the test's bot uses,
prints ``COMMITTED <game id>`` right after the commit and blocks on stdin: the test SIGKILLs it
there, between the commit and any announcement.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from data import LobbySeat, open_store
from service import GameService


async def main(db: str, guild: int, channel: int, users: list[int], mode: str) -> None:
    store = await open_store(db)
    games = GameService(store, lambda: 4242, dispatch=lambda *args: None)
    await games.start()
    lobby = await games.open_lobby(guild, channel, users[0], {"turn_timer": None})
    extra = [LobbySeat(user_id=u) for u in users[1:]]
    await games.update_lobby(lobby.id, lambda r: ((*r.seats, *extra), dict(r.settings)))
    session = await games.start_game(lobby.id)
    if mode == "end":  # the start was announced; the game is played to its last step
        for item in await store.outbox.pending(session.id):
            await store.outbox.mark_delivered(item.id, at=0.0)
        rng = random.Random(7)
        while not session.game.is_over:
            seat = session.game.to_move
            await games.play(session, seat, rng.choice(session.game.legal_actions(seat)))
    print("COMMITTED", session.id, flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    db, guild, channel, u1, u2, mode = sys.argv[1:7]
    asyncio.run(main(db, int(guild), int(channel), [int(u1), int(u2)], mode))
