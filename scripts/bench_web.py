"""The Activity's WebSocket fan-out: many live games, thousands of connected viewers, one process.

Usage: python scripts/bench_web.py [--games 2000] [--viewers 3] [--rate 200] [--seconds 15]
                                   [--seed 1] [--no-tracemalloc]

The measured process is the web server (``web.WebServer``) over a real store (a temporary
SQLite file) and ``GameService``, as in the bot, listening on 127.0.0.1 only. It opens
``--games`` 3-seat games (one channel each) and connects ``--games * --viewers`` WebSocket
clients (one per seat, with ``--viewers`` 3) from a **child process** (so the clients' own
memory and CPU are not counted in the server's), each sending ``hello`` for its game's channel
and reading every frame. Then the server commits steps: ``--rate`` steps a second (a random
legal move of the seat to move in a random live game; 200/s is one step every 10 s in each of
2,000 games) for ``--seconds``; every loop is bounded and ends by itself.

Measured:
- **fan-out latency**: for every (viewer, step), the time from the step's commit (the moment
  the service announces it, ``hats_step``) to the client's receipt of that step's ``view``
  frame (unix clocks of the same machine); p50/p90/p99/max, and views never received;
- **memory per connected client**: the server's RSS (``/proc/self/statm``) and the Python heap
  (``tracemalloc``, traced from before the first connection to after the last client got its
  first view) before and after the clients connected, divided by the number of clients.

The open-files limit is raised to what the connections need (``resource.setrlimit``).
Figures and the command go into BENCHMARKS.md ("Activity: WebSocket fan-out").
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import random
import resource
import secrets
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GUILD = 1
CHANNEL_BASE = 10_000_000
USER_BASE = 5_000_000
SEATS = 3
CONNECT_AT_ONCE = 200
"""Connections the client process opens concurrently."""


def raise_open_files(needed: int) -> int:
    """Raise RLIMIT_NOFILE's soft limit to ``needed`` (at most the hard limit); the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_bytes() -> int:
    """This process's resident set size."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


# ---------------------------------------------------------------------- the clients (child)
async def client_main(plan_path: str, out_path: str) -> None:
    """Connect every client of the plan, report ``ready``, read frames until told ``stop``."""
    import aiohttp

    plan = json.loads(Path(plan_path).read_text())
    raise_open_files(len(plan["clients"]) + 1000)
    received: list[tuple[int, int, float]] = []  # (game_id, step, unix time)
    dropped = 0
    first_view = asyncio.Event()
    pending_first = len(plan["clients"])

    async def run_one(http: aiohttp.ClientSession, entry: dict[str, Any], gate) -> None:
        nonlocal dropped, pending_first
        async with gate:
            ws = await http.ws_connect(plan["url"], autoping=True, max_msg_size=0)
            await ws.send_str(json.dumps(entry["hello"]))
        seen_first = False
        async for msg in ws:
            if msg.type is not aiohttp.WSMsgType.TEXT:
                break
            now = time.time()
            data = msg.data
            if data.startswith('{"t":"view"'):
                frame = json.loads(data)
                received.append((int(frame["game_id"]), frame["step"], now))
                if not seen_first:
                    seen_first = True
                    pending_first -= 1
                    if pending_first == 0:
                        first_view.set()
        if ws.close_code == 4008:  # web.hub.CLOSE_TOO_SLOW: the server dropped a slow reader
            dropped += 1

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        gate = asyncio.Semaphore(CONNECT_AT_ONCE)
        tasks = [asyncio.create_task(run_one(http, e, gate)) for e in plan["clients"]]
        await asyncio.wait_for(first_view.wait(), timeout=600)
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        line = await loop.run_in_executor(None, sys.stdin.readline)
        assert line.strip() == "stop", line
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    Path(out_path).write_text(json.dumps({"received": received, "dropped": dropped}))
    print("done", flush=True)


# ---------------------------------------------------------------------- the server
async def server_main(args: argparse.Namespace) -> None:
    from data import LobbySeat, open_store
    from service import GameService
    from texts.i18n import Translator
    from web import WebConfig, WebServer

    n_clients = args.games * args.viewers
    limit = raise_open_files(n_clients + 1000)
    print(
        f"bench_web: games={args.games} clients={n_clients} rate={args.rate}/s "
        f"seconds={args.seconds} seed={args.seed} open-files limit={limit}",
        flush=True,
    )
    rng = random.Random(args.seed)
    commits: dict[tuple[int, int], float] = {}
    holder: dict[str, Any] = {}

    def dispatch(name: str, *event: Any) -> None:
        if name == "hats_step":
            session = event[0]
            commits[(session.id, session.version)] = time.time()
            holder["server"].hub.on_step(*event)

    with tempfile.TemporaryDirectory(prefix="bench_web_") as tmp:
        store = await open_store(Path(tmp) / "hats.sqlite3")
        seeds = itertools.count(args.seed * 1_000_003 + 1)
        games = GameService(store, lambda: next(seeds), dispatch=dispatch)
        await games.start()
        server = WebServer(
            WebConfig(port=0, addr="127.0.0.1"),
            games,
            Translator.load(),
            session_key=secrets.token_bytes(32),
            names={},
            locales={},
            dispatch=lambda *a: None,
        )
        holder["server"] = server
        await server.start()
        started = time.perf_counter()
        game_ids: list[int] = []
        clients: list[dict[str, Any]] = []
        for g in range(args.games):
            channel = CHANNEL_BASE + g
            users = [USER_BASE + g * SEATS + s for s in range(SEATS)]
            for user in users:
                server.names[user] = f"P{user}"
            row = await games.open_lobby(GUILD, channel, users[0], {"turn_timer": None})
            seats = tuple(LobbySeat(user_id=u) for u in users)
            await games.update_lobby(row.id, lambda r, seats=seats: (seats, dict(r.settings)))
            session = await games.start_game(row.id)
            game_ids.append(session.id)
            for s in range(args.viewers):
                user = users[s] if s < SEATS else USER_BASE * 2 + g * args.viewers + s
                token = server.sessions.issue(user, f"P{user}")[0]
                hello = {
                    "t": "hello",
                    "session": token,
                    "channel_id": str(channel),
                    "guild_id": str(GUILD),
                    "locale": "en-US",
                    "resume": None,
                }
                clients.append({"hello": hello})
        print(f"  {args.games} games opened in {time.perf_counter() - started:.1f} s", flush=True)
        plan = Path(tmp) / "plan.json"
        plan.write_text(json.dumps({"url": server.address + "ws", "clients": clients}))
        out = Path(tmp) / "received.json"

        gc.collect()
        rss_before = rss_bytes()
        if args.tracemalloc:
            tracemalloc.start()
            heap_before = tracemalloc.get_traced_memory()[0]
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--client",
            str(plan),
            str(out),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert child.stdout is not None and child.stdin is not None
        connect_started = time.perf_counter()
        ready = await asyncio.wait_for(child.stdout.readline(), timeout=900)
        assert ready.strip() == b"ready", ready
        connected = server.hub.viewers()
        gc.collect()
        rss_after = rss_bytes()
        heap_per_client = None
        if args.tracemalloc:
            heap_after = tracemalloc.get_traced_memory()[0]
            tracemalloc.stop()
            heap_per_client = (heap_after - heap_before) / max(connected, 1)
        print(
            f"  {connected} clients connected and shown their game in "
            f"{time.perf_counter() - connect_started:.1f} s",
            flush=True,
        )
        print(
            f"  memory per connected client: RSS {(rss_after - rss_before) / connected / 1024:.1f}"
            f" KB"
            + (
                f", Python heap (tracemalloc) {heap_per_client / 1024:.1f} KB"
                if heap_per_client is not None
                else ""
            ),
            flush=True,
        )

        # as the bot does after start-up (HatsBot.setup_hook, on_ready): what exists now is
        # never scanned by the full garbage collections again
        gc.freeze()
        # the steps, at a steady pace, bounded
        commits.clear()
        total = int(args.rate * args.seconds)
        live = set(game_ids)
        busy: set[int] = set()
        tasks: set[asyncio.Task[None]] = set()

        async def step(game_id: int) -> None:
            """One move in ``game_id`` (players of different games move independently)."""
            try:
                session = games.cached(game_id) or await games.session(game_id)
                assert session is not None
                seat = session.game.to_move
                action = rng.choice(session.game.legal_actions(seat))
                await games.play(session, seat, action, version=session.version)
                if session.game.is_over:
                    live.discard(game_id)
            finally:
                busy.discard(game_id)

        lags: list[float] = []

        async def watch_loop() -> None:
            """The event loop's lag: how late a 10 ms sleep wakes up (bounded by the run)."""
            end = time.perf_counter() + args.seconds
            while time.perf_counter() < end:
                asked = time.perf_counter()
                await asyncio.sleep(0.01)
                lags.append((time.perf_counter() - asked - 0.01) * 1000.0)

        gc_pauses: list[tuple[int, float]] = []
        gc_started: list[float] = []

        def on_gc(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                gc_started.append(time.perf_counter())
            elif gc_started:
                gc_pauses.append((info["generation"], time.perf_counter() - gc_started.pop()))

        gc.callbacks.append(on_gc)
        monitor = asyncio.get_running_loop().create_task(watch_loop())
        profiler = None
        if args.profile:
            import cProfile

            profiler = cProfile.Profile(time.thread_time)  # the event loop's CPU, not wall time
            profiler.enable()
        cpu_started = resource.getrusage(resource.RUSAGE_SELF)
        loop_cpu_started = time.thread_time()
        pace_started = time.perf_counter()
        late = 0.0
        for i in range(total):
            due = pace_started + i / args.rate
            wait = due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            else:
                late = max(late, -wait)
            idle = sorted(live - busy)
            if not idle:
                continue
            game_id = rng.choice(idle)
            busy.add(game_id)
            task = asyncio.get_running_loop().create_task(step(game_id))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.wait(tasks, timeout=60)
        elapsed = time.perf_counter() - pace_started
        cpu_ended = resource.getrusage(resource.RUSAGE_SELF)
        loop_cpu = time.thread_time() - loop_cpu_started
        cpu = (cpu_ended.ru_utime - cpu_started.ru_utime) + (
            cpu_ended.ru_stime - cpu_started.ru_stime
        )
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)
        await monitor
        gc.callbacks.remove(on_gc)
        steps = len(commits)
        await asyncio.sleep(2.0)  # the last frames reach their clients
        child.stdin.write(b"stop\n")
        await child.stdin.drain()
        done = await asyncio.wait_for(child.stdout.readline(), timeout=300)
        assert done.strip() == b"done", done
        await child.wait()
        result = json.loads(out.read_text())
        latencies = []
        by_step: dict[tuple[int, int], int] = {}
        for game_id, step, at in result["received"]:
            key = (game_id, step)
            if key in commits:
                latencies.append((at - commits[key]) * 1000.0)
                by_step[key] = by_step.get(key, 0) + 1
        expected = steps * args.viewers
        latencies.sort()

        def pct(p: float) -> float:
            return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))]

        print(
            f"  {steps} steps committed in {elapsed:.1f} s ({steps / elapsed:.0f}/s, at most "
            f"{late * 1000:.0f} ms behind the pace); {len(latencies)} of {expected} views "
            f"received, {result['dropped']} clients dropped",
            flush=True,
        )
        print(
            f"  commit -> viewer latency: p50 {pct(50):.1f} ms, p90 {pct(90):.1f} ms, "
            f"p99 {pct(99):.1f} ms, max {latencies[-1]:.1f} ms, "
            f"mean {statistics.mean(latencies):.1f} ms",
            flush=True,
        )
        lags.sort()
        print(
            f"  server CPU while stepping: {cpu:.1f} s in {elapsed:.1f} s "
            f"({cpu / elapsed * 100:.0f}% of one core, {cpu / max(steps, 1) * 1000:.2f} ms per "
            f"step: user {(cpu_ended.ru_utime - cpu_started.ru_utime) / max(steps, 1) * 1000:.2f}, "
            f"system {(cpu_ended.ru_stime - cpu_started.ru_stime) / max(steps, 1) * 1000:.2f}; "
            f"event-loop thread {loop_cpu / max(steps, 1) * 1000:.2f}); "
            f"event loop lag p50 {lags[len(lags) // 2]:.1f} ms, p99 "
            f"{lags[int(len(lags) * 0.99)]:.1f} ms, max {lags[-1]:.1f} ms; machine load "
            f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
            flush=True,
        )
        worst = max(gc_pauses, key=lambda p: p[1], default=(0, 0.0))
        print(
            f"  garbage collections while stepping: {len(gc_pauses)}, "
            f"{sum(p for _, p in gc_pauses) * 1000:.0f} ms in all, the longest "
            f"{worst[1] * 1000:.1f} ms (generation {worst[0]})",
            flush=True,
        )
        print(f"  frames pushed by the hub: {server.hub.pushed}", flush=True)
        await server.stop()
        await store.close()


def main() -> None:
    """Parse the options; run the server (and its client process)."""
    if len(sys.argv) == 4 and sys.argv[1] == "--client":
        asyncio.run(client_main(sys.argv[2], sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--viewers", type=int, default=3, choices=(1, 2, 3))
    parser.add_argument("--rate", type=float, default=200.0, help="steps committed a second")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="write a cProfile of the stepping phase here")
    parser.add_argument("--no-tracemalloc", dest="tracemalloc", action="store_false")
    args = parser.parse_args()
    asyncio.run(server_main(args))


if __name__ == "__main__":
    main()
