"""The hand DM as a Components V2 layout: texts, the hand picture at full width, controls.

One job: put the pieces together in the order a phone reader needs them (issue 18): whose turn
and what just happened, the hand picture in a media gallery (full message width, alt text), the
own collection and what to do next, then the controls (only legal actions). The texts come
from :func:`texts.hand.hand_texts`, the controls from :func:`cogs.controls.hand_rows`,
the picture from :mod:`cogs.pictures`. A message sent with a ``LayoutView`` carries Discord's
``IS_COMPONENTS_V2`` flag for good, so a hand DM that collapses stays V2 too
(:func:`collapsed_view`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from cogs.pictures import HAND_FILE
from cogs.style import COLOUR
from texts.hand import HandTexts
from texts.limits import V2_TEXT_MAX, fit_alt, fit_lines, text_len, truncate

__all__ = ["HAND_FILE", "HandMessage", "collapsed_view"]


@dataclass(frozen=True, slots=True)
class HandMessage:
    """A hand message before its picture is known: texts, alt text and control rows.

    :meth:`view` builds the ``LayoutView`` with the picture (``picture=True``: the gallery
    points at ``attachment://hand.png``, which must go along or already be on the message) or
    without it (the picture's content as compact text instead).
    """

    texts: HandTexts
    alt: str
    rows: Sequence[discord.ui.ActionRow]

    def view(self, *, picture: bool) -> discord.ui.LayoutView:
        """The message's layout: one container, nothing said twice.

        Its texts stay within Discord's 4,000 characters for a whole V2 message
        (:data:`~texts.limits.V2_TEXT_MAX`, counted in UTF-16 units): the head, the
        picture's text and the bottom part at most a quarter each (they never need more);
        what just happened (a notice, the coach's lines, others' moves) gets the rest, its
        newest lines kept and a single too-long line cut with ``…``. So an oversized notice
        can never make the message fail to send.
        """
        t = self.texts
        quarter = V2_TEXT_MAX // 4
        head = truncate(t.head, quarter)
        state = "" if picture else truncate(t.state, quarter)
        bottom = "\n".join(part for part in (t.mine, t.next, t.refused) if part)
        bottom = truncate(bottom, quarter)
        room = V2_TEXT_MAX - sum(text_len(x) for x in (head, state, bottom)) - 1  # the "\n"
        recent = fit_lines(t.recent.split("\n"), room) if t.recent else ""
        top = "\n".join(part for part in (head, recent) if part)
        items: list[discord.ui.Item] = [discord.ui.TextDisplay(top)]
        if picture:
            # the whole alt text, as on the attachment (limits.ALT_MAX); it is not displayed
            alt = fit_alt(self.alt)
            item = discord.MediaGalleryItem(f"attachment://{HAND_FILE}", description=alt)
            items.append(discord.ui.MediaGallery(item))
        else:
            items.append(discord.ui.TextDisplay(state))
        items.append(discord.ui.TextDisplay(bottom))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.Container(*items, *self.rows, accent_colour=COLOUR))
        return view


def collapsed_view(text: str) -> discord.ui.LayoutView:
    """A hand DM collapsed to one short line (no picture, no controls)."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(text))
    return view
