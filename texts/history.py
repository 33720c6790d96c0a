"""Players' history in Components V2 texts: stats, leaderboard, games, replays, ratings.

Pure like the other renderers: rows and engine games in, text blocks out (each block one V2
text display; cogs.history lays them out), every text through ``Tr``. Ratings are shown as the
conservative ordinal (mu - 3 sigma) with one decimal.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from babel.numbers import format_decimal, format_percent

from data.history import BoardRow, GameSummary, RatingDelta
from engine import BLACK_HAT_EMOJI, Game, HatType, Observation, TieBreak, standings, teams_for
from history.ratings import PROVISIONAL_GAMES, Rating, is_provisional
from history.replay import ReplayPoint
from history.stats import Summary, TeamSummary
from texts.common import (
    COOKIE,
    TEAM_NAMES,
    TEAM_SEATS,
    SeatLabel,
    board_text,
    cards_short,
    collection_text,
    seat_mention,
    seat_name,
    team_of,
    type_name,
)
from texts.end import end_texts, group_seats, tie_break_text, winner_text
from texts.events import turn_lines
from texts.i18n import Tr
from texts.limits import fit_lines
from texts.table import piles_text, table_alt_text, turn_text

__all__ = [
    "HistoryRefusal",
    "ReplayTexts",
    "decimal",
    "game_option_label",
    "history_refusal_text",
    "history_texts",
    "leaderboard_texts",
    "rating_changes_text",
    "rating_field_name",
    "rating_text",
    "replay_select_placeholder",
    "replay_texts",
    "signed",
    "stats_texts",
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


LIST_MAX = 3000
"""Characters of a listed block (leaderboard, history) in a V2 message (Discord: 4,000 for all
the text displays of a message together)."""


def _block(heading: str, lines: Sequence[str]) -> str:
    return "\n".join([f"**{heading}**", *lines])


def _team_lines(team: TeamSummary, tr: Tr) -> list[str]:
    """A player's team games (R5, R20): played and won, own score inside the team, partners."""
    lines = [
        tr(
            "**Team games:** {won}/{played} ({rate})",
            won=team.wins,
            played=team.games,
            rate=_percent(team.wins, team.games, tr),
        ),
        tr(
            "Your average inside the team: {own} of {team} points",
            own=decimal(team.mean_own, tr),
            team=decimal(team.mean_team, tr),
        ),
    ]
    for partner, played, won in team.partners[:PARTNERS_SHOWN]:
        if partner is None:
            lines.append(tr("With an AI: {won}/{played} won", won=won, played=played))
        else:
            lines.append(
                tr(
                    "With {partner}: {won}/{played} won",
                    partner=f"<@{partner}>",
                    won=won,
                    played=played,
                )
            )
    return lines


PARTNERS_SHOWN = 5
"""Partners listed in ``/hats stats`` (those with the most team games together)."""


def stats_texts(
    who: str,
    summary: Summary,
    rating: Rating | None,
    trend: float | None,
    tr: Tr,
    *,
    everywhere: Rating | None = None,
    server: bool = True,
) -> list[str]:
    """``/hats stats`` as V2 text blocks: a player's games here (``server``) or everywhere.

    ``who``: the player's mention; ``rating``/``trend``: their rating in that scope and its
    change over their last games; ``everywhere``: their global rating (only for themselves).
    Blocks: the head, the games (by seat count; 4-player games by team, R20: played and won,
    the player's own mean score inside the team, the partners), the scores, the rating with
    its one-line meaning; only the rating has a heading (each other line says what it counts).
    Only the head without games.
    """
    title = tr("Hats statistics")
    if summary.games == 0:
        nothing = tr("{who} has no finished games here yet.", who=who)
        return [f"**{title}**\n{nothing}"]
    head = f"**{title}** · " + (tr("{who} on this server", who=who) if server else who)
    rate = _percent(summary.wins, summary.games, tr)  # not inside tr.plural: pybabel
    games = [
        tr.plural("{n} game played", "{n} games played", summary.games)
        + " · "
        + tr.plural("{n} won ({rate})", "{n} won ({rate})", summary.wins, rate=rate)
    ]
    if len(summary.by_seats) == 1:
        games = []  # one kind of game: its own line below says the same counts (said once)
    for seats, (played, won) in summary.by_seats.items():
        if seats == TEAM_SEATS and summary.team is not None:
            continue  # said in the team games block
        games.append(
            tr(
                "{seats} players: {won}/{played} ({rate})",
                seats=seats,
                won=won,
                played=played,
                rate=_percent(won, played, tr),
            )
        )
    # no headings for the games and the scores: each line says what it counts, and three
    # lines fewer keep the answer on one phone screen (issue 36.9)
    blocks = [head]
    if games:  # only team games: the team games block says them
        blocks.append("\n".join(games))
    if summary.team is not None:
        blocks.append("\n".join(_team_lines(summary.team, tr)))
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
    blocks.append("\n".join(score))
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
    same = (
        rating is not None
        and everywhere is not None
        and (everywhere.games, rating_text(everywhere.ordinal, tr))
        == (rating.games, rating_text(rating.ordinal, tr))
    )
    if everywhere is not None and not same:  # all games here: the same line, said once
        shown = rating_text(everywhere.ordinal, tr)  # not inside tr.plural: pybabel
        lines.append(
            tr.plural(
                "All servers: {rating} after {n} rated game",
                "All servers: {rating} after {n} rated games",
                everywhere.games,
                rating=shown,
            )
        )
    meaning = tr("It rises when you beat strong players.")
    if rating is not None and is_provisional(rating.games):  # the mark is shown: explain it
        meaning += " " + tr(
            "{mark} provisional: fewer than {n} rated games.",
            mark=PROVISIONAL_MARK,
            n=PROVISIONAL_GAMES,
        )
    lines.append(f"-# {meaning}")
    blocks.append(_block(tr("Rating"), lines))
    return blocks


def leaderboard_texts(
    rows: Sequence[BoardRow],
    total: int,
    page: int,
    pages: int,
    tr: Tr,
    *,
    seats: int,
    days: int | None,
) -> list[str]:
    """``/hats leaderboard`` as V2 text blocks: one page of a server's players by rating.

    ``page`` is 0-based. Players are listed from their first rated game; a provisional
    rating (fewer than history.ratings.PROVISIONAL_GAMES rated games) is marked, and one line
    says what the number means. Blocks: the head (scope and period), the ranks, the meaning
    and the page.
    """
    scope = tr("all games") if seats == 0 else tr("{n}-player games", n=seats)
    period = tr("all time") if days is None else tr("last {days} days", days=days)
    title = tr("Hats leaderboard")
    head = f"**{title}** · " + tr("{scope}, {period}", scope=scope, period=period)
    if not rows:
        body = _block(tr("Nobody yet"), [tr("Players appear here after their first rated game.")])
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
        body = fit_lines(lines, LIST_MAX, keep="first")
    page_line = tr.plural(
        "Page {page}/{pages} · {n} player",
        "Page {page}/{pages} · {n} players",
        total,
        page=page + 1,
        pages=max(pages, 1),
    )
    return [head, body, f"-# {rating_meaning(tr)}\n-# {page_line}"]


PROVISIONAL_MARK = "\\*"
"""Marks a provisional rating (fewer than history.ratings.PROVISIONAL_GAMES rated games)."""


def rating_meaning(tr: Tr) -> str:
    """What a rating means, in one line of the reader's language (the leaderboard)."""
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
    """A finished game's players with their scores, best first; with 4 seats by team (R20).

    The game's one ranking (:func:`engine.standings` of the stored totals, black hats and
    cookie: R19/R20 with every tie-break), grouped as the end screen groups it
    (:func:`texts.end.group_seats`): ``🏆 <@2>: 21, <@1>: 16, <@3>: 16``; with teams the
    winning team first, every member with 🏆, each player's score inside their team:
    ``🏆 Team A 28: 🏆 <@1>: 19, 🏆 <@3>: 9 · Team B 25: ...``.
    """
    by_seat = {s.seat: s for s in seats}
    count = len(by_seat)
    teams = teams_for(TEAM_SEATS) if count == TEAM_SEATS else None  # R5
    holder = next((s.seat for s in seats if getattr(s, "cookie", False)), None)
    order, _ = standings(
        [by_seat[i].total for i in range(count)],
        [getattr(by_seat[i], "black_hats", 0) for i in range(count)],
        holder,
        teams,
    )
    if teams is None:
        return ", ".join(_seat_text(by_seat[i], tr) for i in order)
    parts = []
    for group in group_seats(order, teams):
        members = [by_seat[i] for i in group]
        mark = f"{TROPHY} " if any(s.winner for s in members) else ""
        inside = ", ".join(_seat_text(s, tr) for s in members)
        team = tr(TEAM_NAMES[team_of(teams, group[0]) or 0])
        parts.append(f"{mark}**{team} {sum(s.total for s in members)}**: {inside}")
    return " · ".join(parts)


def history_texts(games: Sequence[GameSummary], tr: Tr, *, who: str | None) -> list[str]:
    """``/hats history`` as V2 text blocks: recent games, newest first.

    Each line: id, date, players with scores and 🏆 (4 seats: by team, :func:`players_text`);
    the last block says how to replay one. Blocks: the head, the games, the hint.
    """
    title = tr("Recent Hats games")
    head = f"**{title}**"
    if who:
        head += "\n" + tr("Games of {who} on this server", who=who)
    if not games:
        nothing = tr("No finished games here yet.")
        return [f"{head}\n{nothing}"]
    lines = [
        tr(
            "**#{game}** <t:{at}:d> · {players}",
            game=g.game_id,
            at=int(g.finished_at),
            players=players_text(g.seats, tr),
        )
        for g in games
    ]
    hint = tr("To replay a game, pick it below or give its number (#) to /hats replay.")
    return [head, fit_lines(lines, LIST_MAX, keep="first"), f"-# {hint}"]


@dataclass(frozen=True, slots=True)
class ReplayTexts:
    """The texts of a replay at one point (Components V2), every hand shown (R21).

    ``head``: the game and the turn (``turn i/n``), then the deal, whose turn (only with
    pictures off: the picture marks it with ▶) or, at the last point, who won (with pictures
    the team without its players: the end picture lists them) and, after a tie, what decided it
    (R19, R20). ``players``: before the last point, each player's hand and black hats' faces in
    seat order, one a line (the picture marks the teams; with pictures off grouped by team, R5,
    with the board, the collections and the cookie); at the last point with pictures off the
    final results grouped and ranked like the end screen; None there with pictures (the end
    picture shows them). ``recent``: the events of the turn that led here ("" at the deal).
    ``alt``: the picture's full text description (public information only). ``final``: the last
    point (its picture is the end picture).
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
    # under the picture a plain name, as the picture writes it: a mention pill never breaks,
    # so it took a line of its own on a phone (issue 36.9)
    who = seat_name(seats, seat, tr) if pictures else seat_mention(seats, seat, tr)
    if not pictures and obs.cookie == seat:
        who = f"{COOKIE} {who}"
    if game.black_hats[seat]:
        line = tr(
            "{who}: {cards} · {hat} {hats}",
            who=who,
            cards=cards_short(game.hands[seat]),
            hat=BLACK_HAT_EMOJI,
            hats=cards_short(game.black_hats[seat]),
        )
    else:  # no black hat yet: nothing to say about them (the picture shows ×0)
        line = tr("{who}: {cards}", who=who, cards=cards_short(game.hands[seat]))
    if not pictures:
        line += " · " + tr("Collection: {cards}", cards=collection_text(obs.collections[seat]))
    return line


def _replay_players(game: Game, seats: Sequence[SeatLabel], tr: Tr, *, pictures: bool) -> str:
    """The hands block of a replay before its last point (see :class:`ReplayTexts`)."""
    obs = game.public_view()
    lines = []
    if not pictures:
        lines.append(board_text(obs.board))
    teams = obs.teams
    if pictures:  # the picture marks each player's team: the hands in seat order, one a line
        groups = [list(range(obs.seats))]
    else:
        groups = [list(g) for g in group_seats(range(obs.seats), teams)]  # Team A first (R5)
    for group in groups:
        if teams and not pictures:
            lines.append(f"**{tr(TEAM_NAMES[team_of(teams, group[0]) or 0])}**")
        for seat in group:
            lines.append(_hand_line(game, obs, seats, tr, seat, pictures=pictures))
    if not pictures and obs.seats != TEAM_SEATS:  # with 4 both piles are empty (R4, R10)
        lines.append(piles_text(obs, tr))
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
        "Replay #{game} · turn {turn}/{turns}",
        game=game_id,
        turn=point.index,
        turns=point.last,
    )
    head = [f"**{title}**"]
    result = obs.result
    if result is not None:
        end = end_texts(obs, seats, tr, game_id=game_id, pictures=pictures)
        head.append(winner_text(result, seats, tr, obs.teams, members=not pictures))
        if result.tie_break is not TieBreak.SCORE:  # "wins with n points" says the rest
            head.append(f"-# {tie_break_text(result.tie_break, tr, teams=bool(obs.teams))}")
        players, alt = end.results, end.alt
    else:
        if point.index == 0:
            head.append(tr("The deal."))
        if not pictures or obs.pending_swap is not None:  # the picture marks who is to move
            head.append(turn_text(obs, seats, tr))
        players = _replay_players(game, seats, tr, pictures=pictures)
        alt = table_alt_text(obs, seats, tr)
    cut = len(obs.events) - point.turn_events
    turn = obs.events[cut:]
    # the turn in one line, as a hand DM says the others' turns (issue 36.9); the head says
    # the end (the winner); plain names: a mention pill never breaks (issue 29.17)
    before = obs.events[cut - 1].cookie if cut > 0 else None
    lines = turn_lines(turn, seats, tr, viewer=None, cookie_before=before, plain=True)
    return ReplayTexts(
        head="\n".join(head),
        players=players,
        recent="\n".join(f"-# {line}" for line in lines),
        alt=alt,
        final=result is not None,
    )


class HistoryRefusal(enum.Enum):
    """Why a history command showed nothing (each has its sentence)."""

    STATS_OUTSIDE_SERVER = "stats"
    LEADERBOARD_OUTSIDE_SERVER = "leaderboard"
    HISTORY_OUTSIDE_SERVER = "history"
    REPLAY_OUTSIDE_SERVER = "replay"
    NO_SUCH_GAME = "no_game"
    NOT_FINISHED = "not_finished"


def history_refusal_text(tr: Tr, why: HistoryRefusal, game: int = 0) -> str:
    """What ``/hats stats``, ``leaderboard``, ``history`` or ``replay`` answer when refused."""
    if why is HistoryRefusal.STATS_OUTSIDE_SERVER:
        return tr("Use this in a server channel to see others.")
    if why is HistoryRefusal.LEADERBOARD_OUTSIDE_SERVER:
        return tr("Leaderboards belong to servers: use this in one.")
    if why is HistoryRefusal.HISTORY_OUTSIDE_SERVER:
        return tr("Game history belongs to servers: use this in one.")
    if why is HistoryRefusal.REPLAY_OUTSIDE_SERVER:
        return tr("Replays belong to servers: use this in one.")
    if why is HistoryRefusal.NO_SUCH_GAME:
        return tr("There is no game #{game} on this server.", game=game)
    return tr("Game #{game} is not finished; replays come after the end.", game=game)


def replay_select_placeholder(tr: Tr) -> str:
    """The placeholder of the history's select that replays a game."""
    return tr("Replay one of these games in the channel")


def game_option_label(tr: Tr, game: int) -> str:
    """A game in a select (``Game #12``)."""
    return tr("Game #{game_id}", game_id=game)


def rating_field_name(tr: Tr) -> str:
    """The end screen's heading over the rating changes."""
    return tr("Rating on this server")
