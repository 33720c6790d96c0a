"""Our own drawing of the seven hat types and the black hat (not the published card art).

Each type has a colour AND a distinct silhouette AND a distinct symbol, so players who do not
tell the colours apart still tell the types apart (R1): red top hat ●, orange wizard hat ▲,
yellow sun hat ★, green bowler ◆, blue crown ■, purple beret ✚, brown cowboy hat ⬢. The
black hat (a card played face down, R8) is a black top hat on a dark card with a "?".

Shapes are data in a 100 × 100 unit box, scaled by :func:`draw_hat` and :func:`draw_symbol`.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from engine import HatType

__all__ = [
    "BLACK",
    "HAT_COLOURS",
    "INK",
    "SYMBOLS",
    "Shape",
    "Symbol",
    "draw_black_hat",
    "draw_hat",
    "draw_symbol",
    "tint",
]

RGB = tuple[int, int, int]

INK: RGB = (34, 30, 38)
"""Outlines and digits."""
BLACK: RGB = (22, 22, 26)
"""The black hat's colour."""

HAT_COLOURS: dict[HatType, RGB] = {
    HatType.RED: (214, 40, 57),
    HatType.ORANGE: (242, 133, 28),
    HatType.YELLOW: (240, 196, 40),
    HatType.GREEN: (46, 158, 91),
    HatType.BLUE: (40, 104, 206),
    HatType.PURPLE: (140, 78, 192),
    HatType.BROWN: (140, 90, 43),
}
"""The fill colour of each type's hat (R1)."""


def tint(colour: RGB, amount: float) -> RGB:
    """``colour`` mixed with white: 0 is the colour, 1 is white."""
    r, g, b = colour
    return (
        round(r + (255 - r) * amount),
        round(g + (255 - g) * amount),
        round(b + (255 - b) * amount),
    )


@dataclass(frozen=True, slots=True)
class Shape:
    """One piece of a hat in unit coordinates (0–100): a polygon, ellipse or rectangle.

    ``kind`` is ``"poly"`` (``points`` x, y pairs), ``"ellipse"``, ``"chord"`` (upper half of
    the ellipse) or ``"rect"`` (``points`` = x0, y0, x1, y1). ``shade`` darkens the fill
    (0 none, 1 black) for bands and brims.
    """

    kind: str
    points: tuple[float, ...]
    shade: float = 0.0


class Symbol(enum.Enum):
    """The symbol drawn on each type's cards, besides its colour and silhouette."""

    CIRCLE = "circle"
    TRIANGLE = "triangle"
    STAR = "star"
    DIAMOND = "diamond"
    SQUARE = "square"
    CROSS = "cross"
    HEXAGON = "hexagon"


SYMBOLS: dict[HatType, Symbol] = {
    HatType.RED: Symbol.CIRCLE,
    HatType.ORANGE: Symbol.TRIANGLE,
    HatType.YELLOW: Symbol.STAR,
    HatType.GREEN: Symbol.DIAMOND,
    HatType.BLUE: Symbol.SQUARE,
    HatType.PURPLE: Symbol.CROSS,
    HatType.BROWN: Symbol.HEXAGON,
}
"""One symbol per type: all seven differ (tests check it)."""

_TOP_HAT = (
    Shape("rect", (30, 12, 70, 72)),
    Shape("rect", (30, 54, 70, 66), 0.45),
    Shape("ellipse", (8, 64, 92, 86), 0.15),
)
SILHOUETTES: dict[HatType, tuple[Shape, ...]] = {
    HatType.RED: _TOP_HAT,
    HatType.ORANGE: (
        Shape("poly", (50, 4, 74, 74, 26, 74)),
        Shape("poly", (32, 56, 68, 56, 72, 68, 28, 68), 0.45),
        Shape("ellipse", (6, 64, 94, 86), 0.15),
    ),
    HatType.YELLOW: (
        Shape("ellipse", (2, 52, 98, 84), 0.1),
        Shape("rect", (30, 34, 70, 66)),
        Shape("rect", (30, 52, 70, 62), 0.45),
    ),
    HatType.GREEN: (
        Shape("chord", (22, 20, 78, 104)),
        Shape("rect", (24, 54, 76, 62), 0.45),
        Shape("ellipse", (14, 58, 86, 76), 0.15),
    ),
    HatType.BLUE: (
        Shape("poly", (14, 80, 14, 26, 32, 50, 50, 14, 68, 50, 86, 26, 86, 80)),
        Shape("rect", (14, 66, 86, 80), 0.4),
    ),
    HatType.PURPLE: (
        Shape("rect", (46, 18, 54, 34), 0.3),
        Shape("ellipse", (6, 28, 94, 70)),
        Shape("ellipse", (22, 58, 78, 76), 0.4),
    ),
    HatType.BROWN: (
        Shape(
            "poly",
            (2, 44, 14, 64, 32, 74, 50, 77, 68, 74, 86, 64, 98, 44, 84, 56, 50, 62, 16, 56),
            0.15,
        ),
        Shape("poly", (28, 66, 30, 30, 40, 20, 50, 30, 60, 20, 70, 30, 72, 66)),
        Shape("rect", (29, 52, 71, 62), 0.45),
    ),
}
"""Each type's hat silhouette: all seven differ (top hat, wizard hat, sun hat, bowler, crown,
beret, cowboy hat)."""


def _shade(colour: RGB, amount: float) -> RGB:
    return tuple(round(c * (1 - amount)) for c in colour)  # type: ignore[return-value]


def _scale(points: Sequence[float], box: tuple[float, float, float, float]) -> list[float]:
    x, y, w, h = box
    return [(x + p * w / 100) if i % 2 == 0 else (y + p * h / 100) for i, p in enumerate(points)]


def _draw_shapes(
    draw: ImageDraw.ImageDraw,
    shapes: Sequence[Shape],
    box: tuple[float, float, float, float],
    fill: RGB,
    outline: RGB,
    width: int,
) -> None:
    for shape in shapes:
        colour = _shade(fill, shape.shade) if shape.shade else fill
        pts = _scale(shape.points, box)
        if shape.kind == "poly":
            draw.polygon(pts, fill=colour, outline=outline, width=width)
        elif shape.kind == "ellipse":
            draw.ellipse(pts, fill=colour, outline=outline, width=width)
        elif shape.kind == "chord":
            draw.chord(pts, 180, 360, fill=colour, outline=outline, width=width)
        else:
            draw.rectangle(pts, fill=colour, outline=outline, width=width)


def draw_hat(
    draw: ImageDraw.ImageDraw, hat_type: HatType, box: tuple[float, float, float, float]
) -> None:
    """Draw ``hat_type``'s silhouette in its colour into ``box`` (x, y, w, h in pixels)."""
    width = max(1, round(min(box[2], box[3]) / 28))
    _draw_shapes(draw, SILHOUETTES[hat_type], box, HAT_COLOURS[hat_type], INK, width)


def draw_black_hat(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    """Draw the black hat (R8): a black top hat with a light outline (its face stays hidden)."""
    width = max(1, round(min(box[2], box[3]) / 24))
    _draw_shapes(draw, _TOP_HAT, box, BLACK, (225, 225, 230), width)


def _star(cx: float, cy: float, r: float) -> list[float]:
    pts: list[float] = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts += [cx + rr * math.cos(a), cy + rr * math.sin(a)]
    return pts


def _regular(cx: float, cy: float, r: float, n: int, start: float) -> list[float]:
    pts: list[float] = []
    for i in range(n):
        a = start + i * 2 * math.pi / n
        pts += [cx + r * math.cos(a), cy + r * math.sin(a)]
    return pts


def draw_symbol(
    draw: ImageDraw.ImageDraw, symbol: Symbol, box: tuple[float, float, float, float], fill: RGB
) -> None:
    """Draw ``symbol`` filled with ``fill`` and outlined in ink, centred in ``box``."""
    x, y, w, h = box
    r = min(w, h) / 2
    cx, cy = x + w / 2, y + h / 2
    width = max(1, round(r / 7))
    if symbol is Symbol.CIRCLE:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=width)
        return
    if symbol is Symbol.SQUARE:
        s = r * 0.85
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=fill, outline=INK, width=width)
        return
    if symbol is Symbol.CROSS:
        t = r * 0.38
        pts = [
            cx - t, cy - r, cx + t, cy - r, cx + t, cy - t, cx + r, cy - t, cx + r, cy + t,
            cx + t, cy + t, cx + t, cy + r, cx - t, cy + r, cx - t, cy + t, cx - r, cy + t,
            cx - r, cy - t, cx - t, cy - t,
        ]  # fmt: skip
    elif symbol is Symbol.TRIANGLE:
        pts = _regular(cx, cy + r * 0.15, r * 1.05, 3, -math.pi / 2)
    elif symbol is Symbol.STAR:
        pts = _star(cx, cy + r * 0.05, r * 1.1)
    elif symbol is Symbol.DIAMOND:
        pts = _regular(cx, cy, r, 4, -math.pi / 2)
    else:
        pts = _regular(cx, cy, r, 6, 0)
    draw.polygon(pts, fill=fill, outline=INK, width=width)
