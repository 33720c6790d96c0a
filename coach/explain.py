"""The coach's reaction to a learner's move: which facts to tell, at most three at a time.

The coach sees exactly what the learner sees: their observation before and after the step and
the step's event as they saw it (``Event.seen_by``). So a note can never reveal another seat's
hand or a black hat's face. Any legal move is fine; the coach explains what it did:

- an exchange (R7): same type or higher value; early on, the slots the card could not take;
- the provisional score (R16 collection points on the board as it stands, R18 the cookie)
  and why it moved: a type whose lowest face-up slot changed makes its cards score anew
  (R15, R16), a taken card whose type is face up nowhere scores 0; early on, why the taken
  card is worth its slot (R16);
- a black hat (R8) or a discard (R9: the discard pile becomes the next draw deck) the first
  time;
- the cookie changing hands (R13), also when a tie on types was decided by the lowest values;
- at the start of the learner's turn (:func:`explain_turn_start`): how the others' moves
  changed their score, and before their last turn that the card they keep becomes their
  favourite hat (R14, R17), with what each hand card would score;
- at the end (:func:`explain_end`): the favourite hat (R14, R17), the turned-down slots (R15)
  and the final total and place (R19).

"Early" is the learner's first :data:`EARLY_TURNS` turns; after them a rule is explained only
the first time it shows up (the caller passes the kinds already said as ``seen``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from coach.notes import TEACHING, Note, NoteKind
from engine import (
    TURNS_PER_SEAT,
    ActionKind,
    Card,
    Event,
    GameResult,
    HatType,
    Observation,
    exchange_allowed,
)
from engine.cookie import distinct_types
from engine.scoring import COOKIE_POINTS, face_up_slots, favourite_score, provisional_scores

__all__ = [
    "EARLY_TURNS",
    "MAX_NOTES",
    "TURN_START_NOTES",
    "explain_end",
    "explain_step",
    "explain_turn_start",
]

MAX_NOTES = 3
"""Notes shown after one move at the most (three short lines on a phone)."""

EARLY_TURNS = 2
"""The learner's first turns, in which the coach explains every rule it sees at work."""

TURN_START_NOTES = 2
"""Notes at the start of a turn at the most (the others' moves are shown above them)."""


def _provisional(obs: Observation, seat: int) -> int:
    return provisional_scores(obs.board, obs.collections, obs.black_hat_counts, obs.cookie)[seat]


def _types(obs: Observation, seat: int) -> int:
    return distinct_types(obs.collections[seat], obs.black_hat_counts[seat])


def _cookie_notes(before: Observation, after: Observation, seat: int) -> list[Note]:
    """The cookie came to ``seat`` or left it between the two observations (R13)."""
    if before.cookie == after.cookie:
        return []
    mine = _types(after, seat)
    if after.cookie == seat:
        tied = any(_types(after, s) == mine for s in range(after.seats) if s != seat)
        kind = NoteKind.COOKIE_GAINED_TIE if tied else NoteKind.COOKIE_GAINED
        return [Note(kind, value=mine)]
    if before.cookie == seat:
        holder = after.cookie
        tied = holder is not None and _types(after, holder) == mine
        return [Note(NoteKind.COOKIE_LOST_TIE if tied else NoteKind.COOKIE_LOST, seat=holder)]
    return []


def _worth(board: Sequence[Card], type_: HatType) -> tuple[int | None, int]:
    """The lowest face-up slot showing ``type_`` on ``board`` and a collection card's worth."""
    for slot in face_up_slots(board):
        if board[slot - 1].type is type_:
            return slot, slot
    return None, 0


def _worth_notes(before: Observation, after: Observation, seat: int) -> list[Note]:
    """The types of ``seat``'s collection (as it was before) whose cards now score anew.

    A type's cards score the lowest face-up slot showing that type (R15, R16): an exchange
    that covers it, or shows it lower or higher, changes what every such card scores. Biggest
    change first.
    """
    notes = []
    for type_ in dict.fromkeys(c.type for c in before.collections[seat]):
        _, old = _worth(before.board, type_)
        slot, new = _worth(after.board, type_)
        if old != new:
            cards = [c for c in before.collections[seat] if c.type is type_]
            notes.append(
                Note(
                    NoteKind.WORTH_CHANGED,
                    card=cards[0],
                    slot=slot,
                    value=new,
                    total=old,
                    count=len(cards),
                )
            )
    notes.sort(key=lambda n: -abs((n.value or 0) - (n.total or 0)) * (n.count or 1))
    return notes


def _effect(note: Note) -> int:
    """The points a WORTH_CHANGED or cookie note accounts for (R16; R18: the cookie is 5)."""
    if note.kind is NoteKind.WORTH_CHANGED:
        return ((note.value or 0) - (note.total or 0)) * (note.count or 1)
    if note.kind in (NoteKind.COOKIE_GAINED, NoteKind.COOKIE_GAINED_TIE):
        return COOKIE_POINTS
    return -COOKIE_POINTS  # COOKIE_LOST, COOKIE_LOST_TIE


def _why(before: Observation, after: Observation, seat: int, delta: int) -> list[Note]:
    """Why ``seat``'s score moved by ``delta``: types that score anew, the cookie (R13–R18).

    The causes that pushed the score the way it went come first, the biggest first.
    """
    causes = _worth_notes(before, after, seat) + _cookie_notes(before, after, seat)
    return sorted(causes, key=lambda n: ((_effect(n) > 0) != (delta > 0), -abs(_effect(n))))


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
        where, worth = _worth(after.board, took.type)
        notes = [rule, Note(NoteKind.SCORE, value=delta, total=score)]
        notes += _why(before, after, seat, delta)  # why the score moved as it did
        if where is None:  # a card worth 0 is a surprise every time: said whenever it happens
            notes.append(Note(NoteKind.WORTH_NOTHING, card=took))
        else:
            notes.append(Note(NoteKind.SLOT_WORTH, card=took, slot=where, value=worth))
        notes += forbidden
    elif event.kind is ActionKind.BLACK_HAT:
        notes = [
            Note(NoteKind.BLACK_HAT, card=event.card),
            Note(NoteKind.SCORE, value=delta, total=score),
            *cookie,
        ]
    elif event.kind is ActionKind.DISCARD:
        # the move's own line says which card went and which came: the coach adds the rule
        notes = [Note(NoteKind.DISCARD)]
    else:
        return ()
    return tuple([n for n in notes if fresh(n)][:MAX_NOTES])


def _last_turn_note(now: Observation, seat: int) -> list[Note]:
    """Before ``seat``'s last turn (R14): what each hand card would score as favourite (R17).

    Said when the learner is to move with their last turn still ahead of any action: the card
    left in their hand after it becomes their favourite hat. Scores are for the collection as
    it stands.
    """
    hand = now.hand or ()
    last = now.turns_taken[seat] == TURNS_PER_SEAT - 1
    if not last or now.to_move != seat or now.main_done or len(hand) != 2:
        return []
    first, second = hand
    collection = now.collections[seat]
    return [
        Note(
            NoteKind.LAST_TURN,
            card=first,
            took=second,
            value=favourite_score(collection, first),
            total=favourite_score(collection, second),
        )
    ]


def explain_turn_start(
    steps: Sequence[tuple[Observation, Event, Observation]], now: Observation
) -> tuple[Note, ...]:
    """The notes at the start of the learner's turn (at most :data:`TURN_START_NOTES`).

    ``steps``: the other seats' steps since the learner's last one, each as the learner saw
    it (observation before, event, observation after); ``now``: the learner's observation at
    the start of their turn (``viewer`` is the learner). Says, most useful first: before the
    last turn, what the kept card will score as favourite hat (R14, R17); how the others'
    moves changed the learner's provisional score (R16, R18) and which player's move did it
    (``seat`` None: several players' moves), then why (a type's slot, R15–R16; the cookie,
    R13). An empty tuple when nothing changed and the last turn is not next. Raises
    ValueError when ``now`` is not a seat's observation.
    """
    seat = now.viewer
    if seat is None:
        raise ValueError("the coach needs the learner's own observation")
    notes = _last_turn_note(now, seat)
    if steps:
        first = steps[0][0]
        delta = _provisional(now, seat) - _provisional(first, seat)
        if delta:  # moves that changed it and changed it back are no news
            movers = {
                event.seat
                for before, event, after in steps
                if _provisional(after, seat) != _provisional(before, seat)
            }
            who = movers.pop() if len(movers) == 1 else None
            score = _provisional(now, seat)
            notes.append(Note(NoteKind.SCORE_BY_OTHERS, value=delta, total=score, seat=who))
            notes += _why(first, now, seat, delta)
    return tuple(notes[:TURN_START_NOTES])


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
