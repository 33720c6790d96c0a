"""History benchmark: ``/hats leaderboard`` and ``/hats stats`` over a large database.

Usage: python scripts/bench_history.py [--games 100000] [--players 10000] [--samples 2000]
                                       [--guilds 1] [--seed 1] [--keep PATH]

1. Generates a database (migrated by ``open_store``) with ``--games`` finished games of 2–4
   seats (4 seats: two teams) between ``--players`` players, spread over the last 365 days, on
   ``--guilds`` servers (1: every game on one server, the largest leaderboard). About one
   seat in ten is an AI; places are random. Ratings are computed by ``history.ratings`` (the
   code the bot uses) in game order and written in bulk with the rows
   ``History.process_pending`` writes (history_games, history_favourites, rating_changes,
   ratings).
2. Times, through the bot's store (aiosqlite, one connection), ``--samples`` calls of each:
   - leaderboard: ``cogs.history.leaderboard_message`` (queries + V2 layout + buttons), a random
     seat filter (all/2/3/4), period (all time / 30 days) and page;
   - stats: ``cogs.history.stats_message`` for a random player (own stats: with the global
     rating; and another player's), then ``view.to_components()`` (what discord.py sends).
   Prints median, p95, p99 and max in ms. Goal: p99 <= 50 ms.
The database lives in a temporary directory (removed) unless ``--keep`` names a file.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs.history import leaderboard_message, stats_message
from data import open_store
from data.history import change_rows, kth_at, rating_row
from engine import HatType
from history.ratings import MIN_GAMES, Outcome, SeatOutcome, apply_outcome
from texts.i18n import Tr

DAY = 86400.0
LEVELS = ("easy", "normal", "hard")
TYPES = [t.value for t in HatType]


def _game(rng: random.Random, players: int) -> tuple[int, list[tuple]]:
    """(seat count, seats as (user_id|None, ai_level|None, place, team, scores...))."""
    n = rng.choice((2, 3, 4))
    users = rng.sample(range(1, players + 1), n)
    if n == 4:
        first = rng.choice(((1, 2), (2, 1), (1, 1)))
        places = [first[s % 2] for s in range(4)]
    else:
        places = [rng.randint(1, n) for _ in range(n)]
        places[rng.randrange(n)] = 1
    seats = []
    for s in range(n):
        ai = rng.random() < 0.1
        collection, favourite = rng.randint(0, 30), rng.randint(0, 12)
        cookie = 5 if s == 0 and rng.random() < 0.5 else 0
        seats.append(
            (
                None if ai else users[s],
                rng.choice(LEVELS) if ai else None,
                places[s],
                s % 2 if n == 4 else None,
                collection,
                favourite,
                cookie,
                collection + favourite + cookie,
                rng.randint(0, 3),
            )
        )
    return n, seats


def generate(path: Path, games: int, players: int, guilds: int, seed: int) -> float:
    """Write the database; returns the seconds it took."""
    started = time.perf_counter()
    asyncio.run(_migrate(path))
    rng = random.Random(seed)
    now = time.time()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA synchronous = OFF")
    book: dict = {}
    recent: dict = {}  # (scope, user) -> finish times of their last games, newest first
    kth: dict = {}
    rows: dict[str, list] = {
        k: [] for k in ("games", "results", "hgames", "favs", "changes", "records")
    }
    for number in range(1, games + 1):
        guild = 1 + (number % guilds)
        at = now - 365 * DAY + number * (365 * DAY / games)
        n, seats = _game(rng, players)
        config = f'{{"seats": {n}, "seed": {number}, "start_seat": 0}}'
        rows["games"].append((number, guild, 1000 + number, config, at, at, at))
        for s, (user, ai, place, team, col, fav, cookie, total, blacks) in enumerate(seats):
            rows["results"].append(
                (number, s, user, ai, col, fav, cookie, total, blacks, place, team, int(place == 1))
            )
            rows["favs"].append((number, s, rng.choice(TYPES)))
        outcome = Outcome(
            number, guild, tuple(SeatOutcome(u, ai, p, t) for u, ai, p, t, *_ in seats)
        )
        changes = apply_outcome(book, outcome)
        rows["hgames"].append((number, number, guild, n, at, int(bool(changes))))
        rows["changes"] += change_rows(number, changes, at)
        for c in changes:
            key = (c.scope, c.user_id)
            kth[key] = kth_at(recent.get(key, []), at)
            recent[key] = [at, *recent.get(key, [])][: MIN_GAMES - 1]
        if number % 10_000 == 0 or number == games:
            _flush(conn, rows)
            print(f"  generated {number:,} games", file=sys.stderr)
    conn.executemany(
        "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [rating_row(scope, user, r, kth[(scope, user)]) for (scope, user), r in book.items()],
    )
    conn.commit()
    conn.execute("ANALYZE")
    conn.close()
    return time.perf_counter() - started


async def _migrate(path: Path) -> None:
    async with await open_store(path):
        pass


def _flush(conn: sqlite3.Connection, rows: dict[str, list]) -> None:
    conn.executemany(
        "INSERT INTO games (id, guild_id, channel_id, config, status, created_at, updated_at,"
        " finished_at) VALUES (?, ?, ?, ?, 'finished', ?, ?, ?)",
        rows["games"],
    )
    conn.executemany(
        "INSERT INTO results (game_id, seat, user_id, ai_level, collection, favourite, cookie,"
        " total, black_hats, place, team, winner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows["results"],
    )
    conn.executemany("INSERT INTO history_games VALUES (?, ?, ?, ?, ?, ?)", rows["hgames"])
    conn.executemany("INSERT INTO history_favourites VALUES (?, ?, ?)", rows["favs"])
    conn.executemany(
        "INSERT INTO rating_changes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows["changes"]
    )
    conn.commit()
    for v in rows.values():
        v.clear()


def _summary(name: str, times: list[float]) -> str:
    times = sorted(times)
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
    return (
        f"{name:<12} n={len(times):,}  median {statistics.median(times):.2f} ms  "
        f"p95 {p(0.95):.2f} ms  p99 {p(0.99):.2f} ms  max {times[-1]:.2f} ms"
    )


async def measure(path: Path, samples: int, players: int, guilds: int, seed: int) -> None:
    rng = random.Random(seed + 1)
    tr = Tr.english()
    now = time.time()
    async with await open_store(path) as store:
        board: list[float] = []
        stats: list[float] = []
        for _ in range(samples):
            guild = rng.randint(1, guilds)
            seats = rng.choice((0, 2, 3, 4))
            days = rng.choice((0, 30))
            page = rng.choice((0, 0, 1, 2, rng.randint(0, 300)))
            t = time.perf_counter()
            view = await leaderboard_message(store, guild, seats, days, page, tr, now=now)
            view.to_components()
            board.append((time.perf_counter() - t) * 1000)
            user = rng.randint(1, players)
            t = time.perf_counter()
            view = await stats_message(store, user, f"<@{user}>", guild, tr, own=rng.random() < 0.5)
            view.to_components()
            stats.append((time.perf_counter() - t) * 1000)
        count = await store.history.leaderboard_size(1)
        recent = await store.history.leaderboard_size(1, since=now - 30 * DAY)
        print(f"players on server 1's leaderboard: all time {count:,}, last 30 days {recent:,}")
    print(_summary("leaderboard", board))
    print(_summary("stats", stats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=2_000)
    parser.add_argument("--guilds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "history.sqlite3"
        if not path.exists():
            seconds = generate(path, args.games, args.players, args.guilds, args.seed)
            print(
                f"generated {args.games:,} finished games, {args.players:,} players, "
                f"{args.guilds} server(s) in {seconds:.1f} s; {path.stat().st_size / 1e6:.1f} MB"
            )
        asyncio.run(measure(path, args.samples, args.players, args.guilds, args.seed))


if __name__ == "__main__":
    main()
