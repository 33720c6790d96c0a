"""The store fixtures of tests/data (a fresh store in a temporary directory)."""

from tests.data.conftest import db_path, store

__all__ = ["db_path", "store"]
