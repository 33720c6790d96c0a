"""The translation layer: every text a user reads goes through a :class:`Tr`.

English is the source language: a msgid is the whole English sentence, with named
placeholders (``"{who} played {card} on slot {slot}."``), never a fragment to concatenate.
Catalogs are gettext ``.po`` files, read once at start-up (no compiled ``.mo`` and no build
step, so a plain ``pip install -e .`` checkout works)::

    texts/locales/messages.pot                    template, extracted from the sources
    texts/locales/<lang>/LC_MESSAGES/messages.po  one catalog per language (fr, de, es, it)

Usage::

    translator = Translator.load()                 # once, at start-up
    tr = translator.for_locale(interaction.locale)  # per interaction (discord.Locale)
    tr("It's {who}'s turn.", who=mention)
    tr.plural("{n} card in hand", "{n} cards in hand", count)

Extraction recognises ``tr(...)``, ``_(...)``, ``N_(...)`` and ``<anything>.plural(s, p, n)``
(the ``tr`` and ``plural`` keywords are set in ``babel.cfg``). Keep the msgid a string literal
at the call; for strings defined at import time, wrap them in :func:`N_` and translate later.

Catalog commands (run from the repository root)::

    pybabel extract -F babel.cfg -k _ -k N_ -o texts/locales/messages.pot .
    pybabel update -i texts/locales/messages.pot -d texts/locales \
        --no-fuzzy-matching --ignore-obsolete                        # refresh every .po
    pybabel init -i texts/locales/messages.pot -d texts/locales -l de  # start a new language

Then fill the ``msgstr`` entries of the ``.po`` files; nothing needs compiling. Fuzzy and
empty entries are ignored (they fall back to English), so a guessed translation is never
shown. ``tests/i18n/test_catalogs.py`` fails when a de/es/fr/it catalog misses a msgid, has
a fuzzy or empty entry or changed placeholders, or when the template lags behind the code.
Slash command names and descriptions have their own domain (``commands``, see
:mod:`cogs.command_i18n`). Private texts use the user's locale, public ones the server's
(``HatsBot.public_tr``, ``/hats settings language``: :mod:`cogs.settings`).

Placeholders use ``str.format``: a literal brace in a msgid is written ``{{`` or ``}}``.
"""

from __future__ import annotations

import gettext
import io
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from service.errors import N_

__all__ = ["DEFAULT_LANGUAGE", "LOCALES_DIR", "N_", "Tr", "Translator"]

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
"""Where the catalogs live: ``<LOCALES_DIR>/<lang>/LC_MESSAGES/messages.po``."""

DEFAULT_LANGUAGE = "en"
"""The source language: msgids are English, so English needs no catalog."""

DOMAIN = "messages"


@dataclass(frozen=True, slots=True)
class Tr:
    """Translates and formats for one language.

    ``locale`` is the catalog language actually used (``"fr"``, or ``"en"`` for English and
    every language without a catalog); ``requested`` is what was asked for (``"fr"``,
    ``"en-US"``, ``None``). Build one with :meth:`Translator.for_locale` (or
    :meth:`Tr.english` in tests).
    """

    locale: str
    translations: gettext.NullTranslations = field(repr=False, compare=False)
    requested: str | None = None
    mentions: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    """Slash command paths (``"hats hand"``) -> Discord command mentions, see
    :meth:`Translator.set_command_mentions`."""
    command_names: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    """English command and group names (``"hand"``) -> this language's (``"mano"``), from
    ``commands.po``: the fallback of :meth:`command` where no command id is known."""

    @classmethod
    def english(cls) -> Tr:
        """The English (source language) translator: msgids are returned as they are."""
        return cls(DEFAULT_LANGUAGE, gettext.NullTranslations())

    def __call__(self, msgid: str, /, **params: Any) -> str:
        """Translate ``msgid`` and fill its ``{placeholders}`` with ``params`` (str.format).

        An unknown msgid comes back in English. If a translation's placeholders do not match
        ``params`` (a catalog mistake), the English sentence is used and a warning logged.
        Raises KeyError/IndexError only when the English msgid itself does not match.
        """
        return self._format(self.translations.gettext(msgid), msgid, params)

    def plural(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The form of ``singular``/``plural`` for count ``n`` (ngettext), then formatted.

        ``n`` is also available as ``{n}`` (unless ``params`` sets ``n`` itself).
        """
        params.setdefault("n", n)
        text = self.translations.ngettext(singular, plural, n)
        english = singular if n == 1 else plural
        return self._format(text, english, params)

    def _format(self, text: str, english: str, params: Mapping[str, Any]) -> str:
        # command mentions first: a parameter (a name, a team message) is data, never a command
        try:
            return self._mention(text).format(**params)
        except (KeyError, IndexError, ValueError):
            if text == english:
                raise
            log.warning("bad placeholders in %s translation of %r", self.locale, english)
            return self._mention(english).format(**params)

    def command(self, path: str) -> str:
        """The slash command ``path`` (``"hats hand"``) as text a reader can use.

        Its Discord mention ``</hats hand:ID>`` when the synced id is known (Discord shows it
        in the reader's own language and runs it on a tap; Discord docs, message formatting,
        "Slash command mention"), else the command's localized name (``/hats mano``).
        """
        mention = self.mentions.get(path)
        if mention is not None:
            return mention
        return "/" + " ".join(self.command_names.get(w, w) for w in path.split(" "))

    def _mention(self, text: str) -> str:
        """Every ``/hats hand`` in ``text`` written as :meth:`command` writes it."""
        if "/" not in text or not (self.mentions or self.command_names):
            return text

        def replace(match: re.Match[str]) -> str:
            words = match.group(0)[1:].split(" ")
            for end in range(len(words), 1, -1):  # the longest known path wins
                path = " ".join(words[:end])
                if path in self.mentions:
                    return self.command(path) + "".join(f" {w}" for w in words[end:])
            if words[0] != "hats" or not self.command_names:
                return match.group(0)
            end = 1  # no id: the leading words that are command names, localized
            while end < len(words) and words[end] in self.command_names:
                end += 1
            if end == 1:
                return match.group(0)
            return self.command(" ".join(words[:end])) + "".join(f" {w}" for w in words[end:])

        return _COMMAND_PATH.sub(replace, text)


def _command_names(root: Path) -> dict[str, dict[str, str]]:
    """Per language, English -> localized command and group names (``commands.po``).

    Read from ``<root>/<lang>/LC_MESSAGES/commands.po``, msgctxt ``command name``; fuzzy and
    empty entries left out.
    """
    out: dict[str, dict[str, str]] = {}
    for po_path in sorted(root.glob("*/LC_MESSAGES/commands.po")):
        with po_path.open("rb") as fh:
            catalog = read_po(fh, abort_invalid=True)
        out[po_path.parent.parent.name] = {
            m.id: m.string
            for m in catalog
            if m.context == "command name"
            and isinstance(m.string, str)
            and m.string
            and not m.fuzzy
        }
    return out


_COMMAND_PATH = re.compile(r"(?<![<\w])/[a-z]+(?: [a-z]+){1,2}")


class Translator:
    """Every loaded catalog; hands out a :class:`Tr` per locale.

    Build it once with :meth:`load`; it is immutable afterwards and safe to share.
    """

    def __init__(
        self,
        catalogs: Mapping[str, gettext.NullTranslations],
        command_names: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        """Wrap ready ``catalogs`` keyed by language (``"fr"``, ``"pt_BR"``); see :meth:`load`.

        ``command_names``: per language, English command names -> localized ones.
        """
        names = command_names or {}
        self._trs: dict[str, Tr] = {
            lang: Tr(lang, translations, command_names=dict(names.get(lang, {})))
            for lang, translations in catalogs.items()
        }
        self._trs.setdefault(DEFAULT_LANGUAGE, Tr.english())
        self._lower = {lang.lower(): lang for lang in self._trs}
        self._mentions: dict[str, str] = {}

    def set_command_mentions(self, ids: Mapping[str, int]) -> None:
        """Write slash commands in texts as Discord mentions (``</hats hand:ID>``).

        ``ids`` maps each command path (``"hats hand"``, ``"hats team message"``) to its
        top-level command's id.

        ``</hats hand:ID>`` shows the command in the reader's own language and runs it when
        clicked (Discord: message formatting, "Slash command mention"). Without ids texts
        keep the plain ``/hats hand``.
        """
        self._mentions.clear()
        self._mentions.update({path: f"</{path}:{cid}>" for path, cid in ids.items()})

    @classmethod
    def load(cls, directory: str | Path | None = None) -> Translator:
        """Read every ``<directory>/<lang>/LC_MESSAGES/messages.po`` (default: LOCALES_DIR).

        A missing directory gives an English-only translator. Raises
        babel.messages.pofile.PoFileError (a ValueError) on a malformed catalog.
        """
        root = Path(directory) if directory is not None else LOCALES_DIR
        catalogs: dict[str, gettext.NullTranslations] = {}
        for po_path in sorted(root.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
            lang = po_path.parent.parent.name
            with po_path.open("rb") as fh:
                catalog = read_po(fh, locale=lang, abort_invalid=True)
            buf = io.BytesIO()
            write_mo(buf, catalog)  # fuzzy and untranslated entries are left out
            buf.seek(0)
            catalogs[lang] = gettext.GNUTranslations(buf)
        return cls(catalogs, _command_names(root))

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages with a catalog, English included, sorted."""
        return tuple(sorted(self._trs))

    def for_server(self, language: str | None, locale: object) -> Tr:
        """The translator for a server's public messages (lobby, table, end screen, notices).

        ``language``: the one chosen with ``/hats settings language``, which wins;
        ``locale``: the server's own (its community locale). English when neither is known.
        """
        return self.for_locale(language or locale)

    def for_locale(self, locale: object) -> Tr:
        """The translator for a Discord locale (``discord.Locale.french``, ``"es-ES"``, ...).

        Tries the full tag (``es_ES``), then the language (``es``); en-US, en-GB, None and
        every language without a catalog get English.
        """
        if locale is None:
            english = self._trs[DEFAULT_LANGUAGE]
            return Tr(english.locale, english.translations, mentions=self._mentions)
        tag = str(getattr(locale, "value", locale))
        norm = tag.strip().replace("-", "_").lower()
        for candidate in (norm, norm.split("_", 1)[0]):
            lang = self._lower.get(candidate)
            if lang is not None:
                tr = self._trs[lang]
                break
        else:
            tr = self._trs[DEFAULT_LANGUAGE]
        return Tr(
            tr.locale,
            tr.translations,
            requested=tag,
            mentions=self._mentions,
            command_names=tr.command_names,
        )
