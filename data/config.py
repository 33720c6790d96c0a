"""Where the database lives: ``HATS_DATABASE_URL`` (PostgreSQL) or ``HATS_DB_PATH`` (SQLite).

Both are read from the environment or ``.env``. With ``HATS_DATABASE_URL`` set the bot uses
that PostgreSQL database and ignores ``HATS_DB_PATH``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["DEFAULT_DB_PATH", "ENV_VAR", "URL_ENV_VAR", "database_path", "database_url"]

ENV_VAR = "HATS_DB_PATH"
URL_ENV_VAR = "HATS_DATABASE_URL"
DEFAULT_DB_PATH = Path("hats.sqlite3")
"""Relative to the working directory; ignored by git (``*.sqlite3``)."""


def database_path(env: Mapping[str, str] = os.environ) -> Path:
    """The database path: ``env["HATS_DB_PATH"]`` (``~`` expanded), else ``hats.sqlite3``.

    An empty or blank value counts as unset. Load ``.env`` into the environment (python-dotenv
    ``load_dotenv()``) before calling, or pass ``dotenv_values()`` as ``env``.
    """
    value = (env.get(ENV_VAR) or "").strip()
    return Path(value).expanduser() if value else DEFAULT_DB_PATH


def database_url(env: Mapping[str, str] = os.environ) -> str | None:
    """The PostgreSQL URL ``env["HATS_DATABASE_URL"]`` (``postgresql://…``), or None.

    Blank counts as unset (SQLite then). Raises ValueError for a value that is not a
    ``postgresql://`` / ``postgres://`` URL.
    """
    value = (env.get(URL_ENV_VAR) or "").strip()
    if not value:
        return None
    if not value.startswith(("postgresql://", "postgres://")):
        raise ValueError(
            f"{URL_ENV_VAR} must be a PostgreSQL URL such as "
            f"postgresql://hats:PASSWORD@localhost:5432/hats, got {value[:30]!r}"
        )
    return value
