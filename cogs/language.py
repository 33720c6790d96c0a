"""``/hats language``: the language of the bot's public messages in a server.

Which language where (README, "Translations"): private answers (ephemeral) and DMs follow the
user's own Discord language (``interaction.locale``, remembered for DMs); public messages
(lobby, table, end screen, channel notices, team threads) follow the server: the language set
here by a server manager, else the server's own language (Discord's community
``preferred_locale``, sent as ``interaction.guild_locale``). The setting is stored
(``data.guild_settings``, migration 0006) and survives restarts.
"""

from __future__ import annotations

import logging
import unicodedata
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.base import HatsFeature
from cogs.replies import send_private
from service import ServiceError

if TYPE_CHECKING:
    from bot import HatsBot
    from cogs.i18n import Tr

__all__ = ["DEFAULT_CHOICE", "LANGUAGE_NAMES", "LanguageCog", "parse_language"]

log = logging.getLogger("hats.language")

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
    "it": "Italiano",
}
"""The languages the bot speaks, each by its own name (never translated)."""

DEFAULT_CHOICE = "default"
"""The option value that goes back to the server's own language."""

_ALIASES: dict[str, str] = {
    "english": "en",
    "englisch": "en",
    "ingles": "en",
    "anglais": "en",
    "inglese": "en",
    "german": "de",
    "deutsch": "de",
    "aleman": "de",
    "allemand": "de",
    "tedesco": "de",
    "spanish": "es",
    "spanisch": "es",
    "espanol": "es",
    "espagnol": "es",
    "spagnolo": "es",
    "french": "fr",
    "franzosisch": "fr",
    "frances": "fr",
    "francais": "fr",
    "francese": "fr",
    "italian": "it",
    "italienisch": "it",
    "italiano": "it",
    "italien": "it",
    "reset": DEFAULT_CHOICE,
    "default": DEFAULT_CHOICE,
    "server": DEFAULT_CHOICE,
}


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def parse_language(text: str) -> str | None:
    """A language code of :data:`LANGUAGE_NAMES`, :data:`DEFAULT_CHOICE`, or None if unknown.

    Reads codes (``de``, ``es-ES``, ``fr_CA``) and the languages' names in any of the five
    languages, case and accents ignored (``francais``, ``Español``).
    """
    folded = _fold(text)
    if not folded:
        return None
    code = folded.replace("_", "-").split("-", 1)[0]
    if code in LANGUAGE_NAMES and len(folded) <= 6:
        return code
    return _ALIASES.get(folded)


class LanguageCog(HatsFeature, name="LanguageCog"):
    """``/hats language``: server managers choose the language of public messages."""

    def __init__(self, bot: HatsBot) -> None:
        super().__init__(bot)

    def _default_name(self, guild_id: int, tr: Tr) -> str:
        own = self.bot.translator.for_locale(self.bot.server_locale(guild_id)).locale
        return tr("Server default ({language})", language=LANGUAGE_NAMES.get(own, own))

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
        needle = _fold(current)
        return [c for c in choices if not needle or needle in _fold(c.name)][:25]

    @app_commands.command(
        name="language",
        description="Set the language of the bot's public messages here (server managers)",
    )
    @app_commands.describe(language="A language, or the server default")
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        """``/hats language language``: store the server's public language, or reset it."""

        async def work() -> None:
            guild_id = interaction.guild_id
            if guild_id is None:
                raise ServiceError(
                    "The language is a server setting: use this command in a server channel."
                )
            perms = getattr(interaction.user, "guild_permissions", None)
            if not (perms and perms.manage_guild):
                raise ServiceError(
                    "Only members with the Manage Server permission can change the language "
                    "of my public messages here."
                )
            code = parse_language(language)
            if code is None:
                raise ServiceError(
                    "I do not speak {value}. Choose one of: {choices}, or the server default.",
                    value=repr(language)[:40],
                    choices=", ".join(f"{n} ({c})" for c, n in LANGUAGE_NAMES.items()),
                )
            chosen = None if code == DEFAULT_CHOICE else code
            await self.bot.store.guild_settings.set_language(guild_id, chosen)
            if chosen is None:
                self.bot.guild_languages.pop(guild_id, None)
            else:
                self.bot.guild_languages[guild_id] = chosen
            tr = self.tr(interaction)
            if chosen is None:
                text = tr(
                    "My public messages here now follow the server's language: {language}.",
                    language=self._default_name(guild_id, tr),
                )
            else:
                text = tr(
                    "My public messages here are now in {language}.",
                    language=LANGUAGE_NAMES[chosen],
                )
            await send_private(interaction, text)
            await self.redraw_public(guild_id)

        await self.guarded(interaction, work)

    language.autocomplete("language")(language_autocomplete)

    async def redraw_public(self, guild_id: int) -> None:
        """Redraw the server's open lobbies and live tables in the new language."""
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
    await bot.add_cog(LanguageCog(bot))
