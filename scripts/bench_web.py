"""The Activity's WebSocket fan-out: many live games, thousands of connected viewers.

Usage: python scripts/bench_web.py [--games 2000] [--viewers 3] [--seats 3] [--rate 200]
                                   [--seconds 15] [--seed 1] [--no-hog] [--tracemalloc]
                                   [--processes 1] [--database URL] [--profile FILE]

The measured process is the web server (``web.WebServer``) over a real store and
``GameService``, as in the bot, listening on 127.0.0.1 only. It opens ``--games`` games of
``--seats`` seats (humans, one channel each) and connects ``--games * --viewers`` WebSocket
clients (one per seat, then spectators) from a **child process** (so the clients' own memory
and CPU are not counted in the server's), each sending ``hello`` for its game's channel and
reading every frame. Then the server commits steps: ``--rate`` steps a second (a random legal
move of the seat to move in a random idle game; 200/s is one step every 10 s in each of 2,000
games) for ``--seconds``; every loop is bounded and ends by itself.

Phases, each reported on its own:
- **connect**: the clients connect (at most 200 at once) and each sees its game; the client
  process times each client's handshake (``GET /ws`` upgraded), ``hello`` -> ``welcome`` and
  ``welcome`` -> first ``view``, and the server's CPU for it is measured;
- **idle**: 3 s with the clients connected and no steps (heartbeats only): the server's CPU
  a second that every step pays for without causing it;
- **stepping, idle machine**, then (unless ``--no-hog``) **stepping, loaded machine**: the
  same again while one busy process per core (started and stopped by the bench, each ending
  by itself after 4 phase lengths + 30 s) shares the machine, as on a busy host.

Measured in each stepping phase:
- **fan-out latency**: for every (viewer, step), the time from the step's commit (the moment
  the service announces it, ``hats_step``) to the client's receipt of that step's ``view``
  frame (unix clocks of the same machine); p50/p90/p99/max, and views never received;
- **server CPU per step**: the process's CPU time (user + system, every thread: the SQLite
  thread too) divided by the steps, also net of the idle phase's rate (heartbeats), and the
  event loop thread's own CPU; the event loop's lag and the garbage collections;
- **memory per connected client**: the server's RSS (``/proc/self/statm``) before and after
  the clients connected, divided by the number of clients; ``--tracemalloc`` adds the Python
  heap (traced while connecting, which makes connecting about ten times slower and adds
  tracemalloc's own memory to the RSS: the connect time and RSS are then not comparable).

``--processes N`` (N >= 2, PostgreSQL): N web processes share one database (``--database``, a
URL of a database this user may write, else a throwaway server from tests/pgserver.py), as
N bot processes would: this process makes every step; N - 1 more processes (``--serve``) only
serve clients and learn of the steps through the store's change notifications
(``Store.watch``), as the bot does. The viewers of each game are spread over the processes
(viewer v of game g on process (g + v) mod N); latency is reported apart for the viewers of
the process that made the step and for those of the others, with each process's CPU.

The server process freezes what survives each full garbage collection, as ``bot.py`` does
(``runtime.gc_freeze``); ``--no-survivor-freeze`` leaves that out (the figures before it).

``--profile FILE``: a cProfile of the (idle machine) stepping phase, on the event loop
thread's CPU clock (and of the connect phase, in ``FILE.connect``). The open-files limit is
raised to what the connections need (``resource.setrlimit``). Figures and the command go
into BENCHMARKS.md ("Activity: WebSocket fan-out", "The Activity at scale").
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import itertools
import json
import os
import random
import re
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
CONNECT_AT_ONCE = 200
"""Connections the client process opens concurrently."""
IDLE_S = 3.0
"""Seconds of the idle phase (clients connected, no steps)."""
HOG_GRACE_S = 30.0
"""A CPU hog ends by itself after 4 phase lengths + this many seconds (if the bench dies)."""
HOG = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"


class _AnyUser(frozenset):
    """Every user id: the bench's clients are all in their channel's Activity instance."""

    def __contains__(self, item: object) -> bool:
        return True


class BenchInstances:
    """The Activity instance of a bench channel (``i-<channel>`` in ``GUILD``), as Discord
    would answer for it (web.instances.InstanceLookup); no Discord is asked."""

    calls = 0

    async def fetch(self, instance_id: str) -> Any:
        """A server-channel Place for ``i-<channel>`` that lists every user."""
        from web.instances import Place

        self.calls += 1
        channel = int(instance_id.removeprefix("i-"))
        return Place(instance_id, "gc", GUILD, channel, _AnyUser())


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


def cpu_seconds() -> tuple[float, float]:
    """This process's (user, system) CPU seconds, every thread."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime, usage.ru_stime


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile of sorted ``values`` (nearest rank), or nan."""
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


# ---------------------------------------------------------------------- the clients (child)
VIEW_KEY = re.compile(r'^\{"t":"view","game_id":"(\d+)","step":(\d+),')


def view_key(text: str) -> tuple[int, int]:
    """A view frame's (game id, step), read from its first bytes (not the whole frame: the
    client process must not be what delays the receipt under load)."""
    found = VIEW_KEY.match(text)
    if found is None:
        frame = json.loads(text)
        return int(frame["game_id"]), frame["step"]
    return int(found[1]), int(found[2])


async def client_main(plan_path: str, out_path: str) -> None:
    """Connect every client of the plan, report ``ready``, read frames until told ``stop``."""
    import aiohttp

    plan = json.loads(Path(plan_path).read_text())
    raise_open_files(len(plan["clients"]) + 1000)
    received: list[tuple[int, int, float, int]] = []  # (game_id, step, unix time, process)
    timings: list[tuple[float, float, float]] = []  # handshake, hello->welcome, welcome->view
    dropped = 0
    first_view = asyncio.Event()
    pending_first = len(plan["clients"])
    urls = plan["urls"]

    async def run_one(http: aiohttp.ClientSession, entry: dict[str, Any], gate) -> None:
        nonlocal dropped, pending_first
        process = entry["process"]
        async with gate:
            began = time.perf_counter()
            ws = await http.ws_connect(urls[process], autoping=True, max_msg_size=0)
            shaken = time.perf_counter()
            await ws.send_str(json.dumps(entry["hello"]))
            welcomed = 0.0
            async for msg in ws:  # the welcome and the first view, inside the gate
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    break
                data = msg.data
                if data.startswith('{"t":"welcome"'):
                    welcomed = time.perf_counter()
                elif data.startswith('{"t":"view"'):
                    now = time.perf_counter()
                    game_id, step = view_key(data)
                    received.append((game_id, step, time.time(), process))
                    timings.append((shaken - began, welcomed - shaken, now - welcomed))
                    pending_first -= 1
                    if pending_first == 0:
                        first_view.set()
                    break
        async for msg in ws:
            if msg.type is not aiohttp.WSMsgType.TEXT:
                break
            now = time.time()
            data = msg.data
            if data.startswith('{"t":"view"'):
                game_id, step = view_key(data)
                received.append((game_id, step, now, process))
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
    Path(out_path).write_text(
        json.dumps({"received": received, "dropped": dropped, "timings": timings})
    )
    print("done", flush=True)


# ---------------------------------------------------------------------- a serving process
async def serve_main(database: str, key_hex: str) -> None:
    """One more web process of the cluster: serve clients, follow the store's notifications.

    Prints ``url <address>`` once listening; then answers lines on stdin: ``cpu`` (prints
    ``cpu <user> <system> <pushed>``), ``freeze`` (``gc.freeze()``, as after start-up),
    ``stop``.
    """
    from data import open_store
    from service import GameService
    from texts.i18n import Translator
    from web import WebConfig, WebServer

    raise_open_files(20_000)
    holder: dict[str, Any] = {}

    def dispatch(name: str, *event: Any) -> None:
        if name == "hats_step":
            holder["server"].hub.on_step(*event)

    store = await open_store(database)
    seeds = itertools.count(random.Random().randrange(1 << 40))
    games = GameService(store, lambda: next(seeds), dispatch=dispatch)
    await games.start()
    server = WebServer(
        WebConfig(port=0, addr="127.0.0.1"),
        games,
        Translator.load(),
        session_key=bytes.fromhex(key_hex),
        names={},
        locales={},
        dispatch=lambda *a: None,
        instances=BenchInstances(),
    )
    holder["server"] = server
    await store.watch(server.hub.on_change)  # as bot.HatsBot.open_web
    await store.watch_lobbies(server.on_lobby_change)
    await server.start()
    gc.collect()
    gc.freeze()
    print("url", server.address + "ws", flush=True)
    loop = asyncio.get_running_loop()
    while True:
        line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
        if line == "cpu":
            user, system = cpu_seconds()
            print("cpu", user, system, server.hub.pushed, flush=True)
        elif line == "freeze":
            gc.collect()
            gc.freeze()
            print("frozen", flush=True)
        else:
            break
    await server.stop()
    await store.close()


class Peer:
    """A serving process (``--serve``) driven through its stdin and stdout."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.url = ""

    @classmethod
    async def start(cls, database: str, key: bytes) -> Peer:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--serve",
            database,
            key.hex(),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        peer = cls(proc)
        line = await peer.ask(None)
        assert line[0] == "url", line
        peer.url = line[1]
        return peer

    async def ask(self, command: str | None) -> list[str]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if command is not None:
            self.proc.stdin.write(command.encode() + b"\n")
            await self.proc.stdin.drain()
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout=120)
        return line.decode().split()

    async def cpu(self) -> tuple[float, float, int]:
        answer = await self.ask("cpu")
        return float(answer[1]), float(answer[2]), int(answer[3])

    async def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"stop\n")
        await self.proc.stdin.drain()
        await asyncio.wait_for(self.proc.wait(), timeout=60)


# ---------------------------------------------------------------------- the server
def server_main(args: argparse.Namespace) -> None:
    """Open the store (a throwaway PostgreSQL server if needed), run the phases, print."""
    pg = None
    database = args.database
    if args.processes > 1 and database is None:
        from tests.pgserver import PgServer

        pg = PgServer.start(durable=True)
    try:
        if pg is not None:
            database = pg.create_database("bench_web")
        with tempfile.TemporaryDirectory(prefix="bench_web_") as tmp:
            asyncio.run(run_bench(args, Path(tmp), database))
    finally:
        if pg is not None:
            pg.stop()


async def run_bench(args: argparse.Namespace, tmp: Path, database: str | None) -> None:
    from data import LobbySeat, open_store
    from service import GameService
    from texts.i18n import Translator
    from web import WebConfig, WebServer

    n_clients = args.games * args.viewers
    limit = raise_open_files(n_clients + 1000)
    print(
        f"bench_web: games={args.games} seats={args.seats} clients={n_clients} "
        f"rate={args.rate}/s seconds={args.seconds} seed={args.seed} "
        f"processes={args.processes} store={'PostgreSQL' if database else 'SQLite'} "
        f"open-files limit={limit}; machine load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores",
        flush=True,
    )
    rng = random.Random(args.seed)
    commits: dict[tuple[int, int], float] = {}
    holder: dict[str, Any] = {}
    key = secrets.token_bytes(32)

    def dispatch(name: str, *event: Any) -> None:
        if name == "hats_step":
            session = event[0]
            commits[(session.id, session.version)] = time.time()
            holder["server"].hub.on_step(*event)

    store = await open_store(database or tmp / "hats.sqlite3")
    seeds = itertools.count(args.seed * 1_000_003 + 1)
    games = GameService(store, lambda: next(seeds), dispatch=dispatch)
    await games.start()
    server = WebServer(
        WebConfig(port=0, addr="127.0.0.1"),
        games,
        Translator.load(),
        session_key=key,
        names={},
        locales={},
        dispatch=lambda *a: None,
        instances=BenchInstances(),
    )
    holder["server"] = server
    if database:
        await store.watch(server.hub.on_change)
        await store.watch_lobbies(server.on_lobby_change)
    await server.start()
    peers = [await Peer.start(database, key) for _ in range(args.processes - 1)] if database else []
    urls = [server.address + "ws", *(p.url for p in peers)]
    started = time.perf_counter()
    game_ids: list[int] = []
    clients: list[dict[str, Any]] = []
    seats = args.seats
    for g in range(args.games):
        channel = CHANNEL_BASE + g
        users = [USER_BASE + g * seats + s for s in range(seats)]
        for user in users:
            server.names[user] = f"P{user}"
        row = await games.open_lobby(GUILD, channel, users[0], {"turn_timer": None})
        lobby_seats = tuple(LobbySeat(user_id=u) for u in users)
        await games.update_lobby(row.id, lambda r, s=lobby_seats: (s, dict(r.settings)))
        session = await games.start_game(row.id)
        game_ids.append(session.id)
        for v in range(args.viewers):
            user = users[v] if v < seats else USER_BASE * 2 + g * args.viewers + v
            token = server.sessions.issue(user, f"P{user}")[0]
            hello = {
                "t": "hello",
                "session": token,
                "instance_id": f"i-{channel}",
                "channel_id": str(channel),
                "guild_id": str(GUILD),
                "locale": "en-US",
                "resume": None,
            }
            clients.append({"hello": hello, "process": (g + v) % len(urls)})
    print(f"  {args.games} games opened in {time.perf_counter() - started:.1f} s", flush=True)
    plan = tmp / "plan.json"
    plan.write_text(json.dumps({"urls": urls, "clients": clients}))
    out = tmp / "received.json"

    # ------------------------------------------------------------------ connect
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
    connect_profiler = None
    if args.profile:
        import cProfile

        connect_profiler = cProfile.Profile(time.thread_time)
        connect_profiler.enable()
    connect_cpu = sum(cpu_seconds())
    connect_started = time.perf_counter()
    ready = await asyncio.wait_for(child.stdout.readline(), timeout=900)
    assert ready.strip() == b"ready", ready
    connect_s = time.perf_counter() - connect_started
    connect_cpu = sum(cpu_seconds()) - connect_cpu
    if connect_profiler is not None:
        connect_profiler.disable()
        connect_profiler.dump_stats(args.profile + ".connect")
    connected = server.hub.viewers()
    gc.collect()
    rss_after = rss_bytes()
    heap_per_client = None
    if args.tracemalloc:
        heap_after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        heap_per_client = (heap_after - heap_before) / max(connected, 1)
    print(
        f"  {n_clients} clients connected and shown their game in {connect_s:.1f} s "
        f"({connected} on this process; its CPU {connect_cpu:.1f} s, "
        f"{connect_cpu / max(connected, 1) * 1000:.2f} ms a client)"
        + (" [tracemalloc on: slow]" if args.tracemalloc else ""),
        flush=True,
    )
    print(
        f"  memory per connected client: RSS {(rss_after - rss_before) / connected / 1024:.1f} KB"
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
    for peer in peers:
        await peer.ask("freeze")

    # ------------------------------------------------------------------ idle
    idle_cpu = sum(cpu_seconds())
    idle_started = time.perf_counter()
    await asyncio.sleep(IDLE_S)
    idle_rate = (sum(cpu_seconds()) - idle_cpu) / (time.perf_counter() - idle_started)
    print(
        f"  idle (connected, no steps): {idle_rate * 100:.1f}% of one core (heartbeats)",
        flush=True,
    )

    live = set(game_ids)
    phases: list[tuple[str, dict[tuple[int, int], float], dict[str, Any]]] = []

    async def stepping(label: str, hog: bool, profile: str | None) -> None:
        """One stepping phase: ``args.rate`` steps a second for ``args.seconds``."""
        commits.clear()
        hogs = []
        if hog:
            code = HOG.format(seconds=args.seconds * 4 + HOG_GRACE_S)
            for _ in range(os.cpu_count() or 1):
                hogs.append(await asyncio.create_subprocess_exec(sys.executable, "-c", code))
            await asyncio.sleep(0.5)  # the hogs are spinning
        total = int(args.rate * args.seconds)
        order = sorted(live)
        busy: set[int] = set()
        tasks: set[asyncio.Task[None]] = set()
        failed: list[str] = []

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
            except Exception as exc:  # counted and shown: a bench must not hide a failure
                failed.append(repr(exc))
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

        gc_pauses: list[tuple[int, float, float]] = []  # generation, wall s, CPU s
        gc_started: list[tuple[float, float]] = []

        def on_gc(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                gc_started.append((time.perf_counter(), time.thread_time()))
            elif gc_started:
                wall, cpu = gc_started.pop()
                gc_pauses.append(
                    (info["generation"], time.perf_counter() - wall, time.thread_time() - cpu)
                )

        gc.callbacks.append(on_gc)
        monitor = asyncio.get_running_loop().create_task(watch_loop())
        profiler = None
        if profile:
            import cProfile

            profiler = cProfile.Profile(time.thread_time)  # the event loop's CPU, not wall time
            profiler.enable()
        peers_before = [await p.cpu() for p in peers]
        user0, system0 = cpu_seconds()
        loop_cpu = time.thread_time()
        pace_started = time.perf_counter()
        late = 0.0
        for i in range(total):
            due = pace_started + i / args.rate
            wait = due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            else:
                late = max(late, -wait)
            # a random idle game (not sorted(live - busy): 50 us a step of the bench's own)
            game_id = None
            for _ in range(50):
                candidate = rng.choice(order)
                if candidate in live and candidate not in busy:
                    game_id = candidate
                    break
            if game_id is None:
                continue
            busy.add(game_id)
            task = asyncio.get_running_loop().create_task(step(game_id))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.wait(tasks, timeout=60)
        elapsed = time.perf_counter() - pace_started
        user1, system1 = cpu_seconds()
        loop_cpu = time.thread_time() - loop_cpu
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile)
        await monitor
        gc.callbacks.remove(on_gc)
        await asyncio.sleep(2.0)  # the last frames reach their clients
        peers_after = [await p.cpu() for p in peers]
        for proc in hogs:
            with contextlib.suppress(ProcessLookupError):  # it may have ended by itself
                proc.kill()
            await proc.wait()
        steps = max(len(commits), 1)
        cpu = (user1 - user0) + (system1 - system0)
        lags.sort()
        worst = max(gc_pauses, key=lambda p: p[1], default=(0, 0.0, 0.0))
        peer_cpu = [
            ((a[0] - b[0]) + (a[1] - b[1]), a[2] - b[2])
            for a, b in zip(peers_after, peers_before, strict=True)
        ]
        phases.append(
            (
                label,
                dict(commits),
                {
                    "steps": len(commits),
                    "elapsed": elapsed,
                    "late": late,
                    "cpu": cpu,
                    "user": user1 - user0,
                    "system": system1 - system0,
                    "loop": loop_cpu,
                    "net": (cpu - idle_rate * elapsed) / steps,
                    "lags": (pct(lags, 50), pct(lags, 99), lags[-1] if lags else float("nan")),
                    "gc": (
                        len(gc_pauses),
                        sum(p[1] for p in gc_pauses),
                        sum(p[2] for p in gc_pauses),
                        worst,
                        len(gc.get_objects(2)),
                        collections.Counter(
                            type(o).__name__ for o in gc.get_objects(2)
                        ).most_common(4),
                    ),
                    "peers": peer_cpu,
                    "load": os.getloadavg()[0],
                    "failed": failed,
                    "live": len(live),
                },
            )
        )

    await stepping("idle machine", False, args.profile)
    if args.hog:
        await stepping(f"loaded machine ({os.cpu_count()} CPU hogs)", True, None)

    child.stdin.write(b"stop\n")
    await child.stdin.drain()
    done = await asyncio.wait_for(child.stdout.readline(), timeout=300)
    assert done.strip() == b"done", done
    await child.wait()
    result = json.loads(out.read_text())

    timings = result["timings"]
    if timings:
        parts = list(zip(*timings, strict=True))
        print(
            "  connecting, per client (median / p99 ms): handshake "
            + ", hello -> welcome ".join(
                f"{statistics.median(p) * 1000:.1f} / {pct(sorted(p), 99) * 1000:.1f}"
                for p in parts[:2]
            )
            + f", welcome -> first view {statistics.median(parts[2]) * 1000:.1f} / "
            f"{pct(sorted(parts[2]), 99) * 1000:.1f}",
            flush=True,
        )
    for label, phase_commits, m in phases:
        by_process: dict[bool, list[float]] = {True: [], False: []}
        for game_id, step_no, at, process in result["received"]:
            committed = phase_commits.get((game_id, step_no))
            if committed is not None:
                by_process[process == 0].append((at - committed) * 1000.0)
        latencies = sorted(by_process[True] + by_process[False])
        steps = m["steps"]
        print(f"  stepping, {label}:", flush=True)
        print(
            f"    {steps} steps committed in {m['elapsed']:.1f} s ({steps / m['elapsed']:.0f}/s, "
            f"at most {m['late'] * 1000:.0f} ms behind the pace); {len(latencies)} of "
            f"{steps * args.viewers} views received, {result['dropped']} clients dropped "
            f"(whole run); {m['live']} games still live; load average {m['load']:.1f}"
            + (f"; {len(m['failed'])} moves failed, e.g. {m['failed'][0]}" if m["failed"] else ""),
            flush=True,
        )
        print(
            f"    commit -> viewer latency: p50 {pct(latencies, 50):.1f} ms, p90 "
            f"{pct(latencies, 90):.1f} ms, p99 {pct(latencies, 99):.1f} ms, max "
            f"{latencies[-1] if latencies else float('nan'):.1f} ms",
            flush=True,
        )
        if peers:
            for local, name in ((True, "this process"), (False, "the other processes")):
                part = sorted(by_process[local])
                print(
                    f"    viewers on {name}: {len(part)} views, p50 {pct(part, 50):.1f} ms, "
                    f"p99 {pct(part, 99):.1f} ms, max {part[-1] if part else float('nan'):.1f} ms",
                    flush=True,
                )
        per = 1000 / max(steps, 1)
        print(
            f"    server CPU: {m['cpu'] * per:.2f} ms per step (user {m['user'] * per:.2f}, "
            f"system {m['system'] * per:.2f}; event-loop thread {m['loop'] * per:.2f}); "
            f"net of idle {m['net'] * 1000:.2f} ms; {m['cpu'] / m['elapsed'] * 100:.0f}% of "
            f"one core",
            flush=True,
        )
        for i, (peer_cpu, pushed) in enumerate(m["peers"], start=1):
            print(
                f"    process {i}: CPU {peer_cpu * per:.2f} ms per step "
                f"({peer_cpu / m['elapsed'] * 100:.0f}% of one core), {pushed} frames pushed",
                flush=True,
            )
        count, total_gc, total_gc_cpu, worst, old, kinds = m["gc"]
        print(
            f"    event loop lag p50 {m['lags'][0]:.1f} ms, p99 {m['lags'][1]:.1f} ms, max "
            f"{m['lags'][2]:.1f} ms; garbage collections {count}, {total_gc * 1000:.0f} ms in "
            f"all ({total_gc_cpu * 1000:.0f} ms of CPU), the longest {worst[1] * 1000:.1f} ms "
            f"({worst[2] * 1000:.1f} ms of CPU, generation {worst[0]}); {old} objects in the "
            f"oldest generation (not frozen; most: {kinds})",
            flush=True,
        )
    print(f"  frames pushed by this process's hub: {server.hub.pushed}", flush=True)
    for peer in peers:
        await peer.stop()
    await server.stop()
    await store.close()


def main() -> None:
    """Parse the options; run the server (and its client process)."""
    from runtime.gc_freeze import SurvivorFreezer

    if len(sys.argv) == 4 and sys.argv[1] == "--client":
        asyncio.run(client_main(sys.argv[2], sys.argv[3]))
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        SurvivorFreezer().install()  # as bot.main
        asyncio.run(serve_main(sys.argv[2], sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seats", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--viewers", type=int, default=3, help="clients per game (seats first)")
    parser.add_argument("--rate", type=float, default=200.0, help="steps committed a second")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-hog", dest="hog", action="store_false")
    parser.add_argument("--tracemalloc", action="store_true")
    parser.add_argument("--no-tracemalloc", dest="tracemalloc", action="store_false")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument(
        "--database",
        help="PostgreSQL URL (default: SQLite; with --processes 2+, a throwaway server)",
    )
    parser.add_argument("--profile", help="write a cProfile of the stepping phase here")
    parser.add_argument(
        "--no-survivor-freeze",
        dest="survivor_freeze",
        action="store_false",
        help="do not freeze what survives a full collection (runtime.gc_freeze; the bot does)",
    )
    args = parser.parse_args()
    if args.viewers < 1 or args.processes < 1:
        parser.error("--viewers and --processes must be at least 1")
    if args.survivor_freeze:
        SurvivorFreezer().install()  # as bot.main
    server_main(args)


if __name__ == "__main__":
    main()
