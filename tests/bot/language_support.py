"""Driving the bot in several languages under simcord: client locales and tagged catalogs.

simcord 3.2.1 sends every interaction with ``locale`` and ``guild_locale`` "en-US".
:func:`set_client_locales` makes each INTERACTION_CREATE carry the user's own client locale
and the server's ``preferred_locale`` as ``guild_locale``, as Discord does.

:func:`tagged_translator` builds catalogs whose every translation is the English text with a
language tag (``"‹de›Join‹/›"``): any text a player reads then says which catalog it came from,
so a test can check that nothing in a DM is in another player's language and nothing public
is in a private one, whatever the real catalogs hold.
"""

from __future__ import annotations

import re
from pathlib import Path

import simcord.interactions

from tests.bot.helpers import text_parts
from tests.i18n.catalog_checks import write_filled_catalog
from texts.i18n import LOCALES_DIR, Translator

TAG = re.compile(r"‹([a-z]{2})›")
"""The opening tag of a translation (``‹de›``); ``‹/›`` closes it."""
_SPAN = re.compile(r"‹[a-z]{2}›[^‹]*‹/›")


def set_client_locales(monkeypatch, locales: dict[int, str]) -> None:
    """Interactions by user ``id`` carry ``locales[id]`` (default en-US) and the guild's locale."""
    real = simcord.interactions.base_payload

    def base_payload(backend, **kwargs):
        record, payload = real(backend, **kwargs)
        payload["locale"] = locales.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)


_tagged: dict[tuple[str, int], bytes] = {}
"""Tagged catalogs already written in this process, by language and messages.pot's mtime."""


def tagged_translator(directory: Path, languages=("de", "es", "fr", "it")) -> Translator:
    """A Translator whose catalogs translate every msgid of messages.pot to ``‹lang›msgid‹/›``.

    Each call gets its own catalog files under ``directory`` and its own Translator; the
    catalogs' bytes are made once per process (0.4 s, most of a lesson test's set-up).
    """
    stamp = (LOCALES_DIR / "messages.pot").stat().st_mtime_ns
    for lang in languages:
        cached = _tagged.get((lang, stamp))
        if cached is None:
            path = write_filled_catalog(
                directory, lang, lambda msgid, lang=lang: f"‹{lang}›{msgid}‹/›"
            )
            _tagged[(lang, stamp)] = path.read_bytes()
        else:
            path = directory / lang / "LC_MESSAGES" / "messages.po"
            path.parent.mkdir(parents=True)
            path.write_bytes(cached)
    return Translator.load(directory)


def texts_of(message) -> list[str]:
    """Every text of a discord.Message a user reads: content, embeds, V2 text displays,
    component labels, and the pictures' alt texts (the attachments' own: a media gallery item
    repeats its attachment's)."""
    return text_parts(message) + [a.description for a in message.attachments if a.description]


def tags_of(message) -> set[str]:
    """The catalog languages the texts of ``message`` came from (empty: all English)."""
    return {t for text in texts_of(message) for t in TAG.findall(text)}


def untranslated(text: str) -> str:
    """``text`` without its translated spans (innermost first): what no catalog produced."""
    while True:
        stripped = _SPAN.sub("", text)
        if stripped == text:
            return stripped
        text = stripped
