"""Entry point: build the Hats bot, open its resources, connect to Discord.

``python bot.py`` reads ``.env`` (see ``.env.example``), opens the database, loads the cogs,
syncs the slash commands when they changed and runs until SIGINT/SIGTERM. Tests build the
same bot with :func:`create_bot` and run it under simcord without connecting anywhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import signal
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import make_hats_group
from cogs.errors import HatsTree
from cogs.i18n import Translator
from cogs.pictures import Pictures
from cogs.service import GameService
from data import Store, StoreError, open_store
from data.config import database_path

log = logging.getLogger("hats")

EXTENSIONS: tuple[str, ...] = (
    "cogs.scheduler",
    "cogs.lobby",
    "cogs.play",
    "cogs.table",
    "cogs.info",
    "cogs.ai_players",
    "cogs.timers",
    "cogs.teams",
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
    dev_guild_id: int | None = None
    force_sync: bool = False
    log_level: str = "INFO"
    turn_timer: float | None = 300.0
    swap_timeout: float = 120.0
    lobby_expiry: float = 3600.0
    ai_delay: float = 1.5
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

        guild = env.get("HATS_DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ValueError(f"HATS_DEV_GUILD_ID must be a server id (digits), got {guild!r}")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            db_path=database_path(env),
            dev_guild_id=int(guild) if guild else None,
            force_sync=env.get("HATS_FORCE_SYNC", "").strip().lower() in ("1", "true", "yes"),
            log_level=env.get("HATS_LOG_LEVEL", "INFO").strip().upper() or "INFO",
            turn_timer=number("HATS_TURN_TIMER", 300.0),
            swap_timeout=number("HATS_SWAP_TIMEOUT", 120.0) or 120.0,
            lobby_expiry=number("HATS_LOBBY_EXPIRY", 3600.0) or 3600.0,
            ai_delay=number("HATS_AI_DELAY", 1.5) or 0.0,
        )


class HatsBot(commands.Bot):
    """The Hats bot: owns the store, the game service and the ``/hats`` command group.

    Resources are opened in :meth:`setup_hook` (the database from ``settings.db_path``) and
    handed to the cogs through attributes: ``store``, ``games`` (GameService), ``translator``.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=HatsTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.translator = Translator.load()
        self.hats_group: app_commands.Group = make_hats_group()
        self.store: Store | None = store  # handed in by the entry point, else opened in setup_hook
        self.games: GameService  # created in setup_hook
        self.names: dict[int, str] = {}
        """Display names of users seen in interactions (user id -> name)."""
        self.locales: dict[int, str] = {}
        """Last interaction locale of each user, for DMs (user id -> locale)."""
        self.pictures = Pictures()
        """Draws and caches the table, hand and end pictures (cogs.pictures)."""
        self.add_listener(self._note_user, "on_interaction")

    async def _note_user(self, interaction: discord.Interaction) -> None:
        self.names[interaction.user.id] = interaction.user.display_name
        self.locales[interaction.user.id] = str(interaction.locale)

    async def setup_hook(self) -> None:
        """Open the store, restore live games and lobbies, load cogs, sync commands."""
        if self.store is None:
            self.store = await open_store(self.settings.db_path)
        if self.get_cog("PlayCog") is not None:  # setup_hook ran before (simcord restart)
            return
        self.games = GameService(self.store, self.seed_source, dispatch=self.dispatch)
        self.tree.add_command(self.hats_group)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        await self.games.restore()
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Sync the command tree when it changed since the last sync (or when forced).

        Syncs to ``settings.dev_guild_id`` when set (instant), globally otherwise.
        The hash of the synced payload is kept in the store's meta table.
        """
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands_synced:{guild.id if guild else 'global'}"
        if not self.settings.force_sync and await self.store.meta.get(key) == digest:
            log.info("slash commands unchanged; not syncing")
            return
        await self.tree.sync(guild=guild)
        await self.store.meta.set(key, digest)
        log.info("slash commands synced (%s)", f"guild {guild.id}" if guild else "global")

    async def close(self) -> None:
        """Close the Discord connection, then the store."""
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None


def create_bot(db_path: str | os.PathLike[str], **options: object) -> HatsBot:
    """Build the bot for a database file without connecting anywhere (tests, simcord).

    ``options`` override :class:`Settings` fields (e.g. ``turn_timer=60``) plus
    ``seed_source``, a callable returning each new game's seed.
    """
    seed_source = options.pop("seed_source", None)
    base = Settings.from_env({})
    settings = Settings(**{**_as_dict(base), "db_path": Path(db_path), **options})
    return HatsBot(settings, seed_source=seed_source)  # type: ignore[arg-type]


def _as_dict(settings: Settings) -> dict[str, object]:
    return {f: getattr(settings, f) for f in Settings.__dataclass_fields__}


async def _run(settings: Settings) -> int:
    """Open the store, then run the bot until SIGINT/SIGTERM; returns the exit code.

    2: Discord rejected the token; 3: the database cannot be opened (left untouched).
    """
    try:
        store = await open_store(settings.db_path)
    except StoreError as exc:
        print(f"Cannot open the database {settings.db_path}: {exc}", file=sys.stderr)
        return 3
    bot = HatsBot(settings, store=store)
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
            return 2
    return 0


def main() -> int:
    """Console entry point: returns the process exit code."""
    try:
        from dotenv import load_dotenv

        load_dotenv()
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not settings.token:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    return asyncio.run(_run(settings))


if __name__ == "__main__":
    sys.exit(main())
