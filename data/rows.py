"""Frozen rows the store returns and accepts.

Ids are Discord snowflakes (int); times are unix seconds (float); ``settings``/``config``/
``payload`` dicts are JSON objects: treat them as read-only (change them by writing a new dict
through the repository).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import GameConfig, Step

__all__ = [
    "SEAT_COLUMNS",
    "GameChange",
    "GameMessage",
    "GameRow",
    "GameStatus",
    "LiveGame",
    "LobbyChange",
    "LobbyRow",
    "LobbySeat",
    "MessageRole",
    "ResultEntry",
    "SeatRow",
    "SeatSpec",
    "TimerChange",
    "TimerRow",
    "UserStats",
    "seat_row",
]


class GameStatus(enum.StrEnum):
    """A game's life: live until scored (finished) or given up (abandoned)."""

    LIVE = "live"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class MessageRole(enum.StrEnum):
    """Known roles of a game's Discord messages (any other short string is accepted too)."""

    TABLE = "table"  # the public table message in the game's channel; seat None
    DM = "dm"  # a seat's private hand message; seat = that seat
    TEAM_THREAD = "team_thread"  # a team's private thread (4 seats, R5); seat = team index 0/1


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """One entry of a lobby's seat list: a user or an AI level, and a team choice (4 seats, R5).

    Exactly one of ``user_id`` / ``ai_level`` is normally set; ``team`` is 0, 1 or None.
    """

    user_id: int | None = None
    ai_level: str | None = None
    team: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON form ``{"user_id": 1, "ai_level": None, "team": 0}``."""
        return {"user_id": self.user_id, "ai_level": self.ai_level, "team": self.team}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LobbySeat:
        """Inverse of :meth:`to_dict`."""
        return cls(data.get("user_id"), data.get("ai_level"), data.get("team"))


@dataclass(frozen=True, slots=True)
class LobbyRow:
    """An open lobby: where, who hosts, who sits, its settings and its Discord message.

    ``seats`` in seating order; ``message_id`` is the lobby message (None until posted);
    ``created_at``/``updated_at`` in unix seconds (expiry = updated_at + the bot's timeout).
    """

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    seats: tuple[LobbySeat, ...]
    settings: dict[str, Any]
    message_id: int | None
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who takes a seat when a game is created: a user id, or an AI level."""

    user_id: int | None = None
    ai_level: str | None = None

    def __post_init__(self) -> None:
        if self.user_id is None and self.ai_level is None:
            raise ValueError("a seat needs a user_id or an ai_level")


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A game seat's mutable state.

    ``ai_level`` not None means an AI plays the seat now (``user_id``, when set, is the human
    who held it, e.g. after a kick); ``away`` marks a seat whose user is away; ``auto_turns``
    counts turns played for it automatically. Change it with ``dataclasses.replace`` and
    ``Games.update_seat``.
    """

    game_id: int
    seat: int
    user_id: int | None
    ai_level: str | None
    away: bool
    auto_turns: int


SEAT_COLUMNS = "game_id, seat, user_id, ai_level, away, auto_turns"
"""The columns of ``game_seats`` that :func:`seat_row` reads, in its order."""


def seat_row(r: Sequence[Any]) -> SeatRow:
    """A :class:`SeatRow` from a row selected with :data:`SEAT_COLUMNS`."""
    return SeatRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5])


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game: where it runs, its engine config (``GameConfig.to_dict()``) and settings.

    ``status`` is a :class:`GameStatus`; ``finished_at`` is set when finished or abandoned.
    """

    id: int
    guild_id: int
    channel_id: int
    config: dict[str, Any]
    settings: dict[str, Any]
    status: GameStatus
    created_at: float
    updated_at: float
    finished_at: float | None

    @property
    def seed(self) -> int:
        """The game's seed (all chance, R3–R6, R9)."""
        return int(self.config["seed"])

    @property
    def seat_count(self) -> int:
        """2, 3 or 4."""
        return int(self.config["seats"])

    def game_config(self) -> GameConfig:
        """The engine config; raises ValueError when the stored config is invalid."""
        return GameConfig.from_dict(self.config)


@dataclass(frozen=True, slots=True)
class GameMessage:
    """A Discord message (or thread) that belongs to a game.

    ``role``: a :class:`MessageRole` value or any short string; ``seat``: the seat (DM) or team
    index (team thread) it belongs to, None for the table; ``channel_id``: the channel, DM
    channel or thread id; ``message_id``: None for a thread without a tracked message.
    """

    game_id: int
    role: str
    seat: int | None
    channel_id: int
    message_id: int | None


@dataclass(frozen=True, slots=True)
class TimerRow:
    """A deadline that survives restarts (turn timers, swap offer lapses, lobby expiry).

    Owned by exactly one of ``game_id`` / ``lobby_id`` / ``tournament_id`` and unique per
    (owner, ``kind``); ``due_at`` in unix seconds; ``payload`` a JSON object for the bot.
    """

    id: int
    game_id: int | None
    lobby_id: int | None
    kind: str
    seat: int | None
    due_at: float
    payload: dict[str, Any]
    tournament_id: int | None = None


@dataclass(frozen=True, slots=True)
class TimerChange:
    """A change to one of a game's timers, written with a step (``Steps.append_step(timers=)``).

    ``kind``: the timer's kind (``"turn"``, ``"reminder"``, ``"ai"``…; one timer per game and
    kind); ``due_at``: its new deadline in unix seconds, or None to clear the game's ``kind``
    timer; ``seat`` and ``payload`` (a JSON object) as in :class:`TimerRow`. Setting a timer
    frees any claim on it (``Timers.claim_due``).
    """

    kind: str
    due_at: float | None
    seat: int | None = None
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LobbyChange:
    """A change of a channel's lobby made by some process, as ``Store.watch_lobbies`` reports it.

    ``channel_id``: the lobby's channel (opened, changed or closed), or None when changes may
    have been missed (the listener's connection was lost); ``origin``: the writing Store's
    :attr:`~data.store.Store.origin` (``""`` with ``channel_id`` None). PostgreSQL only.
    """

    channel_id: int | None
    origin: str


@dataclass(frozen=True, slots=True)
class GameChange:
    """A change of a game made by some process, as ``Store.watch`` reports it (PostgreSQL).

    ``game_id``: the changed game, or None when every cached game is suspect (the listener's
    connection was lost and changes may have been missed); ``seq``: the sequence number of a
    new step, None for other changes (the game row, its seats, its messages); ``origin``: the
    writing Store's :attr:`~data.store.Store.origin` (``""`` with ``game_id`` None).
    """

    game_id: int | None
    seq: int | None
    origin: str


@dataclass(frozen=True, slots=True)
class LiveGame:
    """A live game as stored: its row, seats (seat order), steps (seq order) and messages.

    ``auto_seqs``: the seqs of the steps stored with actor ``"auto"`` (moves played for an
    absent player). Built by ``Games.load_live`` (one game) and ``data.restore`` (all).
    """

    row: GameRow
    seats: tuple[SeatRow, ...]
    steps: tuple[Step, ...]
    messages: tuple[GameMessage, ...]
    auto_seqs: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """One seat's result in a finished game (R14–R20).

    Points per R16–R19 (``favourite`` is R17's favourite hat score, ``cookie`` 5 or 0);
    ``place`` 1 for the winners (R19/R20), then by total (team total with 4 seats); ``team``
    is 0/1 with 4 seats, else None; ``winner`` True for every winning seat.
    """

    seat: int
    user_id: int | None
    ai_level: str | None
    collection: int
    favourite: int
    cookie: int
    total: int
    black_hats: int
    place: int
    team: int | None
    winner: bool


@dataclass(frozen=True, slots=True)
class UserStats:
    """A user's finished games: how many, how many won, the mean total score (0.0 if none)."""

    user_id: int
    games: int
    wins: int
    mean_score: float
