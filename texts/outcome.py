"""Words for a move whose commit outcome was not known at once (the store did not answer)."""

from __future__ import annotations

from texts.i18n import Tr

__all__ = ["outcome_pending_text", "outcome_text"]


def outcome_pending_text(tr: Tr) -> str:
    """The first answer: it is not known yet whether the move was saved; a followup will say."""
    return tr(
        "The bot's database did not answer in time, so it is not known yet whether your "
        "move was saved. You will get a message here as soon as it is known."
    )


def outcome_text(outcome: bool | None, tr: Tr) -> str:
    """The followup for a resolved outcome: True saved, False not saved, None still unknown."""
    if outcome is True:
        return tr("Your move was saved after all: the database answered again and holds it.")
    if outcome is False:
        return tr("Your move was not saved, so nothing changed. Please make it again.")
    return tr(
        "The bot's database still does not answer, so it is still not known whether your "
        "move was saved. Look at the game again once the bot is back."
    )
