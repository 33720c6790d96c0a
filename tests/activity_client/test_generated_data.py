"""The Activity's browser app draws and words what the bot does (issue 28 section 3).

``activity/src/generated/`` is exported from the bot's sources by
``activity/scripts/export_data.py`` (run by ``npm run build``) and committed, so a checkout
without Python can still build the app: these tests fail when a committed file lags behind
the pictures or the catalogs, and check the export reads what the bot draws and says.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from engine import HatType
from pictures.hats import HAT_COLOURS, SILHOUETTES, SYMBOLS
from texts import activity as activity_texts
from texts.i18n import Translator

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "activity" / "src" / "generated"


def _export():
    spec = importlib.util.spec_from_file_location(
        "export_data", ROOT / "activity" / "scripts" / "export_data.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_files_are_current():
    assert _export().main(["--check"]) == 0, "run `npm run export-data` in activity/"


def test_every_hat_is_exported_with_its_colour_symbol_and_silhouette():
    data = json.loads((GENERATED / "pictures.json").read_text(encoding="utf-8"))
    assert [t["id"] for t in data["types"]] == [h.value for h in HatType]
    for entry, hat_type in zip(data["types"], HatType, strict=True):
        assert entry["colour"] == "#{:02x}{:02x}{:02x}".format(*HAT_COLOURS[hat_type])
        assert entry["symbol"] == SYMBOLS[hat_type].value
        assert len(entry["hat"]) == len(SILHOUETTES[hat_type])  # one primitive per shape
        assert entry["symbolShapes"]
    symbols = [json.dumps(t["symbolShapes"]) for t in data["types"]]
    hats = [json.dumps(t["hat"]) for t in data["types"]]
    assert len(set(symbols)) == 7 and len(set(hats)) >= 6  # red's top hat = the black hat's shape


def test_the_msgid_list_matches_what_extraction_sees():
    singles, plurals = _export().activity_msgids()
    assert tuple(singles) == activity_texts.ACTIVITY_TEXTS
    assert tuple(plurals) == activity_texts.ACTIVITY_PLURALS


@pytest.mark.parametrize("lang", ["de", "es", "fr", "it"])
def test_each_language_has_every_text_as_the_bot_translates_it(lang):
    data = json.loads((GENERATED / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    tr = Translator.load().for_locale(lang)
    assert set(data["messages"]) == set(activity_texts.ACTIVITY_TEXTS)
    for msgid, text in data["messages"].items():
        assert text == tr.translations.gettext(msgid)
    assert set(data["plurals"]) == {s for s, _ in activity_texts.ACTIVITY_PLURALS}
    for singular, plural in activity_texts.ACTIVITY_PLURALS:
        forms = data["plurals"][singular]
        assert forms[0] == tr.translations.ngettext(singular, plural, 1)
        assert forms[-1] == tr.translations.ngettext(singular, plural, 5)
