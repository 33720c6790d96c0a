"""Many live games written straight into a store's tables, for the start-up and cluster benches.

Not a benchmark itself: ``bench_startup.py`` and ``bench_cluster.py`` import it (``scripts/`` is
on ``sys.path`` when a script there runs). A pool of distinct random partial games is played
through the engine once (:func:`make_pool`); ``games`` live games are then written by cycling
through the pool with fresh ids, channels and users, in bulk and without the store's API:
one ``executemany`` transaction on SQLite, ``COPY`` on PostgreSQL (with
``session_replication_role = replica`` so the notification triggers and foreign-key checks do
not run per row; the rows are consistent by construction). The store's own ``open_store``
creates the schema first, so the tables are exactly the migrated ones.

Each game has the lobby setting ``turn_timer`` (120 s) and the deadlines a running bot would
have written with its last step (``service.deadlines``): ``turn`` + ``reminder`` when a human is
to move, ``ai`` when an AI seat is, all due 60–600 s in the future (so none fires while a
benchmark runs; ``with_timers=False`` writes none).
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from data import jsoncodec, open_store
from engine import Game, GameConfig

GUILDS = 1000
"""Seeded games are spread over this many servers (guild ids 1…GUILDS)."""
CHANNEL_BASE = 10**15
"""Seeded game ``i`` is in channel ``CHANNEL_BASE + i`` (no simcord snowflake is that small)."""
USER_BASE = 10**16
"""Seeded game ``i`` seat ``s`` is user ``USER_BASE + 4 i + s`` (humans only)."""
SETTINGS = jsoncodec.dumps({"turn_timer": 120})


@dataclass(frozen=True, slots=True)
class PoolGame:
    """One random partial game: its config JSON, AI seats, step JSON texts, seat to move."""

    config_json: str
    seats: int
    ai: tuple[bool, ...]
    steps: tuple[str, ...]
    to_move: int | None


def play_partial(
    rng: random.Random, seats: int, fraction: tuple[float, float]
) -> tuple[GameConfig, Game]:
    """A random game cut after a uniform share of its whole length (``fraction`` lo, hi).

    Always at least one step short of the end: the game is live.
    """
    config = GameConfig(seats, rng.getrandbits(63))
    full = Game.new(config)
    while not full.is_over:
        seat = full.to_move
        assert seat is not None
        full.apply(seat, rng.choice(full.legal_actions(seat)))
    total = len(full.steps)
    lo, hi = int(fraction[0] * (total - 1)), int(fraction[1] * (total - 1))
    game = Game.new(config)
    for step in full.steps[: rng.randint(lo, hi)]:
        game.apply(step.seat, step.action)
    return config, game


def make_pool(
    distinct: int,
    rng: random.Random,
    *,
    seat_counts: tuple[int, ...] = (2, 3, 4),
    fraction: tuple[float, float] = (0.0, 1.0),
    humans_only: bool = False,
) -> list[PoolGame]:
    """``distinct`` random partial games (seats drawn from ``seat_counts``).

    With ``humans_only`` False, odd seats are AI seats (as in ``bench_store.py``'s restore data);
    ``fraction`` bounds the share of the whole game already played (default: anywhere from no
    step to one short of the end, as ``bench_store.py``).
    """
    pool = []
    for _ in range(distinct):
        seats = rng.choice(seat_counts)
        ai = tuple(not humans_only and s % 2 == 1 for s in range(seats))
        config, game = play_partial(rng, seats, fraction)
        pool.append(
            PoolGame(
                jsoncodec.dumps(config.to_dict()),
                seats,
                ai,
                tuple(jsoncodec.dumps(s.to_dict()) for s in game.steps),
                game.to_move,
            )
        )
    return pool


@dataclass
class Rows:
    """The rows of ``games`` live games (tuples in each table's column order)."""

    games: list[tuple]
    seats: list[tuple]
    timers: list[tuple]
    steps_of: list[tuple[int, PoolGame]]
    """(game id, pool game) per game: the step rows are generated from it (:meth:`steps`)."""
    at: float

    GAME_COLUMNS = (
        "id",
        "guild_id",
        "channel_id",
        "config",
        "settings",
        "status",
        "created_at",
        "updated_at",
    )
    SEAT_COLUMNS = ("game_id", "seat", "user_id", "ai_level", "away", "auto_turns")
    STEP_COLUMNS = ("game_id", "seq", "step", "actor", "at")
    TIMER_COLUMNS = ("id", "game_id", "kind", "seat", "due_at", "payload")

    def steps(self) -> Iterator[tuple]:
        """Every step row, game by game (generated: ~30 per game)."""
        at = self.at
        for game_id, g in self.steps_of:
            for seq, text in enumerate(g.steps):
                yield (game_id, seq, text, "player", at)

    @property
    def step_count(self) -> int:
        """How many step rows :meth:`steps` yields."""
        return sum(len(g.steps) for _, g in self.steps_of)


def make_rows(
    pool: list[PoolGame], games: int, rng: random.Random, *, with_timers: bool = True
) -> Rows:
    """Rows for ``games`` live games with ids 1…games, cycling through ``pool``."""
    at = time.time()
    rows = Rows([], [], [], [], at)
    timer_id = 0
    for i in range(games):
        game_id = i + 1
        g = pool[i % len(pool)]
        created = at - rng.uniform(60, 86400)
        rows.games.append(
            (
                game_id,
                1 + i % GUILDS,
                CHANNEL_BASE + i,
                g.config_json,
                SETTINGS,
                "live",
                created,
                at,
            )
        )
        for s in range(g.seats):
            user = None if g.ai[s] else USER_BASE + 4 * i + s
            rows.seats.append((game_id, s, user, "easy" if g.ai[s] else None, 0, 0))
        rows.steps_of.append((game_id, g))
        if with_timers and g.to_move is not None:
            payload = jsoncodec.dumps({"seat": g.to_move, "version": len(g.steps)})
            due = at + rng.uniform(60, 600)
            kinds = ("ai",) if g.ai[g.to_move] else ("turn", "reminder")
            for kind in kinds:
                timer_id += 1
                when = due if kind != "reminder" else due - 60
                rows.timers.append((timer_id, game_id, kind, g.to_move, when, payload))
    return rows


async def create_schema(target: str | Path) -> None:
    """Create the store's schema (the migrations) in an empty database or file."""
    store = await open_store(target)
    await store.close()


def _insert_sql(table: str, columns: tuple[str, ...]) -> str:
    marks = ", ".join("?" for _ in columns)
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"


async def seed_sqlite(path: Path, rows: Rows) -> None:
    """Write ``rows`` into the SQLite store at ``path`` (created and migrated first).

    One transaction with ``synchronous = OFF`` (nothing to lose: a benchmark's file), then a
    WAL checkpoint so the next open finds everything in the main file.
    """
    await create_schema(path)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        conn.executemany(_insert_sql("games", Rows.GAME_COLUMNS), rows.games)
        conn.executemany(_insert_sql("game_seats", Rows.SEAT_COLUMNS), rows.seats)
        conn.executemany(_insert_sql("steps", Rows.STEP_COLUMNS), rows.steps())
        conn.executemany(_insert_sql("timers", Rows.TIMER_COLUMNS), rows.timers)
        conn.execute("COMMIT")
        conn.execute("ANALYZE")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


async def seed_postgres(url: str, rows: Rows) -> None:
    """Write ``rows`` into the PostgreSQL database at ``url`` (migrated first) with COPY.

    ``session_replication_role = replica`` (the throwaway server's superuser) skips the
    per-row triggers: the change notifications (nobody listens yet) and the foreign-key
    checks. The identity sequences are moved past the seeded ids, then ANALYZE.
    """
    import asyncpg

    await create_schema(url)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SET session_replication_role = replica")
        async with conn.transaction():
            await conn.copy_records_to_table(
                "games", records=rows.games, columns=list(Rows.GAME_COLUMNS)
            )
            await conn.copy_records_to_table(
                "game_seats", records=rows.seats, columns=list(Rows.SEAT_COLUMNS)
            )
            await conn.copy_records_to_table(
                "steps", records=rows.steps(), columns=list(Rows.STEP_COLUMNS)
            )
            await conn.copy_records_to_table(
                "timers", records=rows.timers, columns=list(Rows.TIMER_COLUMNS)
            )
            for table in ("games", "timers"):
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" (SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)"
                )
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def seed(target: str | Path, rows: Rows) -> None:
    """Seed a SQLite file (a Path) or a PostgreSQL database (a ``postgresql://`` URL)."""
    if isinstance(target, Path):
        await seed_sqlite(target, rows)
    else:
        await seed_postgres(target, rows)
