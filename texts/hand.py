"""A seat's private hand message: what that seat alone may see ("Who may see what")."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine import BLACK_HAT_EMOJI, ActionKind, Card, Exchange, Observation, exchange_allowed
from engine import BlackHat as BlackHatAction
from texts.common import (
    COOKIE,
    NO_CARDS,
    TURNS,
    SeatLabel,
    board_text,
    card_token,
    collection_text,
    seat_mention,
    type_name,
)
from texts.events import turn_lines
from texts.i18n import Tr
from texts.limits import ALT_MAX, fit_alt
from texts.numbers import slot_list

__all__ = [
    "ALT_MAX",
    "HandTexts",
    "hand_alt_text",
    "hand_state_text",
    "hand_texts",
]


TIMER = "⏱️"
"""The turn timer's mark (as on the lobby's timer select): before the hand's countdown."""
RECENT_LINES = 3
"""At most this many lines say what just happened (issue 18)."""


@dataclass(frozen=True, slots=True)
class HandTexts:
    """The visible texts of a hand message in Components V2, each said once (issue 18).

    ``head``: whose turn (or the swap offer and its deadline), and which game.
    ``recent``: what just happened, at most :data:`RECENT_LINES` lines (may be empty).
    ``mine``: the own collection, own black hats with faces and the cookie: what the hand
    picture does not show. ``next``: what to do next. ``refused``: one short line saying what
    the chosen card may not do, or "". ``state``: the picture's content in text, shown only
    when there is no picture (pictures off or not drawn).
    """

    head: str
    recent: str
    mine: str
    next: str
    refused: str
    state: str


def _card_words(card: Card, tr: Tr) -> str:
    """A card for a screen reader: ``red 5`` (type name, value)."""
    return tr("{type} {value}", type=type_name(card.type, tr), value=card.value)


def hand_alt_text(obs: Observation, tr: Tr) -> str:
    """The full text description of the hand picture (its alt text, ≤ 1,024 characters).

    Says what :func:`pictures.layout.hand_layout` draws, from the seat's own observation only:
    the tea table slot by slot (R2), then each hand card with the slots it may take while the
    main action is open (R7) or that it can only become a black hat (R8).
    Raises ValueError for the public observation.
    """
    if obs.viewer is None or obs.hand is None:
        raise ValueError("hand_alt_text needs a seat's own observation (viewer set)")
    board = ", ".join(
        tr("slot {slot}: {card}", slot=slot, card=_card_words(card, tr))
        for slot, card in enumerate(obs.board, start=1)
    )
    slots, black = _marks(obs)
    cards = []
    for card in obs.hand:
        words = _card_words(card, tr)
        if slots.get(card):
            words = tr(
                "{card} (slots {slots})",
                card=words,
                slots=", ".join(str(s) for s in slots[card]),
            )
        elif card in black:
            words = tr("{card} (only as a black hat)", card=words)
        cards.append(words)
    text = "\n".join(
        [
            tr("Tea table: {cards}.", cards=board or NO_CARDS),
            tr("Your hand: {cards}.", cards="; ".join(cards) or NO_CARDS),
        ]
    )
    return fit_alt(text)


def _marks(obs: Observation) -> tuple[dict[Card, list[int]], set[Card]]:
    """Slots each hand card may take, and cards that can only become black hats (R7, R8)."""
    slots: dict[Card, list[int]] = {}
    black: set[Card] = set()
    for action in obs.legal_actions():
        if isinstance(action, Exchange):
            slots.setdefault(action.card, []).append(action.slot)
        elif isinstance(action, BlackHatAction):
            black.add(action.card)
    return slots, {c for c in black if c not in slots}


def hand_state_text(obs: Observation, tr: Tr) -> str:
    """The picture's content as compact text (no picture): tea table and hand with tokens."""
    slots, black = _marks(obs)
    hand = []
    for card in obs.hand or ():
        token = card_token(card)
        if slots.get(card):
            token += " → " + ",".join(str(s) for s in slots[card])
        elif card in black:
            token += f" → {BLACK_HAT_EMOJI}"
        hand.append(token)
    return "\n".join(
        [
            tr("Tea table: {cards}.", cards=board_text(obs.board)),
            tr("Your hand: {cards}.", cards="  ".join(hand) or NO_CARDS),
        ]
    )


def _mine_text(obs: Observation, tr: Tr) -> str:
    me = obs.viewer
    assert me is not None
    parts = [collection_text(obs.collections[me])]
    blacks = [card_token(c, black_hat=True) for c in obs.own_black_hats or ()]
    if blacks:
        parts.append(" ".join(blacks))
    if obs.cookie == me:
        parts.append(COOKIE)
    return tr("Your collection: {cards}", cards=" · ".join(parts))


def _next_text(obs: Observation, seats: Sequence[SeatLabel], tr: Tr, chosen: bool) -> str:
    """What the seat can do next, in one or two short lines (R7–R11)."""
    me = obs.viewer
    swap = obs.pending_swap
    if obs.is_over:
        return ""
    if swap is not None and swap.partner == me:
        return tr("Choose a card to give back, or decline.")
    if swap is not None and swap.offerer == me:
        return tr(
            "Waiting for {partner} to answer your swap offer. You may withdraw it.",
            partner=seat_mention(seats, swap.partner, tr),
        )
    if obs.to_move != me:
        return tr("A new message comes when it is your turn.")
    lines = []
    if chosen and not obs.main_done:
        return tr("Pick a slot or another action.")
    if not obs.main_done and obs.optional_used:  # else the card select says it (issue 29.17)
        lines.append(tr("Choose a card, then what to do with it."))
    if not obs.optional_used and not chosen and not obs.main_done:
        lines.append(
            tr("Optional, before or after: offer your partner a card swap.")
            if obs.seats == 4
            else tr("Optional, before or after: discard a card and draw one.")
        )
    elif not obs.optional_used and not chosen:  # after the main action: "before" is past
        lines.append(
            tr("Optional: you may still offer your partner a card swap.")
            if obs.seats == 4
            else tr("Optional: you may still discard a card and draw one.")
        )
    if obs.main_done:
        lines.append(tr("You can end your turn now."))
    return "\n".join(lines)


def refused_text(obs: Observation, card: Card | None, tr: Tr) -> str:
    """One short line: the slots the chosen card may not take (R7), or ""."""
    me = obs.viewer
    if card is None or obs.main_done or obs.to_move != me or obs.pending_swap is not None:
        return ""
    refused = [s for s, b in enumerate(obs.board, start=1) if not exchange_allowed(card, b)]
    if not refused:
        return ""
    slots = slot_list(refused, tr, negated=True)  # not inside tr.plural: pybabel
    return tr.plural(
        "Not slot {slots}: it needs the same type or a higher value.",
        "Not slots {slots}: they need the same type or a higher value.",
        len(refused),
        slots=slots,
    )


def hand_texts(
    obs: Observation,
    seats: Sequence[SeatLabel],
    tr: Tr,
    *,
    game_id: int,
    channel: str | None,
    selected: Card | None = None,
    notice: str | None = None,
    deadline: float | None = None,
    turn_deadline: float | None = None,
    auto_played: Collection[int] = (),
    coach: Sequence[str] = (),
) -> HandTexts:
    """The texts of seat ``obs.viewer``'s hand message (its own observation only).

    ``channel``: where the game is (a channel mention), or None to leave that line out (a
    practice game in the learner's own DMs, issue 29.9). ``notice``: the result of the seat's
    last action (becomes "what just happened"); without it the last others' moves since the
    seat's own last one, at most :data:`RECENT_LINES`. ``deadline``: unix seconds by which a
    partner must answer a swap offer (R10), shown as a Discord timestamp ``<t:…:R>``.
    ``turn_deadline``: unix seconds at which the AI plays the seat's turn (the turn timer),
    shown under the head as a countdown ``<t:…:R>`` while the seat has the move (Discord's
    client counts it down: no edit, no reminder message, issue 36.2).
    ``coach``: the coach's lines (a practice game, :mod:`cogs.learn`), shown after what just
    happened. Raises ValueError for the public observation.
    """
    me = obs.viewer
    if me is None or obs.hand is None:
        raise ValueError("hand_texts needs a seat's own observation (viewer set)")
    swap = obs.pending_swap
    if obs.is_over:
        turn = tr("The game is over.")
    elif swap is not None and swap.partner == me:
        turn = tr(
            "{offerer} offers you a card swap.", offerer=seat_mention(seats, swap.offerer, tr)
        )
        if deadline is not None:
            turn += " " + tr(
                "Answer {time}, or it counts as declined.", time=f"<t:{int(deadline)}:R>"
            )
    elif obs.to_move == me or (swap is not None and swap.offerer == me):
        turn = tr("Round {round}/{rounds}: it's your turn.", round=obs.round, rounds=TURNS)
    else:
        turn = tr(
            "Round {round}/{rounds}: it's {who}'s turn.",
            round=obs.round,
            rounds=TURNS,
            who=seat_mention(seats, obs.active_seat, tr),
        )
    head = f"**{turn}**"
    chosen = selected is not None and selected in obs.hand
    small = []  # one line of subtext under the head
    mine_to_play = obs.to_move == me and not (swap is not None and swap.partner == me)
    # the countdown while the seat plays (issue 36.2); with a card chosen the head stays one
    # line, and so does which game it is (issue 29.17)
    if turn_deadline is not None and mine_to_play and not obs.is_over and not chosen:
        # "⏱️ in 2 minutes" (Discord words it in the reader's language, no edit needed): when
        # the AI plays this turn; the lobby's timer says "⏱️ 2 minutes per turn"
        small.append(f"{TIMER} <t:{int(turn_deadline)}:R>")
    # a practice game in the learner's DMs is just there (no channel to name)
    if channel is not None and not chosen:
        small.append(tr("Game #{game_id} in {channel}", game_id=game_id, channel=channel))
    if small:
        head += "\n-# " + " · ".join(small)
    if notice:
        recent = notice
    elif chosen:
        recent = ""  # a card was chosen: nothing happened since the player read the news
    else:
        cut = len(obs.events)  # the events since the seat's own last one
        while cut > 0 and obs.events[cut - 1].seat != me:
            cut -= 1
        since = list(obs.events[cut:])
        cookie = obs.events[cut - 1].cookie if cut > 0 else None  # the holder before them
        if swap is not None and swap.partner == me:  # the head says the offer: not again
            offers = [ev for ev in since if ev.kind is ActionKind.OFFER_SWAP]
            since = [ev for ev in since if ev is not offers[-1]] if offers else since
        # one line per other player's turn since the seat's own (issue 36.3)
        lines = turn_lines(
            since, seats, tr, viewer=me, auto_played=auto_played, cookie_before=cookie
        )
        recent = "\n".join(f"-# {line}" for line in lines[-RECENT_LINES:])  # as the table
    # what just happened, then the coach: its lines are kept, what happened gets the rest
    # (at least its newest line), RECENT_LINES + 1 lines in all when the coach speaks
    room = max(1, RECENT_LINES + 1 - len(coach)) if coach else RECENT_LINES
    lines = recent.split("\n")[-room:] if recent else []
    recent = "\n".join([*lines, *coach])
    refused = refused_text(obs, selected if chosen else None, tr)
    return HandTexts(
        head=head,
        recent=recent,
        mine=_mine_text(obs, tr),
        next="" if refused else _next_text(obs, seats, tr, chosen),  # the refusal says it
        refused=refused,
        state=hand_state_text(obs, tr),
    )
