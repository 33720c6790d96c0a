"""Every persistent control answers privately when its callback fails (issue 9).

discord.py only logs an exception raised in a ``DynamicItem`` callback, so the player would see
"This interaction failed". ``cogs.errors.GuardedItem`` wraps the callback; a control that
forgets it loses that answer, which this test catches for controls added later too.
"""

import importlib
import pkgutil

import discord

import cogs
from cogs.errors import GuardedItem


def _dynamic_items() -> list[type]:
    for info in pkgutil.iter_modules(cogs.__path__):
        importlib.import_module(f"cogs.{info.name}")
    found, todo = [], list(discord.ui.DynamicItem.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("cogs."):
            found.append(cls)
    return found


def test_every_persistent_control_of_the_bot_is_guarded():
    items = _dynamic_items()
    names = {cls.__name__ for cls in items}
    assert {"HandButton", "CardSelect", "LobbyButton", "ReplayButton", "AutoEndButton"} <= names
    unguarded = sorted(cls.__qualname__ for cls in items if not issubclass(cls, GuardedItem))
    assert not unguarded, f"add GuardedItem first in the bases of: {unguarded}"
