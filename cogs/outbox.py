"""Delivers the outbox: the announcements owed after a committed change (``data.outbox``).

A game's start owes its table, every hand by DM and the first player's ping; a game's end owes
the final scores with the record and a Rematch button. The store writes the item in the same
transaction as the change; this cog shows it, then marks it delivered. It runs on the event
``hats_outbox`` (the service fires it after such a commit), at start-up (``on_ready``: a
restored bot delivers whatever was not delivered) and on a stored retry deadline
(:data:`RETRY_KIND`, every :data:`RETRY_SECONDS` while Discord or the store fails).

Cogs take part by defining ``announce_start(session)`` / ``announce_end(session)``; each must be
idempotent (skip what is already shown: a retry or a restart calls it again). After a start
is shown the bot event ``hats_game_started`` fires, after an end ``hats_game_over``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs.clock import now
from data import OutboxItem, OutboxKind, StoreError, TimerRow
from data.game_flags import is_activity_only

if TYPE_CHECKING:
    from bot import HatsBot

__all__ = ["RETRY_KIND", "RETRY_SECONDS", "OutboxCog"]

log = logging.getLogger("hats.outbox")

RETRY_KIND = "outbox"
"""Scheduler deadline kind: deliver (and finish) what is still owed."""
RETRY_SECONDS = 60.0
"""Seconds between delivery attempts while the store or Discord fails."""
CLAIM_LEASE = 30.0
"""Seconds an item belongs to the process showing it (``Outbox.claim``); several processes
never show the same item, and one that dies while showing it leaves it to the next retry."""


class OutboxCog(commands.Cog, name="OutboxCog"):
    """Shows every owed announcement exactly once, after its change was committed."""

    def __init__(self, bot: HatsBot) -> None:
        self.bot = bot
        self._busy: set[int] = set()  # items being delivered now
        self._shown: set[int] = set()  # items shown whose delivered mark is not stored yet

    def _hooks(self, name: str) -> list[Any]:
        """The cogs' ``name`` hooks, the table's first (the hand DMs point at the channel)."""
        cogs = sorted(self.bot.cogs.values(), key=lambda c: c.qualified_name != "TableCog")
        return [getattr(cog, name) for cog in cogs if hasattr(cog, name)]

    # ------------------------------------------------------------------ events
    @commands.Cog.listener()
    async def on_hats_outbox(self, game_id: int | None = None) -> None:
        """A change that owes an announcement was committed: deliver it now."""
        await self.deliver_pending(game_id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start: deliver everything still owed."""
        await self.deliver_pending(None)

    @commands.Cog.listener()
    async def on_hats_timer(self, row: TimerRow) -> None:
        """The retry deadline fell due: try again."""
        if row.kind == RETRY_KIND:
            await self.deliver_pending(row.game_id)

    # ------------------------------------------------------------------ delivery
    async def deliver_pending(self, game_id: int | None) -> None:
        """Finish games whose finish is owed, then deliver the undelivered items (all or one game).

        Failures (store or Discord) are logged in one WARNING line and retried after
        :data:`RETRY_SECONDS` by a scheduler deadline.
        """
        games = self.bot.games
        failed: set[int | None] = set()
        # One game's finish owed (an older version's crash): the cached copy says so. Games
        # not cached are finished when first loaded (GameService.session).
        session = games.cached(game_id) if game_id is not None else None
        if session is not None:
            try:
                await games.settle(session)  # nothing unless its finish is owed
            except StoreError as exc:
                log.warning("game %d: its finish is not stored yet: %s", session.id, exc)
                failed.add(session.id)
        try:
            items = await self.bot.store.outbox.pending(game_id)
        except StoreError as exc:
            log.warning("the outbox cannot be read: %s", exc)
            items = []
            failed.add(game_id)
        for item in items:
            if not await self.deliver(item):
                failed.add(item.game_id)
        scheduler: Any = self.bot.get_cog("SchedulerCog")
        for owner in failed:
            await scheduler.retry(RETRY_KIND, RETRY_SECONDS, game_id=owner)

    async def deliver(self, item: OutboxItem) -> bool:
        """Show one item and mark it delivered; False when it must be tried again."""
        if item.id in self._busy:
            return True  # another task delivers it right now
        self._busy.add(item.id)
        try:
            store = self.bot.store
            if not await store.outbox.claim(item.id, store.origin, now=now(), lease=CLAIM_LEASE):
                return False  # another process shows it; the retry looks again after its lease
            if item.id not in self._shown:
                session = await self.bot.games.load_game(item.game_id)
                if session is not None:
                    name = "start" if item.kind is OutboxKind.START else "end"
                    # a DM or group DM Activity's game lives in the Activity alone: no table,
                    # no hand DMs; its timers still follow hats_game_started (issue 34.2)
                    hooks = (
                        []
                        if is_activity_only(session.row.settings)
                        else self._hooks(f"announce_{name}")
                    )
                    for hook in hooks:
                        await hook(session)
                    event = "game_started" if item.kind is OutboxKind.START else "game_over"
                    self.bot.dispatch(f"hats_{event}", session)
                self._shown.add(item.id)
            await self.bot.store.outbox.mark_delivered(item.id, at=now())
            self._shown.discard(item.id)
            return True
        except (StoreError, discord.HTTPException) as exc:
            log.warning(
                "game %d: the %s announcement is not delivered yet (%s: %s); retrying",
                item.game_id,
                item.kind.value,
                type(exc).__name__,
                exc,
            )
            return False
        finally:
            self._busy.discard(item.id)


async def setup(bot: HatsBot) -> None:
    """Load the cog."""
    await bot.add_cog(OutboxCog(bot))
