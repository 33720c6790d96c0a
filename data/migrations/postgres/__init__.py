"""The PostgreSQL schema's numbered migrations: same numbers and meaning as ``data/migrations``.

Each ``NNNN_name.sql`` file runs whole (PL/pgSQL bodies included) in one transaction with its
row in ``schema_version``; see :func:`data.pg.migrate_pg`.
"""

from __future__ import annotations

from data.migrations import Migration, load_migrations

__all__ = ["LATEST_VERSION", "MIGRATIONS"]

MIGRATIONS: tuple[Migration, ...] = load_migrations(__name__)
LATEST_VERSION: int = MIGRATIONS[-1].version
