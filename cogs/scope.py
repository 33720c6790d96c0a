"""Where a game or lobby may be seen or acted on: its server, its channel, its players' DMs.

One check per question, shared by every command and control that asks it:

- :func:`game_visible`: may a finished game be shown here (``/hats record``, ``/hats replay``,
  the history select)? In a server only that server's games; in a DM only the games the user
  played (issue 19.1).
- :func:`used_where_it_lives`: is a control pressed in the server and channel of its lobby or
  game (or, for the hand's controls, in the player's DM)? Discord only delivers custom_ids that
  are on the message, so this is defence in depth against forged interactions (issue 19.3).
- :func:`require_host`: the host, or a member with *Manage Server* **on the lobby's server**.
- :data:`MAX_ID` / :func:`in_id_range`: ids are SQLite/PostgreSQL int64 and count from 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from service import ServiceError
from texts.replies import ELSEWHERE

if TYPE_CHECKING:
    from data import Store

__all__ = [
    "ELSEWHERE",
    "MAX_ID",
    "game_visible",
    "in_id_range",
    "require_host",
    "used_where_it_lives",
]

MAX_ID = (1 << 63) - 1
"""The largest row id the store can hold (SQLite INTEGER / PostgreSQL bigint)."""


def in_id_range(value: int) -> bool:
    """True when ``value`` can be a stored id (1 … 2**63-1); anything else names no row."""
    return 0 < value <= MAX_ID


async def game_visible(store: Store, game_id: int, *, guild_id: int | None, user_id: int) -> bool:
    """True when game ``game_id`` may be shown where the interaction happens.

    In a server (``guild_id`` set): only that server's games. In a DM (``guild_id`` None):
    only games ``user_id`` sat in (a kicked seat counts: it was theirs). An id out of range is
    never visible. Says nothing about whether the game is finished.
    """
    if not in_id_range(game_id):
        return False
    row = await store.games.get_game(game_id)
    if row is None:
        return False
    if guild_id is not None:
        return row.guild_id == guild_id
    return any(s.user_id == user_id for s in await store.games.seats(game_id))


def used_where_it_lives(
    interaction: discord.Interaction, guild_id: int, channel_id: int, *, dm_ok: bool = False
) -> bool:
    """True when ``interaction`` comes from the server ``guild_id`` and channel ``channel_id``.

    ``dm_ok``: a DM with the bot counts too (the hand's controls: a DM interaction always comes
    from the clicker's own DM, and the seat check then says whose hand it is).
    """
    if interaction.guild_id is None:
        return dm_ok
    return interaction.guild_id == guild_id and interaction.channel_id == channel_id


def require_host(interaction: discord.Interaction, host_id: int | None, guild_id: int) -> None:
    """Raise ServiceError unless the user is the host or manages the server ``guild_id``.

    *Manage Server* is read from the member of the interaction's server, so it only counts
    when that server is the lobby's or game's (``guild_id``).
    """
    if interaction.user.id == host_id:
        return
    perms = getattr(interaction.user, "guild_permissions", None)
    if interaction.guild_id == guild_id and perms is not None and perms.manage_guild:
        return
    raise ServiceError("Only the host ({host}) can do that.", host=f"<@{host_id}>")
