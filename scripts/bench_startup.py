"""Start-up benchmark: the whole bot serving with many live games in its store (SQLite, PostgreSQL).

Usage: python scripts/bench_startup.py [--games N] [--backend both|sqlite|postgres]
                                       [--url postgresql://...] [--runs N] [--probes N]
                                       [--lazy N] [--distinct N] [--seed N]

1. Seeding: ``--games`` live games (default 100,000) of 2–4 seats (odd seats AI, as
   ``bench_store.py``), each cut at a random point of a random whole game (uniform from no step
   to one short of the end, ~30 steps per game), with the deadlines a running bot keeps for
   them (``turn``/``reminder`` or ``ai``, due in 1–10 minutes). ``--distinct`` distinct games
   are played through the engine and repeated with new ids, channels and users; rows are
   written in bulk (``scripts/live_seed.py``: one executemany transaction on SQLite, COPY on
   PostgreSQL). PostgreSQL: a throwaway server (tests/pgserver.py, Debian's binaries) with
   the default durability (fsync on, ``synchronous_commit`` on), or ``--url`` (an empty
   database you own: the tables are created in it).
2. Start-up, ``--runs`` times per backend, each in a NEW Python process (an empty heap and
   cold engine caches, as a restarted bot; the database files stay in the OS page cache):
   the real bot (``bot.create_bot``, every cog) attached to ``simcord.run``. Times from
   ``simcord.run`` entering (the bot's ``setup_hook`` starts; a real bot calls it after the
   login, before the gateway connects), ``time.perf_counter``, seconds:
     open_store   - ``open_store`` (SQLite: quick_check + migrations; PostgreSQL: the pool's
                    first connection + migrations);
     cogs         - ``load_features``: the game service, the command translator, every cog's
                    ``setup``/``cog_load`` (the deadline runner starts, history catch-up);
     service      - ``GameService.start`` (PostgreSQL: LISTEN on its own connection);
     setup_hook   - the whole ``setup_hook`` (the above + the command sync check: the first
                    run syncs, the later ones find the commands unchanged as a restart
                    does; + gc.freeze);
     ready        - ``on_ready`` fired (simcord's READY: the point a real bot starts
                    receiving interactions);
     settled      - ``simcord.run`` returned: every ``on_ready`` listener done (outbox,
                    lobby expiries) and nothing left running.
   Python's own start and the imports (``import bot``) are reported apart: they do not grow
   with the number of games.
3. First use of a game nobody touched since the start (the lazy load), in the same process:
     first move  - ``--probes`` 3-seat games inserted after ``ready`` (30–95 % played, so
                   14–45 steps to replay) for simcord members, each then played once with a
                   slash command by the seat to move: bot side, from the interaction reaching
                   discord.py to the step committed and to the answer (as bench_bot.py), and
                   the whole simcord round trip; the first probe is the process's very first
                   interaction (cold command paths) and is shown apart;
     lazy load   - ``GameService.session(id)`` on ``--lazy`` random seeded games (load_live +
                   replay + cache), ms; plus the two parts timed separately on other games.
Old figures (before the lazy GameService, measured from outside, issue 13): restore of 10,000
live games 2.4 s growing linearly (bench_store.py); the bot ready 4.3 s with 10,000 live
games and 20.5 s with 50,000. Goal: serving within 2 s with 100,000 on either backend.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

T_PROCESS = time.perf_counter()
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from live_seed import Rows, make_pool, make_rows, play_partial, seed  # noqa: E402

OLD = {
    "restore 10,000 (bench_store, 2026-11-21)": "2.4 s (linear: ~24 s for 100,000)",
    "ready with 10,000 live games (issue 13)": "4.3 s",
    "ready with 50,000 live games (issue 13)": "20.5 s",
}


# ---------------------------------------------------------------------------------- child
def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``; NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def rss_mb() -> float:
    """Resident memory of this process (MB, from /proc)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def measure(
    target: str, games: int, probes: int, lazy: int, seed_: int, pictures: bool = True
) -> dict[str, Any]:
    """One start-up of the whole bot on ``target``; the figures as a dict (seconds, ms)."""
    t_import = time.perf_counter()
    import discord
    import simcord
    from bench_bot import PROBE, SLASH_OF, install_probes, probe_play

    import bot as bot_module
    from data import GameImport, SeatSpec, rebuild_game
    from engine import ActionKind
    from service import GameService

    imported = time.perf_counter()
    out: dict[str, Any] = {
        "python_start_s": t_import - T_PROCESS,
        "imports_s": imported - t_import,
    }
    install_probes()
    marks: dict[str, float] = {}

    def timed(name: str, fn: Any) -> Any:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                marks[name] = time.perf_counter() - t

        return wrapper

    bot_module.open_store = timed("open_store", bot_module.open_store)
    GameService.start = timed("service", GameService.start)  # type: ignore[method-assign]
    seeds = iter(range(seed_ * 1_000_003, 10**18))
    bot = bot_module.create_bot(
        target if "://" in target else Path(target),
        turn_timer=120,
        seed_source=lambda: next(seeds),
    )
    bot.pictures.enabled = pictures
    bot.load_features = timed("cogs", bot.load_features)  # type: ignore[method-assign]
    bot.sync_commands = timed("sync_commands", bot.sync_commands)  # type: ignore[method-assign]
    bot.setup_hook = timed("setup_hook", bot.setup_hook)  # type: ignore[method-assign]

    async def on_ready() -> None:
        marks.setdefault("ready_at", time.perf_counter())

    bot.add_listener(on_ready, "on_ready")
    rng = random.Random(seed_)
    t0 = time.perf_counter()
    try:
        async with simcord.run(
            bot, settle_timeout=30.0, check_errors=False, strict_sync=False
        ) as env:
            settled = time.perf_counter()
            out.update({k: v for k, v in marks.items() if k != "ready_at"})
            out["ready_s"] = marks["ready_at"] - t0
            out["settled_s"] = settled - t0
            out["cached_at_ready"] = len(bot.games.sessions)
            out["rss_mb_at_ready"] = rss_mb()
            probe_play(bot)

            # first move on games nobody loaded yet
            guild = env.create_guild("Probe")
            moves = []
            probe_ids = []
            for i in range(probes):
                config, game = play_partial(rng, 3, (0.3, 0.95))
                channel = guild.create_text_channel(f"probe-{i}")
                players = [guild.add_member(env.create_user(f"probe{i}s{s}")) for s in range(3)]
                [game_id] = await bot.store.games.import_games(
                    [
                        GameImport(
                            guild.id,
                            channel.id,
                            config.to_dict(),
                            [SeatSpec(user_id=p.id) for p in players],
                            [s.to_dict() for s in game.steps],
                            {"turn_timer": 120},
                            time.time(),
                        )
                    ]
                )
                assert bot.games.cached(game_id) is None
                probe_ids.append(game_id)
                seat = game.to_move
                legal = game.legal_actions(seat)
                kind = rng.choice(sorted({a.kind for a in legal}, key=lambda k: k.value))
                action = rng.choice([a for a in legal if a.kind is kind])
                options: dict[str, Any] = {}
                if getattr(action, "card", None) is not None:
                    options["card"] = action.card.code
                if kind is ActionKind.EXCHANGE:
                    options["slot"] = action.slot
                PROBE.clear()
                t = time.perf_counter()
                await players[seat].slash(channel, SLASH_OF[kind], **options)
                round_ms = (time.perf_counter() - t) * 1000
                session = bot.games.cached(game_id)
                iid = next((i for i in PROBE.recent if i in PROBE.committed), None)
                if session is None or session.version != len(game.steps) + 1 or iid is None:
                    raise RuntimeError(f"probe move {i} was not played: {env.errors}")
                moves.append(
                    {
                        "steps": len(game.steps),
                        "committed_ms": (PROBE.committed[iid] - PROBE.arrived[iid]) * 1000,
                        "answered_ms": (PROBE.answered[iid] - PROBE.arrived[iid]) * 1000,
                        "round_ms": round_ms,
                    }
                )
            out["probes"] = moves
            for game_id in probe_ids:  # simcord's ids repeat in the next run: free the channels
                await bot.store.games.abandon_game(game_id)

            # lazy loads of seeded games through the service, then the two parts apart
            ids = rng.sample(range(1, games + 1), min(2 * lazy, games))
            loads = []
            for game_id in ids[:lazy]:
                t = time.perf_counter()
                session = await bot.games.session(game_id)
                loads.append((time.perf_counter() - t) * 1000)
                assert session is not None
            out["lazy_ms"] = loads
            parts = []
            for game_id in ids[lazy:]:
                t = time.perf_counter()
                live = await bot.store.games.load_live(game_id)
                t1 = time.perf_counter()
                rebuild_game(live.row, live.steps)
                parts.append(((t1 - t) * 1000, (time.perf_counter() - t1) * 1000))
            out["load_live_ms"] = [p[0] for p in parts]
            out["replay_ms"] = [p[1] for p in parts]
            out["errors"] = [repr(e)[:200] for e in env.errors]
    finally:
        if bot.store is not None:
            await bot.store.close()
    out["discord_py"] = discord.__version__
    return out


# ---------------------------------------------------------------------------------- parent
def run_child(target: str, args: argparse.Namespace) -> dict[str, Any]:
    """One measurement in a new Python process; its figures."""
    cmd = [
        sys.executable,
        __file__,
        "--measure",
        target,
        "--games",
        str(args.games),
        "--probes",
        str(args.probes),
        "--lazy",
        str(args.lazy),
        "--seed",
        str(args.seed),
        *(["--no-pictures"] if args.no_pictures else []),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"measurement failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def ms3(values: list[float]) -> str:
    """``median / p99 / max`` of millisecond values."""
    if not values:
        return "n/a"
    return f"{statistics.median(values):.1f} / {pct(values, 0.99):.1f} / {max(values):.1f}"


def report(name: str, runs: list[dict[str, Any]]) -> None:
    """Print the median over runs of each start-up figure, then the lazy-load figures."""

    def med(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    def each(key: str) -> str:
        return ", ".join(f"{r[key]:.2f}" for r in runs)

    print(f"{name}: start-up, median of {len(runs)} runs in new processes (each run) [s]")
    for key, label in (
        ("open_store", "open_store"),
        ("cogs", "load_features (service, translator, cogs)"),
        ("service", "GameService.start"),
        ("sync_commands", "command sync check"),
        ("setup_hook", "setup_hook, whole"),
        ("ready_s", "ready (on_ready fired)"),
        ("settled_s", "settled (on_ready listeners done)"),
    ):
        print(f"  {label:<44} {med(key):6.2f} s   ({each(key)})")
    print(
        f"  before that: python start {med('python_start_s'):.2f} s, imports "
        f"{med('imports_s'):.2f} s (not per game); games cached at ready: "
        f"{max(r['cached_at_ready'] for r in runs)}; RSS at ready {med('rss_mb_at_ready'):.0f} MB"
    )
    first = [r["probes"][0] for r in runs if r["probes"]]
    rest = [p for r in runs for p in r["probes"][1:]]
    if first:
        print(
            "  first interaction of the process, a move on an unloaded game (each run): "
            + "; ".join(
                f"committed {p['committed_ms']:.1f} ms, answered {p['answered_ms']:.1f} ms, "
                f"round trip {p['round_ms']:.1f} ms ({p['steps']} steps replayed)"
                for p in first
            )
        )
    if rest:
        print(
            f"  later first moves on unloaded games (n={len(rest)}, "
            f"{min(p['steps'] for p in rest)}–{max(p['steps'] for p in rest)} steps), "
            "median / p99 / max ms:"
        )
        for key, label in (
            ("committed_ms", "interaction -> committed"),
            ("answered_ms", "interaction -> answered"),
            ("round_ms", "round trip (settled)"),
        ):
            print(f"    {label:<28} {ms3([p[key] for p in rest])}")
    lazy = [v for r in runs for v in r["lazy_ms"]]
    load = [v for r in runs for v in r["load_live_ms"]]
    replay = [v for r in runs for v in r["replay_ms"]]
    print(
        f"  GameService.session on a seeded game, median / p99 / max ms (n={len(lazy)}): "
        f"{ms3(lazy)}; of which load_live {ms3(load)}, replay {ms3(replay)}"
    )
    errors = [e for r in runs for e in r["errors"]]
    print(f"  bot errors: {len(errors)}" + "".join(f"\n    {e}" for e in errors[:5]))


async def seed_target(backend: str, tmp: Path, server: Any, args: argparse.Namespace, rows: Rows):
    """Create and seed the database of ``backend``; returns its target string."""
    if backend == "sqlite":
        path = tmp / "startup.sqlite3"
        target: str | Path = path
    elif args.url:
        target = args.url
    else:
        target = await asyncio.to_thread(server.create_database, "startup")
    t = time.perf_counter()
    await seed(target, rows)
    took = time.perf_counter() - t
    size = ""
    if isinstance(target, Path):
        import sqlite3

        conn = sqlite3.connect(target)
        t = time.perf_counter()
        conn.execute("PRAGMA quick_check").fetchall()
        check = time.perf_counter() - t
        conn.close()
        size = (
            f", {target.stat().st_size / 1e6:.0f} MB file (PRAGMA quick_check alone: "
            f"{check:.2f} s, part of open_store)"
        )
    print(
        f"{backend}: seeded {len(rows.games):,} live games, {rows.step_count:,} steps, "
        f"{len(rows.timers):,} deadlines in {took:.1f} s{size}",
        flush=True,
    )
    return str(target)


def main() -> None:
    """Parse the options; seed each backend; run the measurements; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--backend", choices=("both", "sqlite", "postgres"), default="both")
    parser.add_argument("--url", help="an existing, empty PostgreSQL database (else throwaway)")
    parser.add_argument("--runs", type=int, default=3, help="start-ups per backend")
    parser.add_argument("--probes", type=int, default=10, help="first moves on unloaded games")
    parser.add_argument("--lazy", type=int, default=200, help="lazy loads of seeded games")
    parser.add_argument("--distinct", type=int, default=2000, help="distinct seeded games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-pictures", action="store_true", help="the bot sends its embeds without pictures"
    )
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        import logging

        logging.basicConfig(level=logging.ERROR)
        result = asyncio.run(
            measure(
                args.measure, args.games, args.probes, args.lazy, args.seed, not args.no_pictures
            )
        )
        print(json.dumps(result))
        return
    print(
        f"bench_startup: {args.games:,} live games, {args.runs} runs per backend; "
        f"load average {os.getloadavg()[0]:.2f} (2 shared cores)",
        flush=True,
    )
    rng = random.Random(args.seed)
    t = time.perf_counter()
    pool = make_pool(args.distinct, rng)
    rows = make_rows(pool, args.games, rng)
    print(f"generated {args.distinct:,} distinct games in {time.perf_counter() - t:.1f} s")
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    server = None
    with tempfile.TemporaryDirectory(prefix="bench_startup_") as tmp:
        try:
            if "postgres" in backends and not args.url:
                from tests.pgserver import PgServer

                server = PgServer.start(durable=True)
                print(f"PostgreSQL: throwaway server (fsync on) at port {server.port}")
            for backend in backends:
                target = asyncio.run(seed_target(backend, Path(tmp), server, args, rows))
                runs = []
                for _ in range(args.runs):
                    runs.append(run_child(target, args))
                    print(
                        f"  run: ready {runs[-1]['ready_s']:.2f} s "
                        f"(load average {os.getloadavg()[0]:.2f})",
                        flush=True,
                    )
                report(f"{backend} ({args.games:,} live games)", runs)
        finally:
            if server is not None:
                server.stop()
    print("old figures, before the lazy GameService:")
    for name, value in OLD.items():
        print(f"  {name}: {value}")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
