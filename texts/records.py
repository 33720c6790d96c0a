"""What ``/hats record`` answers (the game record, ``hats-record/1``)."""

from __future__ import annotations

from texts.i18n import Tr

__all__ = ["no_finished_game_text", "no_record_text", "not_your_game_text", "record_caption"]


def no_finished_game_text(tr: Tr) -> str:
    """No game has finished in this channel, and no game id was given."""
    return tr("No game has finished here yet. Give a game id to get another one.")


def not_your_game_text(tr: Tr, game: int, *, in_server: bool) -> str:
    """Game ``game`` is not one this user may see: another server's, or (in a DM) not theirs."""
    if in_server:
        return tr("There is no game #{game} on this server.", game=game)
    return tr(
        "You did not play in a game #{game}. In a DM, /hats record gives the records "
        "of your own games; ask in the game's server for the others.",
        game=game,
    )


def no_record_text(tr: Tr, game: int) -> str:
    """Game ``game`` has no record (it does not exist or is not finished)."""
    return tr("Game #{game} has no record: it does not exist or is not finished yet.", game=game)


def record_caption(tr: Tr, game: int) -> str:
    """The line above the record's file."""
    return tr("The record of game #{game}.", game=game)
