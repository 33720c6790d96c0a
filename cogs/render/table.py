"""The public table message: what everyone at the table may see ("Who may see what")."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import discord

from cogs.i18n import Tr
from cogs.render.common import (
    COLOUR,
    COOKIE,
    TEAM_NAMES,
    TEAM_SEATS,
    TURNS,
    SeatLabel,
    ai_level_name,
    black_hats_text,
    board_text,
    collection_text,
    seat_display_name,
    seat_label,
    seat_mention,
    team_members,
    team_of,
)
from cogs.render.events import AUTO_MARK, event_lines
from cogs.render.limits import FIELD_VALUE_MAX, fit_embed, fit_lines
from engine import Observation
from engine.scoring import provisional_scores

__all__ = ["cookie_text", "table_embed", "turn_text"]

ACTIVE_MARK = "▶️"


def cookie_text(obs: Observation, seats: Sequence[SeatLabel], tr: Tr) -> str:
    """Who holds the cookie (R13), or that it is on the napkin."""
    if obs.cookie is None:
        return tr("{cookie} On the napkin: nobody holds the cookie.", cookie=COOKIE)
    if obs.viewer is not None and obs.cookie == obs.viewer:
        return tr("{cookie} You hold the cookie.", cookie=COOKIE)
    return tr(
        "{cookie} {who} holds the cookie.", cookie=COOKIE, who=seat_mention(seats, obs.cookie, tr)
    )


def turn_text(obs: Observation, seats: Sequence[SeatLabel], tr: Tr) -> str:
    """The round and whose turn it is, or the pending partner swap (R10, R14); public."""
    if obs.is_over:
        return tr("The game is over.")
    lines = [
        tr(
            "Round {round}/{rounds}: it's {who}'s turn.",
            round=obs.round,
            rounds=TURNS,
            who=seat_mention(seats, obs.active_seat, tr),
        )
    ]
    if obs.pending_swap is not None:
        lines.append(
            tr(
                "{offerer} offered {partner} a card swap; waiting for {partner}'s answer.",
                offerer=seat_mention(seats, obs.pending_swap.offerer, tr),
                partner=seat_mention(seats, obs.pending_swap.partner, tr),
            )
        )
    return "\n".join(lines)


def _seat_field(obs: Observation, seats: Sequence[SeatLabel], tr: Tr, seat: int) -> tuple[str, str]:
    """(name, value) of one player's field: collection, black hats, hand size."""
    marks = ""
    if obs.to_move == seat:
        marks += ACTIVE_MARK + " "
    if obs.cookie == seat:
        marks += COOKIE + " "
    name = marks + seat_display_name(seats, seat, tr)
    team = team_of(obs.teams, seat)
    if team is not None:
        name = tr("{name} ({team})", name=name, team=tr(TEAM_NAMES[team]))
    lines = []  # the field's name already says who sits here: no second, same mention
    label = seat_label(seats, seat)
    if label is not None and label.away:
        level = ai_level_name(label.ai_level or "normal", tr)
        lines.append(
            tr("{mark} Away: the AI ({level}) plays for them.", mark=AUTO_MARK, level=level)
        )
    lines.append(tr("Collection: {cards}", cards=collection_text(obs.collections[seat])))
    lines.append(tr("Black hats: {hats}", hats=black_hats_text(obs.black_hat_counts[seat])))
    hand = obs.hand_sizes[seat]
    lines.append(tr.plural("{n} card in hand", "{n} cards in hand", hand))
    provisional = provisional_scores(obs.board, obs.collections, obs.black_hat_counts, obs.cookie)[
        seat
    ]
    lines.append(
        tr.plural(
            "Provisional: {n} point (favourite hidden)",
            "Provisional: {n} points (favourite hidden)",
            provisional,
        )
    )
    return name, "\n".join(lines)


def table_embed(
    obs: Observation,
    seats: Sequence[SeatLabel],
    tr: Tr,
    *,
    game_id: int,
    recent: int = 6,
    auto_played: Collection[int] = (),
) -> discord.Embed:
    """The public table embed from the PUBLIC observation (``obs.viewer`` None).

    Shows the board with slot numbers (R2), each player's face-up collection by type, black
    hat count, hand size and provisional score (engine.scoring.provisional_scores: R15, R16
    on the current board plus the cookie, favourite hidden), the cookie (R13), deck and
    discard pile sizes (not with 4 seats, where both are always empty: R4, R10), the round
    (R14) and whose turn, a pending partner swap without its card (R10), the teams with 4
    seats (R5), and the last ``recent`` events in public words (``auto_played``: event
    numbers the AI played for an absent human, marked 💤). Raises ValueError for a seat's
    observation: it would show that seat's secrets to everyone. Fits Discord's embed limits.
    """
    if obs.viewer is not None:
        raise ValueError("table_embed needs the public observation (viewer None)")
    embed = discord.Embed(
        title=tr("Hats: game #{game_id}", game_id=game_id),
        description=turn_text(obs, seats, tr),
        colour=COLOUR,
    )
    embed.add_field(name=tr("Tea table"), value=board_text(obs.board), inline=False)
    for seat in range(obs.seats):
        name, value = _seat_field(obs, seats, tr, seat)
        embed.add_field(name=name, value=value, inline=True)
    embed.add_field(name=tr("Cookie"), value=cookie_text(obs, seats, tr), inline=True)
    if obs.seats != TEAM_SEATS:  # with 4 players both piles are always empty (R4, R10)
        piles = "\n".join(
            [
                tr.plural("Draw deck: {n} card", "Draw deck: {n} cards", obs.deck_size),
                tr.plural("Discard pile: {n} card", "Discard pile: {n} cards", obs.discard_size),
            ]
        )
        embed.add_field(name=tr("Piles"), value=piles, inline=True)
    teams = team_members(obs.teams, seats, tr)
    if teams:
        value = "\n".join(tr("{team}: {members}", team=t, members=m) for t, m in teams)
        embed.add_field(name=tr("Teams (partners sit opposite)"), value=value, inline=False)
    lines = event_lines(obs.events, seats, tr, viewer=None, last=recent, auto_played=auto_played)
    if lines:
        title = tr("Recent moves")
        shown = obs.events[-recent:] if recent > 0 else ()
        if any(ev.number in auto_played for ev in shown):
            title = tr(
                "Recent moves ({mark}: played by the AI for an absent player)", mark=AUTO_MARK
            )
        embed.add_field(name=title, value=fit_lines(lines, FIELD_VALUE_MAX), inline=False)
    embed.set_footer(text=tr("Game #{game_id}", game_id=game_id))
    return fit_embed(embed)
