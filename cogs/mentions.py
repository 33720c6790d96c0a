"""Who a message may ping: the one place that decides it for every message the bot sends.

Discord pings the users a message mentions (``<@id>``) unless its ``allowed_mentions`` say
otherwise. The bot's default (:data:`NOBODY`, handed to the client in ``bot.py``) lets no
mention ping anyone, so lobbies, tables, end screens, public replays, leaderboards and
history posts show names without pinging (issue 29.2). A message addressed to someone pings
exactly them, explicitly (:func:`only`): the turn ping and the swap offer in a player's DM,
"I cannot DM you" in the channel, a team's or a learner's private thread greeting.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

__all__ = ["NOBODY", "only"]

NOBODY = discord.AllowedMentions.none()
"""The default of every message the bot sends: no user, role, @everyone or reply ping."""


def only(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """The mentions of a message addressed to ``user_ids``: those users may be pinged, nobody else.

    Discord's ``allowed_mentions.users`` (at most 100 ids); roles, @everyone and the replied
    user never ping.
    """
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(id=u) for u in dict.fromkeys(user_ids)],
    )
