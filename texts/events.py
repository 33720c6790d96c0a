"""Events in words, as one viewer may see them ("Who may see what").

The public sees every exchange with both cards and the slot (R7), that a black hat was made
(R8), that a discard or a partner swap happened (R9, R10), and turn ends. A seat also sees
the cards of its own black hats, discards and draws, and of swaps it took part in; those
events are phrased in the second person ("You discarded 🟥2 and drew 🟦5.").
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from engine import ActionKind, Event
from texts.common import COOKIE, SeatLabel, card_short, seat_mention, seat_name
from texts.i18n import Tr

__all__ = [
    "AUTO_MARK",
    "answered_offers",
    "describe_event",
    "event_lines",
    "turn_lines",
    "worth_a_line",
]

AUTO_MARK = "💤"
"""Prefix of an event the AI played for an absent human (an AI seat's own moves are not
marked: its mention already starts with 🤖)."""


def describe_event(
    event: Event,
    seats: Sequence[SeatLabel],
    tr: Tr,
    *,
    viewer: int | None,
    auto: bool = False,
    cookie_before: int | None = None,
    show_cookie: bool = False,
    say_over: bool = True,
    plain: bool = False,
) -> str:
    """One line describing ``event`` for ``viewer`` (a seat, or None for the public).

    The event is redacted again with ``event.seen_by(viewer)``, so a card the viewer may not
    see is never printed even if the caller passed the full event. ``auto`` prefixes the
    AI-played mark 💤. With ``show_cookie``, a change of the cookie's holder from
    ``cookie_before`` to ``event.cookie`` (R13) is added as a second sentence. A last turn
    adds "The game is over." (R14), unless ``say_over`` is False (the caller's own line says
    the end, as a hand DM does: said once). ``plain`` names the players by their display
    names instead of mentions (a replay: a mention pill never breaks, so two of them in one
    sentence take a line more on a phone, issue 29.17).
    """
    ev = event.seen_by(viewer)
    name = seat_name if plain else seat_mention
    you = viewer is not None and ev.seat == viewer
    who = name(seats, ev.seat, tr)
    partner = name(seats, ev.partner, tr) if ev.partner is not None else ""
    text = _sentence(ev, tr, viewer=viewer, you=you, who=who, partner=partner)
    extra: list[str] = []
    if ev.kind is ActionKind.DISCARD and ev.reshuffled:
        extra.append(tr("The discard pile was shuffled into a new draw deck."))
    if show_cookie and ev.cookie != cookie_before:
        if ev.cookie is None:
            extra.append(tr("{cookie} The cookie goes back to the napkin.", cookie=COOKIE))
        elif viewer is not None and ev.cookie == viewer:
            extra.append(tr("{cookie} You get the cookie.", cookie=COOKIE))
        else:
            extra.append(
                tr(
                    "{cookie} The cookie goes to {who}.",
                    cookie=COOKIE,
                    who=name(seats, ev.cookie, tr),
                )
            )
    if ev.game_over and say_over:
        extra.append(tr("The game is over."))
    line = " ".join([text, *extra])
    return f"{AUTO_MARK} {line}" if auto else line


def _sentence(ev: Event, tr: Tr, *, viewer: int | None, you: bool, who: str, partner: str) -> str:
    kind = ev.kind
    if kind is ActionKind.EXCHANGE:
        card = card_short(ev.card) if ev.card else "?"
        took = card_short(ev.took) if ev.took else "?"
        if you:
            return tr(
                "You played {card} on slot {slot} and took {took}.",
                card=card,
                slot=ev.slot,
                took=took,
            )
        return tr(
            "{who} played {card} on slot {slot} and took {took}.",
            who=who,
            card=card,
            slot=ev.slot,
            took=took,
        )
    if kind is ActionKind.BLACK_HAT:
        if you and ev.card is not None:
            return tr("You played {card} face down as a black hat.", card=card_short(ev.card))
        if you:
            return tr("You made a black hat.")
        return tr("{who} made a black hat.", who=who)
    if kind is ActionKind.DISCARD:
        if you and ev.card is not None and ev.drew is not None:
            return tr(
                "You discarded {card} and drew {drew}.",
                card=card_short(ev.card),
                drew=card_short(ev.drew),
            )
        if you:
            return tr("You discarded a card and drew one.")
        return tr("{who} discarded a card and drew one.", who=who)
    if kind is ActionKind.OFFER_SWAP:
        if you and ev.card is not None:
            return tr(
                "You offered {card} to your partner {partner}.",
                card=card_short(ev.card),
                partner=partner,
            )
        if you:
            return tr("You offered your partner {partner} a card swap.", partner=partner)
        if viewer is not None and ev.partner == viewer:
            return tr("Your partner {who} offered you a card swap.", who=who)
        return tr("{who} offered {partner} a card swap.", who=who, partner=partner)
    if kind is ActionKind.ANSWER_SWAP:
        # seat: the answering partner, card: what they gave; partner: the offerer,
        # received: the offered card (R10).
        if you and ev.card is not None and ev.received is not None:
            return tr(
                "You gave {card} to {partner} and received {received}.",
                card=card_short(ev.card),
                partner=partner,
                received=card_short(ev.received),
            )
        if viewer is not None and ev.partner == viewer and ev.card and ev.received:
            return tr(
                "You gave {card} to {partner} and received {received}.",
                card=card_short(ev.received),
                partner=who,
                received=card_short(ev.card),
            )
        return tr("{offerer} and {partner} swapped cards.", offerer=partner, partner=who)
    if kind is ActionKind.DECLINE_SWAP:
        # seat: the partner who declined; partner: the offerer.
        if you:
            return tr("You declined {offerer}'s swap offer.", offerer=partner)
        if viewer is not None and ev.partner == viewer:
            return tr("{who} declined your swap offer.", who=who)
        return tr("{who} declined {offerer}'s swap offer.", who=who, offerer=partner)
    if kind is ActionKind.WITHDRAW_SWAP:
        if you:
            return tr("You withdrew your swap offer.")
        return tr("{who} withdrew their swap offer.", who=who)
    # END_TURN
    if you:
        return tr("You ended your turn.")
    return tr("{who} ended their turn.", who=who)


def worth_a_line(event: Event, auto_played: Collection[int] = ()) -> bool:
    """Whether ``event`` gets a line of its own in "what just happened" (issue 29 point 11).

    An end of turn is not a move: the turn's moves say what happened (R11), so its line would
    only push a real move out of the few lines shown. Kept when the AI ended the turn for an
    absent human (``auto_played``: event numbers): that time ran out is news.
    """
    return event.kind is not ActionKind.END_TURN or event.number in auto_played


SWAP_ENDS = (ActionKind.ANSWER_SWAP, ActionKind.DECLINE_SWAP, ActionKind.WITHDRAW_SWAP)
"""The events that close a partner swap offer (R10)."""


def answered_offers(events: Sequence[Event]) -> set[int]:
    """Numbers of the swap offers in ``events`` whose answer (swap, decline, withdrawal) follows.

    Their line is left out of "what just happened": the answer's line names both partners and,
    for those who may see them, both cards (R10), so the offer would be said twice.
    """
    answered: set[int] = set()
    offer: int | None = None
    for ev in events:
        if ev.kind is ActionKind.OFFER_SWAP:
            offer = ev.number
        elif ev.kind in SWAP_ENDS and offer is not None:
            answered.add(offer)
            offer = None
    return answered


def event_lines(
    events: Sequence[Event],
    seats: Sequence[SeatLabel],
    tr: Tr,
    *,
    viewer: int | None,
    last: int,
    auto_played: Collection[int] = (),
    only: Collection[int] | None = None,
    say_over: bool = True,
    plain: bool = False,
) -> list[str]:
    """Lines for the last ``last`` moves of ``events`` (oldest first), with cookie changes.

    Only events :func:`worth_a_line` count: a plain end of turn gets no line, so the lines
    show moves. ``auto_played``: event numbers the AI played for an absent human (marked 💤).
    ``only``: keep only events of these seats (as actor or swap partner), e.g. a seat's own
    moves; nor does a swap offer whose answer follows (:func:`answered_offers`).
    ``say_over``, ``plain``: as for :func:`describe_event`.
    """
    chosen: list[tuple[Event, int | None]] = []
    previous: int | None = None
    answered = answered_offers(events)
    for ev in events:
        mine = only is None or ev.seat in only or (ev.partner is not None and ev.partner in only)
        if mine and worth_a_line(ev, auto_played) and ev.number not in answered:
            chosen.append((ev, previous))
        previous = ev.cookie
    if last <= 0:
        return []
    return [
        describe_event(
            ev,
            seats,
            tr,
            viewer=viewer,
            auto=ev.number in auto_played,
            cookie_before=before,
            show_cookie=True,
            say_over=say_over,
            plain=plain,
        )
        for ev, before in chosen[-last:]
    ]


MAIN_KINDS = (ActionKind.EXCHANGE, ActionKind.BLACK_HAT)
"""A turn's main action (R7, R8): said first in a turn's line."""


def _turn_owner(ev: Event) -> int:
    """The seat whose turn ``ev`` belongs to: a partner's answer is part of the offerer's."""
    if ev.kind in (ActionKind.ANSWER_SWAP, ActionKind.DECLINE_SWAP) and ev.partner is not None:
        return ev.partner
    return ev.seat


def _turns(events: Sequence[Event]) -> list[list[Event]]:
    """``events`` cut into turns, oldest first: a turn ends with its ``turn_ended`` event."""
    turns: list[list[Event]] = []
    for ev in events:
        if turns and not turns[-1][-1].turn_ended and _turn_owner(turns[-1][-1]) == _turn_owner(ev):
            turns[-1].append(ev)
        else:
            turns.append([ev])
    return turns


def _clause(ev: Event, seats: Sequence[SeatLabel], tr: Tr) -> str | None:
    """One move of another player's turn, without its subject (public words, R7–R9)."""
    if ev.kind is ActionKind.EXCHANGE:
        return tr(
            "{card} on slot {slot}, took {took}",
            card=card_short(ev.card) if ev.card else "?",
            slot=ev.slot,
            took=card_short(ev.took) if ev.took else "?",
        )
    if ev.kind is ActionKind.BLACK_HAT:
        return tr("made a black hat")
    if ev.kind is ActionKind.DISCARD:
        return tr("discarded and drew")
    return None  # a swap is said once per turn (_swap_clause); an end of turn is no move


def _swap_clause(turn: Sequence[Event], tr: Tr) -> str | None:
    """How a turn's partner swap went (R10), once: swapped, else declined, withdrawn, offered."""
    kinds = {ev.kind: ev for ev in turn}
    if ActionKind.ANSWER_SWAP in kinds:  # the partner is known: no name (phone lines)
        return tr("swapped with their partner")
    if ActionKind.DECLINE_SWAP in kinds:
        return tr("swap declined")
    if ActionKind.WITHDRAW_SWAP in kinds:
        return tr("withdrew a swap offer")
    if ActionKind.OFFER_SWAP in kinds:
        return tr("offered a swap")
    return None


def _cookie_clause(
    cookie: int | None,
    owner: int,
    viewer: int | None,
    seats: Sequence[SeatLabel],
    tr: Tr,
    name: Callable[[Sequence[SeatLabel], int, Tr], str] = seat_mention,
) -> str:
    """The cookie's new holder after a turn (R13), short."""
    if cookie is None:
        return tr("{cookie} back to the napkin", cookie=COOKIE)
    if cookie == owner:
        return tr("took the {cookie}", cookie=COOKIE)
    if cookie == viewer:
        return tr("{cookie} goes to you", cookie=COOKIE)
    return tr("{cookie} goes to {who}", cookie=COOKIE, who=name(seats, cookie, tr))


def turn_lines(
    events: Sequence[Event],
    seats: Sequence[SeatLabel],
    tr: Tr,
    *,
    viewer: int | None,
    auto_played: Collection[int] = (),
    cookie_before: int | None = None,
    plain: bool = False,
) -> list[str]:
    """One line per other player's turn in ``events`` (oldest first; issue 36.3).

    A hand DM's "what just happened": each turn since the viewer's own says all it did in
    one line, its main action first with its cards and slot (R7) or the black hat (R8), then
    the optional move (a discard, R9, or a partner swap, R10), e.g. "bruno: 🟩⁠4 on slot 2,
    took 🟥⁠3 · discarded and drew". Cards are public ones only (``seen_by``). A turn the AI
    played for an absent human (``auto_played``: event numbers) is marked 💤. A partner swap is
    said once, by how it ended; a reshuffled draw deck and a change of the cookie's holder
    (R13, from ``cookie_before``) are short parts of the same line. A turn that did nothing
    worth saying (only ended) gets no line. ``viewer`` None: the public's words (a replay);
    ``plain``: players named in plain text, as :func:`describe_event`.
    """
    name = seat_name if plain else seat_mention
    out: list[str] = []
    previous = cookie_before
    for turn in _turns(events):
        seen = [ev.seen_by(viewer) for ev in turn]
        owner = _turn_owner(turn[0])
        main = [ev for ev in seen if ev.kind in MAIN_KINDS]
        rest = [ev for ev in seen if ev.kind not in MAIN_KINDS]
        clauses = [c for c in (_clause(ev, seats, tr) for ev in [*main, *rest]) if c]
        swap = _swap_clause(seen, tr)
        if swap:
            clauses.append(swap)
        if any(ev.kind is ActionKind.DISCARD and ev.reshuffled for ev in seen):
            clauses.append(tr("new draw deck"))
        cookie = seen[-1].cookie
        if cookie != previous:
            clauses.append(_cookie_clause(cookie, owner, viewer, seats, tr, name))
        previous = cookie
        auto = any(ev.number in auto_played for ev in turn)
        if not clauses and not auto:
            continue
        if not clauses:  # the AI only ended the turn for an absent player: time ran out
            clauses = [tr("ended the turn")]
        line = tr("{who}: {moves}", who=name(seats, owner, tr), moves=" · ".join(clauses))
        out.append(f"{AUTO_MARK} {line}" if auto else line)
    return out
