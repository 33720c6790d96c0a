"""A seat's private hand message: what that seat alone may see ("Who may see what")."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import discord

from cogs.i18n import Tr
from cogs.render.common import (
    COLOUR,
    TURNS,
    SeatLabel,
    board_text,
    card_label,
    card_token,
    cards_short,
    collection_text,
    seat_mention,
)
from cogs.render.events import event_lines
from cogs.render.limits import FIELD_VALUE_MAX, fit_embed, fit_lines
from cogs.render.table import cookie_text
from engine import Card, Observation, exchange_allowed

__all__ = ["hand_embed", "status_lines"]

TODO = "▫️"
DONE = "✅"
SELECTED_MARK = "👉"


def status_lines(obs: Observation, seats: Sequence[SeatLabel], tr: Tr) -> list[str]:
    """What the viewing seat can do now: its turn's actions (R7–R11) or whom it waits for."""
    me = obs.viewer
    assert me is not None
    if obs.is_over:
        return [tr("The game is over.")]
    swap = obs.pending_swap
    if swap is not None and swap.partner == me:
        return [
            tr(
                "Your partner {offerer} offers you a card swap: choose a card from your hand "
                "to give back, or decline.",
                offerer=seat_mention(seats, swap.offerer, tr),
            )
        ]
    if swap is not None and swap.offerer == me:
        # The offer itself (with its card) is the newest of "Your recent moves": say only
        # what happens next here, so the DM does not repeat it.
        return [
            tr(
                "Waiting for {partner} to answer your swap offer. You may withdraw it.",
                partner=seat_mention(seats, swap.partner, tr),
            )
        ]
    if obs.to_move != me:
        return [
            tr(
                "Round {round}/{rounds}: it's {who}'s turn.",
                round=obs.round,
                rounds=TURNS,
                who=seat_mention(seats, obs.active_seat, tr),
            )
        ]
    lines = [tr("Round {round}/{rounds}: it's your turn.", round=obs.round, rounds=TURNS)]
    if obs.main_done:
        lines.append(tr("{mark} Main action: done.", mark=DONE))
    else:
        lines.append(
            tr(
                "{mark} Main action: exchange a hand card with a slot of the tea table, "
                "or play a card face down as a black hat.",
                mark=TODO,
            )
        )
    if obs.optional_used:
        lines.append(tr("{mark} Optional action: used.", mark=DONE))
    elif obs.seats == 4:
        lines.append(
            tr(
                "{mark} Optional action (before or after the main one): offer your partner "
                "a card swap.",
                mark=TODO,
            )
        )
    else:
        lines.append(
            tr(
                "{mark} Optional action (before or after the main one): discard a card and "
                "draw one.",
                mark=TODO,
            )
        )
    if obs.main_done:
        lines.append(tr("You can end your turn now."))
    return lines


def _selected_text(obs: Observation, card: Card, tr: Tr) -> str:
    lines = [tr("Selected: {card}", card=card_label(card, tr=tr))]
    my_main = obs.to_move == obs.viewer and obs.pending_swap is None and not obs.main_done
    if obs.viewer is not None and my_main:
        slots = [s for s, b in enumerate(obs.board, start=1) if exchange_allowed(card, b)]
        if slots:
            lines.append(
                tr.plural(
                    "It can be exchanged with slot {slots}.",
                    "It can be exchanged with slots {slots}.",
                    len(slots),
                    slots=", ".join(str(s) for s in slots),
                )
            )
        else:
            lines.append(tr("It cannot take any card of the tea table; it can become a black hat."))
    return "\n".join(lines)


def hand_embed(
    obs: Observation,
    seats: Sequence[SeatLabel],
    tr: Tr,
    *,
    game_id: int,
    selected: Card | None = None,
    notice: str | None = None,
    recent: int = 5,
    auto_played: Collection[int] = (),
) -> discord.Embed:
    """The private hand embed of seat ``obs.viewer`` (its own observation).

    Shows the notice line first (e.g. the result of the last action), what the seat can do now
    (main action, optional action used or not, end turn; R7–R11) or whose turn it is, a
    pending swap offer to this seat (never its card) or this seat's own offer with its card
    (R10), the selected card and the slots it may take (R7), the hand (card labels), the tea
    table with slot numbers, the own collection with the faces of the own black hats (R8), the
    cookie (R13) and the seat's own last ``recent`` events with their hidden cards.
    Raises ValueError for the public observation.
    """
    me = obs.viewer
    if me is None or obs.hand is None:
        raise ValueError("hand_embed needs a seat's own observation (viewer set)")
    parts = []
    if notice:
        parts.append(notice)
    parts.append("\n".join(status_lines(obs, seats, tr)))
    if selected is not None and selected in obs.hand:
        parts.append(_selected_text(obs, selected, tr))
    embed = discord.Embed(
        title=tr("Your hand"),
        description="\n\n".join(parts),
        colour=COLOUR,
    )
    hand_lines = [
        f"{SELECTED_MARK} **{card_label(c, tr=tr)}**" if c is selected else card_label(c, tr=tr)
        for c in obs.hand
    ]
    embed.add_field(
        name=tr.plural("Your hand ({n} card)", "Your hand ({n} cards)", len(obs.hand)),
        value="\n".join(hand_lines) or tr("No cards left."),
        inline=True,
    )
    embed.add_field(name=tr("Tea table"), value=board_text(obs.board), inline=False)
    black = " ".join(card_token(c, black_hat=True) for c in obs.own_black_hats or ())
    mine = "\n".join(
        [
            tr("Face up: {cards}", cards=collection_text(obs.collections[me])),
            tr(
                "Black hats (only you see their faces): {cards}",
                cards=black or cards_short(()),
            ),
            cookie_text(obs, seats, tr),
        ]
    )
    embed.add_field(name=tr("Your collection"), value=mine, inline=False)
    lines = event_lines(
        obs.events, seats, tr, viewer=me, last=recent, auto_played=auto_played, only={me}
    )
    if notice and lines and lines[-1] == notice:
        lines = lines[:-1]  # the notice at the top already says it
    if lines:
        embed.add_field(
            name=tr("Your recent moves"), value=fit_lines(lines, FIELD_VALUE_MAX), inline=False
        )
    embed.set_footer(text=tr("Game #{game_id}: your private view", game_id=game_id))
    return fit_embed(embed)
