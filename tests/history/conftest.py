"""The store fixtures of tests/data (a fresh store on each backend: SQLite file, PostgreSQL)."""

from tests.data.conftest import db_path, store, target

__all__ = ["db_path", "store", "target"]
