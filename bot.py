"""Entry point: build the Hats bot, open its resources, connect to Discord.

``python bot.py`` reads ``.env`` (see ``.env.example``), opens the database, loads the cogs,
syncs the slash commands when they changed and runs until SIGINT/SIGTERM. Tests build the
same bot with :func:`create_bot` and run it under simcord without connecting anywhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import multiprocessing
import os
import secrets
import signal
import sys
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from cogs.access import ChannelAccessOf
from cogs.activity import ENTRY_POINT_NAME, ENTRY_POINT_TYPE
from cogs.base import make_hats_group
from cogs.clock import now
from cogs.command_i18n import CommandTranslator
from cogs.cooldowns import PublicPosts
from cogs.edits import EditGate
from cogs.errors import HatsTree, answer_unknown_control
from cogs.mentions import NOBODY
from cogs.monitoring import (
    Monitor,
    MonitorError,
    discord_trace,
    instrument_responses,
    note_received,
)
from cogs.pictures import Pictures
from data import Store, StoreError, check_path, open_store
from data.config import database_path, database_url
from engine.ai import ExpertBudget
from runtime.gc_freeze import SurvivorFreezer
from service import DeadlinePolicy, GameService
from service.server_settings import ServerSettings
from telemetry.logs import JsonFormatter
from texts.i18n import Tr, Translator
from web import WebConfig, WebServer
from web.auth import derive_key, random_key

T = TypeVar("T")

log = logging.getLogger("hats")

EXTENSIONS: tuple[str, ...] = (
    "cogs.scheduler",
    "cogs.lobby",
    "cogs.learn",  # before cogs.play: its step listener sets a learner's language first
    "cogs.play",
    "cogs.table",
    "cogs.info",
    "cogs.ai_players",
    "cogs.timers",
    "cogs.teams",
    "cogs.settings",
    "cogs.outbox",
    "cogs.history",
    "cogs.tournament",
    "cogs.activity",
)
"""The cogs loaded at start-up, one per feature."""

TOKEN_HELP = (
    "DISCORD_TOKEN is not set. Create an application at "
    "https://discord.com/developers/applications, add a bot under 'Bot', copy its token "
    "(Reset Token) into a file named .env beside bot.py as DISCORD_TOKEN=..., then run this "
    "command again. See README.md, 'Create the Discord application'."
)


@dataclass(frozen=True, slots=True)
class Settings:
    """Runtime settings read from the environment (``.env``); see ``.env.example``.

    Durations are in seconds; ``None`` turns a timer off.
    """

    token: str | None = None
    db_path: Path = Path("hats.sqlite3")
    database_url: str | None = None
    """``HATS_DATABASE_URL``: a PostgreSQL URL; when set, ``db_path`` is not used."""
    dev_guild_id: int | None = None
    force_sync: bool = False
    log_level: str = "INFO"
    turn_timer: float | None = 300.0
    swap_timeout: float = 120.0
    lobby_expiry: float = 3600.0
    ai_delay: float = 1.5
    edit_limit: int | None = 5
    """Message edits per channel per 5 s (cogs.edits); None sends every edit at once (tests)."""
    max_lobbies: int | None = 3
    """``HATS_MAX_LOBBIES``: open lobbies one user may sit in at once, hosted or joined."""
    max_games: int | None = 5
    """``HATS_MAX_GAMES``: live games one user may play at once (checked on join and start)."""
    public_cooldown: float | None = 15.0
    """``HATS_PUBLIC_COOLDOWN``: seconds a channel waits between two public posts of the
    commands that post on request (``/hats table``, ``leaderboard``, ``replay``,
    ``record share:True``); None: no wait."""
    shard_count: int | None = None
    """``HATS_SHARD_COUNT``: the bot's total number of shards; None asks Discord at connect."""
    shard_ids: tuple[int, ...] | None = None
    """``HATS_SHARD_IDS``: the shards this process runs; None runs all of ``shard_count``."""
    metrics_port: int | None = None
    """``HATS_METRICS_PORT``: serve /metrics, /healthz, /readyz on it; None serves nothing."""
    metrics_addr: str = "127.0.0.1"
    """``HATS_METRICS_ADDR``: the address the metrics port listens on."""
    web_port: int | None = None
    """``HATS_WEB_PORT``: serve the Activity (web server and browser app) on it; None: off."""
    web_addr: str = "127.0.0.1"
    """``HATS_WEB_ADDR``: the address the Activity's web server listens on."""
    client_id: str | None = None
    """``DISCORD_CLIENT_ID``: the application's id (the Activity's OAuth2); None: the one
    Discord reports at login."""
    client_secret: str | None = field(default=None, repr=False)
    """``DISCORD_CLIENT_SECRET``: the application's OAuth2 secret (Activity sign-in); never
    logged nor sent."""
    discord_api: str = "https://discord.com/api/v10"
    """``HATS_DISCORD_API``: Discord's API base URL for the Activity's sign-in (tests: a fake)."""
    local: bool = False
    """``--local``: no Discord; the service and the Activity's web server on this machine."""
    log_format: str = "text"
    """``HATS_LOG_FORMAT``: ``text`` (one plain line per record) or ``json`` (one object)."""
    cache_idle: float | None = 900.0
    """``HATS_CACHE_IDLE``: seconds before an untouched game leaves the cache; None: never."""
    ai_workers: int | None = None
    """``HATS_AI_WORKERS``: processes that search AI moves; None: one per CPU core."""
    extra: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        """Read settings from ``env``; raises ValueError naming a malformed setting."""

        def number(name: str, default: float | None) -> float | None:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            if raw.lower() in ("off", "none", "0"):
                return None
            try:
                return float(raw)
            except ValueError:
                raise ValueError(
                    f"{name} must be a number of seconds or 'off', got {raw!r}"
                ) from None

        def count(name: str, default: int) -> int | None:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            if raw.lower() in ("off", "none", "0"):
                return None
            if not raw.isdecimal():
                raise ValueError(f"{name} must be a whole number or 'off', got {raw!r}")
            return int(raw)

        guild = env.get("HATS_DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ValueError(f"HATS_DEV_GUILD_ID must be a server id (digits), got {guild!r}")
        shard_count, shard_ids = parse_shards(
            env.get("HATS_SHARD_COUNT", ""), env.get("HATS_SHARD_IDS", "")
        )
        workers = env.get("HATS_AI_WORKERS", "").strip()
        if workers and (not workers.isdigit() or int(workers) < 1):
            raise ValueError(f"HATS_AI_WORKERS must be a whole number from 1, got {workers!r}")
        cache_idle = number("HATS_CACHE_IDLE", 900.0)
        if cache_idle is not None and cache_idle < 0:
            raise ValueError(
                f"HATS_CACHE_IDLE must be a positive number of seconds or 'off', got {cache_idle:g}"
            )
        url = database_url(env)
        if shard_ids is not None and len(shard_ids) < (shard_count or 0) and url is None:
            raise ValueError(
                f"HATS_SHARD_IDS={env['HATS_SHARD_IDS'].strip()!r} runs part of the shards, so "
                "other processes run the rest, and they must share one PostgreSQL database: "
                "set HATS_DATABASE_URL (docs/hosts.md, 'Running at scale')"
            )
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            db_path=database_path(env),
            database_url=url,
            dev_guild_id=int(guild) if guild else None,
            force_sync=env.get("HATS_FORCE_SYNC", "").strip().lower() in ("1", "true", "yes"),
            log_level=env.get("HATS_LOG_LEVEL", "INFO").strip().upper() or "INFO",
            turn_timer=number("HATS_TURN_TIMER", 300.0),
            swap_timeout=number("HATS_SWAP_TIMEOUT", 120.0) or 120.0,
            lobby_expiry=number("HATS_LOBBY_EXPIRY", 3600.0) or 3600.0,
            ai_delay=number("HATS_AI_DELAY", 1.5) or 0.0,
            max_lobbies=count("HATS_MAX_LOBBIES", 3),
            max_games=count("HATS_MAX_GAMES", 5),
            public_cooldown=number("HATS_PUBLIC_COOLDOWN", 15.0),
            shard_count=shard_count,
            shard_ids=shard_ids,
            metrics_port=parse_port(env.get("HATS_METRICS_PORT", "")),
            web_port=parse_port(env.get("HATS_WEB_PORT", ""), "HATS_WEB_PORT"),
            web_addr=env.get("HATS_WEB_ADDR", "").strip() or "127.0.0.1",
            client_id=env.get("DISCORD_CLIENT_ID", "").strip() or None,
            client_secret=env.get("DISCORD_CLIENT_SECRET", "").strip() or None,
            discord_api=env.get("HATS_DISCORD_API", "").strip().rstrip("/")
            or "https://discord.com/api/v10",
            metrics_addr=env.get("HATS_METRICS_ADDR", "").strip() or "127.0.0.1",
            log_format=parse_log_format(env.get("HATS_LOG_FORMAT", "")),
            cache_idle=cache_idle,
            ai_workers=int(workers) if workers else None,
        )


def parse_port(raw: str, name: str = "HATS_METRICS_PORT") -> int | None:
    """A TCP port setting (``name``): 1-65535, or empty (None: nothing listens).

    Raises ValueError naming the setting.
    """
    raw = raw.strip()
    if not raw:
        return None
    if not raw.isdecimal() or not 1 <= int(raw) <= 65535:
        raise ValueError(f"{name} must be a port number from 1 to 65535, got {raw!r}")
    return int(raw)


def parse_log_format(raw: str) -> str:
    """``HATS_LOG_FORMAT``: ``text`` (the default) or ``json``; raises ValueError otherwise."""
    value = raw.strip().lower() or "text"
    if value not in ("text", "json"):
        raise ValueError(f"HATS_LOG_FORMAT must be 'text' or 'json', got {raw.strip()!r}")
    return value


def log_handler(settings: Settings) -> logging.Handler:
    """The stderr handler of ``settings.log_format``: plain lines, or one JSON object a line."""
    handler = logging.StreamHandler(sys.stderr)
    if settings.log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    return handler


def machine_cores() -> int:
    """CPU cores this process may run on (its affinity where the OS tells, else all)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


AI_WORKER_NICENESS = 10
"""How much lower the AI workers' CPU priority is than the bot's (``os.nice``, Unix)."""


def ai_process_pool(workers: int | None) -> ProcessPoolExecutor:
    """The process pool that searches AI moves (cogs.ai_players): ``workers`` processes.

    None: :func:`machine_cores`. Workers are started with ``spawn`` (a fresh interpreter: a
    fork would copy the event loop's and the store's threads mid-flight), only when the first
    move needs one, at a lower CPU priority (:data:`AI_WORKER_NICENESS`): on a busy core the
    event loop, which answers the players, runs first.
    """
    nice = getattr(os, "nice", None)
    return ProcessPoolExecutor(
        max_workers=workers or machine_cores(),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=nice,
        initargs=(AI_WORKER_NICENESS,) if nice else (),
    )


def parse_shards(count: str, ids: str) -> tuple[int | None, tuple[int, ...] | None]:
    """Read ``HATS_SHARD_COUNT`` and ``HATS_SHARD_IDS`` into ``(shard_count, shard_ids)``.

    ``count`` is a positive integer or empty (None: Discord's recommended count). ``ids`` is
    empty (None: every shard of ``count``) or comma-separated shard ids and ranges, e.g.
    ``0,1`` or ``0-3`` or ``0-1,4`` (sorted, each below ``count``). A shard is Discord's
    ``(guild_id >> 22) % shard_count`` split of the servers (Discord docs, "Sharding").
    Raises ValueError naming the setting and saying what would be right.
    """
    count, ids = count.strip(), ids.strip()
    shard_count: int | None = None
    if count:
        if not count.isdecimal() or int(count) < 1:
            raise ValueError(f"HATS_SHARD_COUNT must be a positive whole number, got {count!r}")
        shard_count = int(count)
    if not ids:
        return shard_count, None
    if shard_count is None:
        raise ValueError(
            f"HATS_SHARD_IDS={ids!r} needs HATS_SHARD_COUNT, the total number of shards "
            "across all processes"
        )
    chosen: set[int] = set()
    for part in ids.split(","):
        first, dash, last = (p.strip() for p in part.strip().partition("-"))
        if not first.isdecimal() or (dash and not last.isdecimal()):
            raise ValueError(
                f"HATS_SHARD_IDS must be shard ids or ranges separated by commas "
                f"(e.g. 0,1 or 0-3), got {ids!r}"
            )
        low, high = int(first), int(last) if dash else int(first)
        if low > high:
            raise ValueError(f"HATS_SHARD_IDS: the range {part.strip()!r} runs backwards")
        if high >= shard_count:
            raise ValueError(
                f"HATS_SHARD_IDS: shard {high} does not exist with HATS_SHARD_COUNT="
                f"{shard_count} (shard ids run from 0 to {shard_count - 1})"
            )
        chosen.update(range(low, high + 1))
    return shard_count, tuple(sorted(chosen))


def describe_shards(shard_count: int | None, shard_ids: tuple[int, ...] | None) -> str:
    """The shards a process runs, for the log, e.g. ``"shards 0-1 of 4"`` or ``"shard 3 of 4"``.

    Consecutive ids are written as ranges (``(0, 1, 2, 5)`` -> ``"0-2,5"``).
    """
    if shard_count is None:
        return "every shard Discord recommends (the count is asked at connect)"
    ids = shard_ids if shard_ids is not None else tuple(range(shard_count))
    runs: list[list[int]] = []
    for shard in ids:
        if runs and shard == runs[-1][-1] + 1:
            runs[-1].append(shard)
        else:
            runs.append([shard])
    text = ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
    return f"shard{'s' if len(ids) > 1 else ''} {text} of {shard_count}"


class HatsBot(commands.AutoShardedBot):
    """The Hats bot: owns the store, the game service and the ``/hats`` command group.

    An ``AutoShardedBot``: one process runs the shards ``settings.shard_ids`` of
    ``settings.shard_count`` (None/None: every shard Discord recommends). Any process may act
    on any game (DMs arrive on shard 0 only); the store is the authority.

    Resources are opened in :meth:`setup_hook` (the database from ``settings.db_path``) and
    handed to the cogs through attributes: ``store``, ``games`` (GameService), ``translator``.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        seed_source: Callable[[], int] | None = None,
        ai_pool: Executor | None = None,
        expert_budget: ExpertBudget | None = None,
    ) -> None:
        intents = discord.Intents.default()
        # No voice here: spare the owner discord.py's start-up warnings about voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=HatsTree,
            allowed_mentions=NOBODY,  # who may be pinged: cogs.mentions (issue 29.2)
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,
            http_trace=discord_trace(),
        )
        instrument_responses()
        self.settings = settings
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.translator = Translator.load()
        self.hats_group: app_commands.Group = make_hats_group()
        self.store: Store | None = store  # handed in by the entry point, else opened in setup_hook
        self.ai_pool: Executor | None = ai_pool
        """Where the searching AIs think (:func:`ai_process_pool`, handed in by the entry
        point; shut down by :meth:`close`). None: the loop's default thread pool (tests)."""
        self.expert_budget = expert_budget
        """The expert AI's search budget; None: ``ExpertBudget()`` (BENCHMARKS.md). Tests
        pass a small one."""
        self.games: GameService  # created in setup_hook
        self.names: dict[int, str] = {}
        """Display names of users seen in interactions (user id -> name)."""
        self.locales: dict[int, str] = {}
        """Last interaction locale of each user, for DMs (user id -> locale)."""
        self.servers: ServerSettings  # created in setup_hook
        """Every server's ``/hats settings`` (service.server_settings)."""
        self.edit_gate = EditGate(settings.edit_limit or 0)
        """Per-channel message edit budget shared by the table and the hand DMs."""
        self.public_posts = PublicPosts(settings.public_cooldown)
        """The per-channel cooldown of commands that post publicly (cogs.cooldowns)."""
        self.pictures = Pictures()
        """Draws and caches the table, hand and end pictures (cogs.pictures)."""
        self.deadlines = DeadlinePolicy(ai_delay=settings.ai_delay)
        """The deadlines that follow each step (turn timer, AI moves; service.deadlines)."""
        self._frozen_at_ready = False
        self.add_listener(self._note_user, "on_interaction")
        self.monitor = Monitor(self, settings.metrics_port, settings.metrics_addr)
        """/metrics, /healthz and /readyz with ``HATS_METRICS_PORT`` (cogs.monitoring)."""
        self.add_listener(answer_unknown_control, "on_interaction")
        self.web: WebServer | None = None
        """The Activity's web server with ``HATS_WEB_PORT`` (web/), opened in setup_hook."""

    def dispatch(self, event_name: str, /, *args: object, **kwargs: object) -> None:
        """discord.py's dispatch; an interaction's arrival is noted first (its answer is timed).

        discord.py calls it for ``interaction`` when it parses one, before any handler runs.
        The Activity's web server hears committed steps here at once (``hats_step``: every
        viewer's view is built while the game holds that step), started games
        (``hats_outbox``) and redrawn lobbies (``hats_lobby_shown``).
        """
        if event_name == "interaction":
            note_received(args[0])  # type: ignore[arg-type]
        elif self.web is not None:
            web_hears(self.web, event_name, args)
        super().dispatch(event_name, *args, **kwargs)

    def watching_live(self, game_id: int, user_id: int, channel_id: int | None = None) -> bool:
        """Whether ``user_id`` follows game ``game_id`` live in the Activity (no turn ping).

        ``channel_id``: the game's channel; an Activity open on its lobby counts (a start).
        """
        return self.web is not None and self.web.watching(game_id, user_id, channel_id)

    async def open_web(self) -> None:
        """Open the Activity's web server (``HATS_WEB_PORT``, or ``--local``); nothing if off.

        The sessions' key is derived from ``DISCORD_CLIENT_SECRET`` (every process of the
        application shares it), else a random key kept in the store's meta table.
        """
        if self.web is not None or (self.settings.web_port is None and not self.settings.local):
            return
        assert self.store is not None
        self.web = WebServer(
            web_config(self.settings, self.application_id),
            self.games,
            self.translator,
            session_key=await session_key(self.store, self.settings.client_secret),
            names=self.names,
            locales=self.locales,
            dispatch=self.dispatch,
            default_timer=self.servers.lobby_timer,
            limits=self._check_limits,
            swap_timeout=self.settings.swap_timeout,
            run_cpu=self.run_cpu,
            access=ChannelAccessOf(self),
        )
        await self.store.watch(self.web.hub.on_change)
        await self.store.watch_lobbies(self.web.on_lobby_change)
        await self.web.start()

    async def _check_limits(self, user_id: int) -> None:
        """``HATS_MAX_LOBBIES`` / ``HATS_MAX_GAMES`` for a user (cogs.lobby); ServiceError."""
        lobby: Any = self.get_cog("LobbyCog")
        if lobby is not None:
            await lobby.check_limits(user_id)

    async def _note_user(self, interaction: discord.Interaction) -> None:
        self.names[interaction.user.id] = interaction.user.display_name
        if self.web is not None:  # the Activity shows their avatar and server nickname
            user = interaction.user
            people = self.web.people
            people.note_user(user.id, None, user.avatar.key if user.avatar else None)
            if interaction.guild_id is not None and isinstance(user, discord.Member):
                guild_avatar = user.guild_avatar.key if user.guild_avatar else None
                people.note_member(interaction.guild_id, user.id, user.nick, guild_avatar)
        self.locales[interaction.user.id] = str(interaction.locale)
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self.servers.note_locale(interaction.guild_id, str(interaction.guild_locale))

    def server_locale(self, guild_id: int | None) -> str | None:
        """A server's own language: its community locale (Discord's ``preferred_locale``).

        Read from the gateway's guild cache, else the last ``interaction.guild_locale`` seen
        there; None when unknown (English is used then).
        """
        if guild_id is None:
            return None
        guild = self.get_guild(guild_id)
        if guild is not None and guild.preferred_locale is not None:
            return str(guild.preferred_locale)
        return self.servers.seen_locale(guild_id)

    def public_tr(self, guild_id: int | None) -> Tr:
        """The translator for public messages in a server (lobby, table, end screen, notices).

        ``/hats settings language`` (stored per server) wins over the server's own locale
        (:meth:`server_locale`); English when neither is known.
        """
        return self.translator.for_server(
            self.servers.language(guild_id), self.server_locale(guild_id)
        )

    async def run_cpu(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` off the event loop: CPU work (AI search, hints) must not block it.

        Runs in ``self.ai_pool`` when the bot has one (a process pool: ``fn`` and ``args``
        must pickle), else in the loop's default thread pool. When a pool worker died
        (``BrokenProcessPool``) the pool is dropped (logged) and the work runs in a thread.
        """
        loop = asyncio.get_running_loop()
        if self.ai_pool is not None:
            try:
                return await loop.run_in_executor(self.ai_pool, fn, *args)
            except BrokenProcessPool:
                log.error("the AI process pool is broken: CPU work runs in threads from now on")
                self.ai_pool = None
        return await loop.run_in_executor(None, fn, *args)

    async def on_ready(self) -> None:
        """The first READY: freeze what the gateway filled in (guilds, channels, members).

        Those caches arrive after ``setup_hook``'s freeze and live as long as the process:
        frozen, the full garbage collections no longer scan them (BENCHMARKS.md, "Worst move
        latency"). Later READYs (reconnects) change nothing.
        """
        if not self._frozen_at_ready:
            self._frozen_at_ready = True
            gc.freeze()

    async def on_error(self, event_method: str, /, *args: object, **kwargs: object) -> None:
        """A listener failed: a store failure is one WARNING line, anything else a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, StoreError):
            log.warning("%s: not saved: %s", event_method, error)
            return
        await super().on_error(event_method, *args, **kwargs)

    async def setup_hook(self) -> None:
        """Open the store, load cogs, start the game service, sync commands.

        Live games are not replayed here: each is loaded on first use, so start-up does not
        grow with the number of live games.
        """
        log.info(
            "this process runs %s",
            describe_shards(self.settings.shard_count, self.settings.shard_ids),
        )
        await self.monitor.start()  # /readyz says 503 until the store is open and READY came
        if self.store is None:
            self.store = await open_store(self.settings.database_url or self.settings.db_path)
        if self.get_cog("PlayCog") is not None:  # setup_hook ran before (simcord restart)
            return
        await self.load_features()
        await self.games.start()
        await self.open_web()
        await self.sync_commands()
        gc.freeze()  # start-up objects (cogs, catalogs, commands) are never scanned again

    async def load_features(self) -> None:
        """Create the game service, load the cogs and the command translator (store open)."""
        assert self.store is not None
        self.games = GameService(
            self.store,
            self.seed_source,
            dispatch=self.dispatch,
            deadlines=self.deadlines,
            clock=now,
            cache_idle=self.settings.cache_idle,
        )
        self.servers = ServerSettings(self.store.guild_settings, self.settings.turn_timer)
        await self.servers.load()
        await self.tree.set_translator(CommandTranslator.from_catalogs())
        self.tree.add_command(self.hats_group)
        for ext in EXTENSIONS:
            await self.load_extension(ext)

    async def sync_commands(self) -> None:
        """Sync the command tree when it changed since the last sync (or when forced).

        Syncs to ``settings.dev_guild_id`` when set (instant), globally otherwise.
        The hash of the synced payload (with its localizations, :meth:`command_payload`) is
        kept in the store's meta table, so a changed translation syncs too.
        """
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = await self.command_payload(guild)
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        scope = guild.id if guild else "global"
        key = f"commands_synced:{scope}"
        ids_key = f"command_ids:{scope}"
        stored_ids = await self.store.meta.get(ids_key)
        if (
            not self.settings.force_sync
            and await self.store.meta.get(key) == digest
            and stored_ids is not None
        ):
            log.info("slash commands unchanged; not syncing")
            self._mention_commands(json.loads(stored_ids))
            return
        if guild is None:
            ids = await self._sync_global(payload)
        else:
            synced = await self.tree.sync(guild=guild)
            ids = {c.name: c.id for c in synced}
        await self.store.meta.set(ids_key, json.dumps(ids))
        await self.store.meta.set(key, digest)
        self._mention_commands(ids)
        log.info("slash commands synced (%s)", f"guild {guild.id}" if guild else "global")

    async def _sync_global(self, payload: list[dict]) -> dict[str, int]:
        """Bulk overwrite the global commands with ``payload``, keeping the Entry Point command.

        Discord's bulk overwrite replaces every global command of the app, the Activity's
        Entry Point command (type 4, made by Discord when Activities are enabled) too: the
        payload must carry it. discord.py's ``tree.sync`` knows nothing of it, so the bot reads
        the app's global commands first (one call, only when the commands changed): where
        this bot runs the Activity its own entry point (``cogs.activity``) takes the existing
        one's name; elsewhere the existing one is sent back as it is. Returns the top-level
        chat commands' ids by name.
        """
        app_id = self.application_id
        assert app_id is not None
        existing = await self.http.get_global_commands(app_id)
        points = [c for c in existing if c.get("type") == ENTRY_POINT_TYPE]
        ours = [c for c in payload if c.get("type") == ENTRY_POINT_TYPE]
        if ours and points:
            ours[0]["name"] = points[0]["name"]
            if ours[0]["name"] != ENTRY_POINT_NAME:
                ours[0].pop("name_localizations", None)  # the owner's own name stays
        elif points:
            payload = [*payload, *(_resend(c) for c in points)]
        data = await self.http.bulk_upsert_global_commands(app_id, payload=payload)
        return {c["name"]: int(c["id"]) for c in data if c.get("type", 1) == 1}

    def _mention_commands(self, ids: Mapping[str, int]) -> None:
        """Let texts mention every command path by its synced top-level command id."""
        paths: dict[str, int] = {}
        for command in self.tree.walk_commands(guild=None):
            root = command.root_parent.name if command.root_parent else command.name
            if root in ids:
                paths[command.qualified_name] = int(ids[root])
        self.translator.set_command_mentions(paths)

    async def command_payload(self, guild: discord.abc.Snowflake | None = None) -> list[dict]:
        """The command payload ``tree.sync`` sends (Discord's application command JSON).

        Translated the way discord.py does it at sync time (name and description
        localizations from the tree's translator, ``cogs.command_i18n``).
        """
        translator = self.tree.translator
        commands_ = self.tree.get_commands(guild=guild)
        if translator is None:
            payload = [c.to_dict(self.tree) for c in commands_]
        else:
            payload = [await c.get_translated_payload(self.tree, translator) for c in commands_]
        activity: Any = self.get_cog("ActivityCog")
        if guild is None and activity is not None:  # an Entry Point is global only (Discord)
            entry = activity.entry_point(translator)
            if entry is not None:
                payload.append(entry)
        return payload

    async def close(self) -> None:
        """Close the Discord connection, the AI pool, the store, then the metrics port.

        AI searches under way are dropped: their moves are deadlines, played after a restart.
        """
        await super().close()
        if self.ai_pool is not None:
            self.ai_pool.shutdown(wait=False, cancel_futures=True)
            self.ai_pool = None
        if self.web is not None:
            await self.web.stop()
            self.web = None
        if self.store is not None:
            await self.store.close()
            self.store = None
        await self.monitor.stop()


ENTRY_POINT_FIELDS = (
    "name",
    "description",
    "type",
    "handler",
    "contexts",
    "integration_types",
    "name_localizations",
    "description_localizations",
    "default_member_permissions",
    "nsfw",
)
"""The fields of an existing Entry Point command sent back in a bulk overwrite."""


def _resend(command: Mapping[str, Any]) -> dict[str, Any]:
    """An existing command as a bulk overwrite payload entry (its writable fields)."""
    return {k: command[k] for k in ENTRY_POINT_FIELDS if command.get(k) is not None}


def web_config(settings: Settings, application_id: int | None = None) -> WebConfig:
    """The Activity web server's settings from the bot's (port 0 in local mode: 8765)."""
    port = settings.web_port
    if port is None:
        port = LOCAL_WEB_PORT
    client_id = settings.client_id or (str(application_id) if application_id else None)
    return WebConfig(
        port=port,
        addr=settings.web_addr,
        client_id=client_id,
        client_secret=settings.client_secret,
        discord_api=settings.discord_api,
        local=settings.local,
        bot_token=settings.token,
    )


LOCAL_WEB_PORT = 8765
"""The web port of ``--local`` when ``HATS_WEB_PORT`` is not set."""
SESSION_KEY = "web_session_key"
"""The store's meta key of the sessions' signing key when there is no client secret."""


async def session_key(store: Store, client_secret: str | None) -> bytes:
    """The key that signs the Activity's sessions (shared by every process of the bot)."""
    if client_secret:
        return derive_key(client_secret, "hats-activity/1 sessions")
    stored = await store.meta.get(SESSION_KEY)
    if stored is None:
        stored = random_key()
        await store.meta.set(SESSION_KEY, stored)
    return bytes.fromhex(stored)


def web_hears(server: WebServer, event_name: str, args: tuple[object, ...]) -> None:
    """Hand the web server the bot events it follows (see ``HatsBot.dispatch``)."""
    if event_name == "hats_step":
        server.hub.on_step(*args)  # type: ignore[arg-type]
    elif event_name == "hats_outbox" and args and isinstance(args[0], int):
        server.game_may_have_started(args[0])
    elif event_name == "hats_lobby_shown" and args and isinstance(args[0], int):
        server.notify_lobby(args[0])


def create_bot(db_path: str | os.PathLike[str], **options: object) -> HatsBot:
    """Build the bot for a database file (or a ``postgresql://`` URL) without connecting anywhere.

    For tests and simcord.
    ``options`` override :class:`Settings` fields (e.g. ``turn_timer=60``) plus
    ``seed_source``, a callable returning each new game's seed, ``ai_pool``, the executor
    the searching AIs think in (default None: the loop's thread pool), and ``expert_budget``,
    the expert AI's ExpertBudget (default None: its own default). ``shard_count`` defaults to
    1 here (simcord needs a count; nothing asks Discord). The abuse limits (``max_lobbies``,
    ``max_games``, ``public_cooldown``) are off unless given: tests and benchmarks drive many
    games and posts per user and channel in little simulated time.
    """
    seed_source = options.pop("seed_source", None)
    ai_pool = options.pop("ai_pool", None)
    expert_budget = options.pop("expert_budget", None)
    options.setdefault("shard_count", 1)
    for limit in ("max_lobbies", "max_games", "public_cooldown"):
        options.setdefault(limit, None)
    base = Settings.from_env({})
    if isinstance(db_path, str) and db_path.startswith(("postgresql://", "postgres://")):
        where: dict[str, object] = {"database_url": db_path}
    else:
        where = {"db_path": Path(db_path)}
    settings = Settings(**{**_as_dict(base), **where, **options})
    return HatsBot(
        settings,
        seed_source=seed_source,  # type: ignore[arg-type]
        ai_pool=ai_pool,  # type: ignore[arg-type]
        expert_budget=expert_budget,  # type: ignore[arg-type]
    )


def _as_dict(settings: Settings) -> dict[str, object]:
    return {f: getattr(settings, f) for f in Settings.__dataclass_fields__}


EXIT_OK = 0
EXIT_CONFIG = 2
"""A missing or malformed setting, or Discord rejected the token."""
EXIT_DATABASE = 3
"""The database cannot be opened (damaged, unreadable, locked, too new; with
``HATS_DATABASE_URL``: the server unreachable, authentication failed, the database missing):
left untouched."""
EXIT_NO_DISCORD = 4
"""Discord cannot be reached (no network, DNS, firewall, Discord down): database untouched."""

NETWORK_ERRORS: tuple[type[BaseException], ...] = (
    aiohttp.ClientConnectionError,
    OSError,
    asyncio.TimeoutError,
    discord.GatewayNotFound,
    discord.DiscordServerError,
)
"""What discord.py lets through when Discord cannot be reached (aiohttp and socket errors)."""


def _no_discord_text(exc: BaseException) -> str:
    reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return (
        f"Cannot reach Discord ({reason}). Check the network connection and "
        "https://discordstatus.com, then start again; the database was not touched."
    )


def _database_name(settings: Settings) -> str:
    """The database as messages name it: the file, or the URL without its password."""
    if settings.database_url is None:
        return str(settings.db_path)
    from data.pg import redact

    return redact(settings.database_url)


async def _run(settings: Settings) -> int:
    """Check the database path, log in, open the store, run until SIGINT/SIGTERM; exit code.

    The store is opened only after Discord accepted the token (``setup_hook``), so a failed
    login never touches the database. Exit codes: 0 (stopped), :data:`EXIT_CONFIG` (2: Discord
    rejected the token, or the metrics port cannot be opened), :data:`EXIT_DATABASE` (3: the
    database cannot be opened, left untouched), :data:`EXIT_NO_DISCORD` (4: Discord cannot be
    reached).
    """
    where = _database_name(settings)
    try:
        if settings.database_url is None:
            check_path(settings.db_path)
    except StoreError as exc:
        print(f"Cannot open the database {where}: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    bot = HatsBot(settings, ai_pool=ai_process_pool(settings.ai_workers))
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows has no signal handlers
            loop.add_signal_handler(sig, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.token or ""))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("shutting down")
            await bot.close()
        stopper.cancel()
        try:
            await runner
        except discord.LoginFailure:
            print(
                "Discord rejected DISCORD_TOKEN (401). Reset the token in the developer portal, "
                "put the new one in .env and start again.",
                file=sys.stderr,
            )
            return EXIT_CONFIG
        except StoreError as exc:
            print(f"Cannot open the database {where}: {exc}", file=sys.stderr)
            return EXIT_DATABASE
        except MonitorError as exc:
            print(f"Configuration error: {exc}", file=sys.stderr)
            return EXIT_CONFIG
        except NETWORK_ERRORS as exc:
            print(_no_discord_text(exc), file=sys.stderr)
            return EXIT_NO_DISCORD
    return EXIT_OK


async def _run_local(settings: Settings) -> int:
    """``--local``: the service and the Activity's web server, no Discord; runs until a signal.

    Prints the address to open in a browser. Exit codes as :func:`_run` (3: the database
    cannot be opened; 2: the web port cannot be opened).
    """
    from web.local import LocalMode

    where = _database_name(settings)
    try:
        if settings.database_url is None:
            check_path(settings.db_path)
        store = await open_store(settings.database_url or settings.db_path)
    except StoreError as exc:
        print(f"Cannot open the database {where}: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    local = LocalMode(
        store,
        port=settings.web_port or LOCAL_WEB_PORT,
        ai_delay=settings.ai_delay,
        addr="127.0.0.1",
    )
    try:
        try:
            address = await local.start()
        except OSError as exc:
            print(
                f"Configuration error: cannot listen on 127.0.0.1:"
                f"{settings.web_port or LOCAL_WEB_PORT} ({exc.strerror or exc}); set "
                "HATS_WEB_PORT to a free port",
                file=sys.stderr,
            )
            return EXIT_CONFIG
        print(f"Hats runs locally: open {address} in a browser (Ctrl+C stops it).", flush=True)
        await stop.wait()
    finally:
        await local.stop()
        await store.close()
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Console entry point: returns the process exit code.

    ``--local``: play in a browser without Discord (no token needed; see README).
    """
    args = sys.argv[1:] if argv is None else argv
    local = "--local" in args
    try:
        from dotenv import load_dotenv

        load_dotenv()
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, handlers=[log_handler(settings)])
    SurvivorFreezer().install()  # full collections scan only what aged since the last one
    if local:
        return asyncio.run(_run_local(settings))
    if not settings.token:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    return asyncio.run(_run(settings))


if __name__ == "__main__":
    sys.exit(main())
