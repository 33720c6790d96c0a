"""JSON log lines (``HATS_LOG_FORMAT=json``) and the game and guild a line is about.

:class:`JsonFormatter` writes one JSON object per record, one per line: ``time`` (UTC, ISO
8601 with milliseconds), ``level``, ``logger``, ``message``, then ``game_id`` and
``guild_id`` when the line has them, and ``exception`` (the formatted traceback) when one is
attached. A line has an id when the call passes it (``log.info(..., extra={"game_id": 7})``)
or when it runs inside :func:`log_context` (the service wraps each step in one, so the
listeners and the tasks it starts log the game's ids too: asyncio copies the context into a
task when it is created). The standard library's :mod:`json` does the writing; a dependency
(python-json-logger) would buy nothing here.
"""

from __future__ import annotations

import contextvars
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

__all__ = ["IDS", "JsonFormatter", "log_context"]

IDS = ("game_id", "guild_id")
"""The ids a line may carry."""

_ids: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "hats_log_ids", default=None
)


@contextmanager
def log_context(**ids: int | None) -> Iterator[None]:
    """Lines logged inside the block (and by tasks created in it) carry ``ids``.

    Keywords: ``game_id``, ``guild_id``; None values are left out. Nested blocks add to the
    outer one's ids. Raises TypeError for another keyword.
    """
    unknown = set(ids) - set(IDS)
    if unknown:
        raise TypeError(f"log_context takes {', '.join(IDS)}, not {', '.join(sorted(unknown))}")
    merged = {**(_ids.get() or {}), **{k: v for k, v in ids.items() if v is not None}}
    token = _ids.set(merged)
    try:
        yield
    finally:
        _ids.reset(token)


class JsonFormatter(logging.Formatter):
    """One JSON object per log record: time, level, logger, message, ids, exception."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON (no newline inside: ``json.dumps`` escapes them)."""
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        ids = _ids.get() or {}
        for key in IDS:
            value = getattr(record, key, None)
            if value is None:
                value = ids.get(key)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)
