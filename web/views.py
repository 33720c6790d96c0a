"""The ``view`` frame of ``hats-activity/1``: one viewer's view of a game (the protocol doc).

Built from the engine's per-seat observation only (``Game.observation(seat)``, R21): a seated
player gets their own hand and black hats, exactly what their hand DM shows; a spectator
(``seat`` None) gets the public table. No field is ever filled from the full game state, so
another seat's hand, a black hat's face or a swapped card cannot reach a viewer who may not
see it. After the end, ``result`` reveals what R21 reveals to everyone.

Texts (the last events, why a card may not go to a slot) come from the bot's own renderers
(``texts``) in the viewer's language, with plain names: the client shows them as text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine import ActionKind, Card, Event, Observation
from engine.scoring import provisional_scores
from service.requests import is_unrated
from texts import SeatLabel, describe_event
from texts.hand import refused_text
from texts.replies import labels_for

if TYPE_CHECKING:
    from service import GameSession
    from texts.i18n import Tr

__all__ = ["EVENTS_SHOWN", "EventTexts", "plain_labels", "view_frame"]

EVENTS_SHOWN = 6
"""How many of the last events a view carries (turn ends are left out: issue 35.5)."""


def plain_labels(session: GameSession, names: Mapping[int, str], tr: Tr) -> list[SeatLabel]:
    """Seat labels with plain (unescaped) names, never mentions: the client shows text."""
    return [
        dataclasses.replace(label, name=label.plain_name, named=True)
        for label in labels_for(session, names, tr, plain=True)
    ]


def _codes(cards: Sequence[Card] | None) -> list[str] | None:
    return None if cards is None else [c.code for c in cards]


class EventTexts:
    """Event entries already worded, shared by every view frame (an event never changes).

    Keyed by the game and the event's number, the viewer's seat (which decides what of the
    event it may see, ``Event.seen_by``), whether the AI played it for an absent human, the
    language and the seat names: the same entry is made once, not once per viewer and step
    (the last :data:`EVENTS_SHOWN` events are in every frame), and every frame that shows it
    holds the same object. The keys hold only numbers and strings (no event objects: fewer
    objects for the garbage collector to scan). At most ``size`` entries are kept (the oldest
    go first).
    """

    def __init__(self, size: int = 50_000) -> None:
        self.size = size
        self._lines: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._tails: dict[tuple[Any, ...], tuple[int, tuple[dict[str, Any], ...]]] = {}

    def tail(self, key: tuple[Any, ...], version: int) -> tuple[int, tuple[dict[str, Any], ...]]:
        """The last entries kept for ``key`` (game, seat, language, names) and their step count.

        ``(steps, entries)`` as :meth:`keep` stored them, or ``(-1, ())`` when none are kept
        or they are from a later step than ``version`` (the caller then builds them anew).
        """
        kept = self._tails.get(key)
        if kept is None or kept[0] > version:
            return -1, ()
        return kept

    def keep(self, key: tuple[Any, ...], version: int, entries: tuple[dict[str, Any], ...]) -> None:
        """Keep ``entries``, a frame's ``events`` at step count ``version``, for the next frame."""
        if key not in self._tails and len(self._tails) >= self.size:
            del self._tails[next(iter(self._tails))]
        self._tails[key] = (version, entries)

    def line(
        self,
        game_id: int,
        event: Event,
        seat: int | None,
        labels: list[SeatLabel],
        tr: Tr,
        auto: bool,
        names: tuple[str, ...] | None = None,
    ) -> dict[str, Any]:
        """The ``events`` entry of ``event`` of game ``game_id`` as ``seat`` may see it.

        ``{"number", "seat", "kind", "slot", "text"}``: ``kind`` and ``slot`` are public
        (R7-R10), ``text`` is the event worded in ``tr``'s language as ``seat`` may see it
        (``auto``: the AI played it for an absent human). ``names``: the labels' names, when
        the caller has them at hand (one tuple per frame). Read-only: it is shared.
        """
        if names is None:
            names = tuple(label.name for label in labels)
        key = (game_id, event.number, seat, auto, tr.locale, names)
        found = self._lines.get(key)
        if found is None:
            found = {
                "number": event.number,
                "seat": event.seat,
                "kind": event.kind.value,
                "slot": event.slot,
                "text": describe_event(event.seen_by(seat), labels, tr, viewer=seat, auto=auto),
            }
            if len(self._lines) >= self.size:
                del self._lines[next(iter(self._lines))]
            self._lines[key] = found
        return found


def view_frame(
    session: GameSession,
    seat: int | None,
    tr: Tr,
    names: Mapping[int, str],
    *,
    auto_end: bool = False,
    deadline: float | None = None,
    labels: list[SeatLabel] | None = None,
    texts: EventTexts | None = None,
    avatars: Sequence[str | None] | None = None,
    shared: dict[Any, Any] | None = None,
) -> dict[str, Any]:
    """The ``view`` frame of ``session`` for ``seat`` (None: a spectator), JSON-ready.

    ``tr``: the viewer's language; ``names``: user id -> display name; ``auto_end``: the
    seat's Auto end turn setting; ``deadline``: unix seconds by which the seat to move must
    act (the turn timer), or None. ``labels`` (:func:`plain_labels` in ``tr``'s language)
    and ``texts`` let the frames of one step share their work (``web.hub``); ``texts`` also
    carries each seat's event entries to the next step's frame. ``avatars``: each seat's
    avatar, a path on Discord's CDN or None (an AI, a local player; ``web.people``).
    ``shared``: a dict the frames of one push share (one step), for what is the same for every
    viewer (:func:`_public_part`: the table, the counts, the running scores, the result),
    built once. The frame may hold objects of ``texts`` and ``shared``: encode it, never
    change it.
    """
    game = session.game
    if labels is None:
        labels = plain_labels(session, names, tr)
    texts = texts if texts is not None else EventTexts(EVENTS_SHOWN)
    names_key = tuple(label.name for label in labels)
    # The entries last shown to this seat: a step later only the newest event is new (one
    # event per step), so the observation then holds just that one.
    tail_key = (session.id, seat, tr.locale, names_key)
    version = session.version
    kept_at, kept = texts.tail(tail_key, version)
    if kept_at in (version - 1, version):
        obs: Observation = game.observation(seat, last_events=version - kept_at)
    else:
        kept = ()
        obs = game.observation(seat, last_events=2 * EVENTS_SHOWN)
    public = _shared(shared, "public", lambda: _public_part(session, obs, avatars, deadline))
    legal = obs.legal_actions() if seat is not None else None
    pending = obs.pending_swap
    # One line per move: a bare "ended their turn" step says nothing a player must read (the
    # next line names who moves). ``kind`` and ``slot`` are public (R7-R10): the client shows
    # the move's motion from them.
    auto_played = session.auto_played
    added = tuple(
        texts.line(session.id, ev, seat, labels, tr, ev.number in auto_played, names_key)
        for ev in obs.events
        if ev.kind is not ActionKind.END_TURN
    )
    events = (kept + added)[-EVENTS_SHOWN:] if added else kept
    texts.keep(tail_key, version, events)
    blocked: dict[str, str] | None = None
    if seat is not None:
        blocked = {}
        for card in obs.hand or ():
            line = refused_text(obs, card, tr)
            if line:
                blocked[card.code] = line
    # The keys in the protocol doc's order; the public values are shared by every viewer.
    return {
        "t": "view",
        "game_id": public["game_id"],
        "step": public["step"],
        "seat": seat,
        "names": [label.plain_name for label in labels],
        "ai": public["ai"],
        "avatars": public["avatars"],
        "teams": public["teams"],
        "board": public["board"],
        "hand": _codes(obs.hand),
        "own_black_hats": _codes(obs.own_black_hats),
        "hand_sizes": public["hand_sizes"],
        "collections": public["collections"],
        "black_hat_counts": public["black_hat_counts"],
        "deck_size": public["deck_size"],
        "discard_size": public["discard_size"],
        "cookie": public["cookie"],
        "scores": public["scores"],
        "active_seat": public["active_seat"],
        "to_move": public["to_move"],
        "round": public["round"],
        "main_done": public["main_done"],
        "optional_used": public["optional_used"],
        "pending_swap": (
            None
            if pending is None
            else {
                "offerer": pending.offerer,
                "partner": pending.partner,
                "card": pending.card.code if pending.card is not None else None,
            }
        ),
        "deadline": public["deadline"],
        "auto_end": auto_end if seat is not None else False,
        "hints": public["hints"],
        "legal": None if legal is None else [a.to_dict() for a in legal],
        "blocked": blocked,
        "events": list(events),
        "result": public["result"],
    }


def _public_part(
    session: GameSession,
    obs: Observation,
    avatars: Sequence[str | None] | None,
    deadline: float | None,
) -> dict[str, Any]:
    """What every viewer of this step sees alike (any seat's observation holds it), JSON-ready.

    The public fields of the observation (R7-R10 the table, R14 the round, R21 the result at
    the end), who plays each seat, the avatars, the deadline and the running scores. Never a
    hand, a black hat's face or a swapped card: those fields are each viewer's own.
    """
    return {
        "game_id": str(session.id),
        "step": session.version,
        "ai": [s.ai_level for s in session.seats],
        "avatars": list(avatars) if avatars is not None else [None] * len(session.seats),
        "teams": [list(t) for t in obs.teams] if obs.teams else None,
        "board": [c.code for c in obs.board],
        "hand_sizes": list(obs.hand_sizes),
        "collections": [[c.code for c in cs] for cs in obs.collections],
        "black_hat_counts": list(obs.black_hat_counts),
        "deck_size": obs.deck_size,
        "discard_size": obs.discard_size,
        "cookie": obs.cookie,
        "scores": _running_scores(obs),
        "active_seat": obs.active_seat,
        "to_move": obs.to_move,
        "round": obs.round,
        "main_done": obs.main_done,
        "optional_used": obs.optional_used,
        "deadline": deadline if not obs.is_over else None,
        "hints": is_unrated(session),  # a hint a turn in any unrated game (issue 35.10)
        "result": _result(obs),
    }


def _shared(shared: dict[Any, Any] | None, key: str, make: Any) -> Any:
    """``shared[key]``, made with ``make()`` the first time (no ``shared``: made each time)."""
    if shared is None:
        return make()
    if key not in shared:
        shared[key] = make()
    return shared[key]


def _running_scores(obs: Observation) -> list[int]:
    """Each seat's score as the rules count it now, from public information only.

    While the game runs: :func:`engine.scoring.provisional_scores` (R15, R16 on the current
    board, black hats 1 each from their public count, the cookie's 5, R18; the favourite,
    R17, is hidden until the end). After the end: each seat's total (R19).
    """
    if obs.result is not None:
        return [s.total for s in obs.result.scores]
    return list(provisional_scores(obs.board, obs.collections, obs.black_hat_counts, obs.cookie))


def _result(obs: Observation) -> dict[str, Any] | None:
    """The ``result`` object: everything R21 reveals at the end, or None while live."""
    result = obs.result
    if result is None:
        return None
    totals = [s.total for s in result.scores]
    teams = [list(t) for t in obs.teams] if obs.teams else None
    return {
        "ranking": list(result.order),
        "places": list(result.places),
        "totals": totals,
        "favourites": [c.code for c in result.favourites],
        "black_hats": [[c.code for c in b] for b in result.black_hats],
        "hands": [[c.code] for c in result.favourites],
        "face_up_slots": list(result.face_up_slots),
        "teams": teams,
        "winners": list(result.winners),
        "breakdown": [
            {
                "collection": s.collection - s.black_hats,
                "black_hats": s.black_hats,
                "favourite": s.favourite,
                "cookie": s.cookie,
                "total": s.total,
            }
            for s in result.scores
        ],
        "team_totals": list(result.team_totals) if result.team_totals is not None else None,
        "tie_break": result.tie_break.value,
        "cookie": result.cookie,
    }
