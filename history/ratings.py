"""Skill ratings with openskill's Plackett–Luce model (Weng & Lin 2011, Algorithm 4).

A finished game is an :class:`Outcome`: one :class:`SeatOutcome` per seat with its place
(1 = won; equal places are ties, R19/R20). :func:`match_of` turns it into the teams and ranks
the model rates:

- 2 or 3 seats: every participant is a team of one (free-for-all, ranks with ties).
- 4 seats: the two partnerships are the teams (R5, R20).
- AI seats take part as fixed-strength pseudo-players (:data:`AI_RATINGS` by level): the
  humans' ratings move as if they had played a player of that strength, the AI's never does.
- A kicked player (their user id is kept in the game settings, ``kicked``) counts as a loss:
  they become a team of their own ranked below everyone; the AI that took their seat over
  is not a participant.
- A game needs at least 2 human players (kicked ones included) to be rated.

Ratings are kept per scope ``(guild_id, seats)``: ``guild_id`` :data:`GLOBAL` (0) is every
server together, ``seats`` 0 is every seat count together. A game updates four scopes:
its server and global, each for all seat counts and for its own seat count. The shown
figure is the conservative ordinal ``mu - 3 * sigma`` (:attr:`Rating.ordinal`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "AI_RATINGS",
    "GLOBAL",
    "MIN_GAMES",
    "MIN_HUMANS",
    "MODEL",
    "PROVISIONAL_GAMES",
    "Change",
    "Match",
    "Outcome",
    "Rating",
    "Scope",
    "SeatOutcome",
    "apply_outcome",
    "is_provisional",
    "match_of",
    "rate_match",
    "recompute",
    "scopes_of",
]

MODEL = PlackettLuce()
"""The rating model with openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""

GLOBAL = 0
"""The ``guild_id`` of the global scope (every server together)."""

MIN_HUMANS = 2
"""A game is rated only with at least this many human players."""

MIN_GAMES = 1
"""Rated games a player needs (in the period) to appear on a leaderboard: from the first
one, so a new server's board is never empty (issue 18); see :data:`PROVISIONAL_GAMES`."""

PROVISIONAL_GAMES = 5
"""Below this many rated games a rating is provisional (marked on the leaderboard and in
``/hats stats``): its uncertainty is still large."""


def is_provisional(games: int) -> bool:
    """Whether a rating after ``games`` rated games is still provisional (< 5 games)."""
    return games < PROVISIONAL_GAMES


Scope = tuple[int, int]
"""``(guild_id, seats)``: guild_id 0 = global, seats 0 = every seat count."""

Player = int | str
"""A participant: a user id (human) or ``"ai:<level>"`` (a fixed-strength pseudo-player)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one scope: mean ``mu``, uncertainty ``sigma``, games and wins."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative figure shown to players: ``mu - 3 * sigma`` (0 for a newcomer)."""
        return self.mu - 3.0 * self.sigma


AI_RATINGS: dict[str, Rating] = {
    "easy": Rating(20.0, 2.0),
    "normal": Rating(25.0, 2.0),
    "hard": Rating(28.0, 2.0),
    "expert": Rating(30.6, 2.0),
}
"""Fixed strengths of the AI levels (never updated). Ordered as BENCHMARKS.md measures them
(hard beats normal, normal beats easy, expert beats hard); sigma 2 says they are well known.
The expert's mu is the one for which the model's own ``predict_win`` of expert against hard
equals the expert's measured 2-player win rate against hard, 65.6% over 1,000 games
(BENCHMARKS.md, "Expert AI against hard: searched partner swaps")."""


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat of a finished game.

    ``user_id``: the human who held the seat (the kicked player for a kicked seat), None for
    an AI seat; ``ai_level``: the AI level of an AI seat; ``place``: 1 + the entries strictly
    ahead (1 = a winner); ``team``: 0/1 with 4 seats; ``kicked``: the player was removed.
    """

    user_id: int | None
    ai_level: str | None
    place: int
    team: int | None = None
    kicked: bool = False

    @property
    def won(self) -> bool:
        """A win (a shared one too); a kicked player never wins."""
        return self.place == 1 and not self.kicked


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game as the ratings see it: id, server, seat count and its seats in order."""

    game_id: int
    guild_id: int
    seats: tuple[SeatOutcome, ...]

    @property
    def humans(self) -> list[int]:
        """The human players' user ids, in seat order (kicked ones included)."""
        return [s.user_id for s in self.seats if s.user_id is not None]


@dataclass(frozen=True, slots=True)
class Match:
    """What the model rates: ``teams`` of participants and their ``ranks`` (lower is better)."""

    teams: tuple[tuple[Player, ...], ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Change:
    """One player's rating change in one scope caused by one game."""

    scope: Scope
    user_id: int
    before: Rating
    after: Rating
    won: bool


def _ai_key(level: str | None) -> str:
    return f"ai:{level if level in AI_RATINGS else 'normal'}"


def match_of(outcome: Outcome) -> Match | None:
    """The teams and ranks to rate, or None when the game is not rated (fewer than 2 humans).

    See the module docstring for teams, AI seats and kicked players.
    """
    if len(set(outcome.humans)) < MIN_HUMANS or len(outcome.humans) != len(set(outcome.humans)):
        return None
    four = len(outcome.seats) == 4
    groups: dict[object, list[Player]] = {}
    ranks: dict[object, int] = {}
    last = max(s.place for s in outcome.seats) + 1
    for index, seat in enumerate(outcome.seats):
        if seat.kicked:
            key: object = ("kicked", index)
            player: Player | None = seat.user_id
            place = last
        else:
            key = ("team", seat.team) if four and seat.team is not None else ("seat", index)
            player = seat.user_id if seat.user_id is not None else _ai_key(seat.ai_level)
            place = seat.place
        if player is None:
            continue
        groups.setdefault(key, []).append(player)
        ranks[key] = place
    if len(groups) < 2:
        return None
    keys = list(groups)
    return Match(tuple(tuple(groups[k]) for k in keys), tuple(ranks[k] for k in keys))


def rate_match(match: Match, ratings: Mapping[int, Rating]) -> dict[int, tuple[float, float]]:
    """New ``(mu, sigma)`` of every human in ``match`` with openskill's Plackett–Luce ``rate``.

    ``ratings``: the humans' current ratings (missing ones start at the model's prior); AI
    pseudo-players use :data:`AI_RATINGS` and are not returned.
    """
    teams = []
    for team in match.teams:
        row = []
        for player in team:
            r = AI_RATINGS[player[3:]] if isinstance(player, str) else ratings.get(player, Rating())
            row.append(MODEL.rating(mu=r.mu, sigma=r.sigma))
        teams.append(row)
    rated = MODEL.rate(teams, ranks=[float(r) for r in match.ranks])
    out: dict[int, tuple[float, float]] = {}
    for team, new in zip(match.teams, rated, strict=True):
        for player, r in zip(team, new, strict=True):
            if isinstance(player, int):
                out[player] = (r.mu, r.sigma)
    return out


def scopes_of(outcome: Outcome) -> tuple[Scope, ...]:
    """The four scopes a game updates: server and global, all seat counts and its own."""
    n = len(outcome.seats)
    return ((outcome.guild_id, 0), (outcome.guild_id, n), (GLOBAL, 0), (GLOBAL, n))


def apply_outcome(
    book: MutableMapping[tuple[Scope, int], Rating], outcome: Outcome
) -> list[Change]:
    """Rate one game against ``book`` (``(scope, user_id) -> Rating``), update it in place.

    Returns the changes (one per human and scope), or [] for an unrated game.
    """
    match = match_of(outcome)
    if match is None:
        return []
    won = {s.user_id: s.won for s in outcome.seats if s.user_id is not None}
    changes: list[Change] = []
    for scope in scopes_of(outcome):
        current = {u: book.get((scope, u), Rating()) for u in outcome.humans}
        new = rate_match(match, current)
        for user_id in outcome.humans:
            before = current[user_id]
            mu, sigma = new[user_id]
            after = Rating(mu, sigma, before.games + 1, before.wins + int(won[user_id]))
            book[(scope, user_id)] = after
            changes.append(Change(scope, user_id, before, after, won[user_id]))
    return changes


def recompute(outcomes: Iterable[Outcome]) -> dict[tuple[Scope, int], Rating]:
    """Every rating from scratch: the outcomes applied in game order (their finishing order)."""
    book: dict[tuple[Scope, int], Rating] = {}
    for outcome in outcomes:
        apply_outcome(book, outcome)
    return book


def ordinal_delta(changes: Sequence[Change], scope: Scope) -> dict[int, float]:
    """Each player's change of the shown figure (ordinal) in ``scope``."""
    return {c.user_id: c.after.ordinal - c.before.ordinal for c in changes if c.scope == scope}
