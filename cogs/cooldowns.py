"""The per-channel cooldown of the commands that post publicly on request (issue 19.4).

``/hats table``, ``/hats leaderboard``, ``/hats replay`` (and the history's replay select) and
``/hats record share:True`` post a new public message for whoever asks, so one user could fill
a channel. A channel takes one such post per ``HATS_PUBLIC_COOLDOWN`` seconds, counted by
discord.py's :class:`discord.app_commands.Cooldown` (one bucket per channel, shared by these
commands, on the bot's clock so that tests move it). While a channel cools down the command is
answered privately with the time left; nothing is posted.
"""

from __future__ import annotations

from discord import app_commands

__all__ = ["PublicPosts"]

PRUNE_AT = 1024
"""Buckets kept before the ones that have cooled down are dropped."""


class PublicPosts:
    """One :class:`app_commands.Cooldown` per channel: one public post per ``per`` seconds.

    ``per`` None (or 0) turns the limit off.
    """

    def __init__(self, per: float | None) -> None:
        self.per = per or 0.0
        self._buckets: dict[int, app_commands.Cooldown] = {}

    def retry_after(self, channel_id: int, now: float) -> float | None:
        """Take the channel's post for now (``now``: unix seconds); None when allowed.

        Otherwise the seconds until the channel may post again (the post is not counted).
        """
        if self.per <= 0:
            return None
        bucket = self._buckets.get(channel_id)
        if bucket is None:
            if len(self._buckets) >= PRUNE_AT:
                self._prune(now)
            bucket = self._buckets[channel_id] = app_commands.Cooldown(1, self.per)
        return bucket.update_rate_limit(now)

    def _prune(self, now: float) -> None:
        for channel_id, bucket in list(self._buckets.items()):
            if bucket.get_tokens(now) >= bucket.rate:
                del self._buckets[channel_id]
