"""Players' history: skill ratings, statistics and replays, computed from stored results.

Pure: no Discord, no SQL, no I/O. ``data.history`` stores what this package computes;
``cogs.history`` shows it. Modules: ``ratings`` (openskill Plackett–Luce ratings per scope),
``stats`` (a player's figures from their result rows), ``replay`` (a finished game turn by
turn, rebuilt through the engine).
"""

from history.ratings import Outcome, Rating, SeatOutcome, apply_outcome, recompute

__all__ = ["Outcome", "Rating", "SeatOutcome", "apply_outcome", "recompute"]
