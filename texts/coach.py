"""The coach's notes and hints in words, in the learner's language.

:mod:`coach` decides which facts a move deserves (:class:`coach.Note`); this module says each
one in one short line, in plain words (the rule ids stay in the code). Cards are written as on
the table (``🟥5``); other players by their seat label.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from coach import Hint, Note, NoteKind, Reason
from data.game_flags import HINTS
from engine import Action, ActionKind
from texts.common import COOKIE, SeatLabel, card_short, seat_mention, type_name
from texts.i18n import Tr
from texts.numbers import number, points_text, signed, slot_list

__all__ = ["coach_lines", "hint_line", "hints_line"]


def _score(note: Note, tr: Tr) -> str:
    delta, total = note.value or 0, note.total
    if delta > 0:
        return tr("Your score so far: {total} (+{delta}).", total=total, delta=delta)
    if delta < 0:
        return tr("Your score so far: {total} ({delta}).", total=total, delta=signed(delta))
    return tr("Your score so far stays at {total}.", total=total)


def _slot_worth(note: Note, tr: Tr) -> str:
    assert note.card is not None
    card = card_short(note.card)
    if note.slot is None:
        return tr(
            "{card} scores nothing for now: no {type} card lies face up on the tea table.",
            card=card,
            type=type_name(note.card.type, tr),
        )
    return tr(
        "{card} is worth {points} for now: the lowest slot showing its type is slot {slot}.",
        card=card,
        points=note.value,
        slot=note.slot,
    )


def _worth_changed(note: Note, tr: Tr) -> str:
    """A type of the learner's collection scores anew (R15, R16): how much, and why."""
    assert note.card is not None
    symbol, count = note.card.type.emoji, note.count or 1
    if note.slot is None:
        return tr.plural(
            "Your {symbol} card now scores 0: no {symbol} card lies face up on the tea table "
            "any more.",
            "Your {n} {symbol} cards now score 0: no {symbol} card lies face up on the tea "
            "table any more.",
            count,
            symbol=symbol,
        )
    return tr.plural(
        "Your {symbol} card now scores {points} instead of {before}: the lowest slot showing "
        "{symbol} is now slot {slot}.",
        "Your {n} {symbol} cards now score {points} each instead of {before}: the lowest slot "
        "showing {symbol} is now slot {slot}.",
        count,
        symbol=symbol,
        points=note.value,
        before=note.total,
        slot=note.slot,
    )


def _score_by_others(note: Note, seats: Sequence[SeatLabel], tr: Tr) -> str:
    """The others' moves since the learner's last turn changed their score (R16, R18)."""
    delta = signed(note.value or 0)
    if note.seat is None:
        return tr(
            "The others' moves: your score {total} ({delta}).",  # short (issue 36.9)
            total=note.total,
            delta=delta,
        )
    return tr(
        "{who}'s move: your score {total} ({delta}).",
        who=seat_mention(seats, note.seat, tr),
        total=note.total,
        delta=delta,
    )


def _last_turn(note: Note, tr: Tr) -> str:
    """Before the last turn: the kept card becomes the favourite hat (R14, R17), each option."""
    assert note.card is not None and note.took is not None
    options = "; ".join(
        f"{card_short(card)} → {points_text(points or 0, tr)}"
        for card, points in ((note.card, note.value), (note.took, note.total))
    )
    return tr(
        "Last turn: the card you keep becomes your favourite hat. As things stand: {options}.",
        options=options,
    )


def _final(note: Note, tr: Tr) -> str:
    """The final total and place (R19) as a sentence, the points with their plural form."""
    total = note.value or 0
    n, points = abs(total), number(total)
    if note.total == 1:
        return tr.plural("You win with {n} point!", "You win with {n} points!", n, n=points)
    if note.total == 2:
        return tr.plural(
            "You finish second with {n} point.", "You finish second with {n} points.", n, n=points
        )
    if note.total == 3:
        return tr.plural(
            "You finish third with {n} point.", "You finish third with {n} points.", n, n=points
        )
    return tr.plural(
        "You finish fourth with {n} point.", "You finish fourth with {n} points.", n, n=points
    )


def _line(note: Note, seats: Sequence[SeatLabel], tr: Tr, *, results_shown: bool) -> str:
    card = card_short(note.card) if note.card is not None else ""
    took = card_short(note.took) if note.took is not None else ""
    slots = slot_list(note.slots, tr)  # not inside tr.plural: pybabel
    kind = note.kind
    if kind is NoteKind.EXCHANGE_SAME_TYPE:
        return tr(
            "{card} and {took} are the same type, so any values may swap: {took} joins your "
            "collection.",
            card=card,
            took=took,
        )
    if kind is NoteKind.EXCHANGE_HIGHER:
        return tr(
            "{card} is higher than {took}, so it may take slot {slot} whatever the types.",
            card=card,
            took=took,
            slot=note.slot,
        )
    if kind is NoteKind.SLOTS_FORBIDDEN:
        return tr.plural(
            "Slot {slots} was closed to {card}: another type with an equal or higher value.",
            "Slots {slots} were closed to {card}: other types with equal or higher values.",
            len(note.slots),
            slots=slots,
            card=card,
        )
    if kind is NoteKind.SCORE:
        return _score(note, tr)
    if kind in (NoteKind.SLOT_WORTH, NoteKind.WORTH_NOTHING):
        return _slot_worth(note, tr)
    if kind is NoteKind.WORTH_CHANGED:
        return _worth_changed(note, tr)
    if kind is NoteKind.SCORE_BY_OTHERS:
        return _score_by_others(note, seats, tr)
    if kind is NoteKind.LAST_TURN:
        return _last_turn(note, tr)
    if kind is NoteKind.BLACK_HAT:
        return tr(
            "{card} is now a black hat: only you see it; it scores 1, and all your black hats "
            "count as one type for the cookie.",
            card=card,
        )
    if kind is NoteKind.DISCARD:  # the move's own line names the cards (said once)
        return tr(
            "Discarding was your optional action this turn. Discards are not lost: when the "
            "draw deck runs out, they are shuffled into a new one."
        )
    if kind is NoteKind.COOKIE_GAINED_TIE:
        return tr.plural(
            "{cookie} The cookie is yours (5 points at the end): your {n} type ties for the "
            "most, and your lowest collection values are lower.",
            "{cookie} The cookie is yours (5 points at the end): your {n} types tie for the "
            "most, and your lowest collection values are lower.",
            note.value or 0,
            cookie=COOKIE,
        )
    if kind is NoteKind.COOKIE_LOST_TIE:
        return tr(
            # short: two lines on a phone, not three (issue 36.9)
            "{cookie} to {who}: as many types, lower values.",
            cookie=COOKIE,
            who=seat_mention(seats, note.seat, tr),
        )
    if kind is NoteKind.COOKIE_GAINED:
        return tr(
            "{cookie} The cookie is yours (5 points at the end): your collection shows the "
            "most types ({types}).",
            cookie=COOKIE,
            types=note.value,
        )
    if kind is NoteKind.COOKIE_LOST:
        if note.seat is None:
            return tr("{cookie} The cookie goes back to the napkin.", cookie=COOKIE)
        return tr(
            "{cookie} {who} takes the cookie: that collection now shows more types.",
            cookie=COOKIE,
            who=seat_mention(seats, note.seat, tr),
        )
    if kind is NoteKind.FAVOURITE:
        type_ = type_name(note.card.type, tr) if note.card is not None else ""
        if results_shown:  # the results say the card and its points: only how it scored
            return tr(
                "Your favourite hat is your last card: it scores your {type} collection values "
                "minus its own.",
                type=type_,
            )
        favourite = note.value or 0
        return tr.plural(
            "Your last card, {card}, is your favourite hat: {n} point (your {type} collection "
            "values minus its own).",
            "Your last card, {card}, is your favourite hat: {n} points (your {type} "
            "collection values minus its own).",
            abs(favourite),  # "−1 point": the plural rules read the number without its sign
            n=number(favourite),
            card=card,
            type=type_,
        )
    if kind is NoteKind.TURNED_DOWN:
        if not note.slots:
            return tr("No type lay on two slots, so every slot of the tea table counted.")
        return tr.plural(
            "The card on slot {slots} was turned face down: its type also lay on a lower slot.",
            "The cards on slots {slots} were turned face down: their types also lay on lower "
            "slots.",
            len(note.slots),
            slots=slots,
        )
    return _final(note, tr)


def coach_lines(
    notes: Sequence[Note], seats: Sequence[SeatLabel], tr: Tr, *, results_shown: bool = False
) -> list[str]:
    """One line per note, in the order given (``seats``: the game's seat labels).

    ``results_shown``: the end's compact results stand beside these lines (pictures off,
    :func:`texts.end.end_texts`) and already say each favourite hat and its points, so
    the favourite hat's note says only how it scored (R17).
    """
    return [_line(note, seats, tr, results_shown=results_shown) for note in notes]


def _action(action: Action, tr: Tr) -> str:
    card = card_short(action.card) if getattr(action, "card", None) is not None else ""
    kind = action.kind
    if kind is ActionKind.EXCHANGE:
        return tr("play {card} on slot {slot}", card=card, slot=getattr(action, "slot", 0))
    if kind is ActionKind.BLACK_HAT:
        return tr("play {card} as a black hat", card=card)
    if kind is ActionKind.DISCARD:
        return tr("discard {card}", card=card)
    if kind is ActionKind.OFFER_SWAP:
        return tr("offer {card} to your partner", card=card)
    if kind is ActionKind.ANSWER_SWAP:
        return tr("give {card} back to your partner", card=card)
    if kind in (ActionKind.DECLINE_SWAP, ActionKind.WITHDRAW_SWAP):
        return tr("let the swap go")
    return tr("end your turn")


def _hint_move(hint: Hint, tr: Tr) -> str:
    """The hint's move and why, as one sentence (a whole msgid per move and reason)."""
    action, reason = hint.action, hint.reason
    card = card_short(action.card) if getattr(action, "card", None) is not None else ""
    took = card_short(hint.card) if hint.card is not None else ""
    kind = action.kind
    if kind is ActionKind.EXCHANGE:
        slot = getattr(action, "slot", 0)
        if reason is Reason.COOKIE:
            return tr(
                "Hint: play {card} on slot {slot}, because taking {took} wins you the cookie.",
                card=card,
                slot=slot,
                took=took,
            )
        if reason is Reason.TAKES:
            return tr(
                "Hint: play {card} on slot {slot}, because {took} then scores {points} in your "
                "collection.",
                card=card,
                slot=slot,
                took=took,
                points=hint.value,
            )
        if reason is Reason.SHOWS and hint.card is not None:
            return tr(
                "Hint: play {card} on slot {slot}, because your {symbol} cards then score "
                "{points} each.",
                card=card,
                slot=slot,
                symbol=hint.card.type.emoji,
                points=hint.value,
            )
    elif kind is ActionKind.BLACK_HAT:
        if reason is Reason.NO_SLOT:
            return tr(
                "Hint: play {card} as a black hat, because it can take no slot of the tea table.",
                card=card,
            )
        if reason is Reason.COOKIE:
            return tr(
                "Hint: play {card} as a black hat, because one more type wins you the cookie.",
                card=card,
            )
        if reason is Reason.SURE_POINT:
            return tr(
                "Hint: play {card} as a black hat, because it scores 1 whatever happens on the "
                "tea table.",
                card=card,
            )
    elif kind is ActionKind.DISCARD:
        if reason is Reason.NO_SLOT:
            return tr(
                "Hint: discard {card}, because it can take no slot of the tea table; the card "
                "you draw may.",
                card=card,
            )
        if reason is Reason.WEAKEST:
            return tr(
                "Hint: discard {card}, because it does the least for you now; the card you "
                "draw may do more.",
                card=card,
            )
        return tr("Hint: discard {card}, because the card you draw may do more for you.", card=card)
    elif kind is ActionKind.END_TURN and reason is Reason.KEEP:
        return tr(
            "Hint: end your turn, because your main action is done and no card in your hand "
            "is worth discarding."
        )
    return tr("Hint: {move}.", move=_action(action, tr))


def hint_line(hint: Hint, tr: Tr) -> str:
    """The hint: the move and why (:class:`coach.Reason`), then the expected gain in points.

    The gain is the change of the expected score the move aims for (signed, plural form of
    the points); moves without one (ending the turn, a swap) say none.
    """
    move = _hint_move(hint, tr)
    if hint.gain is None:
        return move
    gain = signed(hint.gain)
    return (
        move
        + " "
        + tr.plural(
            "Expected gain: {n} point.", "Expected gain: {n} points.", abs(hint.gain), n=gain
        )
    )


def hints_line(settings: Mapping[str, Any], tr: Tr) -> str | None:
    """The one line a lobby or a table shows when its host allowed hints (None otherwise)."""
    if settings.get(HINTS) is not True:
        return None
    return tr("💡 /hats hint · not rated")  # the lobby's Hints button says "on"
