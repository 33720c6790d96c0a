"""Compact JSON for the store's TEXT columns (settings, configs, steps, payloads, records)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["dumps", "loads_list", "loads_object"]

_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def dumps(value: Any) -> str:
    """Compact JSON text; raises TypeError/ValueError for values JSON cannot hold (NaN too)."""
    return _ENCODER.encode(value)


def loads_object(text: str) -> dict[str, Any]:
    """Parse a JSON object stored by :func:`dumps`; raises ValueError if it is not an object."""
    value = json.loads(text)
    if not isinstance(value, Mapping):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return dict(value)


def loads_list(text: str) -> list[Any]:
    """Parse a JSON array stored by :func:`dumps`; raises ValueError if it is not an array."""
    value = json.loads(text)
    if not isinstance(value, list):
        raise ValueError(f"expected a JSON array, got {type(value).__name__}")
    return value
