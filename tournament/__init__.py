"""The rules of a Swiss tournament of Hats: tables, pairings, points and standings.

Pure and deterministic like ``engine`` (no I/O, no Discord, no global random): the service
stores what these functions decide. The rules (docs/players.md "Tournaments", ``/hats rules``):

- :func:`table_sizes`: tables of 3, a remainder as tables of 2 (never 1, never 4: 4-player Hats
  is a team game, R5);
- :func:`first_round`: round 1 by rating in a snake order, provisional ratings last;
  :func:`next_round`: later rounds by standings, equal scores together, opponents already met
  avoided wherever a grouping without repeats exists;
- :func:`game_points`: a game's points from its own ranking (R16–R20 with their tie-breaks):
  (opponents finished ahead of + ½ per tie) ÷ (table size − 1);
- :func:`standings`: points, Buchholz, sum of game scores, earlier sign-up.
"""

from tournament.pairing import (
    MAX_ENTRANTS,
    MIN_ENTRANTS,
    Seeded,
    first_round,
    next_round,
    repeated_pairs,
)
from tournament.points import game_points
from tournament.standings import Entrant, Standing, TableResult, opponents_met, standings
from tournament.tables import table_sizes

__all__ = [
    "MAX_ENTRANTS",
    "MIN_ENTRANTS",
    "Entrant",
    "Seeded",
    "Standing",
    "TableResult",
    "first_round",
    "game_points",
    "next_round",
    "opponents_met",
    "repeated_pairs",
    "standings",
    "table_sizes",
]
