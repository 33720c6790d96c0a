"""The three pictures as PNG bytes: table, hand, end (layout, then paint).

Pillow's font objects are not safe to use from two threads at once, so one lock serialises
renders (they hold the GIL most of the time anyway). Call these from a worker thread
(:class:`~pictures.cache.PictureCache` does), never on the event loop.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from engine import Observation
from pictures.layout import WIDTH, end_layout, hand_layout, table_layout
from pictures.paint import paint, to_png
from pictures.text import Translate

__all__ = ["WIDTH", "render_end", "render_hand", "render_table"]

_LOCK = threading.Lock()


def render_table(obs: Observation, names: Sequence[str], tr: Translate) -> bytes:
    """PNG bytes of the public table (:func:`~pictures.layout.table_layout`).

    ``names``: one display name per seat. Raises ValueError for a seat's observation.
    """
    with _LOCK:
        return to_png(paint(table_layout(obs, names, tr)))


def render_hand(obs: Observation, names: Sequence[str], tr: Translate) -> bytes:
    """PNG bytes of seat ``obs.viewer``'s hand (:func:`~pictures.layout.hand_layout`).

    Raises ValueError for the public observation.
    """
    with _LOCK:
        return to_png(paint(hand_layout(obs, names, tr)))


def render_end(obs: Observation, names: Sequence[str], tr: Translate, *, game_id: int) -> bytes:
    """PNG bytes of the final board and scores (:func:`~pictures.layout.end_layout`).

    Raises ValueError while the game runs.
    """
    with _LOCK:
        return to_png(paint(end_layout(obs, names, tr, game_id=game_id)))
