"""Every label of the pictures is in the translation template (pybabel extract, babel.cfg)."""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from texts.i18n import LOCALES_DIR

ROOT = Path(__file__).resolve().parents[2]


def test_every_picture_msgid_is_in_the_template():
    with (ROOT / "babel.cfg").open() as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    used = set()
    for filename, _line, message, _comments, _context in extract_from_dir(
        ROOT, method_map, options_map, keywords={"_": None, "N_": None}
    ):
        if filename.startswith("pictures"):
            used.add(message if isinstance(message, str) else tuple(message))
    assert "Tea table" in used and ("{n} point", "{n} points") in used
    with (LOCALES_DIR / "messages.pot").open("rb") as fh:
        pot = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(fh) if m.id}
    missing = used - pot
    assert not missing, (
        f"run pybabel extract (see texts/i18n.py); missing: {sorted(map(str, missing))}"
    )
