"""The seven hat types stay apart without colour (colour-blind players), R1."""

from __future__ import annotations

import itertools

from PIL import ImageChops, ImageStat

from engine import Card, HatType
from pictures.hats import HAT_COLOURS, SILHOUETTES, SYMBOLS
from pictures.paint import black_hat_tile, card_tile


def test_every_type_has_its_own_colour_symbol_and_silhouette():
    assert len(set(HAT_COLOURS.values())) == 7
    assert len(set(SYMBOLS.values())) == 7
    assert len(set(SILHOUETTES.values())) == 7
    assert set(HAT_COLOURS) == set(SYMBOLS) == set(SILHOUETTES) == set(HatType)


def _grey(image):
    return image.convert("LA").convert("L")


def test_cards_differ_in_grey_alone():
    """Drawn in shades of grey only (no colour at all), two types' cards of one value still
    differ over a large part of the card: the silhouette and symbol, not only the tint."""
    for w, h in ((110, 143), (76, 56), (44, 56)):
        tiles = {t: _grey(card_tile(Card.of(t, 3), w, h)) for t in HatType}
        for a, b in itertools.combinations(HatType, 2):
            diff = ImageChops.difference(tiles[a], tiles[b]).point(lambda v: 255 if v > 60 else 0)
            changed = ImageStat.Stat(diff).mean[0] / 255
            assert changed > 0.04, (a, b, w, h, changed)


def test_black_hat_differs_from_every_face():
    back = _grey(black_hat_tile(76, 56))
    for t in HatType:
        face = _grey(card_tile(Card.of(t, 1), 76, 56))
        assert ImageStat.Stat(ImageChops.difference(back, face)).mean[0] > 40
