"""The settings a game is created with: seats, seed, starting seat (R3–R6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_SEATS", "MIN_SEATS", "TURNS_PER_SEAT", "GameConfig", "partner_of", "teams_for"]

MIN_SEATS = 2
MAX_SEATS = 4
TURNS_PER_SEAT = 8
"""Every seat takes 8 turns (R14)."""
HAND_SIZE = 9
"""Cards dealt to each seat (R4)."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """A game's settings.

    ``seats`` is 2–4; ``seed`` (any int) drives every chance event (R3, R4, R6, R9);
    ``start_seat`` overrides the seeded starting seat (R6) when not None.
    Raises ValueError when out of range.
    """

    seats: int
    seed: int
    start_seat: int | None = None

    def __post_init__(self) -> None:
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise ValueError(f"seats must be 2–4, got {self.seats}")
        if self.start_seat is not None and not 0 <= self.start_seat < self.seats:
            raise ValueError(f"start_seat must be 0–{self.seats - 1}, got {self.start_seat}")

    @property
    def slots(self) -> int:
        """Board slots in use: 5 with 2 seats, 6 otherwise (R3)."""
        return 5 if self.seats == 2 else 6

    @property
    def teams(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """``((0, 2), (1, 3))`` with 4 seats (R5), otherwise None."""
        return teams_for(self.seats)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"seats": self.seats, "seed": self.seed, "start_seat": self.start_seat}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        """Inverse of :meth:`to_dict`."""
        return cls(int(data["seats"]), int(data["seed"]), data.get("start_seat"))


def teams_for(seats: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Teams for a seat count: partners sit opposite with 4 seats (R5); None otherwise."""
    return ((0, 2), (1, 3)) if seats == 4 else None


def partner_of(seat: int, seats: int) -> int | None:
    """The partner's seat with 4 seats (R5), else None."""
    return (seat + 2) % 4 if seats == 4 else None
