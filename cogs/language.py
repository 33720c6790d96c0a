"""The languages of the bot's public messages in a server (``/hats settings language``).

Which language where (docs/translators.md): private answers (ephemeral) and DMs follow the
user's own Discord language (``interaction.locale``, remembered for DMs); public messages
(lobby, table, end screen, channel notices, team threads) follow the server: the language set
with ``/hats settings language`` (:mod:`cogs.settings`) by a server manager, else the
server's own language (Discord's community ``preferred_locale``, sent as
``interaction.guild_locale``). The setting is stored (``data.guild_settings``, migration
0006) and survives restarts.
"""

from __future__ import annotations

import unicodedata

__all__ = ["DEFAULT_CHOICE", "LANGUAGE_NAMES", "fold", "parse_language"]

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


def fold(text: str) -> str:
    """``text`` for matching: trimmed, case-folded, without accents (``Français``: ``francais``)."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def parse_language(text: str) -> str | None:
    """A language code of :data:`LANGUAGE_NAMES`, :data:`DEFAULT_CHOICE`, or None if unknown.

    Reads codes (``de``, ``es-ES``, ``fr_CA``) and the languages' names in any of the five
    languages, case and accents ignored (``francais``, ``Español``).
    """
    folded = fold(text)
    if not folded:
        return None
    code = folded.replace("_", "-").split("-", 1)[0]
    if code in LANGUAGE_NAMES and len(folded) <= 6:
        return code
    return _ALIASES.get(folded)
