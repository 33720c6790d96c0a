"""A user's request on a lobby (join, leave, AI seats, teams, start, cancel), without Discord.

The lobby's own checks (R3: 2 to 4 players; R5: two teams of two; the host decides), shared
by the lobby message's buttons and slash commands (``cogs.lobby``, ``cogs.ai_players``) and
the Activity (``web``). Each function stores the change under the lobby's lock
(:meth:`GameService.update_lobby`) and returns the new :class:`LobbyRow`, or raises
:class:`ServiceError` (nothing stored). Redrawing the lobby message is the caller's.

``host_ok`` says whether the requester may act as host: the host, or (Discord only) a member
who manages the server; the web passes ``user_id == row.host_id``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from data import LobbyRow, LobbySeat
from data.game_flags import HINTS
from service.deadlines import TURN_TIMER
from service.errors import N_, ServiceError

if TYPE_CHECKING:
    from service.games import GameService

__all__ = [
    "AI_LEVELS",
    "MAX_SEATS",
    "MAX_TIMER",
    "MIN_SEATS",
    "MIN_TIMER",
    "TEAM_SEATS",
    "add_ai",
    "check_timer",
    "join",
    "leave",
    "pick_team",
    "remove_ai",
    "require_host",
    "seat_order",
    "set_hints",
    "set_timer",
    "shuffle_teams",
    "team_positions",
]

MAX_SEATS = 4
MIN_SEATS = 2
TEAM_SEATS = 4
AI_LEVELS = ("easy", "normal", "hard", "expert")
MIN_TIMER = 10
"""The shortest turn timer in seconds (0 is no timer)."""
MAX_TIMER = 86400
"""The longest turn timer in seconds (the slash commands' option range)."""


def require_host(row: LobbyRow, user_id: int, *, manages_server: bool = False) -> None:
    """ServiceError unless ``user_id`` hosts ``row`` (or ``manages_server``)."""
    if user_id == row.host_id or manages_server:
        return
    raise ServiceError("Only the host ({host}) can do that.", host=f"<@{row.host_id}>")


async def join(games: GameService, lobby_id: int, user_id: int) -> LobbyRow:
    """Seat ``user_id``; ServiceError when already seated or full (R3).

    The abuse limits (lobbies and games per user) are the caller's to check first.
    """

    def change(row: LobbyRow) -> tuple[Sequence[LobbySeat], dict[str, Any]]:
        if any(s.user_id == user_id for s in row.seats):
            raise ServiceError("You are already in this lobby.")
        if len(row.seats) >= MAX_SEATS:
            raise ServiceError("This lobby is full: a game has at most 4 players.")
        return (*row.seats, LobbySeat(user_id=user_id)), dict(row.settings)

    return await games.update_lobby(lobby_id, change)


async def leave(games: GameService, lobby_id: int, user_id: int) -> tuple[LobbyRow, bool]:
    """Unseat ``user_id``: ``(row, closed)``; ServiceError when they were not seated.

    The host role passes to the first human left; a lobby without humans closes (``closed``
    True, ``row`` as it was before).
    """

    def change(row: LobbyRow) -> tuple[Sequence[LobbySeat], dict[str, Any]]:
        if not any(s.user_id == user_id for s in row.seats):
            raise ServiceError("You are not in this lobby.")
        return tuple(s for s in row.seats if s.user_id != user_id), dict(row.settings)

    before = await games.lobby(lobby_id)
    row = await games.update_lobby(lobby_id, change)
    humans = [s.user_id for s in row.seats if s.user_id is not None]
    if not humans:
        await games.close_lobby(lobby_id)
        return before or row, True
    if row.host_id == user_id:
        row = await games.set_lobby_host(lobby_id, humans[0])
    return row, False


async def add_ai(games: GameService, lobby_id: int, level: str) -> LobbyRow:
    """Seat an AI of ``level``; ServiceError when full (the host check is the caller's)."""
    if level not in AI_LEVELS:
        raise ValueError(f"unknown AI level {level!r}")

    def change(row: LobbyRow) -> tuple[Sequence[LobbySeat], dict[str, Any]]:
        if len(row.seats) >= MAX_SEATS:
            raise ServiceError("This lobby is full: a game has at most 4 players.")
        return (*row.seats, LobbySeat(ai_level=level)), dict(row.settings)

    return await games.update_lobby(lobby_id, change)


async def remove_ai(games: GameService, lobby_id: int) -> LobbyRow:
    """Unseat the last AI; ServiceError when there is none (the host check is the caller's)."""

    def change(row: LobbyRow) -> tuple[Sequence[LobbySeat], dict[str, Any]]:
        ai = [i for i, s in enumerate(row.seats) if s.ai_level and s.user_id is None]
        if not ai:
            raise ServiceError("There is no AI player in this lobby.")
        return [s for i, s in enumerate(row.seats) if i != ai[-1]], dict(row.settings)

    return await games.update_lobby(lobby_id, change)


def team_positions(seats: Sequence[LobbySeat]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The lobby positions of team A and team B (R5), or None when the picks are unbalanced.

    Explicit picks (``LobbySeat.team`` 0 or 1) come first; seats without a pick fill the team
    with room, in lobby order. Each team holds at most 2 seats.
    """
    teams: tuple[list[int], list[int]] = ([], [])
    for i, seat in enumerate(seats):
        if seat.team in (0, 1):
            teams[seat.team].append(i)
    if any(len(t) > 2 for t in teams):
        return None
    for i, seat in enumerate(seats):
        if seat.team not in (0, 1):
            target = teams[0] if len(teams[0]) <= len(teams[1]) and len(teams[0]) < 2 else teams[1]
            target.append(i)
    return tuple(sorted(teams[0])), tuple(sorted(teams[1]))


def seat_order(seats: Sequence[LobbySeat]) -> list[LobbySeat] | None:
    """Game seating for 4 lobby seats: team A at seats 0 and 2, team B at 1 and 3 (R5)."""
    teams = team_positions(seats)
    if len(seats) != TEAM_SEATS or teams is None or any(len(t) != 2 for t in teams):
        return None
    a, b = teams
    return [seats[a[0]], seats[b[0]], seats[a[1]], seats[b[1]]]


TEAM_NAMES = (N_("Team A"), N_("Team B"))
"""The two teams of a 4-seat game (R5): seats 0+2, then 1+3."""


async def pick_team(games: GameService, lobby_id: int, user_id: int, team: int) -> LobbyRow:
    """``user_id`` picks team ``team`` (0: A, 1: B, R5).

    ServiceError when they are not seated or that team already has 2 picks.
    """

    def change(r: LobbyRow) -> tuple[Sequence[LobbySeat], dict[str, Any]]:
        if not any(s.user_id == user_id for s in r.seats):
            raise ServiceError("Join the lobby first, then pick a team.")
        taken = sum(1 for s in r.seats if s.team == team and s.user_id != user_id)
        if taken >= 2:
            raise ServiceError(
                "{team} already has 2 players. Pick the other team, or ask the host to shuffle.",
                team=TEAM_NAMES[team],
            )
        seats = [
            LobbySeat(s.user_id, s.ai_level, team) if s.user_id == user_id else s for s in r.seats
        ]
        return seats, dict(r.settings)

    return await games.update_lobby(lobby_id, change)


async def shuffle_teams(games: GameService, lobby_id: int, rng: random.Random) -> LobbyRow:
    """Deal new teams (R5) with ``rng`` (the host check is the caller's)."""
    deal = [0, 0, 1, 1]
    rng.shuffle(deal)

    def change(r: LobbyRow) -> tuple[Sequence[LobbySeat], dict[str, Any]]:
        seats = [
            LobbySeat(user_id=s.user_id, ai_level=s.ai_level, team=deal[i])
            for i, s in enumerate(r.seats)
        ]
        return seats, dict(r.settings)

    return await games.update_lobby(lobby_id, change)


def check_timer(seconds: int) -> float | None:
    """A turn timer from a request: None for 0 (no timer), else the seconds.

    Raises ServiceError for 1–9 seconds (too short to play a turn).
    """
    if 0 < seconds < MIN_TIMER:
        raise ServiceError(
            "A turn timer needs at least {n} seconds; use 0 for no timer.", n=MIN_TIMER
        )
    return float(seconds) if seconds else None


async def set_timer(games: GameService, lobby_id: int, seconds: int) -> LobbyRow:
    """Set the lobby's turn timer (seconds, 0: none); ServiceError for 1–9 seconds.

    The host check is the caller's (:func:`require_host`).
    """
    value = check_timer(seconds)

    def change(row: LobbyRow) -> tuple[Sequence[LobbySeat], dict[str, Any]]:
        return row.seats, {**row.settings, TURN_TIMER: value}

    return await games.update_lobby(lobby_id, change)


async def set_hints(
    games: GameService,
    lobby_id: int,
    user_id: int,
    on: bool | None = None,
    *,
    manages_server: bool = False,
) -> LobbyRow:
    """Allow hints in the lobby's game (``on``), forbid them, or (None) switch them (issue 20).

    Only the host (or a server manager): checked on the row as stored, under its lock.
    """

    def change(row: LobbyRow) -> tuple[Sequence[LobbySeat], dict[str, Any]]:
        require_host(row, user_id, manages_server=manages_server)
        settings = dict(row.settings)
        allowed = settings.get(HINTS) is True
        if (not allowed) if on is None else on:
            settings[HINTS] = True
        else:
            settings.pop(HINTS, None)
        return row.seats, settings

    return await games.update_lobby(lobby_id, change)
