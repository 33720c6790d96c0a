"""The survivors of a full collection are frozen, and thawed now and then (issue 37.2)."""

from __future__ import annotations

import gc
import weakref

import pytest

from runtime.gc_freeze import SurvivorFreezer


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Node:
    """A cycle's member (a weak reference tells whether it was freed)."""

    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def freezer():
    clock = Clock()
    made = SurvivorFreezer(thaw_every_s=60.0, clock=clock)
    gc.collect()
    gc.unfreeze()
    made.install()
    yield made, clock
    made.uninstall()
    gc.unfreeze()


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_what_survives_a_full_collection_is_not_scanned_by_the_next(freezer):
    made, _ = freezer
    kept = [Node() for _ in range(1000)]
    gc.collect()
    assert made.frozen == 1 and gc.get_freeze_count() >= len(kept)
    assert not any(n is kept[0] for n in gc.get_objects(2))  # frozen: out of every generation
    young = Node()
    gc.collect(1)  # a younger collection freezes nothing
    assert made.frozen == 1 and any(n is young for n in gc.get_objects(2))


def test_cycles_that_die_frozen_are_freed_after_the_thaw(freezer):
    made, clock = freezer
    ref = cycle()
    holder = [ref()]  # alive through one full collection: frozen with the survivors
    gc.collect()
    assert made.frozen == 1
    holder.clear()  # now garbage, but frozen: no collection sees it
    gc.collect()
    assert ref() is not None and made.thawed == 0
    clock.t += 60.0
    gc.collect()  # the thaw: this collection's survivors are all unfrozen
    assert made.thawed == 1 and gc.get_freeze_count() == 0
    gc.collect()  # the next full collection scans everything once
    assert ref() is None
    assert made.frozen >= 2 and gc.get_freeze_count() > 0  # and freezes again


def test_install_is_idempotent_and_uninstall_stops_it(freezer):
    made, _ = freezer
    made.install()
    assert gc.callbacks.count(made._on_gc) == 1
    made.uninstall()
    gc.collect()
    assert made.frozen == 0 and gc.get_freeze_count() == 0


def test_a_period_must_be_positive():
    with pytest.raises(ValueError, match="thaw_every_s"):
        SurvivorFreezer(thaw_every_s=0)
