"""Slash commands carry de/es-ES/fr/it localizations valid per Discord's rules (as synced)."""

from __future__ import annotations

import hashlib
import json

import pytest

from cogs.command_i18n import (
    COMMAND_LOCALES,
    CommandString,
    CommandTranslator,
    invalid_description_reason,
    invalid_name_reason,
)
from tests.i18n.command_support import loaded_bot

REQUIRED = ("de", "es-ES", "fr", "it")
"""Discord locale codes every name and description must be localized for (issue 10)."""
SUB_TYPES = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP


def _nodes(payload: dict, path: str = ""):
    """Every command, subcommand, option and choice of a synced payload, with its path."""
    here = f"{path} {payload['name']}".strip()
    yield here, payload
    for option in payload.get("options") or ():
        yield from _nodes(option, here)
    for choice in payload.get("choices") or ():
        yield f"{here} = {choice['name']}", {**choice, "kind": "choice"}


def _problems(commands: list[dict]) -> list[str]:
    problems = []
    for command in commands:
        for path, node in _nodes(command):
            names = node.get("name_localizations") or {}
            for locale in REQUIRED:
                if locale not in names:
                    problems.append(f"{path}: no {locale} name")
                    continue
                if node.get("kind") == "choice":
                    if not 1 <= len(names[locale]) <= 100:
                        problems.append(f"{path}: {locale} choice name length")
                elif reason := invalid_name_reason(names[locale]):
                    problems.append(f"{path}: {locale} name {names[locale]!r}: {reason}")
            if node.get("kind") == "choice":
                continue
            if reason := invalid_name_reason(node["name"]):
                problems.append(f"{path}: name: {reason}")
            descriptions = node.get("description_localizations") or {}
            for locale in REQUIRED:
                text = descriptions.get(locale)
                if text is None:
                    problems.append(f"{path}: no {locale} description")
                elif reason := invalid_description_reason(text):
                    problems.append(f"{path}: {locale} description {text!r}: {reason}")
            if node.get("description") in (None, "", "…"):
                problems.append(f"{path}: no English description")
            # siblings must keep distinct names in every language (Discord refuses duplicates)
            children = node.get("options") or []
            for locale in (None, *REQUIRED):
                seen = [
                    (c.get("name_localizations") or {}).get(locale, c["name"])
                    if locale
                    else c["name"]
                    for c in children
                ]
                if len(seen) != len(set(seen)):
                    problems.append(f"{path}: duplicate option names in {locale or 'en'}: {seen}")
    return problems


async def test_every_synced_command_is_localized_validly(simcord_env):
    """What simcord received from ``tree.sync``: the real payload Discord would get."""
    synced = list(simcord_env.backend.commands[None].values())
    assert [c["name"] for c in synced] == ["hats"]
    nodes = [n for c in synced for n in _nodes(c)]
    assert len(nodes) > 40  # every subcommand and option was walked
    assert not _problems(synced), "\n".join(_problems(synced))
    hats = synced[0]
    subs = {o["name"]: o for o in hats["options"]}
    assert subs["new"]["name_localizations"]["de"] == "neu"
    assert subs["blackhat"]["name_localizations"]["fr"] == "chapeau-noir"
    ai = {o["name"]: o for o in subs["ai"]["options"]}
    assert set(ai) == {"add", "remove"} and "addbot" not in subs and "removebot" not in subs
    assert subs["ai"]["name_localizations"]["de"] == "ki"
    level = next(o for o in ai["add"]["options"] if o["name"] == "level")
    assert {c["name_localizations"]["it"] for c in level["choices"]} == {
        "facile",
        "normale",
        "difficile",
        "esperto",
    }
    assert len(hats["options"]) <= 25  # Discord's limit of subcommands and groups per command
    assert "history" in subs


async def test_the_sync_hash_covers_the_localizations(simcord_env):
    bot = simcord_env.bot
    payload = await bot.command_payload()
    digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
    assert await bot.store.meta.get("commands_synced:global") == digest
    assert payload[0]["options"][0]["name_localizations"]  # localizations are in the hash


async def test_a_changed_translation_changes_the_payload(tmp_path):
    async with loaded_bot(tmp_path) as bot:
        before = await bot.command_payload()
        tables = {lang: dict(t) for lang, t in bot.tree.translator.tables.items()}
        tables["de"][CommandString("command name", "new")] = "neues-spiel"
        await bot.tree.set_translator(CommandTranslator(tables))
        after = await bot.command_payload()
    assert before != after
    assert "neues-spiel" in json.dumps(after, ensure_ascii=False)


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("neu", True),
        ("zug-beenden", True),
        ("ki-hinzufügen", True),
        ("défausser", True),
        ("intercambio-compañero", True),
        ("Neu", False),
        ("zug beenden", False),
        ("a" * 33, False),
        ("", False),
        ("hats!", False),
    ],
)
def test_the_naming_rule(name, ok):
    assert (invalid_name_reason(name) is None) is ok


def test_the_bad_payload_check_can_fail():
    bad = [
        {
            "name": "hats",
            "description": "x",
            "name_localizations": {"de": "Hats", "fr": "hats", "it": "hats"},
            "description_localizations": {"de": "x", "es-ES": "x", "fr": "x", "it": "y" * 101},
            "options": [
                {"name": "a", "description": "x", "name_localizations": {"de": "b"}},
                {"name": "b", "description": "x"},
            ],
        }
    ]
    text = "\n".join(_problems(bad))
    assert "no es-ES name" in text and "'Hats'" in text and "1–100" in text
    assert "duplicate option names in de" in text


def test_every_command_locale_has_a_catalog():
    tables = CommandTranslator.from_catalogs().tables
    assert set(COMMAND_LOCALES.values()) <= set(tables)


async def test_texts_mention_commands_so_discord_shows_them_localized(world, make_bot):
    """``/hats new`` in a text becomes ``</hats new:ID>`` (Discord renders it in the reader's
    language); after a restart without a re-sync the ids come from the store."""
    hats_id = world.env.backend.commands[None][("hats", 1)]["id"]
    r = await world.players[0].slash(world.channel, "hats lobby join")
    assert r.response.content.endswith(f"Open one with </hats new:{hats_id}>.")
    synced = []
    bot = make_bot()
    real_sync = bot.tree.sync

    async def sync(**kwargs):
        synced.append(kwargs)
        return await real_sync(**kwargs)

    bot.tree.sync = sync
    await world.env.restart_bot(bot)
    assert synced == []  # unchanged commands: no sync, ids read back
    r = await world.players[1].slash(world.channel, "hats lobby join")
    assert r.response.content.endswith(f"Open one with </hats new:{hats_id}>.")


def test_command_mentions_in_translated_texts():
    from texts.i18n import Translator

    translator = Translator.load()
    tr = translator.for_locale("de")
    plain = tr("There is no open lobby in this channel. Open one with /hats new.")
    assert "/hats neu" in plain  # no id yet: the German command name
    translator.set_command_mentions({"hats new": 7, "hats back": 7, "hats team message": 7})
    tr = translator.for_locale("de")
    assert tr("There is no open lobby in this channel. Open one with /hats new.") == (
        plain.replace("/hats neu", "</hats new:7>")
    )
    english = translator.for_locale(None)
    text = english(
        "You missed {n} turns in a row, so the AI now plays for you in game #{game}. Make any "
        "move or use /hats back to take your seat back.",
        n=3,
        game=1,
    )
    assert "use </hats back:7> to take" in text
    assert english("use /hats team message and /hats nothing") == (
        "use </hats team message:7> and /hats nothing"
    )
    # a parameter is data (a name, a team message): never turned into a command mention
    assert english("{x}", x="use /hats team message") == "use /hats team message"
