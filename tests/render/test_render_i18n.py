"""The translation layer: locale fallback, French catalog, plurals, template completeness."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import discord
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from tests.source import parse_source
from texts.i18n import LOCALES_DIR, N_, Tr, Translator

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def translator() -> Translator:
    return Translator.load()


def test_french_locale_gets_french_text_with_placeholders_filled(translator):
    tr = translator.for_locale(discord.Locale.french)
    assert tr.locale == "fr"
    assert tr("{who} made a black hat.", who="<@42>") == "<@42> crée un chapeau noir."
    assert (
        tr(
            "{who} played {card} on slot {slot} and took {took}.",
            who="X",
            card="🟥5",
            slot=3,
            took="🟦2",
        )
        == "X pose 🟥5 sur le 3, prend 🟦2."
    )


def test_unknown_msgid_falls_back_to_english_and_is_formatted(translator):
    tr = translator.for_locale("fr")
    assert tr("No such sentence, {name}.", name="Ada") == "No such sentence, Ada."


@pytest.mark.parametrize(
    "locale",
    [discord.Locale.american_english, discord.Locale.british_english, None, "ja", "xx-YY", ""],
)
def test_english_and_unknown_locales_get_english(translator, locale):
    tr = translator.for_locale(locale)
    assert tr.locale == "en"
    assert tr("{who} made a black hat.", who="A") == "A made a black hat."


def test_region_tags_fall_back_to_the_language(translator):
    assert translator.for_locale("fr-CA").locale == "fr"
    assert translator.for_locale("FR").locale == "fr"
    assert translator.for_locale("fr-CA").requested == "fr-CA"


def test_plural_follows_each_language(translator):
    en = translator.for_locale("en-GB")
    fr = translator.for_locale("fr")
    forms = ("{n} card in hand", "{n} cards in hand")
    assert en.plural(*forms, 1) == "1 card in hand"
    assert en.plural(*forms, 0) == "0 cards in hand"
    assert fr.plural(*forms, 0) == "0 carte en main"  # French: 0 and 1 are singular
    assert fr.plural(*forms, 1) == "1 carte en main"
    assert fr.plural(*forms, 7) == "7 cartes en main"


def test_n_marks_without_translating():
    assert N_("red") == "red"


def _write_po(directory: Path, lang: str, body: str) -> None:
    path = directory / lang / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True)
    header = (
        f'msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
        '"Content-Type: text/plain; charset=utf-8\\n"\n\n'
    )
    path.write_text(header + body, encoding="utf-8")


def test_region_catalog_wins_over_language_and_fuzzy_is_ignored(tmp_path):
    _write_po(
        tmp_path, "es", 'msgid "Hello"\nmsgstr "Hola"\n\n#, fuzzy\nmsgid "Bye"\nmsgstr "Adiós"\n'
    )
    _write_po(tmp_path, "pt_BR", 'msgid "Hello"\nmsgstr "Olá"\n')
    translator = Translator.load(tmp_path)
    assert translator.languages == ("en", "es", "pt_BR")
    assert translator.for_locale(discord.Locale.spain_spanish)("Hello") == "Hola"
    assert translator.for_locale(discord.Locale.latin_american_spanish)("Hello") == "Hola"
    assert translator.for_locale(discord.Locale.brazil_portuguese)("Hello") == "Olá"
    assert translator.for_locale("es")("Bye") == "Bye"  # a fuzzy guess is never shown


def test_translation_with_wrong_placeholder_falls_back_to_english(tmp_path):
    _write_po(tmp_path, "de", 'msgid "Hi {name}"\nmsgstr "Hallo {nome}"\n')
    tr = Translator.load(tmp_path).for_locale("de")
    assert tr("Hi {name}", name="Ada") == "Hi Ada"


def test_missing_directory_gives_english_only(tmp_path):
    translator = Translator.load(tmp_path / "nowhere")
    assert translator.languages == ("en",)
    assert translator.for_locale("fr")("Tea table") == "Tea table"


def test_english_tr_returns_msgids():
    assert Tr.english()("Tea table") == "Tea table"
    assert Tr.english().plural("{n} hour", "{n} hours", 2) == "2 hours"


# ---------------------------------------------------------------- catalogs and template


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _extracted(subdir: str) -> set[str]:
    """Msgids of ``subdir`` extracted with babel.cfg's own settings (as pybabel does)."""
    with (ROOT / "babel.cfg").open() as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    keywords = {"_": None, "N_": None}
    ids: set[str] = set()
    for filename, _lineno, message, _comments, _context in extract_from_dir(
        ROOT, method_map, options_map, keywords=keywords
    ):
        if filename.startswith(subdir):
            ids.add(message if isinstance(message, str) else message[0])
    return ids


def _pot_ids() -> set[str]:
    with (LOCALES_DIR / "messages.pot").open("rb") as fh:
        catalog = read_po(fh)
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def test_every_render_msgid_is_in_the_template():
    used = _extracted("texts") | _extracted("cogs/i18n")
    assert len(used) > 100  # tr(), tr.plural() and N_() calls are all recognised
    assert "{n} card in hand" in used  # tr.plural(...)
    assert "red" in used  # N_(...)
    missing = used - _pot_ids()
    assert not missing, f"run pybabel extract (see texts/i18n.py); missing: {sorted(missing)}"


def _source_msgids(subdir: str) -> set[str | tuple[str, str]]:
    """Msgids read from the syntax tree, independently of Babel's token-based extractor.

    ``tr("...")``, ``_("...")``, ``N_("...")`` give a msgid; ``x.plural("s", "p", n)`` gives
    a (singular, plural) pair.
    """
    found: set[str | tuple[str, str]] = set()
    for path in sorted((ROOT / subdir).rglob("*.py")):
        for node in ast.walk(parse_source(path)):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            strings = [a.value if isinstance(a, ast.Constant) else None for a in node.args[:2]]
            func = node.func
            is_call = isinstance(func, ast.Name) and func.id in ("tr", "_", "N_")
            is_plural = isinstance(func, ast.Attribute) and func.attr == "plural"
            if is_call and isinstance(strings[0], str):
                found.add(strings[0])
            elif is_plural and len(strings) == 2 and all(isinstance(x, str) for x in strings):
                found.add((strings[0], strings[1]))
    return found


def test_template_has_every_render_msgid_with_its_plural():
    """Babel's extractor is token-based; this catches what it misreads (e.g. a call to
    ``tr`` inside an f-string, or ``tr`` passed as an argument inside a ``tr.plural`` call,
    which turns the plural into a singular)."""
    with (LOCALES_DIR / "messages.pot").open("rb") as fh:
        catalog = read_po(fh)
    in_pot = {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalog if m.id}
    used = _source_msgids("texts")
    assert len(used) > 100
    missing = used - in_pot
    assert not missing, f"extraction misses (or misreads) these: {sorted(map(str, missing))}"


def _catalogs():
    return sorted(LOCALES_DIR.glob("*/LC_MESSAGES/messages.po"))


def test_french_catalog_exists():
    assert LOCALES_DIR / "fr" / "LC_MESSAGES" / "messages.po" in _catalogs()


@pytest.mark.parametrize("path", _catalogs(), ids=lambda p: p.parent.parent.name)
def test_translations_keep_the_placeholders(path):
    with path.open("rb") as fh:
        catalog = read_po(fh)
    translated = 0
    for m in catalog:
        if not m.id or not m.string or m.fuzzy:
            continue
        ids = (m.id,) if isinstance(m.id, str) else m.id
        strings = (m.string,) if isinstance(m.string, str) else m.string
        wanted = set().union(*(_placeholders(i) for i in ids))
        for s in strings:
            if s:
                translated += 1
                # {n} may be left implicit in a plural form; every other name must match.
                assert _placeholders(s) - {"n"} <= wanted, (m.id, s)
                assert wanted - _placeholders(s) <= {"n"}, (m.id, s)
    assert translated > 0
