"""The final scores: everything revealed at the end (R14–R21)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from cogs.i18n import Tr
from cogs.render.common import (
    COLOUR,
    COOKIE,
    TEAM_NAMES,
    SeatLabel,
    board_text,
    card_short,
    card_token,
    cards_short,
    collection_text,
    seat_display_name,
    seat_mention,
    team_members,
    team_of,
)
from cogs.render.limits import fit_embed
from engine import GameResult, Observation, TieBreak

__all__ = ["end_embed", "tie_break_text", "winner_text"]

TROPHY = "🏆"


def winner_text(
    result: GameResult,
    seats: Sequence[SeatLabel],
    tr: Tr,
    teams: Sequence[Sequence[int]] | None,
) -> str:
    """Who won and with how many points (R19; with teams, R20)."""
    if teams:
        winning = [i for i, team in enumerate(teams) if any(s in result.winners for s in team)]
        totals = result.team_totals or ()
        if len(winning) == 1:
            index = winning[0]
            team, members = team_members(teams, seats, tr)[index]
            return tr.plural(
                "{trophy} {team} wins ({members}) with {n} point.",
                "{trophy} {team} wins ({members}) with {n} points.",
                totals[index],
                trophy=TROPHY,
                team=team,
                members=members,
            )
        return tr.plural(
            "{trophy} Shared win: both teams have {n} point.",
            "{trophy} Shared win: both teams have {n} points.",
            totals[0] if totals else 0,
            trophy=TROPHY,
        )
    best = result.scores[result.winners[0]].total
    # Mentions are built before the call: a bare ``tr`` inside a tr.plural(...) call would
    # make Babel's extractor read the plural as a singular.
    names = [seat_mention(seats, s, tr) for s in result.winners]
    if len(result.winners) == 1:
        return tr.plural(
            "{trophy} {who} wins with {n} point.",
            "{trophy} {who} wins with {n} points.",
            best,
            trophy=TROPHY,
            who=names[0],
        )
    return tr.plural(
        "{trophy} Shared win: {players}, with {n} point each.",
        "{trophy} Shared win: {players}, with {n} points each.",
        best,
        trophy=TROPHY,
        players=", ".join(names),
    )


def tie_break_text(tie_break: TieBreak, tr: Tr, *, teams: bool) -> str:
    """What decided the winner (R19, R20): the total, black hats, the cookie, or a shared win."""
    if tie_break is TieBreak.SCORE:
        return tr("Decided by the highest total.")
    if tie_break is TieBreak.BLACK_HATS:
        if teams:
            return tr("The totals were tied: the team with more black hats wins.")
        return tr("The totals were tied: the player with more black hats wins.")
    if tie_break is TieBreak.COOKIE:
        if teams:
            return tr("Totals and black hats were tied: the team holding the cookie wins.")
        return tr("Totals and black hats were tied: the cookie holder wins.")
    return tr("Totals and black hats were tied and the cookie did not decide: the win is shared.")


def _player_field(
    result: GameResult,
    seats: Sequence[SeatLabel],
    tr: Tr,
    seat: int,
    teams: Sequence[Sequence[int]] | None,
) -> tuple[str, str]:
    score = result.scores[seat]
    marks = ""
    if seat in result.winners:
        marks += TROPHY + " "
    if result.cookie == seat:
        marks += COOKIE + " "
    name = marks + seat_display_name(seats, seat, tr)
    team = team_of(teams, seat)
    if team is not None:
        name = tr("{name} ({team})", name=name, team=tr(TEAM_NAMES[team]))
    blacks = " ".join(card_token(c, black_hat=True) for c in result.black_hats[seat])
    lines = [
        tr(
            "Collection {collection} + favourite {favourite} + cookie {cookie} = **{total}**",
            collection=score.collection,
            favourite=score.favourite,
            cookie=score.cookie,
            total=score.total,
        ),
        tr("Favourite hat: {card}", card=card_short(result.favourites[seat])),
        tr("Face up: {cards}", cards=collection_text(result.collections[seat])),
        tr.plural(
            "{n} black hat: {cards}",
            "{n} black hats: {cards}",
            score.black_hats,
            cards=blacks or cards_short(()),
        ),
    ]
    return name, "\n".join(lines)


def ranking(result: GameResult, teams: Sequence[Sequence[int]] | None) -> list[int]:
    """Seats best first: winners, then by team total (4 seats), total, black hats (R19, R20)."""
    team_total = {}
    if teams and result.team_totals is not None:
        team_total = {s: t for team, t in zip(teams, result.team_totals, strict=True) for s in team}

    def key(seat: int) -> tuple[int, int, int, int, int]:
        score = result.scores[seat]
        return (
            seat not in result.winners,
            -team_total.get(seat, 0),
            -score.total,
            -score.black_hats,
            seat,
        )

    return sorted(range(len(result.scores)), key=key)


def end_embed(
    obs: Observation, seats: Sequence[SeatLabel], tr: Tr, *, game_id: int
) -> discord.Embed:
    """The final scores from any observation of a finished game (``obs.result`` set).

    Shows the winner(s) and what decided (R19, R20), every seat's score broken down into
    collection, favourite, cookie and total with its black hat count (R16–R19), the
    favourites and black hats revealed (R21), the board after clean-up with turned-down
    slots struck through and listed (R15), and with 4 seats the team totals (R20). Players
    are listed by rank (:func:`ranking`), numbered.
    Raises ValueError while the game is still running.
    """
    result = obs.result
    if result is None:
        raise ValueError("end_embed needs a finished game (obs.result set)")
    teams = obs.teams
    description = "\n".join(
        [
            winner_text(result, seats, tr, teams),
            tie_break_text(result.tie_break, tr, teams=bool(teams)),
        ]
    )
    embed = discord.Embed(
        title=tr("Hats: game #{game_id} is over", game_id=game_id),
        description=description,
        colour=COLOUR,
    )
    down = [s for s in range(1, len(result.board) + 1) if s not in result.face_up_slots]
    board_lines = [board_text(result.board, face_up=result.face_up_slots)]
    if down:
        board_lines.append(
            tr.plural(
                "Slot {slots} was turned face down: a lower slot has the same colour.",
                "Slots {slots} were turned face down: lower slots have the same colours.",
                len(down),
                slots=", ".join(str(s) for s in down),
            )
        )
    else:
        board_lines.append(tr("Every slot stays face up."))
    embed.add_field(name=tr("Tea table after clean-up"), value="\n".join(board_lines), inline=False)
    for rank, seat in enumerate(ranking(result, teams), start=1):
        name, value = _player_field(result, seats, tr, seat, teams)
        embed.add_field(name=f"{rank}. {name}", value=value, inline=True)
    if teams and result.team_totals is not None:
        named = team_members(teams, seats, tr)
        value = "\n".join(
            tr.plural(
                "{team} ({members}): {n} point",
                "{team} ({members}): {n} points",
                total,
                team=team,
                members=members,
            )
            for (team, members), total in zip(named, result.team_totals, strict=True)
        )
        embed.add_field(name=tr("Team totals"), value=value, inline=False)
    embed.set_footer(text=tr("Game #{game_id}", game_id=game_id))
    return fit_embed(embed)
