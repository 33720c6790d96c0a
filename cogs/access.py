"""Who may post in a server channel, as the bot sees it (for the Activity's web server).

The Activity's lobby actions in a server channel make the bot post or edit the lobby and
table messages there, so the web server asks first whether the user may view that channel and
send messages in it (issue 34.1): the channel's permission overwrites and the server's roles
from the bot's cache (the ``GUILDS`` intent), the member from the cache or, without the
members intent, ``GET /guilds/{guild}/members/{user}`` (discord.py ``Guild.fetch_member``),
computed by discord.py (``permissions_for``), as Discord computes them for a slash command's
user. Verdicts are kept :data:`VERDICT_TTL` seconds: at most one REST call per user, server
and minute.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from discord import Client

__all__ = ["VERDICT_TTL", "ChannelAccessOf"]

VERDICT_TTL = 60.0
"""Seconds a verdict is kept."""


class ChannelAccessOf:
    """``may_post(guild_id, channel_id, user_id)`` over a discord.py client's cache.

    False when the bot is not in that server, the channel is unknown, the user is not a
    member, or the permissions lack View Channel or Send Messages (Send Messages in Threads
    in a thread). ``calls``: member look-ups made over REST.
    """

    def __init__(self, client: Client, *, ttl: float = VERDICT_TTL, limit: int = 10_000) -> None:
        self.client = client
        self.ttl = ttl
        self.limit = limit
        self.calls = 0
        self._verdicts: OrderedDict[tuple[int, int, int], tuple[float, bool]] = OrderedDict()

    async def may_post(self, guild_id: int, channel_id: int, user_id: int) -> bool:
        """Whether ``user_id`` may view ``channel_id`` and send messages there."""
        key = (guild_id, channel_id, user_id)
        now = time.monotonic()
        kept = self._verdicts.get(key)
        if kept is not None and now - kept[0] <= self.ttl:
            return kept[1]
        verdict = await self._judge(guild_id, channel_id, user_id)
        self._verdicts[key] = (now, verdict)
        self._verdicts.move_to_end(key)
        while len(self._verdicts) > self.limit:
            self._verdicts.popitem(last=False)
        return verdict

    async def _judge(self, guild_id: int, channel_id: int, user_id: int) -> bool:
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return False
        channel = guild.get_channel_or_thread(channel_id)
        if channel is None:
            return False
        member = guild.get_member(user_id)
        if member is None:
            self.calls += 1
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:  # NotFound (not a member) among them
                return False
        perms = channel.permissions_for(member)
        send = (
            perms.send_messages_in_threads
            if isinstance(channel, discord.Thread)
            else perms.send_messages
        )
        return perms.view_channel and send
