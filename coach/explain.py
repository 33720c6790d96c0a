"""The coach's reaction to a learner's move: which facts to tell, at most three at a time.

The coach sees exactly what the learner sees: their observation before and after the step and
the step's event as they saw it (``Event.seen_by``). So a note can never reveal another seat's
hand or a black hat's face. Any legal move is fine; the coach explains what it did:

- an exchange (R7): same type or higher value; early on, the slots the card could not take;
- the provisional score (R16 collection points on the board as it stands, R18 the cookie) and,
  early on, why the taken card is worth its slot (R16);
- a black hat (R8) or a discard (R9) the first time;
- the cookie changing hands (R13);
- at the end (:func:`explain_end`): the favourite hat (R14, R17), the turned-down slots (R15)
  and the final total and place (R19).

"Early" is the learner's first :data:`EARLY_TURNS` turns; after them a rule is explained only
the first time it shows up (the caller passes the kinds already said as ``seen``).
"""

from __future__ import annotations

from collections.abc import Iterable

from coach.notes import TEACHING, Note, NoteKind
from engine import ActionKind, Card, Event, GameResult, Observation, exchange_allowed
from engine.scoring import face_up_slots, provisional_scores

__all__ = ["EARLY_TURNS", "MAX_NOTES", "explain_end", "explain_step"]

MAX_NOTES = 3
"""Notes shown after one move at the most (three short lines on a phone)."""

EARLY_TURNS = 2
"""The learner's first turns, in which the coach explains every rule it sees at work."""


def _provisional(obs: Observation, seat: int) -> int:
    return provisional_scores(obs.board, obs.collections, obs.black_hat_counts, obs.cookie)[seat]


def _slot_worth(board: tuple[Card, ...], card: Card) -> tuple[int | None, int]:
    """The face-up slot of ``card``'s type on ``board`` and what it makes the card worth (R16)."""
    for slot in face_up_slots(board):
        if board[slot - 1].type is card.type:
            return slot, slot
    return None, 0


def _cookie_notes(before: Observation, after: Observation, seat: int) -> list[Note]:
    if before.cookie == after.cookie:
        return []
    if after.cookie == seat:
        types = len({c.type for c in after.collections[seat]}) + (
            1 if after.black_hat_counts[seat] else 0
        )
        return [Note(NoteKind.COOKIE_GAINED, value=types)]
    if before.cookie == seat:
        return [Note(NoteKind.COOKIE_LOST, seat=after.cookie)]
    return []


def _exchange_notes(before: Observation, event: Event, early: bool) -> list[Note]:
    card, took, slot = event.card, event.took, event.slot
    assert card is not None and took is not None and slot is not None
    kind = NoteKind.EXCHANGE_SAME_TYPE if card.type is took.type else NoteKind.EXCHANGE_HIGHER
    notes = [Note(kind, card=card, took=took, slot=slot)]
    if early:
        forbidden = tuple(
            n for n, b in enumerate(before.board, start=1) if not exchange_allowed(card, b)
        )
        if forbidden:
            notes.append(Note(NoteKind.SLOTS_FORBIDDEN, card=card, slots=forbidden))
    return notes


def explain_step(
    before: Observation,
    event: Event,
    after: Observation,
    *,
    seen: Iterable[NoteKind] = (),
) -> tuple[Note, ...]:
    """The notes for the learner's step ``event`` (at most :data:`MAX_NOTES`), most useful first.

    ``before``/``after``: the learner's observations around the step (``viewer`` is the
    learner); ``event``: the step as the learner saw it. ``seen``: note kinds already said in
    this game; a rule note (:data:`coach.notes.TEACHING`) is repeated only in the learner's
    first :data:`EARLY_TURNS` turns. Steps of other seats, swaps and a plain end of turn give
    no note (an empty tuple). Raises ValueError when the observations are not the learner's.
    """
    seat = before.viewer
    if seat is None or after.viewer != seat:
        raise ValueError("the coach needs the learner's own observations")
    if event.seat != seat:
        return ()
    early = before.turns_taken[seat] < EARLY_TURNS
    said = frozenset(seen)

    def fresh(note: Note) -> bool:
        return note.kind not in TEACHING or early or note.kind not in said

    score = _provisional(after, seat)
    delta = score - _provisional(before, seat)
    cookie = _cookie_notes(before, after, seat)
    notes: list[Note]
    if event.kind is ActionKind.EXCHANGE:
        rule, *forbidden = _exchange_notes(before, event, early)
        took = event.took
        assert took is not None
        where, worth = _slot_worth(after.board, took)
        notes = [rule, Note(NoteKind.SCORE, value=delta, total=score), *cookie]
        notes.append(Note(NoteKind.SLOT_WORTH, card=took, slot=where, value=worth))
        notes += forbidden
    elif event.kind is ActionKind.BLACK_HAT:
        notes = [
            Note(NoteKind.BLACK_HAT, card=event.card),
            Note(NoteKind.SCORE, value=delta, total=score),
            *cookie,
        ]
    elif event.kind is ActionKind.DISCARD:
        explained = Note(NoteKind.DISCARD, card=event.card, took=event.drew)
        # once the rule is known, say only what came of it
        notes = [explained if fresh(explained) else Note(NoteKind.DREW, event.card, event.drew)]
    else:
        return ()
    return tuple([n for n in notes if fresh(n)][:MAX_NOTES])


def explain_end(result: GameResult, seat: int) -> tuple[Note, ...]:
    """The notes of the final scoring for ``seat``: favourite, turned-down slots, total and place.

    ``result``: the finished game's result (R14–R19). The place is the game's one ranking
    (``result.places``, :func:`engine.standings`: 1-based, black hats and the cookie break
    ties, two players ahead of you make you third).
    """
    score = result.scores[seat]
    turned = tuple(n for n in range(1, len(result.board) + 1) if n not in result.face_up_slots)
    place = result.places[seat]
    return (
        Note(NoteKind.FAVOURITE, card=result.favourites[seat], value=score.favourite),
        Note(NoteKind.TURNED_DOWN, slots=turned),
        Note(NoteKind.FINAL, value=score.total, total=place),
    )
