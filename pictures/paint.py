"""Painting a :class:`~pictures.layout.Layout` into PNG bytes with Pillow.

The painter decides colours and draws; it never decides what is shown (that is the layout's
job, from the viewer's observation). Card faces, black hats, badges and icons are drawn once
per size at 3× and scaled down (smooth edges), then cached and pasted.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Card
from pictures.fonts import BOLD, REGULAR, font
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
from pictures.layout import (
    BlackHatCard,
    CardFace,
    HandBack,
    Icon,
    IconKind,
    Layout,
    Panel,
    SlotBadge,
    Text,
    Tone,
)

__all__ = ["BACKGROUND", "paint", "to_png"]

BACKGROUND = (250, 246, 238)
"""The picture's background (warm paper)."""
PANEL = (238, 230, 216)
PANEL_ACTIVE = (255, 238, 196)
ACTIVE_OUTLINE = (212, 150, 20)
TEXT_COLOURS = {
    Tone.NORMAL: INK,
    Tone.MUTED: (96, 88, 100),
    Tone.ACTIVE: (150, 90, 0),
    Tone.TEAM_A: (0, 110, 120),
    Tone.TEAM_B: (170, 40, 120),
}
BLACK_HAT_FILL = (70, 66, 78)
"""The face-down card behind a black hat (R8)."""
CARD_BACK = (142, 90, 60)
CARD_BACK_INNER = (240, 220, 190)
"""The back of a hand card and its inner frame."""
TEAM_STRIPES = {Tone.TEAM_A: TEXT_COLOURS[Tone.TEAM_A], Tone.TEAM_B: TEXT_COLOURS[Tone.TEAM_B]}
SS = 3
"""Supersampling factor for shapes."""


def _small(image: Image.Image, w: int, h: int) -> Image.Image:
    return image.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=512)
def card_tile(card: Card, w: int, h: int, turned_down: bool = False) -> Image.Image:
    """A card face ``w`` × ``h`` (RGBA): tinted card, value, symbol and hat (R1), cached.

    Up to 1.25 × as wide as tall: value top left, symbol top right, hat below (a card).
    Wider: hat on the left, value and symbol on the right (a chip).
    """
    W, H = w * SS, h * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour = HAT_COLOURS[card.type]
    r = min(W, H) // 8
    d.rounded_rectangle(
        (0, 0, W - 1, H - 1), r, fill=tint(colour, 0.78), outline=colour, width=max(3, W // 30)
    )
    upright = W * 4 < H * 5
    digit_font = font(max(8, round(min(W, H) * (0.42 if upright else 0.5))), BOLD)
    if upright:
        pad = W * 0.08
        d.text((pad * 1.3, pad * 0.4), str(card.value), font=digit_font, fill=INK, anchor="la")
        s = W * 0.28
        draw_symbol(d, SYMBOLS[card.type], (W - pad - s, pad * 1.3, s, s), colour)
        hs = W * 0.84
        draw_hat(d, card.type, ((W - hs) / 2, H - hs - pad * 0.6, hs, hs))
    else:
        pad = H * 0.08
        hs = H - 2 * pad
        draw_hat(d, card.type, (pad, pad, hs, hs))
        cx = pad + hs + (W - pad - hs) / 2
        d.text((cx, H * 0.36), str(card.value), font=digit_font, fill=INK, anchor="mm")
        s = H * 0.24
        draw_symbol(d, SYMBOLS[card.type], (cx - s / 2, H * 0.66, s, s), colour)
    if turned_down:
        veil = Image.new("RGBA", (W, H), (250, 246, 238, 150))
        img = Image.alpha_composite(img, veil)
        d = ImageDraw.Draw(img)
        lw = max(4, W // 14)
        d.line((W * 0.15, H * 0.15, W * 0.85, H * 0.85), fill=(90, 80, 90, 230), width=lw)
        d.line((W * 0.85, H * 0.15, W * 0.15, H * 0.85), fill=(90, 80, 90, 230), width=lw)
    return _small(img, w, h)


def _card_base(
    w: int, h: int, fill: tuple[int, int, int], outline: tuple[int, int, int], corner: int
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank card at 3× (transparent corners): ``fill``, ``outline``, corner radius 1/corner."""
    W, H = w * SS, h * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    border = max(3, W // (30 if corner == 8 else 20))
    d.rounded_rectangle((0, 0, W - 1, H - 1), min(W, H) // corner, fill, outline, border)
    return img, d


@lru_cache(maxsize=64)
def black_hat_tile(w: int, h: int) -> Image.Image:
    """A face-down card played as a black hat (R8): dark card, black top hat, no face."""
    img, d = _card_base(w, h, BLACK_HAT_FILL, BLACK, 8)
    W, H = img.size
    s = min(W, H) * 0.9
    draw_black_hat(d, ((W - s) / 2, (H - s) / 2, s, s))
    return _small(img, w, h)


@lru_cache(maxsize=64)
def back_tile(w: int, h: int) -> Image.Image:
    """The back of a hand card: a card with a diamond pattern."""
    img, d = _card_base(w, h, CARD_BACK, INK, 6)
    W, H = img.size
    m = W * 0.22
    d.rounded_rectangle(
        (m, m, W - m, H - m), min(W, H) // 10, outline=CARD_BACK_INNER, width=max(2, W // 24)
    )
    return _small(img, w, h)


@lru_cache(maxsize=64)
def badge_tile(slot: int, size: int) -> Image.Image:
    """A round green badge with a slot number (a legal exchange, R7)."""
    S = size * SS
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, S - 1, S - 1), fill=(28, 120, 70), outline=INK, width=max(2, S // 18))
    d.text((S / 2, S / 2), str(slot), font=font(round(S * 0.62), BOLD), fill="white", anchor="mm")
    return _small(img, size, size)


@lru_cache(maxsize=64)
def icon_tile(kind: IconKind, w: int, h: int) -> Image.Image:
    """A small icon: turn ▶, cookie, trophy, draw deck, discard pile."""
    W, H = w * SS, h * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    lw = max(2, W // 14)
    if kind is IconKind.TURN:
        d.polygon((W * 0.1, 0, W * 0.95, H / 2, W * 0.1, H - 1), fill=ACTIVE_OUTLINE, outline=INK)
    elif kind is IconKind.COOKIE:
        d.ellipse((0, 0, W - 1, H - 1), fill=(205, 150, 80), outline=(120, 75, 30), width=lw)
        for fx, fy in ((0.35, 0.3), (0.65, 0.42), (0.4, 0.65), (0.7, 0.7), (0.25, 0.5)):
            r = W * 0.07
            d.ellipse((W * fx - r, H * fy - r, W * fx + r, H * fy + r), fill=(80, 45, 20))
    elif kind is IconKind.TROPHY:
        gold, dark = (235, 180, 30), (150, 100, 0)
        d.chord((W * 0.18, -H * 0.35, W * 0.82, H * 0.62), 0, 180, fill=gold, outline=dark)
        d.rectangle((W * 0.44, H * 0.6, W * 0.56, H * 0.8), fill=gold, outline=dark)
        d.rectangle((W * 0.26, H * 0.8, W * 0.74, H * 0.98), fill=gold, outline=dark)
        d.arc((0, H * 0.05, W * 0.4, H * 0.45), 90, 270, fill=dark, width=lw)
        d.arc((W * 0.6, H * 0.05, W, H * 0.45), 270, 90, fill=dark, width=lw)
    else:
        n = 3 if kind is IconKind.DECK else 2
        fill = (142, 90, 60) if kind is IconKind.DECK else (215, 205, 190)
        step = W * 0.12
        cw, ch = W - step * (n - 1), H - step * (n - 1)
        for i in range(n):
            x0, y0 = step * (n - 1 - i), step * i
            d.rounded_rectangle(
                (x0, y0, x0 + cw - 1, y0 + ch - 1), W // 8, fill=fill, outline=INK, width=lw
            )
        if kind is IconKind.DISCARD:
            y0 = step
            d.line((W * 0.3, y0 + ch * 0.3, W * 0.7, y0 + ch * 0.7), fill=INK, width=lw)
            d.line((W * 0.7, y0 + ch * 0.3, W * 0.3, y0 + ch * 0.7), fill=INK, width=lw)
    return _small(img, w, h)


@lru_cache(maxsize=4096)
def text_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    """``text`` drawn once as an 8-bit mask (cached), and its offset ``(left, top)``.

    The offset is from the left-middle anchor: the line's left end at half its height.
    """
    f = font(size, BOLD if bold else REGULAR)
    left, top, right, bottom = f.getbbox(text, anchor="lm")
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor="lm")
    return mask, left, top


def paint(layout: Layout) -> Image.Image:
    """Draw every element of ``layout`` in order on a new RGB image of its size."""
    img = Image.new("RGB", (layout.width, layout.height), BACKGROUND)
    d = ImageDraw.Draw(img)
    for e in layout.elements:
        x, y, w, h = e.box.x, e.box.y, e.box.w, e.box.h
        if isinstance(e, Panel):
            active = e.tone is Tone.ACTIVE
            d.rounded_rectangle(
                (x, y, x + w - 1, y + h - 1),
                14,
                fill=PANEL_ACTIVE if active else PANEL,
                outline=ACTIVE_OUTLINE if active else None,
                width=3 if active else 0,
            )
        elif isinstance(e, Text):
            mask, left, top = text_mask(e.text, e.size, e.bold)
            img.paste(TEXT_COLOURS[e.tone], (x + left, y + h // 2 + top), mask)
        elif isinstance(e, CardFace):
            tile = card_tile(e.card, w, h, e.turned_down)
            img.paste(tile, (x, y), tile)
        elif isinstance(e, BlackHatCard):
            tile = black_hat_tile(w, h)
            img.paste(tile, (x, y), tile)
        elif isinstance(e, HandBack):
            tile = back_tile(w, h)
            img.paste(tile, (x, y), tile)
        elif isinstance(e, SlotBadge):
            tile = badge_tile(e.slot, w)
            img.paste(tile, (x, y), tile)
        elif isinstance(e, Icon):
            tile = icon_tile(e.kind, w, h)
            img.paste(tile, (x, y), tile)
    _team_stripes(d, layout)
    return img


def _team_stripes(d: ImageDraw.ImageDraw, layout: Layout) -> None:
    """A coloured stripe on the left of each panel whose row names a team (R5)."""
    panels = [e for e in layout.elements if isinstance(e, Panel)]
    for text in layout.elements:
        if not isinstance(text, Text) or text.tone not in TEAM_STRIPES:
            continue
        for p in panels:
            if text.box.inside(p.box):
                b = p.box
                d.rounded_rectangle(
                    (b.x + 6, b.y + 10, b.x + 12, b.bottom - 10), 3, fill=TEAM_STRIPES[text.tone]
                )


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The fixed 256-colour palette of every picture (a "P" image), built once.

    It is the median-cut palette of a sample that holds every card face, black hat, icon,
    badge and text colour on every background, so a picture maps onto it with no visible
    loss; mapping onto a fixed palette costs about 1 ms, where quantising each picture anew
    would cost about 10 ms, and a palette PNG encodes about 4 × faster than an RGB one.
    """
    from engine import ALL_CARDS

    sample = Image.new("RGB", (42 * 60, 4 * 90), BACKGROUND)
    d = ImageDraw.Draw(sample)
    for i, card in enumerate(ALL_CARDS):
        x = i * 60
        sample.paste(PANEL, (x, 0, x + 60, 90))
        sample.paste(PANEL_ACTIVE, (x + 30, 90, x + 60, 180))
        for tile, at in (
            (card_tile(card, 56, 72), (x + 2, 2)),
            (card_tile(card, 76, 56, i % 3 == 0), (x - 10 if i else 0, 92)),
            (card_tile(card, 44, 56), (x + 8, 182)),
        ):
            sample.paste(tile, at, tile)
    extras = [black_hat_tile(40, 56), back_tile(29, 40), badge_tile(3, 40)]
    extras += [icon_tile(kind, 30, 30) for kind in IconKind]
    x = 0
    for tile in extras:
        sample.paste(tile, (x, 272), tile)
        x += tile.width + 4
    for j, colour in enumerate(TEXT_COLOURS.values()):
        for k, fill in enumerate((BACKGROUND, PANEL, PANEL_ACTIVE)):
            x0 = 400 + (j * 3 + k) * 120
            d.rectangle((x0, 272, x0 + 119, 359), fill=fill)
            d.text((x0 + 4, 300), "Ag 9ß", font=font(28, BOLD), fill=colour, anchor="lm")
            d.text((x0 + 4, 335), "Ag 9ß", font=font(22), fill=colour, anchor="lm")
    d.rounded_rectangle(
        (2000, 272, 2100, 359), 14, fill=PANEL_ACTIVE, outline=ACTIVE_OUTLINE, width=3
    )
    for stripe in TEAM_STRIPES.values():
        d.rectangle((2110, 272, 2130, 359), fill=stripe)
    return sample.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def to_png(image: Image.Image) -> bytes:
    """PNG bytes of ``image``, mapped onto the fixed :func:`palette` (8-bit, no dithering)."""
    out = io.BytesIO()
    image.quantize(palette=palette(), dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=3
    )
    return out.getvalue()
