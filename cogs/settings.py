"""``/hats settings``: a server's settings, for members with the Manage Server permission.

``/hats settings language``: the language of the bot's public messages here (:mod:`cogs.language`).
``/hats settings pictures``: pictures on the table and the end screen, or a compact text layout.
``/hats settings timer``: the turn timer new lobbies here start with (the host can change a
lobby's own timer with ``/hats new timer:`` or the lobby's timer menu).
``/hats settings timezone``: the IANA time zone a tournament's ``start`` is read in (UTC when
unset), checked with the standard library's :mod:`zoneinfo`.

Every setting is stored per server (``data.guild_settings``, migrations 0006 and 0010) and
survives restarts; the open lobbies and live tables are redrawn at once.
"""

from __future__ import annotations

import logging
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, available_timezones

import discord
from discord import app_commands

from cogs.base import HatsFeature
from cogs.clock import now
from cogs.language import DEFAULT_CHOICE, LANGUAGE_NAMES, fold, parse_language
from cogs.replies import send_private
from service import ServiceError
from service.lobby_requests import MIN_TIMER, check_timer
from service.start_time import check_zone
from texts.settings import (
    default_language_text,
    language_set_text,
    pictures_set_text,
    timer_set_text,
    timezone_set_text,
)

if TYPE_CHECKING:
    from bot import HatsBot
    from texts.i18n import Tr

__all__ = ["COMMON_ZONES", "MIN_TIMER", "SettingsCog", "check_timer"]  # the timer's check: service

log = logging.getLogger("hats.settings")

COMMON_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Lisbon",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Madrid",
    "Europe/Rome",
    "Europe/Zurich",
    "Europe/Vienna",
    "Europe/Warsaw",
    "Europe/Athens",
    "Europe/Moscow",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Mexico_City",
    "America/Bogota",
    "America/Buenos_Aires",
    "America/Sao_Paulo",
    "Asia/Kolkata",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
)
"""The zones ``/hats settings timezone`` offers before anything is typed (where our
players are: the five catalog languages' countries and the largest time zones)."""


@cache
def _all_zones() -> tuple[str, ...]:
    """Every IANA zone the system knows, sorted (read once)."""
    return tuple(sorted(available_timezones()))


class SettingsCog(HatsFeature, name="SettingsCog"):
    """``/hats settings language | pictures | timer`` (server managers)."""

    settings = app_commands.Group(
        name="settings", description="This server's settings for Hats (server managers)"
    )

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)

    def _manager_guild(self, interaction: discord.Interaction) -> int:
        """The server of a manager's interaction; ServiceError outside a server or otherwise."""
        if interaction.guild_id is None:
            raise ServiceError("Settings belong to a server: use this command in a server channel.")
        perms = getattr(interaction.user, "guild_permissions", None)
        if not (perms and perms.manage_guild):
            raise ServiceError(
                "Only members with the Manage Server permission can change this server's settings."
            )
        return interaction.guild_id

    def _default_name(self, guild_id: int, tr: Tr) -> str:
        own = self.bot.translator.for_locale(self.bot.server_locale(guild_id)).locale
        return default_language_text(tr, LANGUAGE_NAMES.get(own, own))

    async def language_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The five languages by their own names, and the server default."""
        tr = self.tr(interaction)
        choices = [
            app_commands.Choice(name=f"{name} ({code})", value=code)
            for code, name in LANGUAGE_NAMES.items()
        ]
        if interaction.guild_id is not None:
            name = self._default_name(interaction.guild_id, tr)
            choices.append(app_commands.Choice(name=name, value=DEFAULT_CHOICE))
        needle = fold(current)
        return [c for c in choices if not needle or needle in fold(c.name)][:25]

    @settings.command(
        name="language",
        description="Set the language of the bot's public messages here (server managers)",
    )
    @app_commands.describe(language="A language, or the server default")
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        """``/hats settings language language``: the server's public language, or reset it."""

        async def work() -> None:
            guild_id = self._manager_guild(interaction)
            code = parse_language(language)
            if code is None:
                raise ServiceError(
                    "I do not speak {value}. Choose one of: {choices}, or the server default.",
                    value=repr(language)[:40],
                    choices=", ".join(f"{n} ({c})" for c, n in LANGUAGE_NAMES.items()),
                )
            chosen = None if code == DEFAULT_CHOICE else code
            await self.bot.servers.set_language(guild_id, chosen)
            tr = self.tr(interaction)
            if chosen is None:
                text = language_set_text(tr, self._default_name(guild_id, tr), default=True)
            else:
                text = language_set_text(tr, LANGUAGE_NAMES[chosen], default=False)
            await send_private(interaction, text)
            await self.redraw_public(guild_id)

        await self.guarded(interaction, work)

    language.autocomplete("language")(language_autocomplete)

    @settings.command(
        name="pictures", description="Show pictures on the table and the end screen here, or not"
    )
    @app_commands.describe(on="On: pictures; off: a compact text layout instead")
    async def pictures(self, interaction: discord.Interaction, on: bool) -> None:
        """``/hats settings pictures on``: pictures (True) or the compact text layout (False)."""

        async def work() -> None:
            guild_id = self._manager_guild(interaction)
            await self.bot.servers.set_pictures(guild_id, on)
            tr = self.tr(interaction)
            await send_private(interaction, pictures_set_text(tr, on))
            await self.redraw_public(guild_id)

        await self.guarded(interaction, work)

    @settings.command(name="timer", description="The turn timer new lobbies here start with")
    @app_commands.describe(seconds="Seconds per turn (at least 10), or 0 for no timer")
    async def timer(
        self, interaction: discord.Interaction, seconds: app_commands.Range[int, 0, 86400]
    ) -> None:
        """``/hats settings timer seconds``: the server's default turn timer; 0: no timer."""

        async def work() -> None:
            guild_id = self._manager_guild(interaction)
            value = check_timer(seconds)
            stored = 0.0 if value is None else value
            await self.bot.servers.set_turn_timer(guild_id, stored)
            tr = self.tr(interaction)
            await send_private(interaction, timer_set_text(tr, value))

        await self.guarded(interaction, work)

    async def zone_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Common zones first, then every IANA zone containing what was typed."""
        needle = fold(current).replace(" ", "_")
        common = [z for z in COMMON_ZONES if needle in fold(z)]
        rest = [z for z in _all_zones() if needle and needle in fold(z) and z not in common]
        return [app_commands.Choice(name=z, value=z) for z in (common + rest)[:25]]

    @settings.command(
        name="timezone", description="The time zone tournament start times are read in here"
    )
    @app_commands.describe(zone="A time zone like Europe/Berlin or America/New_York (or UTC)")
    async def timezone(self, interaction: discord.Interaction, zone: str) -> None:
        """``/hats settings timezone zone``: an IANA zone (``zoneinfo``); UTC is the default."""

        async def work() -> None:
            guild_id = self._manager_guild(interaction)
            name = check_zone(zone)
            await self.bot.store.guild_settings.set_timezone(
                guild_id, None if name == "UTC" else name
            )
            tr = self.tr(interaction)
            local = datetime.fromtimestamp(now(), ZoneInfo(name)).strftime("%H:%M")
            await send_private(
                interaction,
                timezone_set_text(tr, name, local),
            )

        await self.guarded(interaction, work)

    timezone.autocomplete("zone")(zone_autocomplete)

    async def redraw_public(self, guild_id: int) -> None:
        """Redraw the server's open lobbies and live tables (new language or layout)."""
        lobby_cog: Any = self.bot.get_cog("LobbyCog")
        table_cog: Any = self.bot.get_cog("TableCog")
        for row in await self.bot.games.lobbies():
            if row.guild_id == guild_id and lobby_cog is not None:
                await lobby_cog.redraw(None, row, from_button=False)
        for session in await self.bot.games.sessions_in_guild(guild_id):
            if table_cog is not None:
                await table_cog.refresh_table(session)


async def setup(bot: HatsBot) -> None:
    """Load the cog."""
    await bot.add_cog(SettingsCog(bot))
