"""Players' history in embeds: stats, leaderboard, recent games, replays, rating changes.

Pure like the other renderers: rows and engine games in, ``discord.Embed`` out, every text
through ``Tr``. Ratings are shown as the conservative ordinal (mu - 3 sigma) with one decimal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord
from babel.numbers import format_decimal, format_percent

from cogs.i18n import Tr
from cogs.render.common import (
    COLOUR,
    COOKIE,
    TEAM_NAMES,
    TEAM_SEATS,
    SeatLabel,
    board_text,
    cards_short,
    collection_text,
    seat_mention,
    team_of,
    type_name,
)
from cogs.render.end import end_texts, group_seats, rank_seats, tie_break_text, winner_text
from cogs.render.events import event_lines
from cogs.render.limits import FIELD_VALUE_MAX, fit_embed, fit_lines
from cogs.render.table import table_alt_text, turn_text
from data.history import BoardRow, GameSummary, RatingDelta
from engine import BLACK_HAT_EMOJI, Game, HatType, Observation, teams_for
from history.ratings import PROVISIONAL_GAMES, Rating, is_provisional
from history.replay import ReplayPoint
from history.stats import Summary

__all__ = [
    "ReplayTexts",
    "decimal",
    "history_embed",
    "leaderboard_embed",
    "rating_changes_text",
    "rating_text",
    "replay_texts",
    "signed",
    "stats_embed",
]

TROPHY = "🏆"


def decimal(value: float, tr: Tr) -> str:
    """One decimal in the reader's language (``12.3``; de/fr ``12,3``), a true minus sign."""
    text = format_decimal(abs(value), format="0.0", locale=tr.locale)
    return f"−{text}" if round(value, 1) < 0 else text


def rating_text(ordinal: float, tr: Tr) -> str:
    """A shown rating, one decimal in the reader's language (``12.3``, ``−1,5``)."""
    return decimal(ordinal, tr)


def signed(delta: float, tr: Tr) -> str:
    """A rating change with its sign (``+1.2``, ``−0.4``, ``±0.0``), reader's decimals."""
    if round(delta, 1) == 0:
        return f"±{decimal(0.0, tr)}"
    return f"+{decimal(delta, tr)}" if delta > 0 else decimal(delta, tr)


def rating_changes_text(deltas: Sequence[RatingDelta], tr: Tr) -> str:
    """One line per human: ``<@id> 3.1 → 4.5 (+1.4)`` (the end screen's rating field)."""
    return "\n".join(
        tr(
            "{who}: {before} → {after} ({delta})",
            who=f"<@{d.user_id}>",
            before=rating_text(d.before, tr),
            after=rating_text(d.after, tr),
            delta=signed(d.delta, tr),
        )
        for d in deltas
    )


def _percent(part: int, whole: int, tr: Tr) -> str:
    """A share in the reader's language (``33%``; de/fr ``33 %``), ``—`` of nothing."""
    return format_percent(part / whole, locale=tr.locale) if whole else "—"


def stats_embed(
    who: str,
    summary: Summary,
    rating: Rating | None,
    trend: float | None,
    tr: Tr,
    *,
    everywhere: Rating | None = None,
    server: bool = True,
) -> discord.Embed:
    """``/hats stats``: a player's finished games on this server (``server``) or everywhere.

    ``who``: the player's mention; ``rating``/``trend``: their rating in that scope and its
    change over their last games; ``everywhere``: their global rating (only for themselves).
    """
    embed = discord.Embed(
        title=tr("Hats statistics"),
        description=tr("{who} on this server", who=who) if server else who,
        colour=COLOUR,
    )
    if summary.games == 0:
        embed.description = tr("{who} has no finished games here yet.", who=who)
        return fit_embed(embed)
    rate = _percent(summary.wins, summary.games, tr)  # not inside tr.plural: pybabel
    games = [
        tr.plural("{n} game played", "{n} games played", summary.games)
        + " · "
        + tr.plural("{n} won ({rate})", "{n} won ({rate})", summary.wins, rate=rate)
    ]
    for seats, (played, won) in summary.by_seats.items():
        games.append(
            tr(
                "{seats} players: {won}/{played} ({rate})",
                seats=seats,
                won=won,
                played=played,
                rate=_percent(won, played, tr),
            )
        )
    embed.add_field(name=tr("Games"), value="\n".join(games), inline=False)
    score = [
        tr(
            "Average {total} = collection {collection} + favourite {favourite} + cookie {cookie}",
            total=decimal(summary.mean_total, tr),
            collection=decimal(summary.mean_collection, tr),
            favourite=decimal(summary.mean_favourite, tr),
            cookie=decimal(summary.mean_cookie, tr),
        ),
        tr("{hat} per game: {n}", hat=BLACK_HAT_EMOJI, n=decimal(summary.black_hats_per_game, tr)),
        tr(
            "🍪 kept at the end: {kept}/{games}",
            kept=summary.cookie_kept,
            games=summary.games,
        ),
    ]
    if summary.best is not None:
        score.append(
            tr("Best game: #{game} with {total}", game=summary.best[0], total=summary.best[1])
        )
    if summary.favourite_type is not None:
        hat = HatType(summary.favourite_type)
        score.append(
            tr("Most frequent favourite hat: {hat}", hat=f"{hat.emoji} {type_name(hat, tr)}")
        )
    embed.add_field(name=tr("Scores"), value="\n".join(score), inline=False)
    lines = []
    if rating is not None:
        mine = rating_text(rating.ordinal, tr)  # not inside tr.plural: pybabel
        if is_provisional(rating.games):
            mine += PROVISIONAL_MARK
        lines.append(
            tr.plural(
                "{rating} after {n} rated game",
                "{rating} after {n} rated games",
                rating.games,
                rating=f"**{mine}**",
            )
        )
        if trend is not None:
            lines.append(tr("Trend over the last games: {delta}", delta=signed(trend, tr)))
    else:
        lines.append(tr("No rated game yet."))
    if everywhere is not None:
        shown = rating_text(everywhere.ordinal, tr)  # not inside tr.plural: pybabel
        lines.append(
            tr.plural(
                "All servers: {rating} after {n} rated game",
                "All servers: {rating} after {n} rated games",
                everywhere.games,
                rating=shown,
            )
        )
    lines.append(f"-# {rating_meaning(tr)}")
    embed.add_field(name=tr("Rating"), value="\n".join(lines), inline=False)
    return fit_embed(embed)


def leaderboard_embed(
    rows: Sequence[BoardRow],
    total: int,
    page: int,
    pages: int,
    tr: Tr,
    *,
    seats: int,
    days: int | None,
) -> discord.Embed:
    """``/hats leaderboard``: one page of a server's players by rating (``page`` 0-based).

    Players are listed from their first rated game; a provisional rating (fewer than
    history.ratings.PROVISIONAL_GAMES rated games) is marked, and one line says what the
    number means.
    """
    scope = tr("all games") if seats == 0 else tr("{n}-player games", n=seats)
    period = tr("all time") if days is None else tr("last {days} days", days=days)
    embed = discord.Embed(
        title=tr("Hats leaderboard"),
        description=tr("{scope}, {period}", scope=scope, period=period),
        colour=COLOUR,
    )
    if not rows:
        embed.add_field(
            name=tr("Nobody yet"),
            value=tr("Players appear here after their first rated game."),
            inline=False,
        )
    else:
        shown = {r.user_id: rating_text(r.ordinal, tr) for r in rows}  # not in tr.plural
        lines = [
            tr.plural(
                "**{rank}.** {who} {rating} ({n} game, 🏆 {wins})",
                "**{rank}.** {who} {rating} ({n} games, 🏆 {wins})",
                r.games,
                rank=r.rank,
                who=f"<@{r.user_id}>",
                rating=f"**{shown[r.user_id]}**" + (PROVISIONAL_MARK if r.provisional else ""),
                wins=r.wins,
            )
            for r in rows
        ]
        embed.add_field(name=tr("Rating"), value=fit_lines(lines, FIELD_VALUE_MAX), inline=False)
    embed.add_field(name="\u200b", value=f"-# {rating_meaning(tr)}", inline=False)
    embed.set_footer(
        text=tr.plural(
            "Page {page}/{pages} · {n} player",
            "Page {page}/{pages} · {n} players",
            total,
            page=page + 1,
            pages=max(pages, 1),
        )
    )
    return fit_embed(embed)


PROVISIONAL_MARK = "\\*"
"""Marks a provisional rating (fewer than history.ratings.PROVISIONAL_GAMES rated games)."""


def rating_meaning(tr: Tr) -> str:
    """What a rating means, in one line of the reader's language (leaderboard, stats)."""
    return tr(
        "Rating: your skill as the games so far show it, counted low while they are few; it "
        "rises when you beat strong players. {mark} provisional: fewer than {n} rated games.",
        mark=PROVISIONAL_MARK,
        n=PROVISIONAL_GAMES,
    )


def _seat_text(seat, tr: Tr) -> str:
    if seat.user_id is not None:
        who = f"<@{seat.user_id}>"
    else:
        who = "🤖 " + tr("AI {n}", n=seat.seat + 1)
    mark = f"{TROPHY} " if seat.winner else ""
    return f"{mark}{who}: {seat.total}"


def players_text(seats: Sequence, tr: Tr) -> str:
    """A finished game's players with their scores; with 4 seats grouped by team (R20).

    Teams are ranked first (the winning team first, every member with 🏆), each player's
    score inside their team: ``🏆 Team A 28: 🏆 <@1>: 19, 🏆 <@3>: 9 · Team B 25: ...``.
    The grouping is the end screen's (:func:`cogs.render.end.group_seats`).
    """
    if len(seats) != TEAM_SEATS:
        return ", ".join(_seat_text(s, tr) for s in seats)
    by_seat = {s.seat: s for s in seats}
    teams = teams_for(TEAM_SEATS)  # R5
    totals = [by_seat[i].total for i in range(TEAM_SEATS)]
    winners = [i for i in range(TEAM_SEATS) if by_seat[i].winner]
    parts = []
    for group in group_seats(rank_seats(totals, winners, teams), teams):
        members = [by_seat[i] for i in group]
        mark = f"{TROPHY} " if any(s.winner for s in members) else ""
        inside = ", ".join(_seat_text(s, tr) for s in members)
        team = tr(TEAM_NAMES[team_of(teams, group[0]) or 0])
        parts.append(f"{mark}**{team} {sum(s.total for s in members)}**: {inside}")
    return " · ".join(parts)


def history_embed(games: Sequence[GameSummary], tr: Tr, *, who: str | None) -> discord.Embed:
    """The history (``/hats history``): recent games, newest first.

    Each line: id, date, players with scores and 🏆; the description says how to replay one.
    """
    embed = discord.Embed(
        title=tr("Recent Hats games"),
        description=tr("Games of {who} on this server", who=who) if who else None,
        colour=COLOUR,
    )
    if not games:
        embed.description = tr("No finished games here yet.")
        return fit_embed(embed)
    lines = [
        tr(
            "**#{game}** <t:{at}:d> · {players}",
            game=g.game_id,
            at=int(g.finished_at),
            players=players_text(g.seats, tr),
        )
        for g in games
    ]
    embed.add_field(name=tr("Games"), value=fit_lines(lines, FIELD_VALUE_MAX), inline=False)
    # in the description: Discord shows a command mention there, never in a footer
    hint = tr("To replay a game, pick it below or give its number (#) to /hats replay.")
    embed.description = f"{embed.description}\n{hint}" if embed.description else hint
    return fit_embed(embed)


@dataclass(frozen=True, slots=True)
class ReplayTexts:
    """The texts of a replay at one point (Components V2), every hand shown (R21).

    ``head``: the game and the turn (``turn i/n``), then the deal, whose turn or, at the last
    point, who won and what decided (R19, R20). ``players``: before the last point, each
    player's hand and black hats' faces (with 4 seats grouped by team, R5); with pictures
    off also the board, the collections and the cookie; at the last point with pictures off
    the final results grouped and ranked like the end screen; None there with pictures (the
    end picture shows them). ``recent``: the events of the turn that led here ("" at the
    deal). ``alt``: the picture's full text description (public information only).
    ``final``: the last point (its picture is the end picture).
    """

    head: str
    players: str | None
    recent: str
    alt: str
    final: bool


def _hand_line(
    game: Game, obs: Observation, seats: Sequence[SeatLabel], tr: Tr, seat: int, *, pictures: bool
) -> str:
    """One player in a replay: hand and black hats' faces.

    With pictures off also the cookie and the collection (the picture shows those).
    """
    who = seat_mention(seats, seat, tr)
    if not pictures and obs.cookie == seat:
        who = f"{COOKIE} {who}"
    line = tr(
        "{who}: {cards} · {hat} {hats}",
        who=who,
        cards=cards_short(game.hands[seat]),
        hat=BLACK_HAT_EMOJI,
        hats=cards_short(game.black_hats[seat]),
    )
    if not pictures:
        line += " · " + tr("Collection: {cards}", cards=collection_text(obs.collections[seat]))
    return line


def _replay_players(game: Game, seats: Sequence[SeatLabel], tr: Tr, *, pictures: bool) -> str:
    """The hands block of a replay before its last point (see :class:`ReplayTexts`)."""
    obs = game.public_view()
    lines = [f"-# {tr('The game is over, so this replay shows every hand.')}"]
    if not pictures:
        lines.append(board_text(obs.board))
    teams = obs.teams
    for group in group_seats(range(obs.seats), teams):  # seat order: Team A first (R5)
        if teams:
            lines.append(f"**{tr(TEAM_NAMES[team_of(teams, group[0]) or 0])}**")
        for seat in group:
            prefix = "- " if teams else ""
            lines.append(prefix + _hand_line(game, obs, seats, tr, seat, pictures=pictures))
    if not pictures and obs.seats != TEAM_SEATS:  # with 4 both piles are empty (R4, R10)
        lines.append(
            tr.plural("Draw deck: {n} card", "Draw deck: {n} cards", obs.deck_size)
            + " · "
            + tr.plural("Discard pile: {n} card", "Discard pile: {n} cards", obs.discard_size)
        )
    return "\n".join(lines)


def replay_texts(
    point: ReplayPoint,
    seats: Sequence[SeatLabel],
    tr: Tr,
    *,
    game_id: int,
    pictures: bool = True,
) -> ReplayTexts:
    """The V2 replay's texts at ``point`` (see :class:`ReplayTexts`).

    The game is over, so every hand is shown (R21) and nothing is called hidden: there are
    no provisional scores. ``pictures``: the server shows pictures; without, the text shows
    what the picture would (board, collections, cookie; at the end the results by team).
    """
    game = point.game
    obs = game.public_view()
    title = tr(
        "Replay of game #{game}: turn {turn}/{turns}",
        game=game_id,
        turn=point.index,
        turns=point.last,
    )
    head = [f"**{title}**"]
    result = obs.result
    if result is not None:
        end = end_texts(obs, seats, tr, game_id=game_id, pictures=pictures)
        head.append(winner_text(result, seats, tr, obs.teams))
        head.append(f"-# {tie_break_text(result.tie_break, tr, teams=bool(obs.teams))}")
        players, alt = end.results, end.alt
    else:
        if point.index == 0:
            head.append(tr("The deal."))
        head.append(turn_text(obs, seats, tr))
        players = _replay_players(game, seats, tr, pictures=pictures)
        alt = table_alt_text(obs, seats, tr)
    lines = event_lines(obs.events, seats, tr, viewer=None, last=point.turn_events)
    return ReplayTexts(
        head="\n".join(head),
        players=players,
        recent="\n".join(f"-# {line}" for line in lines),
        alt=alt,
        final=result is not None,
    )
