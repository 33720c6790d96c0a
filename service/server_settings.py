"""Every server's ``/hats settings``, live: read once at start-up, changed through here.

The store keeps one row per server that changed a setting (:mod:`data.guild_settings`); this
keeps the same values in memory so that every message can ask them without a query, and
writes a change to the store before it takes effect here (so nothing the bot confirmed is
lost). Both surfaces (the Discord cogs and the Activity's server) ask the same object.
"""

from __future__ import annotations

from data.guild_settings import GuildOptions, GuildSettings

__all__ = ["GuildOptions", "ServerSettings"]


class ServerSettings:
    """The public language, pictures and default turn timer of each server.

    ``store``: the store's :class:`data.guild_settings.GuildSettings` repository.
    ``default_timer``: the bot's own default turn timer in seconds (``HATS_TURN_TIMER``),
    None for no timer. Outside a server (``guild_id`` None, e.g. DMs) the defaults apply.
    """

    def __init__(self, store: GuildSettings, default_timer: float | None = None) -> None:
        self._store = store
        self._default_timer = default_timer
        self._languages: dict[int, str] = {}
        self._options: dict[int, GuildOptions] = {}
        self._locales: dict[int, str] = {}

    async def load(self) -> None:
        """Read every server's settings from the store (at start-up). Raises StoreError."""
        self._languages = await self._store.languages()
        self._options = await self._store.options()

    def option(self, guild_id: int | None) -> GuildOptions:
        """The pictures and turn-timer settings of a server (the defaults outside one)."""
        return self._options.get(guild_id or 0, GuildOptions())

    def language(self, guild_id: int | None) -> str | None:
        """The language chosen with ``/hats settings language`` (``"de"``...), or None."""
        return None if guild_id is None else self._languages.get(guild_id)

    def lobby_timer(self, guild_id: int | None) -> float | None:
        """A new lobby's turn timer in seconds (None: no timer): the server's, else the bot's."""
        chosen = self.option(guild_id).turn_timer
        if chosen is None:
            return self._default_timer
        return chosen or None

    def note_locale(self, guild_id: int, locale: str) -> None:
        """Remember a server's locale as an interaction reported it (``guild_locale``)."""
        self._locales[guild_id] = locale

    def seen_locale(self, guild_id: int | None) -> str | None:
        """The last locale an interaction reported for a server, or None."""
        return None if guild_id is None else self._locales.get(guild_id)

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Store a server's public language; None: back to the server's own. StoreError."""
        await self._store.set_language(guild_id, language)
        if language is None:
            self._languages.pop(guild_id, None)
        else:
            self._languages[guild_id] = language

    async def set_pictures(self, guild_id: int, on: bool) -> None:
        """Pictures on (the default) or the compact text layout (off). StoreError."""
        await self._store.set_pictures(guild_id, on)
        self._remember(guild_id, GuildOptions(on, self.option(guild_id).turn_timer))

    async def set_turn_timer(self, guild_id: int, seconds: float) -> None:
        """The server's new lobbies' turn timer in seconds; 0: no timer. StoreError."""
        await self._store.set_turn_timer(guild_id, seconds)
        self._remember(guild_id, GuildOptions(self.option(guild_id).pictures, seconds))

    def _remember(self, guild_id: int, options: GuildOptions) -> None:
        if options == GuildOptions():
            self._options.pop(guild_id, None)
        else:
            self._options[guild_id] = options
