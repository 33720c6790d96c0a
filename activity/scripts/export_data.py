"""Export what the Activity's browser app shares with the bot, as JSON (run by ``npm run build``).

* ``src/generated/pictures.json``: the hats, colours and colour-blind symbols of the PNG
  pictures (:mod:`pictures.hats`, :mod:`pictures.paint`). The hat silhouettes and symbols are
  not copied: :func:`pictures.hats.draw_hat` and :func:`pictures.hats.draw_symbol` draw into a
  recorder (:class:`Recorder`) in a 100 × 100 box, and what they drew becomes SVG primitives.
* ``src/generated/i18n/<lang>.json`` (en de es fr it): the msgids of
  :mod:`texts.activity` with each catalog's translations
  (``texts/locales/<lang>/LC_MESSAGES/messages.po``; fuzzy and empty entries are left out, so
  they fall back to English as in the bot). The msgids are read from that file's syntax tree,
  so the export imports no Discord code.

Usage (from anywhere): ``python activity/scripts/export_data.py [--check]``; ``--check``
writes nothing and exits 1 when a generated file is not what the sources give (the test
tests/activity_client/test_generated_data.py runs it).
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "activity" / "src" / "generated"
TEXTS = ROOT / "texts" / "activity.py"
LOCALES = ROOT / "texts" / "locales"
LANGUAGES = ("en", "de", "es", "fr", "it")

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def hex_colour(rgb: tuple[int, int, int]) -> str:
    """``(214, 40, 57)`` -> ``"#d62839"``."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _num(value: float) -> float:
    return round(float(value), 2)


class Recorder:
    """Stands in for a Pillow ``ImageDraw`` and records what is drawn, as SVG primitives.

    Each primitive is ``{"k": "poly"|"ellipse"|"chord"|"rect", "p": [...], "fill", "stroke",
    "w"}``: ``p`` holds the x, y pairs of a polygon or the box x0, y0, x1, y1 of the others
    (a chord is the upper half of its ellipse, as :func:`pictures.hats._draw_shapes` draws it).
    """

    def __init__(self) -> None:
        self.shapes: list[dict[str, Any]] = []

    def _add(self, kind: str, points: Any, fill: Any, outline: Any, width: int) -> None:
        flat: list[float] = []
        for p in points:
            if isinstance(p, tuple | list):
                flat.extend(p)
            else:
                flat.append(p)
        self.shapes.append(
            {
                "k": kind,
                "p": [_num(v) for v in flat],
                "fill": hex_colour(fill) if fill is not None else None,
                "stroke": hex_colour(outline) if outline is not None else None,
                "w": width,
            }
        )

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """A polygon (``ImageDraw.polygon``)."""
        self._add("poly", xy, fill, outline, width)

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """An ellipse in a box (``ImageDraw.ellipse``)."""
        self._add("ellipse", xy, fill, outline, width)

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """A rectangle (``ImageDraw.rectangle``)."""
        self._add("rect", xy, fill, outline, width)

    def chord(
        self,
        xy: Any,
        start: float,
        end: float,
        fill: Any = None,
        outline: Any = None,
        width: int = 1,
    ) -> None:
        """The upper half of an ellipse (``ImageDraw.chord`` from 180° to 360°)."""
        if (start, end) != (180, 360):
            raise ValueError(f"only upper-half chords are exported, not {start}–{end}")
        self._add("chord", xy, fill, outline, width)


def pictures_data() -> dict[str, Any]:
    """Colours, hat silhouettes and symbols of every type, the black hat and the card back."""
    from engine import HatType
    from pictures import paint
    from pictures.hats import (
        BLACK,
        HAT_COLOURS,
        INK,
        SYMBOLS,
        draw_black_hat,
        draw_hat,
        draw_symbol,
        tint,
    )
    from pictures.layout import Tone

    box = (0, 0, 100, 100)
    types = []
    for hat_type in HatType:
        colour = HAT_COLOURS[hat_type]
        hat, symbol = Recorder(), Recorder()
        draw_hat(hat, hat_type, box)  # type: ignore[arg-type]
        draw_symbol(symbol, SYMBOLS[hat_type], box, colour)  # type: ignore[arg-type]
        types.append(
            {
                "id": hat_type.value,
                "emoji": hat_type.emoji,
                "colour": hex_colour(colour),
                "card": hex_colour(tint(colour, 0.78)),
                "symbol": SYMBOLS[hat_type].value,
                "hat": hat.shapes,
                "symbolShapes": symbol.shapes,
            }
        )
    black = Recorder()
    draw_black_hat(black, box)  # type: ignore[arg-type]
    return {
        "source": "pictures/hats.py, pictures/paint.py (activity/scripts/export_data.py)",
        "ink": hex_colour(INK),
        "black": hex_colour(BLACK),
        "background": hex_colour(paint.BACKGROUND),
        "panel": hex_colour(paint.PANEL),
        "panelActive": hex_colour(paint.PANEL_ACTIVE),
        "activeOutline": hex_colour(paint.ACTIVE_OUTLINE),
        "muted": hex_colour(paint.TEXT_COLOURS[Tone.MUTED]),
        "activeText": hex_colour(paint.TEXT_COLOURS[Tone.ACTIVE]),
        "teams": [
            hex_colour(paint.TEXT_COLOURS[Tone.TEAM_A]),
            hex_colour(paint.TEXT_COLOURS[Tone.TEAM_B]),
        ],
        "blackHatCard": {"fill": hex_colour(paint.BLACK_HAT_FILL), "outline": hex_colour(BLACK)},
        "back": {
            "fill": hex_colour(paint.CARD_BACK),
            "outline": hex_colour(INK),
            "inner": hex_colour(paint.CARD_BACK_INNER),
        },
        "types": types,
        "blackHat": black.shapes,
    }


def activity_msgids(path: Path = TEXTS) -> tuple[list[str], list[tuple[str, str]]]:
    """The ``N_("...")`` msgids and ``plural("...", "...")`` pairs of the texts module."""
    singles: list[str] = []
    plurals: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        args = [a.value for a in node.args if isinstance(a, ast.Constant)]
        if node.func.id == "N_" and len(args) == 1:
            singles.append(args[0])
        elif node.func.id == "plural" and len(args) == 2:
            plurals.append((args[0], args[1]))
    return singles, plurals


def catalog_data(lang: str) -> dict[str, Any]:
    """One language's translations of the app's msgids (English: the msgids themselves)."""
    from babel.messages.pofile import read_po

    singles, plurals = activity_msgids()
    if lang == "en":
        return {
            "lang": "en",
            "plural": "(n != 1)",
            "messages": {m: m for m in singles},
            "plurals": {s: [s, p] for s, p in plurals},
        }
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    messages: dict[str, str] = {}
    for msgid in singles:
        m = catalog.get(msgid)
        if m is not None and not m.fuzzy and isinstance(m.string, str) and m.string:
            messages[msgid] = m.string
    forms: dict[str, list[str]] = {}
    for singular, plural_form in plurals:
        m = catalog.get((singular, plural_form))
        if m is None or m.fuzzy or isinstance(m.string, str) or not all(m.string):
            continue
        forms[singular] = list(m.string)
    return {
        "lang": lang,
        "plural": catalog.plural_expr,
        "messages": messages,
        "plurals": forms,
    }


def outputs() -> dict[Path, str]:
    """Every generated file and its text."""

    def dump(data: Any) -> str:
        return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    files = {OUT / "pictures.json": dump(pictures_data())}
    for lang in LANGUAGES:
        files[OUT / "i18n" / f"{lang}.json"] = dump(catalog_data(lang))
    return files


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the generated files; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    stale = []
    for path, text in outputs().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if args.check:
            stale.append(path.relative_to(ROOT))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print("out of date (run npm run export-data in activity/):", *stale, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
