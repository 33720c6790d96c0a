"""``hats-tournament/1``: a tournament as JSON (``/hats tournament record``).

The format is documented in ``docs/TOURNAMENT_RECORD.md`` next to ``hats-record/1``; each
game of the tournament is exported by ``/hats record`` under its game id.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from service.tournaments import TournamentView

__all__ = ["TOURNAMENT_FORMAT", "tournament_record"]

TOURNAMENT_FORMAT = "hats-tournament/1"


def _number(value: Fraction) -> float | int:
    """Points as JSON numbers: whole numbers as ints, quarters as exact binary floats."""
    return int(value) if value.denominator == 1 else float(value)


def tournament_record(view: TournamentView) -> dict[str, Any]:
    """The tournament as a JSON-ready dict (see ``docs/TOURNAMENT_RECORD.md``).

    Points are exact multiples of ¼ (the points of a table of 2 or 3), so floats hold them
    exactly. Times are unix seconds.
    """
    row = view.tournament
    results = {(r.round, r.table): r for r in view.results}
    rounds = []
    for number in sorted({t.round for t in view.tables}):
        tables = []
        for t in view.round_tables(number):
            result = results.get((t.round, t.tab))
            tables.append(
                {
                    "table": t.tab,
                    "players": [str(p) for p in t.players],
                    "game_id": t.game_id,
                    "status": t.game_status,
                    "places": list(result.places) if result else None,
                    "scores": list(result.scores) if result else None,
                    "points": [_number(p) for p in result.points()] if result else None,
                }
            )
        rounds.append({"round": number, "tables": tables})
    return {
        "format": TOURNAMENT_FORMAT,
        "id": row.id,
        "name": row.name,
        "guild_id": str(row.guild_id),
        "channel_id": str(row.channel_id),
        "host_id": str(row.host_id),
        "status": row.status.value,
        "rounds_planned": row.rounds,
        "turn_timer": row.settings.get("turn_timer"),
        "start_at": row.start_at,
        "created_at": row.created_at,
        "finished_at": row.finished_at,
        "entrants": [
            {"user_id": str(e.user_id), "signup": e.signup, "dropped": e.dropped}
            for e in view.entrants
        ],
        "rounds": rounds,
        "standings": [
            {
                "rank": s.rank,
                "user_id": str(s.player),
                "points": _number(s.points),
                "buchholz": _number(s.buchholz),
                "score_sum": s.score_sum,
                "games": s.games,
                "dropped": s.dropped,
            }
            for s in view.standings
        ],
        "winner_id": str(row.winner_id) if row.winner_id is not None else None,
    }
