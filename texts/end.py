"""The final scores: everything revealed at the end (R14–R21), as Components V2 texts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import BLACK_HAT_EMOJI, GameResult, Observation, TieBreak
from texts.common import (
    COOKIE,
    TEAM_NAMES,
    SeatLabel,
    board_text,
    card_short,
    seat_display_name,
    seat_mention,
    team_members,
    team_of,
)
from texts.i18n import Tr
from texts.table import card_words, fit_alt

__all__ = [
    "EndTexts",
    "end_alt_text",
    "end_texts",
    "group_seats",
    "groups",
    "tie_break_text",
    "winner_text",
]

TROPHY = "🏆"


def winner_text(
    result: GameResult,
    seats: Sequence[SeatLabel],
    tr: Tr,
    teams: Sequence[Sequence[int]] | None,
    *,
    members: bool = True,
) -> str:
    """Who won and with how many points (R19; with teams, R20).

    ``members``: name the winning team's players; False where a picture beside the line
    already lists each team's players (a replay's end picture): said once.
    """
    if teams:
        winning = [i for i, team in enumerate(teams) if any(s in result.winners for s in team)]
        totals = result.team_totals or ()
        if len(winning) == 1:
            index = winning[0]
            team, names = team_members(teams, seats, tr)[index]
            if not members:
                return tr.plural(
                    "{trophy} {team} wins with {n} point.",
                    "{trophy} {team} wins with {n} points.",
                    totals[index],
                    trophy=TROPHY,
                    team=team,
                )
            return tr.plural(
                "{trophy} {team} wins ({members}) with {n} point.",
                "{trophy} {team} wins ({members}) with {n} points.",
                totals[index],
                trophy=TROPHY,
                team=team,
                members=names,
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


# ---------------------------------------------------------------------- Components V2 texts
@dataclass(frozen=True, slots=True)
class EndTexts:
    """The texts of the final result (Components V2), from a finished game's observation.

    ``head``: the game, who won (every member of the winning team with 🏆, R20) and what
    decided (R19). ``unrated``: the line saying the game is not rated (fewer than two
    humans), or None. ``results``: with pictures off, the clean-up and the scores grouped by
    team in compact text; None with pictures. ``alt``: the end picture in words.
    """

    head: str
    unrated: str | None
    results: str | None
    alt: str


def group_seats(order: Sequence[int], teams: Sequence[Sequence[int]] | None) -> list[list[int]]:
    """Seats ranked best first (``order``, :func:`engine.standings`) grouped for the results.

    Teams (R20) in the order of their best member, each keeping ``order`` inside; without
    teams one group per seat (R19).
    """
    if not teams:
        return [[seat] for seat in order]
    out: list[list[int]] = []
    for seat in order:
        team = team_of(teams, seat)
        for group in out:
            if team_of(teams, group[0]) == team:
                group.append(seat)
                break
        else:
            out.append([seat])
    return out


def groups(result: GameResult, teams: Sequence[Sequence[int]] | None) -> list[list[int]]:
    """Seats grouped for the results, best group first: teams (R20) or one seat each (R19).

    The game's one ranking orders them (``result.order``, :func:`engine.standings`: R19/R20
    with every tie-break); inside a team its players go by score.
    """
    return group_seats(result.order, teams)


def _score_words(result: GameResult, tr: Tr, seat: int) -> str:
    score = result.scores[seat]
    return tr(
        "Collection {collection} + favourite {favourite} + cookie {cookie} = **{total}**",
        collection=score.collection,
        favourite=score.favourite,
        cookie=score.cookie,
        total=score.total,
    ).replace("**", "")


def end_alt_text(obs: Observation, seats: Sequence[SeatLabel], tr: Tr, *, game_id: int) -> str:
    """The end picture in words (its alt text): clean-up, then each group's scores.

    Everything here is revealed at the end (R21): favourites and black hats.
    """
    result = obs.result
    if result is None:
        raise ValueError("end_alt_text needs a finished game (obs.result set)")
    board = ", ".join(
        f"{i} {card_words(c, tr)}" + ("" if i in result.face_up_slots else " (×)")
        for i, c in enumerate(result.board, start=1)
    )
    heading = tr("Tea table after clean-up")  # (a call inside an f-string is not extracted)
    lines = [tr("Hats: game #{game_id} is over", game_id=game_id), f"{heading}: {board}"]
    teams = obs.teams
    for group in groups(result, teams):
        if teams:
            index = team_of(teams, group[0]) or 0
            total = (result.team_totals or (0, 0))[index]
            lines.append(f"{tr(TEAM_NAMES[index])}: {tr.plural('{n} point', '{n} points', total)}")
        for seat in group:
            mark = f"{TROPHY} " if seat in result.winners else ""
            if not teams:  # the place, as the picture shows it (a team's is its order)
                mark = f"{result.places[seat]}. {mark}"
            name = seat_display_name(seats, seat, tr)
            favourite = card_words(result.favourites[seat], tr)
            # built before the call: a bare ``tr`` inside tr.plural(...) makes Babel's
            # extractor read the plural as a singular
            blacks = ", ".join(card_words(c, tr) for c in result.black_hats[seat]) or "—"
            lines.append(
                f"{mark}{name}: {_score_words(result, tr, seat)}; "
                + tr("Favourite hat: {card}", card=favourite)
                + "; "
                + tr.plural(
                    "{n} black hat: {cards}",
                    "{n} black hats: {cards}",
                    result.scores[seat].black_hats,
                    cards=blacks,
                )
            )
    return fit_alt("\n".join(lines))


def _compact_results(obs: Observation, seats: Sequence[SeatLabel], tr: Tr) -> str:
    result = obs.result
    assert result is not None
    lines = [board_text(result.board, face_up=result.face_up_slots)]
    teams = obs.teams
    for group in groups(result, teams):
        if teams:
            index = team_of(teams, group[0]) or 0
            total = (result.team_totals or (0, 0))[index]
            mark = f"{TROPHY} " if group[0] in result.winners else ""
            points = tr.plural("{n} point", "{n} points", total)
            lines.append(f"{mark}**{tr(TEAM_NAMES[index])}** · {points}")
        for seat in group:
            mark = f"{TROPHY} " if seat in result.winners else ""
            cookie = f" {COOKIE}" if result.cookie == seat else ""
            blacks = f"{BLACK_HAT_EMOJI}×{result.scores[seat].black_hats}"
            prefix = "- " if teams else f"{result.places[seat]}. "  # a shared place repeats
            favourite = tr("Favourite hat: {card}", card=card_short(result.favourites[seat]))
            lines.append(
                f"{prefix}{mark}{seat_mention(seats, seat, tr)}{cookie} · "
                f"{_score_words(result, tr, seat)} · {favourite} · {blacks}"
            )
    return "\n".join(lines)


def end_texts(
    obs: Observation,
    seats: Sequence[SeatLabel],
    tr: Tr,
    *,
    game_id: int,
    pictures: bool = True,
    humans: int = 2,
    alt: str | None = None,
) -> EndTexts:
    """The V2 end screen's texts (see :class:`EndTexts`); ``humans``: human seats (rating).

    ``alt``: the end picture's alt text when the caller has built it already (for the
    picture's file), else :func:`end_alt_text` builds it here: once per game end.
    Raises ValueError while the game is still running.
    """
    result = obs.result
    if result is None:
        raise ValueError("end_texts needs a finished game (obs.result set)")
    title = tr("Hats: game #{game_id} is over", game_id=game_id)
    head = "\n".join(
        [
            f"**{title}**",
            winner_text(result, seats, tr, obs.teams),
            f"-# {tie_break_text(result.tie_break, tr, teams=bool(obs.teams))}",
        ]
    )
    unrated = None
    if humans < 2:
        unrated = tr("Not rated: a game counts for the ratings with at least two human players.")
    return EndTexts(
        head=head,
        unrated=unrated,
        results=None if pictures else _compact_results(obs, seats, tr),
        alt=alt if alt is not None else end_alt_text(obs, seats, tr, game_id=game_id),
    )
