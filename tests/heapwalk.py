"""Counting the objects Python's cyclic garbage collector tracks for one thing (issue 21).

A full collection stops the process for a time that grows with the tracked objects in the
heap. :func:`own_tracked` finds the ones a root (a game, a cached session) holds for itself:
reachable from it through ``gc.get_referents``, tracked (``gc.is_tracked``), and not shared
with what existed before it was built (interned cards, enums, modules: their ids are in
``shared``). Used by the heap tests and ``scripts/bench_heap.py``.
"""

from __future__ import annotations

import gc
from collections.abc import Container


def existing_ids() -> tuple[list[object], set[int]]:
    """Every object the collector tracks now, frozen ones included, and their ids.

    Keep the list alive while the ids are in use: an object made later can then not reuse
    the id of one of them. ``gc.get_objects()`` leaves out objects frozen by ``gc.freeze()``
    (the bot freezes its set-up, so a test that ran a bot before may have): they are unfrozen
    for the count and frozen again, with the objects of now (nothing made later is frozen).
    """
    frozen = gc.get_freeze_count() > 0
    if frozen:
        gc.unfreeze()
    objects = gc.get_objects()
    if frozen:
        gc.freeze()
    return objects, {id(o) for o in objects}


def own_tracked(root: object, shared: Container[int]) -> list[object]:
    """The tracked objects reachable from ``root`` (itself first), except shared ones.

    The walk does not go through objects whose id is in ``shared``, nor through untracked
    ones (an untracked container holds nothing tracked). Run ``gc.collect()`` first: a
    collection untracks the tuples and dicts that hold only untracked values.
    """
    seen = {id(root)}
    out, todo = [root], [root]
    while todo:
        for ref in gc.get_referents(todo.pop()):
            key = id(ref)
            if key in seen or key in shared or not gc.is_tracked(ref):
                continue
            seen.add(key)
            out.append(ref)
            todo.append(ref)
    return out
