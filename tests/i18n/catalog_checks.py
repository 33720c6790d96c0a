"""Checks of the gettext catalogs against their template, as lists of problems (empty: fine).

Used by the catalog tests, and by their self-tests on temporary catalogs (so each check is
known to fail when it should).
"""

from __future__ import annotations

import string
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from babel.messages.catalog import Catalog, Message, TranslationError
from babel.messages.checkers import num_plurals
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("de", "es", "fr", "it")
"""The languages every catalog must be complete in (issue 10)."""

Key = tuple[str | None, str | tuple[str, ...]]
"""A message's identity: (msgctxt, msgid) with a plural msgid as (singular, plural)."""


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    """A .po/.pot file as a babel Catalog (raises PoFileError on a malformed file)."""
    with path.open("rb") as fh:
        return read_po(fh, locale=locale, abort_invalid=True)


def key(message: Message) -> Key:
    """The identity of ``message`` (context and msgid, plural msgids as a tuple)."""
    mid = message.id if isinstance(message.id, str) else tuple(message.id)
    return (message.context, mid)


def keys(catalog: Catalog) -> set[Key]:
    """Every message identity of ``catalog`` (the header left out)."""
    return {key(m) for m in catalog if m.id}


def placeholders(text: str) -> set[str]:
    """The ``{names}`` of a str.format text (``{{`` escapes left out)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def catalog_problems(po_path: Path, template_path: Path) -> list[str]:
    """What is wrong with the catalog ``po_path`` against ``template_path``.

    A problem is: a Plural-Forms header other than Babel's (CLDR) rule for the language, a
    msgid of the template missing from the catalog, a fuzzy entry, an empty
    translation (any plural form), a wrong number of plural forms for the language (Babel's
    ``num_plurals`` checker, from the catalog's Plural-Forms), or a translation whose
    ``{placeholders}`` differ from its msgid's (``{n}`` may be left out of a plural form, as
    in French "une carte").
    """
    if not po_path.exists():
        return [f"{po_path} does not exist"]
    lang = po_path.parent.parent.name
    catalog = read_catalog(po_path, locale=lang)
    template = read_catalog(template_path)
    problems = [f"missing: {k!r}" for k in sorted(keys(template) - keys(catalog), key=repr)]
    expected = Catalog(locale=lang).plural_forms
    if catalog.plural_forms != expected:
        problems.append(f"Plural-Forms {catalog.plural_forms!r}, Babel's for {lang}: {expected!r}")
    wanted = keys(template)
    for m in catalog:
        if not m.id or key(m) not in wanted:
            continue  # the header; obsolete entries are harmless (never looked up)
        label = repr(key(m))
        if m.fuzzy:
            problems.append(f"fuzzy: {label}")
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        if not all(strings):
            problems.append(f"empty translation: {label}")
            continue
        try:
            num_plurals(catalog, m)
        except TranslationError as exc:
            problems.append(f"{exc}: {label}")
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        want = set().union(*(placeholders(i) for i in ids))
        for s in strings:
            try:
                got = placeholders(s)
            except ValueError as exc:
                problems.append(f"broken braces ({exc}) in {s!r}: {label}")
                continue
            if got - {"n"} != want - {"n"} or (got - want):
                problems.append(f"placeholders {sorted(got)} != {sorted(want)} in {s!r}: {label}")
    return problems


def write_filled_catalog(directory: Path, lang: str, fill: Callable[[str], str]) -> Path:
    """Write ``<directory>/<lang>/LC_MESSAGES/messages.po`` filled by ``fill(msgid)``.

    Every msgid of messages.pot is translated (each plural form from its own English form),
    with the language's own Plural-Forms. Returns the path.
    """
    from texts.i18n import LOCALES_DIR

    catalog = read_catalog(LOCALES_DIR / "messages.pot")
    catalog.locale = lang  # type: ignore[assignment]
    for m in catalog:
        if not m.id:
            continue
        if isinstance(m.id, str):
            m.string = fill(m.id)
        else:
            m.string = tuple(fill(m.id[min(i, 1)]) for i in range(catalog.num_plurals))
    path = directory / lang / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True)
    with path.open("wb") as fh:
        write_po(fh, catalog)
    return path


def extract_template(out: Path, root: Path = ROOT) -> Catalog:
    """Run docs/translators.md's ``pybabel extract`` into ``out`` and read the result."""
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from babel.messages.frontend import main; main()",
            "-q",
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "_",
            "-k",
            "N_",
            "-o",
            str(out),
            ".",
        ],
        cwd=root,
        check=True,
    )
    return read_catalog(out)
