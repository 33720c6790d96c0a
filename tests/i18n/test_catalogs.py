"""The catalogs stay complete and right: every msgid in de, es, fr, it; templates up to date.

``messages`` (every text a user reads) and ``commands`` (slash command names and descriptions)
are checked alike. The completeness tests are ``test_messages_catalog_is_complete[<lang>]``
and ``test_commands_catalog_is_complete[<lang>]``; ``test_messages_template_is_up_to_date``
and ``test_commands_template_is_up_to_date`` catch a template that lags behind the code.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import write_po

from cogs.activity import entry_point_strings
from cogs.command_i18n import DOMAIN as COMMANDS
from cogs.command_i18n import CommandString, command_strings
from tests.i18n.catalog_checks import (
    LANGUAGES,
    catalog_problems,
    extract_template,
    key,
    keys,
    read_catalog,
    write_filled_catalog,
)
from tests.i18n.command_support import loaded_bot
from tests.source import parse_source
from texts.i18n import LOCALES_DIR

MESSAGES_POT = LOCALES_DIR / "messages.pot"
COMMANDS_POT = LOCALES_DIR / f"{COMMANDS}.pot"


def _po(lang: str, domain: str) -> Path:
    return LOCALES_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_messages_catalog_is_complete(lang):
    problems = catalog_problems(_po(lang, "messages"), MESSAGES_POT)
    assert not problems, f"{lang}/messages.po: {len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_commands_catalog_is_complete(lang):
    problems = catalog_problems(_po(lang, COMMANDS), COMMANDS_POT)
    assert not problems, f"{lang}/commands.po: {len(problems)} problems:\n" + "\n".join(problems)


def test_messages_template_is_up_to_date(tmp_path):
    fresh = keys(extract_template(tmp_path / "messages.pot"))
    stored = keys(read_catalog(MESSAGES_POT))
    assert len(fresh) > 200
    assert fresh == stored, (
        "messages.pot is out of date: run the pybabel extract command of texts/i18n.py. "
        f"new in the code: {sorted(map(repr, fresh - stored))}; "
        f"gone from the code: {sorted(map(repr, stored - fresh))}"
    )


async def test_commands_template_is_up_to_date(tmp_path):
    async with loaded_bot(tmp_path) as bot:
        fresh = await command_strings(bot.tree.get_commands(), bot.tree)
    fresh.update(entry_point_strings())  # the Activity's Entry Point command (cogs.activity)
    stored = {CommandString(k[0] or "", k[1]) for k in keys(read_catalog(COMMANDS_POT))}
    assert len(fresh) > 50
    new, gone = set(fresh) - stored, stored - set(fresh)
    assert not new and not gone, (
        "commands.pot is out of date: run python scripts/extract_commands.py. "
        f"new: {sorted(map(repr, new))}; gone: {sorted(map(repr, gone))}"
    )


# ---------------------------------------------------------------- the checks can fail


def _filled_copy(tmp_path: Path, lang: str) -> Path:
    """A catalog for ``lang`` with every template msgid 'translated' (placeholders kept)."""
    return write_filled_catalog(tmp_path, lang, lambda msgid: f"«{msgid}»")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_complete_catalog_passes_the_check(tmp_path, lang):
    assert catalog_problems(_filled_copy(tmp_path, lang), MESSAGES_POT) == []


def test_the_check_finds_missing_fuzzy_empty_and_placeholder_mistakes(tmp_path):
    path = _filled_copy(tmp_path, "de")
    catalog = read_catalog(path, locale="de")
    singles = [m for m in catalog if m.id and isinstance(m.id, str) and "{" in m.id]
    plurals = [m for m in catalog if m.id and not isinstance(m.id, str)]
    missing, fuzzy, empty, renamed = singles[:4]
    catalog.delete(missing.id, context=missing.context)
    fuzzy.flags.add("fuzzy")
    empty.string = ""
    renamed.string = renamed.id.replace("{", "{x", 1)
    plurals[0].string = (plurals[0].string[0],)  # one form where German has two
    with path.open("wb") as fh:
        write_po(fh, catalog)
    problems = "\n".join(catalog_problems(path, MESSAGES_POT))
    assert f"missing: {key(missing)!r}" in problems
    assert f"fuzzy: {key(fuzzy)!r}" in problems
    assert f"empty translation: {key(empty)!r}" in problems
    assert "placeholders" in problems and repr(key(renamed)) in problems
    assert repr(key(plurals[0])) in problems  # read back as an empty second form
    assert catalog_problems(tmp_path / "xx" / "LC_MESSAGES" / "messages.po", MESSAGES_POT)


def test_the_check_finds_a_wrong_plural_rule(tmp_path):
    path = _filled_copy(tmp_path, "fr")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("plural=(n > 1)", "plural=(n != 1)"), encoding="utf-8")
    assert any("Plural-Forms" in p for p in catalog_problems(path, MESSAGES_POT))


def test_a_stale_template_is_noticed(tmp_path):
    shutil.copytree(Path(__file__).resolve().parents[2] / "cogs", tmp_path / "cogs")
    shutil.copy(Path(__file__).resolve().parents[2] / "babel.cfg", tmp_path / "babel.cfg")
    (tmp_path / "bot.py").write_text("tr('A brand new sentence.')\n")
    fresh = keys(extract_template(tmp_path / "fresh.pot", root=tmp_path))
    assert (None, "A brand new sentence.") in fresh - keys(read_catalog(MESSAGES_POT))


# ---------------------------------------------------------------- what extraction can see

_KEYWORDS = {"tr", "_", "N_", "ServiceError"}
"""Callables whose first string argument is a msgid (babel.cfg keywords, -k _ -k N_)."""
_TRANSLATOR_MAKERS = {"tr", "tr_for", "public_tr", "for_locale"}


def _code_files() -> list[Path]:
    root = Path(__file__).resolve().parents[2]
    return [
        root / "bot.py",
        *sorted((root / "cogs").rglob("*.py")),
        *sorted((root / "service").rglob("*.py")),
        *sorted((root / "texts").rglob("*.py")),
        *sorted((root / "web").rglob("*.py")),
    ]


def _code_msgids() -> tuple[set, list[str]]:
    """Msgids the code passes to translators (from the syntax tree), and hidden ones.

    Hidden: a string literal handed to a translator pybabel cannot recognise, such as
    ``self.tr(interaction)("...")`` or a translator held in a variable not named ``tr``.
    """
    import ast

    found: set = set()
    hidden: list[str] = []
    for path in _code_files():
        tree = parse_source(path)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            func = node.func
            where = f"{path.name}:{node.lineno}"
            if isinstance(func, ast.Name) and func.id in _KEYWORDS:
                found.add((None, first.value))
            elif isinstance(func, ast.Attribute) and func.attr == "plural":
                second = node.args[1] if len(node.args) > 1 else None
                if isinstance(second, ast.Constant) and isinstance(second.value, str):
                    found.add((None, (first.value, second.value)))
                else:
                    hidden.append(f"{where}: plural without a literal plural form")
            elif isinstance(func, ast.Call):
                inner = func.func
                name = getattr(inner, "attr", getattr(inner, "id", ""))
                if name in _TRANSLATOR_MAKERS:
                    hidden.append(f"{where}: {name}(...)({first.value!r})")
            elif isinstance(func, ast.Name) and func.id.endswith("tr") and func.id != "tr":
                hidden.append(f"{where}: {func.id}({first.value!r})")
    return found, hidden


def test_every_msgid_in_the_code_is_in_the_template():
    """An independent reading of the code (syntax tree, not Babel's tokenizer): every text
    handed to a translator or raised as a ServiceError is in messages.pot, and no text is
    handed to a translator in a form the extractor cannot see."""
    found, hidden = _code_msgids()
    assert not hidden, "call the translator `tr` so pybabel extracts it: " + "; ".join(hidden)
    assert len(found) > 200
    missing = found - keys(read_catalog(MESSAGES_POT))
    assert not missing, f"not in messages.pot (re-extract): {sorted(map(repr, missing))}"
