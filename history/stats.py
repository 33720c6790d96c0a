"""A player's figures from their finished games (``/hats stats``): pure arithmetic on rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["PlayerGame", "Summary", "TeamSummary", "summarize", "trend"]


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One finished game of a player: its seat's result (R16–R19) and what was revealed (R21).

    ``seats``: the game's seat count; ``finished_at``: unix seconds; ``favourite_type``: the
    hat type (engine ``HatType`` value) of the player's favourite hat, None if unknown.
    """

    game_id: int
    seats: int
    finished_at: float
    collection: int
    favourite: int
    cookie: int
    total: int
    black_hats: int
    winner: bool
    favourite_type: str | None = None
    partner: int | None = None
    team_total: int | None = None


@dataclass(frozen=True, slots=True)
class TeamSummary:
    """A player's 4-player (team) games (R5, R20) in ``/hats stats``.

    ``games``/``wins``: team games played and won; ``mean_own``: the player's own mean total
    in them; ``mean_team``: their team's mean total (points per game); ``partners``:
    ``(partner user id or None for an AI, games, wins)``, most games first.
    """

    games: int
    wins: int
    mean_own: float
    mean_team: float
    partners: tuple[tuple[int | None, int, int], ...]


@dataclass(frozen=True, slots=True)
class Summary:
    """What ``/hats stats`` shows. Averages are per game (0.0 without games).

    ``by_seats``: seat count -> (games, wins); ``cookie_kept``: games ending with the cookie
    (R18); ``best``: (game id, total) of the highest total, earliest on ties;
    ``favourite_type``: the most frequent favourite hat type (first met on ties); ``team``:
    the 4-player games by team (None without any).
    """

    games: int = 0
    wins: int = 0
    by_seats: dict[int, tuple[int, int]] = field(default_factory=dict)
    mean_total: float = 0.0
    mean_collection: float = 0.0
    mean_favourite: float = 0.0
    mean_cookie: float = 0.0
    black_hats_per_game: float = 0.0
    cookie_kept: int = 0
    best: tuple[int, int] | None = None
    favourite_type: str | None = None
    team: TeamSummary | None = None

    @property
    def win_rate(self) -> float:
        """Wins / games, 0.0 without games."""
        return self.wins / self.games if self.games else 0.0


def summarize(games: Sequence[PlayerGame]) -> Summary:
    """The :class:`Summary` of a player's games (any order)."""
    n = len(games)
    if n == 0:
        return Summary()
    by_seats: dict[int, tuple[int, int]] = {}
    for g in games:
        played, won = by_seats.get(g.seats, (0, 0))
        by_seats[g.seats] = (played + 1, won + int(g.winner))
    ordered = sorted(games, key=lambda g: (g.finished_at, g.game_id))
    best = max(ordered, key=lambda g: g.total)  # max keeps the first of equal totals
    types = Counter(g.favourite_type for g in ordered if g.favourite_type)
    return Summary(
        games=n,
        wins=sum(g.winner for g in games),
        by_seats=dict(sorted(by_seats.items())),
        mean_total=sum(g.total for g in games) / n,
        mean_collection=sum(g.collection for g in games) / n,
        mean_favourite=sum(g.favourite for g in games) / n,
        mean_cookie=sum(g.cookie for g in games) / n,
        black_hats_per_game=sum(g.black_hats for g in games) / n,
        cookie_kept=sum(1 for g in games if g.cookie > 0),
        best=(best.game_id, best.total),
        favourite_type=types.most_common(1)[0][0] if types else None,
        team=_team_summary(games),
    )


def _team_summary(games: Sequence[PlayerGame]) -> TeamSummary | None:
    """The :class:`TeamSummary` of the games played in a team (``team_total`` known)."""
    team = [g for g in games if g.team_total is not None]
    if not team:
        return None
    partners: dict[int | None, tuple[int, int]] = {}
    for g in team:
        played, won = partners.get(g.partner, (0, 0))
        partners[g.partner] = (played + 1, won + int(g.winner))
    ranked = sorted(partners.items(), key=lambda p: (-p[1][0], -p[1][1], p[0] is None, p[0] or 0))
    n = len(team)
    return TeamSummary(
        games=n,
        wins=sum(g.winner for g in team),
        mean_own=sum(g.total for g in team) / n,
        mean_team=sum(g.team_total or 0 for g in team) / n,
        partners=tuple((who, played, won) for who, (played, won) in ranked),
    )


def trend(ordinals: Sequence[tuple[float, float]]) -> float | None:
    """The change of the shown rating over recent games: ``[(before, after), ...]`` oldest first.

    None without games.
    """
    if not ordinals:
        return None
    return ordinals[-1][1] - ordinals[0][0]
