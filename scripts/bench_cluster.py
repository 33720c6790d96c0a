"""Cluster benchmark: 1, 2 and 4 processes sharing live games on one PostgreSQL, SQLite beside.

Usage: python scripts/bench_cluster.py [--games N] [--procs 1 2 4] [--seconds S] [--rate R]
                                       [--concurrency C] [--seats N] [--no-sqlite]
                                       [--routing random|shard] [--dm-share F] [--fast]
                                       [--url postgresql://.../postgres] [--seed N]

No Discord: each worker is a Python process with its own ``GameService`` and ``Store`` (the
service as the bot builds it, ``deadlines`` off, events dropped), following the others' changes
with ``Store.watch`` (LISTEN/NOTIFY) as the bot does; its connection pool is opened to full
size before the phase starts (as in a bot that has been running), its game cache is empty.
``--games`` live games (default 2,000, ``--seats`` seats, humans only, 0–25 % played so they
last) are seeded once into a template database; every configuration runs on a fresh copy.

A move: a random game of the ``--games`` (the same for every process: processes contend on the
same games), ``await svc.session(id)`` (cached, or loaded and replayed when this process has
not seen it or another process changed it since), a random legal action of the seat to move,
``await svc.play(session, seat, action, version=session.version)``. ``OutOfDate`` (another
process moved first: the store refused the stale sequence; or another move of this process
on the same game came first) is retried on the fresh game, and counted. Latency is from the
move's arrival to the step committed (retries included), ``time.perf_counter``, ms.

Two phases per configuration, ``--seconds`` each:
  paced     - open loop: moves arrive at ``--rate`` per second in all (default 200: a step every
              10 s in each of 2,000 games), split evenly over the processes, Poisson arrivals;
              latency counts from the planned arrival, so a process that falls behind shows it;
  saturated - closed loop: ``--concurrency`` movers per process, each making its next move as
              soon as the last one committed: the most steps/s the configuration can do.
Routing (``--routing``): ``random`` (default, the issue's load: every move goes to a random
process, so a game's consecutive moves land on different processes and each finds its copy
evicted by the other's change); ``shard``: as Discord routes interactions, a game's moves go to
the process that runs its server's shard (here game id modulo the process count), except
``--dm-share`` of all moves (default 0.5: bench_bot's mix of DM controls and slash commands),
which arrive at process 0 (interactions in DMs come on shard 0).
Configurations: SQLite in one process (``--no-sqlite`` skips it), then PostgreSQL with each
``--procs`` count. Also measured: PostgreSQL's raw commit rate on this machine (pgbench: N
connections each committing a one-row INSERT per transaction, as fast as they can) and the
machine's CPU use during each phase (``/proc/stat``, every process on the 2 cores, including
other people's).

PostgreSQL: a throwaway server (tests/pgserver.py) with the default durability (fsync on,
``synchronous_commit`` on; ``--fast``: fsync and synchronous_commit off, as the test suite's
server), or ``--url`` of a server's maintenance database where this user may create
databases (``bench_cluster_*`` are created and dropped).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from live_seed import make_pool, make_rows, seed


# ---------------------------------------------------------------------------------- worker
async def worker(target: str, args: argparse.Namespace) -> dict[str, Any]:
    """One process of the cluster: serve moves until the phase ends; its figures."""
    from data import open_store
    from data.pg import POOL_SIZE
    from service import GameService, OutOfDate

    store = await open_store(target if "://" in target else Path(target))
    svc = GameService(store, lambda: 0, dispatch=lambda *a: None)
    await svc.start()
    loads = 0
    load = svc._load

    async def counting_load(game_id: int) -> Any:
        nonlocal loads
        loads += 1
        return await load(game_id)

    svc._load = counting_load  # type: ignore[method-assign]
    rng = random.Random(args.seed * 7919 + args.index)
    out: dict[str, Any] = {
        "latency_ms": [],
        "remote_retries": 0,
        "local_retries": 0,
        "over": 0,
        "errors": [],
        "slow": [],
    }
    begin = 0.0

    procs, index = args.nprocs, args.index
    home = [g for g in range(1, args.games + 1) if g % procs == index]
    dm = args.dm_share
    # --routing shard: this process's share of the moves, and of its moves those on any game
    if args.routing == "random":
        share, anywhere = 1 / procs, 1.0
    elif index == 0:
        share = dm + (1 - dm) / procs
        anywhere = dm / share
    else:
        share, anywhere = (1 - dm) / procs, 0.0

    def pick() -> int:
        if rng.random() < anywhere:
            return rng.randint(1, args.games)
        return rng.choice(home)

    async def move(arrived: float) -> None:
        game_id = pick()
        while True:
            session = await svc.session(game_id)
            if session is None or session.game.is_over:
                out["over"] += 1
                return
            game = session.game
            seat = game.to_move
            action = rng.choice(game.legal_actions(seat))
            try:
                await svc.play(session, seat, action, version=session.version)
            except OutOfDate:
                if svc.cached(game_id) is session:
                    out["local_retries"] += 1
                else:
                    out["remote_retries"] += 1
                continue
            except Exception as exc:  # a store fault: count it, the phase goes on
                out["errors"].append(repr(exc)[:200])
                return
            took = (time.perf_counter() - arrived) * 1000
            out["latency_ms"].append(took)
            if took > SLOW_MS:
                out["slow"].append((arrived - begin, took))
            return

    pauses: list[tuple[int, float]] = []
    started = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pauses.append((info["generation"], (time.perf_counter() - started[0]) * 1000))

    # a running bot's pool is open: open every pooled connection now (asyncpg opens them on
    # demand, each a new server process and a password exchange), reading games without
    # caching them in the service
    for _ in range(3):
        await asyncio.gather(
            *(store.games.load_live(rng.randint(1, args.games)) for _ in range(2 * POOL_SIZE))
        )
    gc.collect()
    gc.freeze()  # as the bot after its set-up
    print("ready", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    start_at = float(line.split()[1])
    await asyncio.sleep(max(0.0, start_at - time.time()))
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    gc.callbacks.append(on_gc)
    begin = time.perf_counter()
    end = begin + args.seconds
    if args.phase == "paced":
        per_second = args.rate * share
        tasks = set()
        due = begin
        while True:
            due += rng.expovariate(per_second)
            if due >= end:
                break
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            task = asyncio.create_task(move(due))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.wait(tasks, timeout=60)
    else:

        async def mover() -> None:
            while time.perf_counter() < end:
                await move(time.perf_counter())

        await asyncio.gather(*(mover() for _ in range(args.concurrency)))
    out["seconds"] = time.perf_counter() - begin
    gc.callbacks.remove(on_gc)
    out["gc_full"] = sum(1 for g, _ in pauses if g == 2)
    out["gc_max_ms"] = max((ms for _, ms in pauses), default=0.0)
    out["cached"] = len(svc.sessions)
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu_s"] = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    out["loads"] = loads
    await store.close()
    return out


# ---------------------------------------------------------------------------------- parent
def cpu_times() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [float(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


SLOW_MS = 50.0
"""Moves slower than this are listed with their arrival time (are they bunched or spread?)."""


def pg_cpu_seconds(postmaster: int | None) -> float:
    """CPU seconds used so far by a PostgreSQL server: its ended backends (the postmaster's
    reaped children) plus its running processes; NaN without the postmaster's pid."""
    if postmaster is None:
        return math.nan
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rpartition(")")[2].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        if pid == postmaster:
            total += float(fields[11]) + float(fields[12]) + float(fields[13]) + float(fields[14])
        elif ppid == postmaster:
            total += float(fields[11]) + float(fields[12])
    return total / tick


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``; NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


async def server_commits(admin_url: str, dbname: str) -> int:
    """Transactions committed so far in database ``dbname`` (pg_stat_database)."""
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        return int(
            await conn.fetchval(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = $1", dbname
            )
        )
    finally:
        await conn.close()


def run_phase(
    target: str,
    procs: int,
    phase: str,
    args: argparse.Namespace,
    stats: tuple[str, str] | None,
    postmaster: int | None = None,
) -> dict[str, Any]:
    """Start ``procs`` workers on ``target``, run one phase, merge their figures."""
    workers = []
    for index in range(procs):
        cmd = [
            sys.executable,
            __file__,
            "--worker",
            target,
            "--index",
            str(index),
            "--nprocs",
            str(procs),
            "--phase",
            phase,
            "--games",
            str(args.games),
            "--seconds",
            str(args.seconds),
            "--rate",
            str(args.rate),
            "--concurrency",
            str(args.concurrency),
            "--seed",
            str(args.seed),
            "--routing",
            args.routing,
            "--dm-share",
            str(args.dm_share),
        ]
        workers.append(
            subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for w in workers:
        line = w.stdout.readline().strip()
        if line != "ready":
            w.wait(timeout=60)
            raise RuntimeError(f"worker did not start: {line!r} {w.stderr.read()[-3000:]}")
    start_at = time.time() + 0.5
    commits0 = asyncio.run(server_commits(*stats)) if stats else 0
    for w in workers:
        w.stdin.write(f"go {start_at}\n")
        w.stdin.flush()
    time.sleep(0.5)
    busy0, total0 = cpu_times()
    pg0 = pg_cpu_seconds(postmaster)
    results = []
    for w in workers:
        out, err = w.communicate(timeout=args.seconds + 180)
        if w.returncode != 0:
            raise RuntimeError(f"worker failed:\n{err[-3000:]}")
        results.append(json.loads(out.strip().splitlines()[-1]))
    busy1, total1 = cpu_times()
    time.sleep(0.3)  # the workers' backends end and are reaped
    pg1 = pg_cpu_seconds(postmaster)
    commits1 = asyncio.run(server_commits(*stats)) if stats else 0
    seconds = max(r["seconds"] for r in results)
    latency = [v for r in results for v in r["latency_ms"]]
    steps = len(latency)
    return {
        "procs": procs,
        "phase": phase,
        "steps": steps,
        "steps_s": steps / seconds,
        "latency": latency,
        "remote_retries": sum(r["remote_retries"] for r in results),
        "local_retries": sum(r["local_retries"] for r in results),
        "loads": sum(r["loads"] for r in results),
        "over": sum(r["over"] for r in results),
        "errors": [e for r in results for e in r["errors"]],
        "cpu_s": sum(r["cpu_s"] for r in results),
        "seconds": seconds,
        "machine_busy": (busy1 - busy0) / (total1 - total0) if total1 > total0 else math.nan,
        "server_tps": (commits1 - commits0) / seconds if stats else math.nan,
        "pg_cpu_s": pg1 - pg0,
        "slow": sorted(x for r in results for x in r["slow"]),
        "gc_full": sum(r["gc_full"] for r in results),
        "gc_max_ms": max(r["gc_max_ms"] for r in results),
    }


def line(name: str, r: dict[str, Any]) -> str:
    """One table row of a phase's figures."""
    lat = r["latency"]
    steps = max(r["steps"], 1)
    return (
        f"| {name} | {r['phase']} | {r['steps_s']:.0f} | "
        f"{statistics.median(lat) if lat else math.nan:.1f} / {pct(lat, 0.99):.1f} / "
        f"{max(lat, default=math.nan):.1f} | "
        f"{r['remote_retries'] / steps:.1%} / {r['local_retries'] / steps:.1%} | "
        f"{r['loads'] / steps:.2f} | {r['cpu_s'] / r['seconds'] / 2:.0%} | "
        f"{r['pg_cpu_s'] / r['seconds'] / 2:.0%} | "
        f"{r['machine_busy']:.0%} | {r['server_tps']:.0f} | "
        f"{r['gc_full']}, {r['gc_max_ms']:.0f} ms | {len(r['errors'])} |"
    )


def slow_summary(r: dict[str, Any]) -> str:
    """How the moves over :data:`SLOW_MS` spread over the phase (by second of arrival)."""
    slow = r["slow"]
    if not slow:
        return f"    no move over {SLOW_MS:g} ms"
    per_second: dict[int, int] = {}
    for at, _ in slow:
        per_second[int(at)] = per_second.get(int(at), 0) + 1
    busiest = sorted(per_second.items(), key=lambda kv: -kv[1])[:3]
    return (
        f"    {len(slow)} moves over {SLOW_MS:g} ms, arriving in {len(per_second)} of "
        f"{math.ceil(r['seconds'])} seconds; busiest seconds (from the phase's start): "
        + ", ".join(f"{sec} s: {n}" for sec, n in busiest)
    )


HEADER = (
    "| configuration | phase | steps/s | latency ms median / p99 / max | OutOfDate retries "
    "per step: other process / same process | loads per step | workers' CPU (of 2 cores) | "
    "PostgreSQL's CPU | machine busy | server commits/s | full GCs, longest GC pause | errors |\n"
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def pgbench_rate(
    port: int, password: str, dbname: str, clients: int, seconds: int
) -> tuple[float, float]:
    """Commits/s and average latency (ms) of pgbench's one-row INSERT transactions."""
    from tests.pgserver import find_bin

    pgbench = find_bin("pgbench")
    if pgbench is None:
        return math.nan, math.nan
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write("INSERT INTO commit_probe (at, note) VALUES (now(), 'x');\n")
        script = f.name
    env = {**os.environ, "PGPASSWORD": password}
    cmd = [pgbench, "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-n", "-M", "prepared"]
    cmd += ["-f", script, "-c", str(clients), "-j", str(min(clients, 2)), "-T", str(seconds)]
    done = subprocess.run([*cmd, dbname], capture_output=True, text=True, env=env, timeout=300)
    os.unlink(script)
    tps = re.search(r"tps = ([\d.]+) \(without initial", done.stdout)
    lat = re.search(r"latency average = ([\d.]+) ms", done.stdout)
    if tps is None:
        raise RuntimeError(f"pgbench failed: {done.stderr[-2000:]}")
    return float(tps.group(1)), float(lat.group(1)) if lat else math.nan


async def admin(url: str, *sql: str) -> list[Any]:
    """Run statements on ``url`` (autocommit); the rows of the last one."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows: list[Any] = []
        for statement in sql:
            rows = await conn.fetch(statement)
        return rows
    finally:
        await conn.close()


def db_url(admin_url: str, dbname: str) -> str:
    """``admin_url`` with its database name replaced."""
    head, _, tail = admin_url.rpartition("/")
    query = tail.partition("?")[2]
    return f"{head}/{dbname}" + (f"?{query}" if query else "")


def main() -> None:
    """Parse the options; run the raw commit rate, then each configuration and phase."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--procs", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    parser.add_argument("--rate", type=float, default=200.0, help="paced moves/s in all")
    parser.add_argument("--concurrency", type=int, default=8, help="saturated movers/process")
    parser.add_argument("--seats", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--phases", nargs="+", default=["paced", "saturated"])
    parser.add_argument(
        "--routing",
        choices=("random", "shard"),
        default="random",
        help="random: every move to a random process; shard: a game's moves to its own process "
        "except --dm-share of all moves, which go to process 0 (DM buttons arrive on shard 0)",
    )
    parser.add_argument("--dm-share", type=float, default=0.5)
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument("--fast", action="store_true", help="fsync off (the test server)")
    parser.add_argument("--url", help="a server's maintenance database (CREATE DATABASE)")
    parser.add_argument(
        "--commit-clients",
        type=int,
        nargs="*",
        default=[1, 2, 4, 8, 16],
        help="pgbench connection counts (none: skip the raw commit rate)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--index", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--nprocs", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--phase", default="paced", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        import logging

        logging.basicConfig(level=logging.ERROR)
        print(json.dumps(asyncio.run(worker(args.worker, args))), flush=True)
        return

    print(
        f"bench_cluster: {args.games:,} live {args.seats}-seat games, phases {args.phases} of "
        f"{args.seconds:g} s, paced {args.rate:g} moves/s, saturated {args.concurrency} movers "
        f"per process; routing {args.routing}"
        + (f" (DM share {args.dm_share:.0%})" if args.routing == "shard" else "")
        + f"; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores",
        flush=True,
    )
    rng = random.Random(args.seed)
    pool = make_pool(
        min(args.games, 2000),
        rng,
        seat_counts=(args.seats,),
        fraction=(0.0, 0.25),
        humans_only=True,
    )
    rows = make_rows(pool, args.games, rng, with_timers=False)
    server = None
    rows_out: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench_cluster_") as tmp:
        try:
            if not args.no_sqlite:
                path = Path(tmp) / "cluster.sqlite3"
                asyncio.run(seed(path, rows))
                for phase in args.phases:
                    r = run_phase(str(path), 1, phase, args, None)
                    rows_out.append(line("SQLite, 1 process", r))
                    print(rows_out[-1], flush=True)
                    print(slow_summary(r), flush=True)
            if args.url:
                admin_url, port, password = args.url, None, None
                postmaster = None
            else:
                from tests.pgserver import PASSWORD, PgServer

                server = PgServer.start(durable=not args.fast)
                admin_url, port, password = server.url(), server.port, PASSWORD
                pid_file = server.folder / "data" / "postmaster.pid"
                postmaster = int(pid_file.read_text().split()[0])
            settings = asyncio.run(
                admin(
                    admin_url,
                    "SELECT current_setting('server_version'), current_setting('fsync'),"
                    " current_setting('synchronous_commit'), current_setting('wal_sync_method'),"
                    " current_setting('full_page_writes'), current_setting('max_connections')",
                )
            )[0]
            print(
                f"PostgreSQL {settings[0]}: fsync={settings[1]} synchronous_commit={settings[2]} "
                f"wal_sync_method={settings[3]} full_page_writes={settings[4]} "
                f"max_connections={settings[5]}",
                flush=True,
            )
            if port is not None and args.commit_clients:
                asyncio.run(
                    admin(
                        admin_url,
                        "DROP DATABASE IF EXISTS bench_cluster_commit",
                        "CREATE DATABASE bench_cluster_commit",
                    )
                )
                asyncio.run(
                    admin(
                        db_url(admin_url, "bench_cluster_commit"),
                        "CREATE TABLE commit_probe (id BIGSERIAL PRIMARY KEY,"
                        " at TIMESTAMPTZ, note TEXT)",
                    )
                )
                print("raw commit rate (pgbench, one-row INSERT per transaction, 10 s each):")
                for clients in args.commit_clients:
                    tps, lat = pgbench_rate(port, password, "bench_cluster_commit", clients, 10)
                    print(
                        f"  {clients:>2} connections: {tps:,.0f} commits/s, "
                        f"{lat:.2f} ms per commit (load average {os.getloadavg()[0]:.2f})",
                        flush=True,
                    )
                asyncio.run(admin(admin_url, "DROP DATABASE bench_cluster_commit"))
            seeded = db_url(admin_url, "bench_cluster_seeded")
            asyncio.run(
                admin(
                    admin_url,
                    "DROP DATABASE IF EXISTS bench_cluster_seeded WITH (FORCE)",
                    "CREATE DATABASE bench_cluster_seeded TEMPLATE template0",
                )
            )
            asyncio.run(seed(seeded, rows))
            for procs in args.procs:
                for phase in args.phases:
                    name = f"bench_cluster_{procs}_{phase}"
                    asyncio.run(
                        admin(
                            admin_url,
                            f"DROP DATABASE IF EXISTS {name} WITH (FORCE)",
                            f"CREATE DATABASE {name} TEMPLATE bench_cluster_seeded"
                            " STRATEGY FILE_COPY",
                        )
                    )
                    target = db_url(admin_url, name)
                    try:
                        r = run_phase(target, procs, phase, args, (admin_url, name), postmaster)
                    finally:
                        drop = f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                        asyncio.run(admin(admin_url, drop))
                    rows_out.append(line(f"PostgreSQL, {procs} process{'es' * (procs > 1)}", r))
                    print(rows_out[-1], flush=True)
                    print(slow_summary(r), flush=True)
            drop = "DROP DATABASE IF EXISTS bench_cluster_seeded WITH (FORCE)"
            asyncio.run(admin(admin_url, drop))
        finally:
            if server is not None:
                server.stop()
    print(HEADER)
    print("\n".join(rows_out))
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
