"""The outbox: announcements owed to the players, written with the change they announce.

One row per (game, kind): ``start`` (post the table, send every hand, tell the first player
it is their move) is written by ``Games.create_game`` in the game's creating transaction;
``end`` (the final scores, the record, the Rematch button) by ``Results.finish_game`` in the
finishing transaction. The bot delivers an item, then marks it delivered; at start-up it
delivers every undelivered item, so a crash between a commit and its announcement only
delays the announcement.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from data.db import Database, Transaction

__all__ = ["Outbox", "OutboxItem", "OutboxKind", "add_item"]

_COLUMNS = "id, game_id, kind, created_at, delivered_at"


class OutboxKind(enum.StrEnum):
    """What an outbox item announces."""

    START = "start"
    """A game started: its table, every hand by DM, the first player pinged."""
    END = "end"
    """A game finished: the final scores with the record attached and a Rematch button."""


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """One announcement: ``created_at``/``delivered_at`` in unix seconds (None: not yet)."""

    id: int
    game_id: int
    kind: OutboxKind
    created_at: float
    delivered_at: float | None


def _item(r: Sequence[Any]) -> OutboxItem:
    return OutboxItem(r[0], r[1], OutboxKind(r[2]), r[3], r[4])


async def add_item(tx: Transaction, game_id: int, kind: OutboxKind, at: float) -> None:
    """Owe ``kind`` for ``game_id`` inside the caller's transaction (once per game and kind)."""
    await tx.run(
        "INSERT INTO outbox (game_id, kind, created_at) VALUES (?, ?, ?)"
        " ON CONFLICT (game_id, kind) DO NOTHING",
        (game_id, kind.value, at),
    )


class Outbox:
    """Repository of ``outbox``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def pending(self, game_id: int | None = None) -> list[OutboxItem]:
        """Undelivered items, oldest first (of one game, or of every game)."""
        of_game = "" if game_id is None else " AND game_id = ?"
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM outbox WHERE delivered_at IS NULL{of_game} ORDER BY id",
            () if game_id is None else (game_id,),
        )
        return [_item(r) for r in rows]

    async def items(self, game_id: int) -> list[OutboxItem]:
        """Every item of a game, delivered or not, oldest first."""
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM outbox WHERE game_id = ? ORDER BY id", (game_id,)
        )
        return [_item(r) for r in rows]

    async def claim(self, item_id: int, claimer: str, *, now: float, lease: float) -> bool:
        """Claim an undelivered item for ``lease`` seconds; False when another claimer holds it.

        One statement: of two processes claiming at once exactly one wins. A claim whose lease
        ended (its process died while showing the item) can be taken over; the same claimer
        may claim again. ``now`` and ``lease`` in (unix) seconds. False also when the item is
        delivered already or does not exist.
        """
        row = await self._db.fetch_one(
            "UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id = ?"
            " AND delivered_at IS NULL"
            " AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?) RETURNING id",
            (claimer, now + lease, item_id, now, claimer),
        )
        return row is not None

    async def mark_delivered(self, item_id: int, *, at: float) -> bool:
        """Mark an item delivered at ``at``; False if it was already (or does not exist)."""
        row = await self._db.fetch_one(
            "UPDATE outbox SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL RETURNING id",
            (at, item_id),
        )
        return row is not None
