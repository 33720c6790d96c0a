"""How many tables of which size a round needs."""

from __future__ import annotations

__all__ = ["table_sizes"]


def table_sizes(players: int) -> tuple[int, ...]:
    """Table sizes for ``players`` players, tables of 3 first, then the tables of 2.

    Tables of 3; a remainder of 2 makes one table of 2, a remainder of 1 turns one table of 3
    into two tables of 2: 4 → (2, 2), 5 → (3, 2), 7 → (3, 2, 2), 8 → (3, 3, 2). Never a table
    of 1 nor of 4 (4-player Hats is a team game, R5). Raises ValueError below 2 players.
    """
    if players < 2:
        raise ValueError(f"a round needs at least 2 players, got {players}")
    threes, rest = divmod(players, 3)
    if rest == 0:
        return (3,) * threes
    if rest == 2:
        return (3,) * threes + (2,)
    return (3,) * (threes - 1) + (2, 2)
