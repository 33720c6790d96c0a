"""Slash command localizations: a discord.py ``app_commands.Translator`` over ``commands.po``.

Discord shows each user the command, subcommand, option and choice names and descriptions
in their client language when the synced payload carries ``name_localizations`` and
``description_localizations`` (Discord: Localization, "Application Commands"). discord.py
asks the tree's translator for every such string while building the payload
(``tree.sync``; ``HatsBot.command_payload`` for the sync hash).

These strings live in their own gettext domain, separate from the messages' one::

    texts/locales/commands.pot                    template, built from the command tree
    texts/locales/<lang>/LC_MESSAGES/commands.po  one catalog per language (de, es, fr, it)

The msgid is the English string; the msgctxt says where it is used (``command name``,
``command description``, ``option name``, ``option description``, ``choice name``), so a
name and a sentence that happen to be spelled alike never share a translation. Rebuild the
template after changing a command (``python scripts/extract_commands.py``); the tests fail while it
is out of date, a catalog misses an entry, or a localized name breaks Discord's rules.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import discord
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from texts.i18n import LOCALES_DIR

__all__ = [
    "COMMAND_LOCALES",
    "CONTEXTS",
    "DOMAIN",
    "CommandString",
    "CommandTranslator",
    "command_strings",
    "invalid_description_reason",
    "invalid_name_reason",
    "write_template",
]

DOMAIN = "commands"
"""The gettext domain of the command strings (``commands.pot`` / ``commands.po``)."""

COMMAND_LOCALES: Mapping[discord.Locale, str] = {
    discord.Locale.german: "de",
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.french: "fr",
    discord.Locale.italian: "it",
}
"""Discord locales that get localizations, and the catalog each one reads."""

CONTEXTS: Mapping[Where, str] = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice name",
}
"""The msgctxt of each place a command string can sit in."""

NAME_CONTEXTS = frozenset({"command name", "option name"})
"""Contexts whose strings must obey Discord's naming rules (:func:`invalid_name_reason`)."""


@dataclass(frozen=True, slots=True)
class CommandString:
    """One translatable string of the command tree: ``context`` (msgctxt) and English ``msgid``."""

    context: str
    msgid: str


class CommandTranslator(app_commands.Translator):
    """Looks up command strings in ``<lang>/LC_MESSAGES/commands.po`` (fuzzy/empty ignored).

    ``tables`` maps a catalog language (``"de"``) to ``{CommandString: translation}``.
    Returns None (no localization) for other locales and for strings without a translation.
    """

    def __init__(self, tables: Mapping[str, Mapping[CommandString, str]]) -> None:
        super().__init__()
        self.tables = {lang: dict(table) for lang, table in tables.items()}

    @classmethod
    def from_catalogs(cls, directory: str | Path | None = None) -> CommandTranslator:
        """Read every ``<directory>/<lang>/LC_MESSAGES/commands.po`` (default: LOCALES_DIR).

        Raises babel.messages.pofile.PoFileError (a ValueError) on a malformed catalog.
        """
        root = Path(directory) if directory is not None else LOCALES_DIR
        tables: dict[str, dict[CommandString, str]] = {}
        for path in sorted(root.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
            with path.open("rb") as fh:
                catalog = read_po(fh, abort_invalid=True)
            tables[path.parent.parent.name] = {
                CommandString(m.context or "", m.id): m.string
                for m in catalog
                if m.id and isinstance(m.string, str) and m.string and not m.fuzzy
            }
        return cls(tables)

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The localization of ``string`` for ``locale`` at ``context``'s place, or None."""
        where = CONTEXTS.get(context.location)
        if where is None:
            return None
        return self.lookup(locale, CommandString(where, string.message), context.data)

    def lookup(self, locale: discord.Locale, key: CommandString, owner: object) -> str | None:
        """The translation of ``key`` for ``locale`` (``owner``: the command, option or choice)."""
        lang = COMMAND_LOCALES.get(locale)
        return self.tables.get(lang, {}).get(key) if lang is not None else None


class _Recorder(CommandTranslator):
    """Collects every string discord.py asks to translate (and translates none)."""

    def __init__(self) -> None:
        super().__init__({})
        self.seen: dict[CommandString, set[str]] = {}

    def lookup(self, locale: discord.Locale, key: CommandString, owner: object) -> str | None:
        """Note ``key`` and who uses it; no translation."""
        name = getattr(owner, "qualified_name", None) or getattr(owner, "name", "")
        if isinstance(owner, app_commands.Parameter):  # name its command too
            name = f"{owner.command.qualified_name} {name}"
        self.seen.setdefault(key, set()).add(name)
        return None


async def command_strings(
    commands: Iterable[app_commands.Command | app_commands.Group | app_commands.ContextMenu],
    tree: app_commands.CommandTree,
) -> dict[CommandString, set[str]]:
    """Every translatable string of ``commands`` -> the commands/options that use it.

    Found by building the translated payload exactly as ``tree.sync`` does, with a translator
    that records what it is asked.
    """
    recorder = _Recorder()
    for command in commands:
        await command.get_translated_payload(tree, recorder)
    return recorder.seen


def write_template(strings: Mapping[CommandString, set[str]], path: str | Path) -> None:
    """Write ``strings`` as a gettext template (sorted, the users as comments)."""
    catalog = Catalog(project="hats-discord", domain=DOMAIN, fuzzy=False)
    for s in sorted(strings, key=lambda s: (s.context, s.msgid)):
        catalog.add(
            s.msgid, context=s.context, auto_comments=["used by: " + ", ".join(sorted(strings[s]))]
        )
    with Path(path).open("wb") as fh:
        write_po(fh, catalog, omit_header=False, width=100, sort_output=False)


_NAME_MAX = 32


def invalid_name_reason(name: str) -> str | None:
    r"""Why ``name`` is not a valid Discord command/option name, or None when it is.

    Discord: ``^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, and letters that have a
    lowercase form must be lowercase (Discord API docs, "Application Command Naming").
    """
    if not 1 <= len(name) <= _NAME_MAX:
        return f"{len(name)} characters (1–32 allowed)"
    for ch in name:
        category = unicodedata.category(ch)
        if ch in "-_" or category[0] in "LN" or category in ("Mn", "Mc"):
            continue  # Mn/Mc: Devanagari and Thai combining marks
        return f"character {ch!r} is not allowed"
    if name != name.lower():
        return "must be lowercase"
    return None


_DESCRIPTION_MAX = 100


def invalid_description_reason(text: str) -> str | None:
    """Why ``text`` is not a valid command/option description (1–100 characters), or None."""
    if not 1 <= len(text) <= _DESCRIPTION_MAX:
        return f"{len(text)} characters (1–100 allowed)"
    return None
