"""Crash-test writer: plays random games into a store and prints each step right after its commit.

Usage: python scripts/crash_writer.py DB_PATH SEED [CHANNEL_ID]

Output lines (stdout, flushed one by one):
  READY <game_id> <next_seq>     the store is open, the live game restored
  STEP <game_id> <seq>           printed only after append_step returned (committed)
  FINISHED <game_id>             printed after finish_game returned
On a StoreError at start-up it prints the message to stderr and exits with status 2, without
touching the file. tests/data/test_crash.py SIGKILLs it at random moments and checks that every
printed step is in the database.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from data import (
    SeatSpec,
    Store,
    StoreError,
    entries_from_game,
    open_store,
    restore,
)
from engine import Game, GameConfig, to_record

GUILD_ID = 1


async def _finish(store: Store, game_id: int, game: Game) -> None:
    seats = await store.games.seats(game_id)
    await store.results.finish_game(
        game_id, entries_from_game(game, seats), to_record(game), at=time.time()
    )
    print(f"FINISHED {game_id}", flush=True)


async def _new_game(store: Store, rng: random.Random, channel_id: int) -> tuple[int, Game]:
    seats = rng.choice((2, 3, 4))
    config = GameConfig(seats, rng.randrange(2**31))
    specs = [
        SeatSpec(user_id=1000 + s) if s % 2 == 0 else SeatSpec(ai_level="easy")
        for s in range(seats)
    ]
    row = await store.games.create_game(GUILD_ID, channel_id, config.to_dict(), specs)
    return row.id, Game.new(config)


async def run(path: str, seed: int, channel_id: int) -> int:
    try:
        store = await open_store(path)
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 2
    async with store:
        restored = await restore(store)
        current: tuple[int, Game] | None = None
        for r in restored.games:
            if r.live.row.channel_id != channel_id:
                continue
            if r.game.is_over:  # killed between its last step and finish_game
                await _finish(store, r.live.row.id, r.game)
            else:
                current = (r.live.row.id, r.game)
        # Seeded by the stored state, so a run is reproducible from the database it starts on.
        state = f"{current[0]}:{len(current[1].steps)}" if current else "new"
        rng = random.Random(f"{seed}:{state}")
        if current is None:
            current = await _new_game(store, rng, channel_id)
        game_id, game = current
        print(f"READY {game_id} {len(game.steps)}", flush=True)
        while True:
            seat = game.to_move
            assert seat is not None
            seq = len(game.steps)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            await store.steps.append_step(
                game_id, seq, game.steps[-1].to_dict(), actor="crash_writer", at=time.time()
            )
            print(f"STEP {game_id} {seq}", flush=True)
            if game.is_over:
                await _finish(store, game_id, game)
                game_id, game = await _new_game(store, rng, channel_id)


def main() -> int:
    path, seed = sys.argv[1], int(sys.argv[2])
    channel_id = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    return asyncio.run(run(path, seed, channel_id))


if __name__ == "__main__":
    raise SystemExit(main())
