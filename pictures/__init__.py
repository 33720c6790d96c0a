"""Pictures of the game: the table, a hand and the end board as PNG bytes (Pillow).

One job: draw. No Discord import and no I/O besides reading the shipped font. Every picture
is drawn from what its viewer may see ("Who may see what", R21): :func:`render_table` from the
public observation, :func:`render_hand` from a seat's own observation, :func:`render_end`
from a finished game's observation. Layout is data (:mod:`pictures.layout`: positioned
elements), painted by :mod:`pictures.paint`; :class:`PictureCache` renders off the event loop
and keeps recent pictures per game, state version, language and viewer.

Modules: ``hats`` (our own hat drawings, colours, symbols), ``fonts`` (Noto Sans, OFL-1.1),
``text`` (the translator protocol and text fitting), ``layout``, ``paint``, ``render``,
``cache``.
"""

from pictures.cache import PictureCache, PictureKey
from pictures.layout import (
    MIN_PHONE_TEXT,
    PHONE_WIDTH,
    Layout,
    end_layout,
    hand_layout,
    table_layout,
)
from pictures.render import WIDTH, render_end, render_hand, render_table
from pictures.text import Translate

__all__ = [
    "MIN_PHONE_TEXT",
    "PHONE_WIDTH",
    "WIDTH",
    "Layout",
    "PictureCache",
    "PictureKey",
    "Translate",
    "end_layout",
    "hand_layout",
    "render_end",
    "render_hand",
    "render_table",
    "table_layout",
]
