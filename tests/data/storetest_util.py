"""Helpers shared by the store tests (random legal play, game creation)."""

from __future__ import annotations

import hashlib
import random
import time
from pathlib import Path

from data import GameRow, SeatSpec, Store
from engine import Game, GameConfig

ROOT = Path(__file__).resolve().parents[2]


def seat_specs(seats: int) -> list[SeatSpec]:
    """Humans on even seats, AIs on odd seats."""
    return [
        SeatSpec(user_id=500 + s) if s % 2 == 0 else SeatSpec(ai_level="easy") for s in range(seats)
    ]


async def new_game(
    store: Store, channel_id: int, seats: int = 3, seed: int = 7
) -> tuple[GameRow, Game]:
    config = GameConfig(seats, seed)
    row = await store.games.create_game(1, channel_id, config.to_dict(), seat_specs(seats))
    return row, Game.new(config)


def random_move(game: Game, rng: random.Random) -> None:
    """Apply one random legal move (the engine's legal_actions, stable order)."""
    seat = game.to_move
    assert seat is not None
    game.apply(seat, rng.choice(game.legal_actions(seat)))


async def play_and_store(
    store: Store, game_id: int, game: Game, rng: random.Random, moves: int
) -> None:
    """Play up to ``moves`` random moves, appending each step with its sequence number."""
    for _ in range(moves):
        if game.is_over:
            return
        seq = len(game.steps)
        random_move(game, rng)
        await store.steps.append_step(game_id, seq, game.steps[-1].to_dict(), at=time.time())


def play_to_end(game: Game, rng: random.Random) -> Game:
    while not game.is_over:
        random_move(game, rng)
    return game


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def raw_query(target: Path | str, sql: str, params: tuple = ()) -> list[tuple]:
    """Run one statement on a NEW connection outside the store (``?`` placeholders).

    SQLite file: sqlite3; PostgreSQL URL: asyncpg (placeholders rewritten). Rows as tuples.
    """
    if isinstance(target, str):
        import asyncpg

        from data.pg import translate

        conn = await asyncpg.connect(target)
        try:
            return [tuple(r) for r in await conn.fetch(translate(sql)[0], *params)]
        finally:
            await conn.close()
    import sqlite3

    with sqlite3.connect(target) as conn:
        return [tuple(r) for r in conn.execute(sql, params).fetchall()]


def inject(store: Store, pattern: str, kind: str) -> object:
    """Fail the store's statements matching ``pattern`` with the driver's ``kind`` error.

    SQLite: tests/bot/faults.py (the real sqlite3 errors); PostgreSQL: tests/data/pgfaults.py
    (asyncpg's exception classes with the real SQLSTATEs). Returns an object with ``clear()``.
    """
    if store.backend == "postgres":
        from pgfaults import inject_pg

        return inject_pg(store, pattern, kind)
    from tests.bot.faults import inject as inject_sqlite

    return inject_sqlite(store, pattern, kind)
