"""A move whose commit outcome is not known yet: say so honestly, then follow up once known.

When the database breaks during a move's commit and cannot be read back within the
interaction's 3 s (``service.GameService.play`` raises :class:`service.OutcomeUnknown`), the
player is told privately that the outcome is not known yet, never "not saved". The service
keeps reading in the background; once the store answers, the player gets a private followup
(free of the global rate limit, possible for 15 minutes after the interaction): saved, or not
saved. No rules here.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from cogs.replies import send_private
from service import OutcomeUnknown
from texts.outcome import outcome_pending_text, outcome_text

if TYPE_CHECKING:
    from texts.i18n import Tr

__all__ = ["answer_unknown_outcome"]

log = logging.getLogger("hats.play")

_followups: set[asyncio.Task[None]] = set()
"""Followups waiting for their outcome (a reference each, so none is collected early)."""


async def answer_unknown_outcome(
    interaction: discord.Interaction, exc: OutcomeUnknown, tr: Tr
) -> None:
    """Tell the player the outcome is not known yet; follow up privately once it is.

    One response now (within Discord's 3 s) and one followup later; a followup that Discord
    refuses (the token expired) is logged.
    """
    await send_private(
        interaction,
        outcome_pending_text(tr),
    )

    async def follow_up() -> None:
        outcome = await asyncio.shield(exc.outcome)
        try:
            await interaction.followup.send(outcome_text(outcome, tr), ephemeral=True)
        except discord.HTTPException as error:
            log.warning("game %d: the outcome of a move not told: %s", exc.game_id, error)

    task = asyncio.get_running_loop().create_task(follow_up())
    _followups.add(task)
    task.add_done_callback(_followups.discard)
