"""Is a deadline still due on the stored game? And the AI step it asks for.

A deadline row (``data.TimerRow``) is fired by whichever process claims it (service.runner),
possibly more than once (a claimer killed before completing it, a completion lost in a crash),
and possibly by a process whose cached copy of the game misses other processes' steps (its
LISTEN connection is down after a database restart). So a deadline is judged on the game as
the store holds it: :func:`due_deadline` first checks the cached copy against the store's step
count (one cheap query) and reloads it when it is behind, then :func:`still_due` says whether
the deadline still asks a seat to act. A deadline judged stale on a current copy did its work
already (or a later step wrote its own deadlines): dropping it is safe, and firing it twice
does nothing the second time.

The cogs only carry out what is due (the AI step through :func:`ai_step`, the reminder DM,
the auto-played turn); the cluster tests drive these same functions without Discord.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from data import TimerRow
from engine import Action, Event, Game
from engine.ai import make_ai
from service.deadlines import AI, AI_RETRY, REMINDER, TURN
from service.errors import OutOfDate

if TYPE_CHECKING:
    from service.games import GameService, GameSession

__all__ = [
    "ai_choice",
    "ai_seed",
    "ai_step",
    "due_deadline",
    "fire_ai",
    "still_due",
    "take_once",
]


def ai_seed(game_seed: int, seat: int, version: int) -> int:
    """The seed of one AI decision: a function of the game seed, the seat and the version.

    Hash-free arithmetic so the same game replays the same AI choices on every run.
    """
    return (game_seed * 1_000_003 + seat * 101 + version) % (1 << 63)


def ai_choice(game: Game, seat: int, level: str, seed: int) -> Action:
    """The action an AI of ``level`` chooses for ``seat``, seeing only that seat's observation.

    Raises ValueError for an unknown level; the result is one of ``game.legal_actions(seat)``.
    """
    return make_ai(level, seed).choose(game.observation(seat), game.legal_actions(seat))


def still_due(session: GameSession, row: TimerRow) -> int | None:
    """The seat the game deadline ``row`` still asks to act on ``session``, or None (stale).

    ``ai`` (payload ``{"seat", "version"}``) and ``ai_retry`` (no payload): the seat to move is
    played by an AI (``SeatRow.ai_level`` set) and, for ``ai``, the game is still at the
    payload's version. ``turn`` and ``reminder``: the payload's seat is still to move and is a
    human's (not played by the AI). A finished game, and any other kind, gives None. Pure.
    """
    game = session.game
    seat = game.to_move
    if game.is_over or seat is None:
        return None
    seat_row = session.seats[seat]
    if row.kind in (AI, AI_RETRY):
        version = row.payload.get("version")
        if seat_row.ai_level is None or version not in (None, session.version):
            return None
        return seat
    if row.kind in (TURN, REMINDER):
        if row.payload.get("seat") != seat or seat_row.ai_level is not None:
            return None
        return seat if seat_row.user_id is not None else None
    return None


async def due_deadline(games: GameService, row: TimerRow) -> tuple[GameSession, int] | None:
    """``(session, seat)`` if the game deadline ``row`` is still due on the stored game, else None.

    The session is current with the store (:meth:`GameService.fresh_session`: the cached copy
    if it holds every stored step, else reloaded), so a copy that missed other processes' steps
    never drops a deadline. Raises StoreError when the store cannot say (the caller retries:
    the deadline is never judged on a copy that may be behind).
    """
    if row.game_id is None:
        return None
    session = await games.fresh_session(row.game_id)
    if session is None:
        return None
    seat = still_due(session, row)
    return None if seat is None else (session, seat)


Chooser = Callable[[Game, int, str, int], Awaitable[Action]]
"""An AI's choice, awaited: ``(game, seat, level, seed) -> action`` (the bot searches off the
event loop; :func:`choose_here` runs :func:`ai_choice` in place)."""


async def choose_here(game: Game, seat: int, level: str, seed: int) -> Action:
    """:func:`ai_choice` as a :data:`Chooser` (in place, on the calling thread)."""
    return ai_choice(game, seat, level, seed)


async def ai_step(
    games: GameService,
    session: GameSession,
    seat: int,
    level: str,
    *,
    actor: str | None = None,
    choose: Chooser = choose_here,
) -> Event | None:
    """One AI step of ``level`` for ``seat`` at the current version; the Event, or None if stale.

    ``actor`` defaults to ``ai`` for an AI seat and ``auto`` for a human's seat. A seeded
    choice (:func:`ai_seed`): two processes firing the same deadline choose the same step, and
    the store's sequence check keeps one (the other gets OutOfDate: None here). ``choose``
    makes the choice (the bot's runs searching levels in its process pool). Raises
    StoreError when the step was not stored (or its outcome is unknown, ``OutcomeUnknown``).
    """
    version = session.version
    if actor is None:
        actor = "ai" if session.seats[seat].user_id is None else "auto"
    action = await choose(session.game, seat, level, ai_seed(session.row.seed, seat, version))
    try:
        return await games.play(session, seat, action, version=version, actor=actor)
    except OutOfDate:
        return None


async def fire_ai(
    games: GameService, row: TimerRow, *, choose: Chooser = choose_here
) -> Event | None:
    """Carry out an ``ai`` (or ``ai_retry``) deadline: one AI step if still due (idempotent).

    Judged on the stored game (:func:`due_deadline`); a second firing of the same row finds
    the game at a later version and does nothing. Returns the step's Event or None. Raises
    StoreError when the store cannot be read or the step not stored (retry later).
    """
    due = await due_deadline(games, row)
    if due is None:
        return None
    session, seat = due
    level = session.seats[seat].ai_level or "normal"
    return await ai_step(games, session, seat, level, choose=choose)


async def take_once(games: GameService, row: TimerRow) -> bool:
    """Whether this firing of ``row`` may do a side effect that must not repeat (a DM).

    A deadline fires at least once; a reminder DM must not be sent twice. The stored row is
    completed (deleted, if this process's claim still holds it) BEFORE the side effect: True
    for the one firing that deleted it, False for a repeat (already completed, set again or
    claimed elsewhere). A crash between the two loses the side effect rather than doubling it
    (at most once). A deadline kept in memory only (``row.id`` < 0) fires in one process: True.
    Raises StoreError when the store cannot say (the deadline fires again later).
    """
    if row.id < 0:
        return True
    return await games.store.timers.complete(row, games.store.origin)
