"""Where the database lives: ``HATS_DB_PATH`` (read from the environment or ``.env``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["DEFAULT_DB_PATH", "ENV_VAR", "database_path"]

ENV_VAR = "HATS_DB_PATH"
DEFAULT_DB_PATH = Path("hats.sqlite3")
"""Relative to the working directory; ignored by git (``*.sqlite3``)."""


def database_path(env: Mapping[str, str] = os.environ) -> Path:
    """The database path: ``env["HATS_DB_PATH"]`` (``~`` expanded), else ``hats.sqlite3``.

    An empty or blank value counts as unset. Load ``.env`` into the environment (python-dotenv
    ``load_dotenv()``) before calling, or pass ``dotenv_values()`` as ``env``.
    """
    value = (env.get(ENV_VAR) or "").strip()
    return Path(value).expanduser() if value else DEFAULT_DB_PATH
