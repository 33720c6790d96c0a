"""The few SQL differences between the two backends (SQLite, PostgreSQL), in one place.

The repositories (``data/lobbies.py`` … ``data/outbox.py``) write one SQL text for both
backends: ``?`` or ``:name`` placeholders (the PostgreSQL driver rewrites them to ``$n``,
:func:`data.pg.translate`), ``COALESCE`` rather than ``IFNULL``, ``CAST`` where PostgreSQL
cannot infer a parameter's type. What cannot be written once is a field of :class:`Dialect`,
and each ``Database`` carries its dialect (``db.dialect``).

Adding a repository to both backends:

1. write its tables as a migration with the same number in ``data/migrations/NNNN_*.sql``
   (SQLite) and ``data/migrations/postgres/NNNN_*.sql`` (PostgreSQL: ``BIGINT`` ids,
   ``DOUBLE PRECISION`` times, identity keys; ``tests/data/test_store_migrations.py`` checks
   that both lists match);
2. write the repository once against ``data.db.Database`` (``fetch_all``/``fetch_one``,
   ``read()``/``write()`` transactions), catching ``ConstraintViolated`` rather than a driver
   error; put a statement that must differ into :class:`Dialect`;
3. attach it in ``data.store.Store.__init__``; add its table to ``data.copy.TABLES`` so
   ``python -m data migrate-to`` copies it. The store tests run on both backends.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["POSTGRES", "SQLITE", "Dialect"]


@dataclass(frozen=True, slots=True)
class Dialect:
    """SQL that differs between the backends.

    ``for_update`` / ``for_share``: the row-lock suffix of a SELECT inside a write transaction
    (PostgreSQL; empty on SQLite, whose write transaction already excludes every other writer).
    ``live_steps``: one row per live game ``(game_id, "0,1,2", the step texts one a line)``.
    ``lock_history``: run first in a history write (``data.history``), so that concurrent
    writers number ``history_games.seq`` one after the other (empty on SQLite: not needed).
    ``skip_locked``: the suffix of the sub-select that picks the timers to claim
    (``data.timers.Timers.claim_due``): PostgreSQL locks the picked rows and skips rows another
    process is claiming at that moment, so no timer is claimed twice; empty on SQLite (one
    writer at a time: the claiming UPDATE runs alone).
    """

    name: str
    for_update: str
    for_share: str
    live_steps: str
    lock_history: str
    skip_locked: str


_LIVE = "game_id IN (SELECT id FROM games WHERE status = 'live')"

SQLITE = Dialect(
    name="sqlite",
    for_update="",
    for_share="",
    # Read along the primary key (game_id, seq); data.restore checks the order against the seqs.
    live_steps=(
        "SELECT game_id, group_concat(seq), group_concat(step, char(10)) FROM steps"
        f" WHERE {_LIVE} GROUP BY game_id"
    ),
    lock_history="",
    skip_locked="",
)

POSTGRES = Dialect(
    name="postgres",
    for_update=" FOR UPDATE",
    for_share=" FOR SHARE",
    live_steps=(
        "SELECT game_id, string_agg(seq::text, ',' ORDER BY seq),"
        " string_agg(step, chr(10) ORDER BY seq) FROM steps"
        f" WHERE {_LIVE} GROUP BY game_id"
    ),
    lock_history="LOCK TABLE history_games IN SHARE ROW EXCLUSIVE MODE",
    skip_locked=" FOR UPDATE SKIP LOCKED",
)
