"""Texts of a Swiss tournament (``/hats tournament``): sign-up, rounds, standings, the end.

Pure: each function takes what the store holds (``data`` rows, ``tournament.Standing``) and a
translator, and returns the texts of one Components V2 message, phone first (short lines,
the reader's own place easy to find, nothing said twice). Players are shown as mentions
(``<@id>``): Discord shows each reader the name they know, and the messages that carry them
ping only the players they address (``allowed_mentions`` in the cog).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from data import TableRow, TournamentRow, TournamentStatus
from texts.common import duration_text
from texts.i18n import N_, Tr
from texts.limits import V2_TEXT_MAX, fit_lines
from texts.user_text import markdown_text, plain_text
from tournament import MAX_ENTRANTS, MIN_ENTRANTS, Standing

__all__ = [
    "MEDALS",
    "TROPHY",
    "RoundTable",
    "TournamentButtonLabels",
    "cancelled_text",
    "default_name",
    "final_texts",
    "history_block",
    "left_text",
    "missing_thread_permissions",
    "points_text",
    "record_text",
    "removed_text",
    "round_texts",
    "rules_section",
    "scheduled_event_text",
    "signup_texts",
    "standings_lines",
    "standings_texts",
    "stats_line",
    "status_word",
    "thread_name",
    "tournament_button_labels",
]

TROPHY = "🏆"
MEDALS = ("🥇", "🥈", "🥉")
"""The podium: places 1, 2 and 3."""
_QUARTERS = {0: "", 1: "¼", 2: "½", 3: "¾"}

RULES_TITLE = N_("Tournaments")
"""The heading of the tournament rules in ``/hats rules``."""
RULES_TEXT = N_(
    "• Tables of 3 players; when the count does not divide by 3, tables of 2 take the rest "
    "(never a table of 1, never 4).\n"
    "• Round 1 seats players by their rating on this server (new players last); later rounds "
    "seat players with equal points together and avoid opponents already met whenever "
    "possible.\n"
    "• Each game gives points from its own ranking: at a table of 3, 1 for the winner, ½ for "
    "second, 0 for third; at a table of 2, 1 or 0. A tie shares the points.\n"
    "• Standings: points, then Buchholz (the points of all opponents met), then the sum of "
    "game scores, then who signed up first.\n"
    "• Each table plays in its own thread with the tournament's turn timer; an absent "
    "player's turns are played by the AI and the seat keeps its points. The next round "
    "starts one minute after the last game of a round (the host may start it sooner)."
)
"""The tournament rules in our own words (docs/players.md "Tournaments", ``/hats rules``)."""


def rules_section(tr: Tr) -> str:
    """The tournament rules for ``/hats rules`` (their own message): heading, then bullets."""
    return f"### {TROPHY} {tr(RULES_TITLE)}\n{tr(RULES_TEXT)}"


def stats_line(played: int, won: int, tr: Tr) -> str:
    """``/hats stats``: tournaments played and won (finished ones)."""
    return tr.plural(
        "{trophy} {n} tournament played, {won} won",
        "{trophy} {n} tournaments played, {won} won",
        played,
        trophy=TROPHY,
        won=won,
    )


def history_block(rows: Sequence[TournamentRow], tr: Tr) -> str:
    """``/hats history``: the server's (or a player's) tournaments, newest first, one a line."""
    lines = [f"**{tr('Tournaments')}**"]
    for row in rows:
        when = int(row.finished_at or row.start_at or row.created_at)
        if row.status is TournamentStatus.FINISHED and row.winner_id is not None:
            how = tr("won by <@{winner}>", winner=row.winner_id)
        elif row.status is TournamentStatus.RUNNING:
            how = tr("round {round} of {rounds}", round=row.round, rounds=row.rounds)
        elif row.status is TournamentStatus.OPEN:
            how = tr("sign-up open")
        else:
            how = tr("cancelled")
        lines.append(
            tr(
                "{trophy} **#{id}** {name} <t:{at}:d> · {how}",
                trophy=TROPHY,
                id=row.id,
                name=tournament_title(row),
                at=when,
                how=how,
            )
        )
    hint = tr("Standings: /hats tournament standings with its number (#).")
    return fit_lines(lines, 1200, keep="first") + f"\n-# {hint}"


def points_text(value: Fraction) -> str:
    """Points in quarters as people write them: 2, 1½, ¾, 0 (never a decimal point)."""
    quarters = round(value * 4)
    whole, rest = divmod(quarters, 4)
    if whole == 0 and rest:
        return _QUARTERS[rest]
    return f"{whole}{_QUARTERS[rest]}"


def tournament_title(row: TournamentRow) -> str:
    """The tournament's name as typed by its host, escaped for markdown."""
    return markdown_text(plain_text(row.name, 80) or "Hats")


def thread_name(round: int, table: int, tr: Tr) -> str:
    """The thread of a table: ``Round 2 · Table 1`` (in the server's language)."""
    return tr("Round {round} · Table {table}", round=round, table=table)


def standings_lines(standings: Sequence[Standing], tr: Tr, *, viewer: int | None = None) -> str:
    """The standings, one line a player: place, player, points, Buchholz, game scores.

    The podium gets its medals; ``viewer``'s own line is marked ◀ so it is found at a glance
    on a phone; a dropped player is marked. Cut from the bottom to fit one text display.
    """
    lines = [tr("-# place · player · points · Buchholz · game scores")]
    for s in standings:
        place = MEDALS[s.rank - 1] if s.rank <= len(MEDALS) and s.games else f"{s.rank}."
        line = tr(
            "{place} <@{player}> **{points}** · {buchholz} · {scores}",
            place=place,
            player=s.player,
            points=points_text(s.points),
            buchholz=points_text(s.buchholz),
            scores=s.score_sum,
        )
        if s.dropped:
            line += " " + tr("(left)")
        if s.player == viewer:
            line += " ◀"
        lines.append(line)
    return fit_lines(lines, V2_TEXT_MAX - 500, keep="first")


def _timer_text(row: TournamentRow, tr: Tr) -> str:
    timer = row.settings.get("turn_timer")
    if isinstance(timer, int | float) and timer > 0:
        return tr("turn timer {time}", time=duration_text(timer, tr))
    return tr("no turn timer")


def _head(row: TournamentRow, tr: Tr) -> str:
    """Title and the facts line: host, rounds, turn timer."""
    facts = tr(
        "Host <@{host}> · {rounds} · {timer}",
        host=row.host_id,
        rounds=tr.plural("{n} round", "{n} rounds", row.rounds),
        timer=_timer_text(row, tr),
    )
    return f"### {TROPHY} {tournament_title(row)}\n{facts}"


def signup_texts(
    row: TournamentRow,
    players: Sequence[int],
    tr: Tr,
    *,
    next_round_at: float | None = None,
) -> list[str]:
    """The tournament's own message: head, when it starts (or how far it is), the players.

    ``players``: user ids in sign-up order (not dropped). ``next_round_at``: during the pause
    after a round, when the next one starts (unix seconds).
    """
    blocks = [_head(row, tr)]
    status = row.status
    if status is TournamentStatus.OPEN:
        if row.start_at is not None:
            at = int(row.start_at)
            blocks.append(tr("Starts <t:{at}:F> (<t:{at}:R>).", at=at))
        else:
            blocks.append(tr("The host starts it when everyone is here."))
        who = " · ".join(f"<@{p}>" for p in players) or tr("Nobody yet.")
        blocks.append(
            tr("**Players ({n}/{most}):** {who}", n=len(players), most=MAX_ENTRANTS, who=who)
        )
        if len(players) < 3:
            blocks.append(tr("-# Join to play: at least 3 players are needed."))
    elif status is TournamentStatus.RUNNING:
        if next_round_at is not None and row.round < row.rounds:
            blocks.append(
                tr(
                    "Round {round} is over. Round {next} starts <t:{at}:R>.",
                    round=row.round,
                    next=row.round + 1,
                    at=int(next_round_at),
                )
            )
        else:
            blocks.append(
                tr("Round {round} of {rounds} is being played.", round=row.round, rounds=row.rounds)
            )
        blocks.append(tr.plural("{n} player", "{n} players", len(players)))
    elif status is TournamentStatus.FINISHED:
        if row.winner_id is not None:
            blocks.append(
                tr("{trophy} Finished: <@{winner}> won.", trophy=TROPHY, winner=row.winner_id)
            )
        else:
            blocks.append(tr("Finished."))
    elif called_off(row, len(players)):
        blocks.append(
            tr.plural(
                "This tournament was called off at its start time: only {n} player signed "
                "up; {low} are needed.",
                "This tournament was called off at its start time: only {n} players signed "
                "up; {low} are needed.",
                len(players),
                low=MIN_ENTRANTS,
            )
        )
    else:
        blocks.append(tr("This tournament was cancelled."))
    return blocks


def called_off(row: TournamentRow, entrants: int) -> bool:
    """True when a cancelled tournament was called off at its timed start for too few entrants.

    The service cancels it at its start time when fewer than :data:`tournament.MIN_ENTRANTS`
    signed up (its round is still 0, its last change at or after ``start_at``); a host who
    cancels does so before the start time, since the tournament starts or is called off then.
    """
    return (
        row.status is TournamentStatus.CANCELLED
        and row.round == 0
        and row.start_at is not None
        and row.updated_at >= row.start_at
        and entrants < MIN_ENTRANTS
    )


@dataclass(frozen=True, slots=True)
class RoundTable:
    """One table of a round as announced: its number, thread and players (by seat)."""

    table: int
    thread_id: int | None
    players: tuple[int, ...]


def round_tables(tables: Sequence[TableRow]) -> list[RoundTable]:
    """The announced shape of stored tables."""
    return [RoundTable(t.tab, t.thread_id, t.players) for t in tables]


def round_texts(row: TournamentRow, tables: Sequence[RoundTable], tr: Tr) -> list[str]:
    """A round's announcement: its number, then each table with its thread and players."""
    head = tr(
        "### {trophy} {name}: round {round} of {rounds}",
        trophy=TROPHY,
        name=tournament_title(row),
        round=row.round,
        rounds=row.rounds,
    )
    lines = []
    for t in tables:
        where = f"<#{t.thread_id}>" if t.thread_id else thread_name(row.round, t.table, tr)
        who = " · ".join(f"<@{p}>" for p in t.players)
        lines.append(
            tr("**Table {table}** {thread}\n{players}", table=t.table, thread=where, players=who)
        )
    foot = tr("-# Your game is in your table's thread; your hand comes by DM.")
    return [head, fit_lines(lines, V2_TEXT_MAX - 600, keep="first"), foot]


def standings_texts(
    row: TournamentRow, standings: Sequence[Standing], tr: Tr, *, viewer: int | None = None
) -> list[str]:
    """``/hats tournament standings``: the head, where it stands, the standings."""
    if row.status is TournamentStatus.OPEN:
        where = tr("Sign-up is open; the standings start with round 1.")
    elif row.status is TournamentStatus.RUNNING:
        where = tr("After round {round} of {rounds}.", round=row.round, rounds=row.rounds)
    elif row.status is TournamentStatus.FINISHED:
        where = tr("Final standings.")
    else:
        where = tr("This tournament was cancelled.")
    return [_head(row, tr), where, standings_lines(standings, tr, viewer=viewer)]


def final_texts(row: TournamentRow, standings: Sequence[Standing], tr: Tr) -> list[str]:
    """The final standings post: the winner with 🏆, the podium, then everyone."""
    head = tr("### {trophy} {name}: final standings", trophy=TROPHY, name=tournament_title(row))
    podium = [s for s in standings if s.games][: len(MEDALS)]
    blocks = [head]
    if podium:
        blocks.append(
            tr("{trophy} <@{winner}> wins the tournament!", trophy=TROPHY, winner=podium[0].player)
        )
        blocks.append(
            "\n".join(
                f"{MEDALS[i]} <@{s.player}> **{points_text(s.points)}**"
                for i, s in enumerate(podium)
            )
        )
    blocks.append(standings_lines(standings, tr))
    return blocks


DEFAULT_NAME = N_("Hats night")
"""A tournament's name when the host gives none (in the server's language)."""


def default_name(tr: Tr) -> str:
    """The name of a tournament whose host gave none."""
    return tr(DEFAULT_NAME)


def status_word(status: TournamentStatus, tr: Tr) -> str:
    """A tournament's state in one word, as the tournament pickers show it ("sign-up", …)."""
    return {
        TournamentStatus.OPEN: lambda: tr("sign-up"),
        TournamentStatus.RUNNING: lambda: tr("running"),
        TournamentStatus.FINISHED: lambda: tr("finished"),
        TournamentStatus.CANCELLED: lambda: tr("cancelled"),
    }[status]()


@dataclass(frozen=True, slots=True)
class TournamentButtonLabels:
    """The labels of the tournament message's buttons (which ones show depends on its state)."""

    join: str
    leave: str
    start: str
    cancel: str
    standings: str
    next_round: str


def tournament_button_labels(tr: Tr) -> TournamentButtonLabels:
    """The tournament message's button labels in ``tr``'s language."""
    return TournamentButtonLabels(
        join=tr("Join"),
        leave=tr("Leave"),
        start=tr("Start"),
        cancel=tr("Cancel"),
        standings=tr("Standings"),
        next_round=tr("Start the next round"),
    )


def missing_thread_permissions(
    tr: Tr, *, create_public_threads: bool, send_messages_in_threads: bool
) -> list[str]:
    """The names (as Discord shows them) of the thread permissions a tournament lacks.

    Each flag is whether the bot has that permission in the channel; the result lists
    those it has not, in Discord's order.
    """
    missing = []
    if not create_public_threads:
        missing.append(tr("Create Public Threads"))
    if not send_messages_in_threads:
        missing.append(tr("Send Messages in Threads"))
    return missing


def scheduled_event_text(rounds: int, tr: Tr) -> str:
    """The description of a tournament's Discord scheduled event; ``rounds``: its rounds."""
    return tr(
        "A Swiss tournament of Hats: {rounds}. Join it in the channel before it starts.",
        rounds=tr.plural("{n} round", "{n} rounds", rounds),
    )


def removed_text(player: str, tr: Tr, *, running: bool) -> str:
    """The host's answer after taking ``player`` (a mention) out of the tournament.

    ``running``: the tournament has begun (the player's games so far count).
    """
    if running:
        return tr("{player} is out of the next rounds; their games so far count.", player=player)
    return tr("{player} is no longer signed up.", player=player)


def left_text(tr: Tr, *, running: bool) -> str:
    """The answer to a player who left the tournament; ``running``: it has begun."""
    if not running:
        return tr("You left the tournament.")
    return tr(
        "You left the tournament: you play no more rounds; your games so far count. "
        "A game you are playing now goes on."
    )


def record_text(tournament_id: int, tr: Tr) -> str:
    """The line sent with a tournament's record file."""
    return tr("The record of tournament #{id}.", id=tournament_id)


def cancelled_text(tr: Tr) -> str:
    """The answer to the host who cancelled the tournament."""
    return tr("The tournament is cancelled.")
