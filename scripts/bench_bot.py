"""Bot load benchmark: many live games in one bot process under simcord, players acting in turn.

Usage: python scripts/bench_bot.py [--games N [N ...]] [--seats N] [--steps N] [--seed N]
                                   [--via mix|slash|dm] [--profile FILE] [--no-pictures]
                                   [--thinkers N] [--ai-workers N]

For each ``--games`` value a fresh bot (``bot.create_bot``, temporary SQLite file, no turn
timer, no AI delay) runs under ``simcord.run``. One guild gets N text channels and
N × ``--seats`` members (distinct users). In every channel the first member opens a lobby with
``/hats new``, the others press Join, the host presses Start: N games are then live at once.

Then ``--steps`` moves are played round-robin across the live games: each move is a random legal
action (``random.Random(--seed)``: a kind of action first, then one action of that kind) of the
seat to move, made through the real interaction path, chosen per move by ``--via``:
``slash`` (``/hats exchange`` etc. in the game's channel, answered privately), ``dm`` (the hand
controls of the player's DM: card select, then the action button, as tests/bot/helpers.py does)
or ``mix`` (either, 50/50; a player whose last move was a slash command gets a one-line turn
ping without controls, so their next move is a slash command too). A game that ends is
replaced by a new one in its channel (same players, lobby + Join + Start) so N games stay
live; those set-up interactions are not counted as moves.

simcord runs one actor operation at a time (two at once raise "operation overlaps"), so the
simulated players act interleaved across all live games, never truly at the same instant; every
game keeps its state (engine game, lock, messages, DMs) live in the bot while others move, and
each operation returns only once the bot has settled (table and DM edits included).

Figures per move (milliseconds, wall clock ``time.perf_counter``; the event loop's and
simcord's virtual clocks are not used):
  bot commit  - from the interaction reaching the bot (discord.py's INTERACTION_CREATE parser)
                to ``bot.games.play`` returning (step applied and committed to SQLite);
  bot answer  - from the same moment to the interaction's first response call returning
                (``InteractionResponse.send_message`` / ``edit_message`` / ``defer``);
  round trip  - the whole simcord actor call of the move (the committing interaction):
                delivery, the bot's handler, the answer, and the listeners that follow
                (table edit, every player's DM edit or new DM), until simcord has settled;
  with select - DM moves of a card action only: the select interaction plus the move.
Each figure is printed as median, p99 and max (the worst move). Plus steps/s and finished
games/s over the wall time of the measured loop, bot errors, and the cyclic garbage collections
that ran during the loop (``gc.callbacks``: count, time and the longest pause per generation)
with the five slowest answers and the collections that overlapped them (a full collection,
generation 2, stops the event loop: it is the usual cause of a lone slow move).

``--thinkers N``: N expert AIs think at once during the measured loop. The bot gets its AI process
pool (``bot.ai_process_pool(--ai-workers)``, default one worker per core) and N background tasks
each ask ``AiCog.think`` (the path of an AI seat's move) for the expert's choice in a mid-game
position (from hard-AI games), again and again, so N decisions are always waiting in or running
in the pool while the players move. The tasks run outside the bot's simcord scope (simcord would
otherwise wait for them before every move settles) and do not play the chosen moves: the figure
is what searching costs the players' interactions. Their decisions per second and the wait per
decision (queue + search) are printed too.

The instrumentation wraps discord.py and the bot's objects from outside (no bot code changes):
``ConnectionState.parse_interaction_create``, ``InteractionResponse`` answer methods and
``bot.games.play``; a context variable set in the parser follows the interaction into the
handler task so commits are matched to their interaction.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import cProfile
import functools
import gc
import importlib.util
import itertools
import logging
import math
import os
import random
import statistics
import sys
import tempfile
import time
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
import simcord
from discord.state import ConnectionState
from simcord.env import Env

import bot as bot_module
from bot import ai_process_pool, create_bot
from cogs.controls import action_custom_id, card_select_custom_id
from engine import ActionKind, Game, GameConfig
from engine.ai import HardBudget, make_ai

# simcord idles 50 ms after each ephemeral answer while settling (see tests/bot/conftest.py);
# 1 ms keeps the same settling logic without that artificial wait (private knob, simcord 3.2.1).
Env._settle_internal.__kwdefaults__["idle"] = 0.001


# ---------------------------------------------------------------------------------- probes
_CURRENT: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "bench_interaction", default=None
)


@dataclass
class Probe:
    """Times (``time.perf_counter`` seconds) per interaction id: arrival, commit, first answer."""

    arrived: dict[int, float] = field(default_factory=dict)
    committed: dict[int, float] = field(default_factory=dict)
    answered: dict[int, float] = field(default_factory=dict)
    recent: list[int] = field(default_factory=list)

    def clear(self) -> None:
        """Forget everything (between runs and after each move)."""
        self.arrived.clear()
        self.committed.clear()
        self.answered.clear()
        self.recent.clear()


PROBE = Probe()


def install_probes() -> None:
    """Wrap discord.py's interaction parser and response methods (once, before the bot exists).

    The parser table of a ConnectionState is built from its class at construction, so this must
    run before ``create_bot``.
    """
    if getattr(ConnectionState.parse_interaction_create, "_bench", False):
        return
    original = ConnectionState.parse_interaction_create

    def parse_interaction_create(self: ConnectionState, data: Any) -> None:
        iid = int(data["id"])
        PROBE.arrived[iid] = time.perf_counter()
        PROBE.recent.append(iid)
        token = _CURRENT.set(iid)  # copied into the handler tasks created below
        try:
            original(self, data)
        finally:
            _CURRENT.reset(token)

    parse_interaction_create._bench = True  # type: ignore[attr-defined]
    ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]

    for name in ("send_message", "edit_message", "defer", "send_modal"):
        answer = getattr(discord.InteractionResponse, name)

        def make(answer: Any) -> Any:
            @functools.wraps(answer)
            async def wrapped(self: discord.InteractionResponse, *args: Any, **kwargs: Any) -> Any:
                result = await answer(self, *args, **kwargs)
                PROBE.answered.setdefault(self._parent.id, time.perf_counter())
                return result

            return wrapped

        setattr(discord.InteractionResponse, name, make(answer))


def probe_play(bot: Any) -> None:
    """Record when ``bot.games.play`` returns for the interaction that called it."""
    play = bot.games.play

    async def timed_play(*args: Any, **kwargs: Any) -> Any:
        event = await play(*args, **kwargs)
        iid = _CURRENT.get()
        if iid is not None:
            PROBE.committed[iid] = time.perf_counter()
        return event

    bot.games.play = timed_play


class GcRecorder:
    """Every cyclic garbage collection while recording: (start, end, generation) in
    ``time.perf_counter`` seconds, from ``gc.callbacks`` (CPython calls them around each
    collection, in the thread that runs it)."""

    def __init__(self) -> None:
        self.pauses: list[tuple[float, float, int]] = []
        self.collected: list[int] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append((self._started, time.perf_counter(), info["generation"]))
            self.collected.append(info["collected"])

    def __enter__(self) -> GcRecorder:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)

    def within(self, start: float, end: float) -> list[tuple[float, int]]:
        """(ms, generation) of the collections that overlap ``[start, end]``."""
        return [
            ((min(e, end) - max(s, start)) * 1000, g)
            for s, e, g in self.pauses
            if s < end and e > start
        ]


# ---------------------------------------------------------------------------------- driving
def custom_ids(message: Any) -> list[str]:
    """Every component custom_id of a discord.Message, nested Components V2 items included."""
    out: list[str] = []

    def walk(items: Any) -> None:
        for item in items:
            if getattr(item, "custom_id", None):
                out.append(str(item.custom_id))
            walk(getattr(item, "children", None) or ())

    walk(message.components)
    return out


SLASH_OF = {
    ActionKind.EXCHANGE: "hats exchange",
    ActionKind.BLACK_HAT: "hats blackhat",
    ActionKind.DISCARD: "hats discard",
    ActionKind.OFFER_SWAP: "hats swap",
    ActionKind.ANSWER_SWAP: "hats swap",
    ActionKind.DECLINE_SWAP: "hats swap",
    ActionKind.WITHDRAW_SWAP: "hats swap",
    ActionKind.END_TURN: "hats endturn",
}


@dataclass
class Table:
    """One channel of the benchmark: its handle, its players (seat order of the lobby)."""

    channel: Any
    players: list[Any]
    session: Any = None


@dataclass
class Run:
    """Measurements of one run (milliseconds unless named otherwise)."""

    games: int
    seats: int
    commit_ms: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    round_ms: list[float] = field(default_factory=list)
    select_round_ms: list[float] = field(default_factory=list)
    slash_moves: int = 0
    dm_moves: int = 0
    failed_moves: int = 0
    finished: int = 0
    start_seconds: float = 0.0
    start_round_ms: list[float] = field(default_factory=list)
    loop_seconds: float = 0.0
    steps: int = 0
    errors: list[str] = field(default_factory=list)
    db_bytes: int = 0
    windows: list[tuple[float, float, str]] = field(default_factory=list)
    """(arrived, answered, via) of each measured move, ``time.perf_counter`` seconds."""
    gc: GcRecorder = field(default_factory=GcRecorder)
    frozen: int = 0
    """Objects in the permanent generation (``gc.freeze`` after set-up) when the loop began."""
    tracked: int = 0
    tracked_after: int = 0
    owners: str = ""
    """--gc-owners: who holds the objects a full collection scans (see :func:`gc_owners`)."""
    """Objects the cyclic GC tracked when the loop began (``len(gc.get_objects())``)."""
    thinkers: int = 0
    thought_ms: list[float] = field(default_factory=list)
    """--thinkers: wall time of each expert decision asked of the pool (queue + search)."""
    warmed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the pool has answered a few decisions (its workers are up)."""


async def start_game(env: Any, table: Table, run: Run) -> None:
    """Host ``/hats new``, the others Join, the host Start (the real lobby path)."""
    host = table.players[0]
    t = time.perf_counter()
    result = await host.slash(table.channel, "hats new")
    if result.response is None or result.ephemeral:
        text = result.response.content if result.response else None
        raise RuntimeError(f"/hats new refused in {table.channel.name}: {text!r} {env.errors}")
    lobby = result.response.message
    for player in table.players[1:]:
        await player.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    run.start_round_ms.append((time.perf_counter() - t) * 1000)
    table.session = await env.bot.games.session_in_channel(table.channel.id)
    if table.session is None:
        raise RuntimeError(f"no game started in {table.channel.name}: {env.errors}")


async def move(
    env: Any, table: Table, actors: dict[int, Any], rng: random.Random, via: str, run: Run
) -> None:
    """The seat to move in ``table``'s game makes one random legal move through the UI."""
    session = table.session
    game = session.game
    seat = game.to_move
    player = actors[session.seats[seat].user_id]
    legal = game.legal_actions(seat)
    kinds = sorted({a.kind for a in legal}, key=lambda k: k.value)
    kind = rng.choice(kinds)
    action = rng.choice([a for a in legal if a.kind is kind])
    by_slash = via == "slash" or (via == "mix" and rng.random() < 0.5)
    message = player.user.dm_channel.last_message if player.user.dm_channel else None
    current = (
        card_select_custom_id(session.id, session.version)
        if getattr(action, "card", None) is not None
        else action_custom_id(session.id, session.version, action)
    )
    if not by_slash and (message is None or current not in custom_ids(message)):
        # a slash player's turn ping is one line without controls, and a slash move leaves the
        # DM's controls a version behind (cogs.play): this move is a slash command too
        by_slash = True
    before = session.version
    PROBE.clear()
    card = getattr(action, "card", None)
    select_ms = 0.0
    if by_slash:
        options: dict[str, Any] = {}
        if card is not None:
            options["card"] = card.code
        if kind is ActionKind.EXCHANGE:
            options["slot"] = action.slot
        t = time.perf_counter()
        await player.slash(table.channel, SLASH_OF[kind], **options)
        round_ms = (time.perf_counter() - t) * 1000
        run.slash_moves += 1
    else:
        dm = player.user.dm_channel
        if card is not None:
            select_id = card_select_custom_id(session.id, before)
            t = time.perf_counter()
            await player.user.select(message, [card.code], custom_id=select_id)
            select_ms = (time.perf_counter() - t) * 1000
            message = dm.last_message  # the same message, edited in place by the select
            PROBE.clear()
        target = action_custom_id(session.id, before, action)
        t = time.perf_counter()
        await player.user.click(message, custom_id=target)
        round_ms = (time.perf_counter() - t) * 1000
        run.dm_moves += 1
    if session.version != before + 1:
        run.failed_moves += 1
        return
    iid = next((i for i in PROBE.recent if i in PROBE.committed), None)
    if iid is None or iid not in PROBE.answered:
        run.failed_moves += 1
        return
    run.windows.append((PROBE.arrived[iid], PROBE.answered[iid], "slash" if by_slash else "dm"))
    run.commit_ms.append((PROBE.committed[iid] - PROBE.arrived[iid]) * 1000)
    run.answer_ms.append((PROBE.answered[iid] - PROBE.arrived[iid]) * 1000)
    run.round_ms.append(round_ms)
    if select_ms:
        run.select_round_ms.append(select_ms + round_ms)
    run.steps += 1


def thinking_positions(count: int, seed: int) -> list[tuple[Game, int]]:
    """``count`` mid-game positions (game, seat to move at a main action) of hard-AI games."""
    rng = random.Random(seed)
    out: list[tuple[Game, int]] = []
    budget = HardBudget(determinizations=3, candidates=3)
    while len(out) < count:
        seats = rng.choice((2, 3, 4))
        game = Game.new(GameConfig(seats, rng.randrange(1 << 30)))
        ais = [make_ai("hard", s, budget=budget) for s in range(seats)]
        while not game.is_over and len(out) < count:
            seat = game.to_move
            if not game.main_done and game.pending_offer is None and rng.random() < 0.25:
                out.append((game.copy(), seat))
            game.apply(seat, ais[seat].choose(game.observation(seat), game.legal_actions(seat)))
    return out


async def think_forever(cog: Any, positions: list[tuple[Game, int]], index: int, run: Run) -> None:
    """One --thinkers task: expert decisions through ``cog.think``, one after another."""
    for n in itertools.count():
        game, seat = positions[(index + n) % len(positions)]
        t = time.perf_counter()
        await cog.think(game, seat, "expert", index * 1_000_003 + n)
        run.thought_ms.append((time.perf_counter() - t) * 1000)
        if len(run.thought_ms) >= 4:
            run.warmed.set()


async def run_once(
    n_games: int,
    seats: int,
    steps: int,
    seed: int,
    via: str,
    profile: str | None,
    pictures: bool = True,
    freeze: bool = False,
    owners: bool = False,
    thinkers: int = 0,
    ai_workers: int | None = None,
) -> Run:
    """One benchmark run on a fresh bot and database; returns its measurements."""
    install_probes()
    PROBE.clear()
    loadable = tuple(e for e in bot_module.EXTENSIONS if importlib.util.find_spec(e) is not None)
    if loadable != bot_module.EXTENSIONS:  # a feature listed before its module landed
        missing = sorted(set(bot_module.EXTENSIONS) - set(loadable))
        print(f"  warning: skipping missing extensions {missing}", file=sys.stderr)
        bot_module.EXTENSIONS = loadable
    run = Run(n_games, seats, thinkers=thinkers)
    rng = random.Random(seed)
    positions = thinking_positions(64, seed) if thinkers else []
    seeds = itertools.count(seed * 1_000_003 + 1)
    with tempfile.TemporaryDirectory(prefix="bench_bot_") as tmp:
        db_path = Path(tmp) / "hats.sqlite3"
        pool = ai_process_pool(ai_workers) if thinkers else None
        bot = create_bot(
            db_path,
            turn_timer=None,
            ai_delay=0.0,
            seed_source=lambda: next(seeds),
            ai_pool=pool,
        )
        bot.pictures.enabled = pictures  # --no-pictures: text embeds alone, to compare
        try:
            async with simcord.run(bot, settle_timeout=10.0, check_errors=False) as env:
                probe_play(bot)
                guild = env.create_guild("Load")
                tables = []
                actors: dict[int, Any] = {}
                for g in range(n_games):
                    channel = guild.create_text_channel(f"hats-{g}")
                    players = [guild.add_member(env.create_user(f"p{g}s{s}")) for s in range(seats)]
                    for p in players:
                        actors[p.id] = p
                    tables.append(Table(channel, players))
                t = time.perf_counter()
                for table in tables:
                    await start_game(env, table, run)
                run.start_seconds = time.perf_counter() - t
                live = sum(1 for s in bot.games.sessions.values() if not s.game.is_over)
                if live != n_games:
                    raise RuntimeError(f"{live} live games, expected {n_games}")
                print(
                    f"  {n_games} games started in {run.start_seconds:.1f} s "
                    f"({n_games * (seats + 1)} interactions)",
                    file=sys.stderr,
                    flush=True,
                )
                profiler = cProfile.Profile() if profile else None
                if profiler:
                    profiler.enable()
                if freeze:  # --freeze-after-start
                    gc.collect()
                    gc.freeze()
                run.frozen = gc.get_freeze_count()
                run.tracked = len(gc.get_objects())
                cog = bot.get_cog("AiCog")
                background = [  # outside the bot's scope: simcord does not wait for them
                    asyncio.create_task(
                        think_forever(cog, positions, i, run), context=contextvars.Context()
                    )
                    for i in range(thinkers)
                ]
                if thinkers:  # let the pool's workers start and the queue fill
                    await run.warmed.wait()
                    run.thought_ms.clear()
                t = time.perf_counter()
                with run.gc:
                    for table in itertools.islice(itertools.cycle(tables), steps):
                        await move(env, table, actors, rng, via, run)
                        if table.session.game.is_over:
                            run.finished += 1
                            PROBE.clear()
                            await start_game(env, table, run)
                run.loop_seconds = time.perf_counter() - t
                for task in background:
                    task.cancel()
                await asyncio.gather(*background, return_exceptions=True)
                run.tracked_after = len(gc.get_objects())
                if owners:
                    run.owners = gc_owners(env)
                if profiler:
                    profiler.disable()
                    profiler.dump_stats(profile)
                run.errors = [repr(e)[:300] for e in env.errors]
                run.db_bytes = sum(os.path.getsize(p) for p in Path(tmp).iterdir() if p.is_file())
        finally:
            if bot.store is not None:
                await bot.store.close()
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
    return run


# ---------------------------------------------------------------------------------- report
GAME_STEPS = {2: 32, 3: 48, 4: 100}
"""Steps in a whole random game by seat count (2, 3: exact; 4: about, uniform play)."""


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``; NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def report(run: Run) -> str:
    """A human-readable block of the run's figures."""
    lines = [
        f"games={run.games} seats={run.seats} moves={run.steps} "
        f"(slash {run.slash_moves}, dm {run.dm_moves}, failed {run.failed_moves})",
        f"  set-up: {run.games} games started in {run.start_seconds:.1f} s; per game (new + "
        f"{run.seats - 1} joins + start) median {statistics.median(run.start_round_ms):.1f} ms",
    ]
    for name, values in (
        ("bot: interaction -> step committed", run.commit_ms),
        ("bot: interaction -> answered", run.answer_ms),
        ("round trip of the move (simcord, settled)", run.round_ms),
        ("round trip, DM card select + move", run.select_round_ms),
    ):
        lines.append(
            f"  {name:<42} median {pct(values, 0.5):7.2f} ms  p99 {pct(values, 0.99):7.2f} ms"
            f"  max {max(values, default=math.nan):7.2f} ms  (n={len(values)})"
        )
    secs = run.loop_seconds or math.nan
    lines.append(
        f"  sustained: {run.steps / secs:.0f} steps/s, {run.finished} games finished in "
        f"{run.loop_seconds:.1f} s ({run.finished / secs:.2f} games/s; replaced at once, "
        f"so {run.games} stayed live); db {run.db_bytes / 1e6:.1f} MB"
    )
    per_game = GAME_STEPS[run.seats]
    lines.append(
        f"  i.e. {run.steps / secs / per_game:.2f} whole games/s at {per_game} steps per "
        f"{run.seats}-seat game (BENCHMARKS.md, Engine)"
    )
    if run.thinkers:
        lines.append(
            f"  {run.thinkers} expert AIs thinking at once: {len(run.thought_ms)} decisions in "
            f"{run.loop_seconds:.1f} s ({len(run.thought_ms) / secs:.1f}/s); wait per decision "
            f"(queue + search) median {pct(run.thought_ms, 0.5):.0f} ms, "
            f"p99 {pct(run.thought_ms, 0.99):.0f} ms"
        )
    lines.extend(gc_report(run))
    lines.append(f"  bot errors: {len(run.errors)}")
    lines.extend(f"    {e}" for e in run.errors[:5])
    return "\n".join(lines)


_BARRIERS = (type, types.ModuleType, types.FunctionType, types.CodeType, types.BuiltinFunctionType)


def _reach(roots: list[Any], tracked: set[int], stop: Any) -> set[int]:
    """Ids of the GC-tracked objects reachable from ``roots`` (not through ``stop(o)`` objects,
    classes, modules or functions)."""
    seen: set[int] = set()
    found: set[int] = set()
    stack = list(roots)
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, _BARRIERS) or stop(o):
            continue
        if id(o) in tracked:
            found.add(id(o))
        stack.extend(gc.get_referents(o))
    return found


def gc_owners(env: Any) -> str:
    """How many of the objects a full collection scans the bot holds, and how many simcord.

    The bot's: reachable from the bot object without going through a simcord object (its
    discord.py caches, sessions, pictures' keys, ...); simcord's: reachable only from the
    simcord environment (the simulated Discord: its message store, request log, ...), which a
    real bot does not carry. Also times one full collection (``gc.collect()``) right there.
    """
    objects = gc.get_objects()
    tracked = {id(o) for o in objects}
    del objects

    def in_simcord(o: Any) -> bool:
        return (type(o).__module__ or "").startswith("simcord")

    bot_side = _reach([env.bot], tracked, in_simcord)
    sim_side = _reach([env], tracked, lambda o: False) - bot_side
    t = time.perf_counter()
    gc.collect()
    full = (time.perf_counter() - t) * 1000
    other = len(tracked) - len(bot_side) - len(sim_side)
    return (
        f"  objects a full collection scans: {len(tracked):,}; the bot holds {len(bot_side):,} "
        f"({len(bot_side) / len(tracked):.0%}), simcord alone {len(sim_side):,} "
        f"({len(sim_side) / len(tracked):.0%}), other {other:,};"
        f" a full collection now: {full:.0f} ms"
    )


def gc_report(run: Run) -> list[str]:
    """Garbage collections during the loop, and what overlapped the slowest answers."""
    lines = [
        f"  cyclic GC during the loop ({run.tracked:,} objects tracked at its start, "
        f"{run.tracked_after:,} at its end, {run.frozen:,} frozen by gc.freeze after set-up):"
    ]
    for gen in (0, 1, 2):
        pauses = [(e - s) * 1000 for s, e, g in run.gc.pauses if g == gen]
        pairs = zip(run.gc.collected, run.gc.pauses, strict=True)
        freed = sum(c for c, (_, _, g) in pairs if g == gen)
        if pauses:
            lines.append(
                f"    generation {gen}: {len(pauses)} collections, {sum(pauses):.0f} ms in all, "
                f"median {statistics.median(pauses):.2f} ms, max {max(pauses):.1f} ms; "
                f"{freed:,} objects freed"
            )
        else:
            lines.append(f"    generation {gen}: no collection")
    slowest = sorted(run.windows, key=lambda w: w[1] - w[0], reverse=True)[:5]
    lines.append("  slowest answers (interaction -> answered), with the collections inside them:")
    for start, end, via in slowest:
        inside = run.gc.within(start, end)
        gcs = ", ".join(f"gen {g} {ms:.1f} ms" for ms, g in inside) or "no collection"
        lines.append(f"    {(end - start) * 1000:7.1f} ms  {via:<5}  {gcs}")
    if run.owners:
        lines.append(run.owners)
    return lines


def main() -> None:
    """Parse the options, run each ``--games`` value, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[50, 200, 500])
    parser.add_argument("--seats", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--steps", type=int, default=3000, help="measured moves per run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--via", choices=("mix", "slash", "dm"), default="mix")
    parser.add_argument("--profile", help="write a cProfile of the measured loop to this file")
    parser.add_argument(
        "--no-pictures", action="store_true", help="send the embeds without their pictures"
    )
    parser.add_argument(
        "--freeze-after-start",
        action="store_true",
        help="gc.freeze() once the games are started (what a periodic freeze would give)",
    )
    parser.add_argument(
        "--gc-owners",
        action="store_true",
        help="after the loop: how many GC-tracked objects the bot holds and how many simcord",
    )
    parser.add_argument(
        "--thinkers",
        type=int,
        default=0,
        help="expert AI decisions kept in flight in the bot's AI pool during the loop",
    )
    parser.add_argument(
        "--ai-workers", type=int, help="processes of the AI pool (default: one per core)"
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    print(
        f"bench_bot: seats={args.seats} steps={args.steps} seed={args.seed} via={args.via} "
        f"thinkers={args.thinkers} ai_workers={args.ai_workers or bot_module.machine_cores()} "
        f"python {sys.version.split()[0]} discord.py {discord.__version__} "
        f"load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    for n in args.games:
        profile = f"{args.profile}.{n}" if args.profile and len(args.games) > 1 else args.profile
        run = asyncio.run(
            run_once(
                n,
                args.seats,
                args.steps,
                args.seed,
                args.via,
                profile,
                not args.no_pictures,
                args.freeze_after_start,
                args.gc_owners,
                args.thinkers,
                args.ai_workers,
            )
        )
        print(report(run), flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
