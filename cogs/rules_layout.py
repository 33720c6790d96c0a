"""The rules (``/hats rules``, the table's Rules button) laid out as Components V2 messages."""

from __future__ import annotations

import discord

from cogs.style import COLOUR
from texts.i18n import Tr
from texts.rules import rules_messages


def rules_views(tr: Tr) -> list[discord.ui.LayoutView]:
    """One LayoutView per message of :func:`texts.rules.rules_messages` (R1–R21).

    Each view is one container; its pages are two text displays each (head, body), pages
    apart by a separator.
    """
    views: list[discord.ui.LayoutView] = []
    for pages in rules_messages(tr):
        container = discord.ui.Container(accent_colour=COLOUR)
        for index, (head, body) in enumerate(pages):
            if index:
                container.add_item(discord.ui.Separator())
            container.add_item(discord.ui.TextDisplay(head))
            container.add_item(discord.ui.TextDisplay(body))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(container)
        views.append(view)
    return views
