"""A player's request on a live game: who may act, their Auto end turn setting, the move itself.

The checks every surface applies before a move reaches :meth:`GameService.play`, without
Discord and without the web: the hand controls and slash commands (``cogs.play``) and the
Activity's WebSocket (``web``) call these functions, so a request gets the same refusal
(a :class:`ServiceError`, or the engine's IllegalMove, or :class:`OutOfDate`) whichever way
it came. The surfaces word the refusal in the player's language.

The Auto end turn setting ("end my turn after the main action", R11) is stored per seat with
the game's messages (role :data:`AUTO_END_ROLE`, ``message_id`` 1 on, 0 off), so it survives
restarts and holds on every surface.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from data.game_flags import hints_allowed, is_rated_kind
from engine import Action, Event, Observation
from engine.actions import END_TURN
from history.ratings import MIN_HUMANS
from service.errors import N_, ServiceError

if TYPE_CHECKING:
    from service.games import GameService, GameSession

__all__ = [
    "AUTO_END_ROLE",
    "NOT_YOUR_CONTROLS",
    "WEB_ORIGIN",
    "AutoEnd",
    "AutoEndOutcome",
    "auto_end",
    "game_over_error",
    "hint_position",
    "hint_seed",
    "is_unrated",
    "play_request",
    "seat_for",
    "switch_auto_end",
]

AUTO_END_ROLE = "auto_end"
"""Stored per seat with the game's messages (survives restarts): ``message_id`` 1 when the
player wants their turn ended after the main action, 0 when not."""

WEB_ORIGIN = 0
"""The ``origin`` of a move made in the Activity (``web``): no Discord message made it (a
message id is never 0), and it was neither a slash command (``origin`` None) nor a control
of a message. The cogs tell the three apart: a move from the web changes nothing of how the
player gets their DMs (slash player or controls player)."""

NOT_YOUR_CONTROLS = N_("These controls belong to another player.")
GAME_OVER = N_("This game is over or no longer exists.")


def game_over_error() -> ServiceError:
    """The refusal of a request on a game that is over or gone."""
    return ServiceError(GAME_OVER)


def seat_for(session: GameSession, user_id: int) -> int:
    """The seat ``user_id`` holds in ``session``; ServiceError when they hold none."""
    seat = session.seat_of(user_id)
    if seat is None:
        raise ServiceError(NOT_YOUR_CONTROLS)
    return seat


def auto_end(session: GameSession, seat: int) -> bool:
    """The seat's "end my turn after the main action" setting (stored, default off)."""
    pref = session.message(AUTO_END_ROLE, seat)
    return pref is not None and pref.message_id == 1


async def play_request(
    games: GameService,
    session: GameSession,
    user_id: int,
    action: Action,
    *,
    version: int | None,
    origin: int | None = None,
) -> Event:
    """``user_id``'s move ``action`` on the state ``version`` they saw; the step's Event.

    Refuses (nothing changes) with ServiceError (a finished game, another player's seat),
    :class:`OutOfDate` (``version`` is not the current step number) or the
    engine's IllegalMove (R7–R11); the store's errors as :meth:`GameService.play` raises
    them. The seat's Auto end turn setting ends the turn after a main action (R11).
    """
    if session.game.is_over:
        raise game_over_error()
    seat = seat_for(session, user_id)
    return await games.play(
        session,
        seat,
        action,
        version=version,
        origin=origin,
        end_turn_after=auto_end(session, seat),
    )


class AutoEnd(enum.Enum):
    """What switching Auto end turn did to the turn in progress."""

    SET = "set"
    """Only the setting changed."""
    NEXT_TURN = "next_turn"
    """Switched on after the main action with the optional action still open: this turn is
    not ended behind the player's back (issue 18); it holds from the next turn."""
    ENDED = "ended"
    """Switched on after the main and the optional action: the turn was ended now (R11)."""


@dataclass(frozen=True, slots=True)
class AutoEndOutcome:
    """The result of :func:`switch_auto_end`: what happened and the end-turn Event, if any."""

    outcome: AutoEnd
    event: Event | None = None


async def switch_auto_end(
    games: GameService, session: GameSession, seat: int, on: bool, *, origin: int | None = None
) -> AutoEndOutcome:
    """Store ``seat``'s Auto end turn setting; end the turn now when it is due (R11).

    Raises what :meth:`GameService.play` raises when the due end of turn is refused (the
    setting is stored anyway).
    """
    await games.remember_message(session, AUTO_END_ROLE, 0, 1 if on else 0, seat=seat)
    game = session.game
    due = on and game.to_move == seat and game.main_done and game.pending_offer is None
    if not due:
        return AutoEndOutcome(AutoEnd.SET)
    if not game.optional_used:
        return AutoEndOutcome(AutoEnd.NEXT_TURN)
    event = await games.play(session, seat, END_TURN, origin=origin)
    return AutoEndOutcome(AutoEnd.ENDED, event)


def hint_seed(session: GameSession, seat: int) -> int:
    """The hint's AI seed: public facts only (the state's step count and the seat).

    The same state gets the same hint, and two games that differ only in hidden cards get
    the same seed.
    """
    return session.version * 4 + seat


def is_unrated(session: GameSession) -> bool:
    """True when ``session`` moves no rating whatever happens.

    That is: a kind of game that is never rated (:func:`data.game_flags.is_rated_kind`:
    practice, the host's Hints, a DM or group DM Activity) or fewer than
    :data:`history.ratings.MIN_HUMANS` distinct humans, so a hint there gives nobody an edge
    over a rated opponent.
    """
    humans = {s.user_id for s in session.seats if s.ai_level is None and s.user_id is not None}
    return not is_rated_kind(session.row.settings) or len(humans) < MIN_HUMANS


def hint_position(
    session: GameSession, seat: int, *, unrated: bool = False
) -> tuple[Observation, list[Action], int]:
    """What a hint for ``seat`` is computed from: ``(observation, legal actions, seed)``.

    Only the seat's own observation (a hint never sees hidden cards). ServiceError when hints
    are not allowed in the game (issue 20; with ``unrated``, also allowed in any game that
    :func:`is_unrated`, as the Activity's one hint a turn, issue 35.10) or the seat has
    nothing to do. The suggestion itself (``coach.suggest``) searches: run it off the event
    loop.
    """
    allowed = is_unrated(session) if unrated else hints_allowed(session.row.settings)
    if not allowed:
        raise ServiceError(
            "Hints are off in this game: its lobby's host did not allow them. /hats learn "
            "starts a practice game, where hints are always on."
        )
    game = session.game
    legal = game.legal_actions(seat) if not game.is_over else []
    if not legal:
        raise ServiceError("Nothing to suggest right now: it is not your turn.")
    return game.observation(seat), legal, hint_seed(session, seat)
