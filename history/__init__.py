"""Players' history: skill ratings and statistics, computed from stored results.

Pure: no Discord, no SQL, no I/O. ``data.history`` stores what this package computes;
``cogs.history`` shows it. Modules: ``ratings`` (openskill Plackett–Luce ratings per scope),
``stats`` (a player's figures from their result rows).
"""

from history.ratings import (
    AI_RATINGS,
    GLOBAL,
    MODEL,
    Change,
    Match,
    Outcome,
    Rating,
    SeatOutcome,
    apply_outcome,
    match_of,
    rate_match,
    recompute,
    scopes_of,
)

__all__ = [
    "AI_RATINGS",
    "GLOBAL",
    "MODEL",
    "Change",
    "Match",
    "Outcome",
    "Rating",
    "SeatOutcome",
    "apply_outcome",
    "match_of",
    "rate_match",
    "recompute",
    "scopes_of",
]
