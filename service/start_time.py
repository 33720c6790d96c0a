"""A tournament's start as players type it: ``20:00``, ``2026-12-04 20:00``, ``in 2h``.

Read in the server's time zone (``/hats settings timezone``, an IANA name; default UTC) with
the standard library's :mod:`zoneinfo`. No Discord here: the cog shows the result back as a
Discord timestamp (``<t:unix:F>``).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from service.errors import ServiceError

__all__ = ["DEFAULT_ZONE", "MAX_AHEAD_DAYS", "check_zone", "parse_start"]

DEFAULT_ZONE = "UTC"
"""The time zone of a server that set none."""
MAX_AHEAD_DAYS = 365
"""How far ahead a start may lie (days)."""

_CLOCK = re.compile(r"^(\d{1,2})[:.h](\d{2})$")
_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2})[:.h](\d{2})$")
_IN = re.compile(r"^in\s*((?:\d+\s*[dhm][a-z]*\s*)+)$")
_PART = re.compile(r"(\d+)\s*([dhm])[a-z]*")
_UNIT = {"d": 86400, "h": 3600, "m": 60}

UNKNOWN = (
    "I cannot read the start time {value}. Write a time today like 20:00, a date and time "
    "like 2026-12-04 20:00, or a delay like in 2h or in 90m."
)


def check_zone(name: str) -> str:
    """The IANA zone ``name`` as the standard library spells it (case-insensitive match).

    Raises ServiceError for an unknown zone.
    """
    wanted = name.strip().replace(" ", "_")
    if wanted.upper() == "UTC":
        return "UTC"
    try:
        ZoneInfo(wanted)
    except (ZoneInfoNotFoundError, ValueError):
        folded = {z.casefold(): z for z in available_timezones()}
        found = folded.get(wanted.casefold())
        if found is None:
            raise ServiceError(
                "I do not know the time zone {value}. Use a name like Europe/Berlin, "
                "America/New_York or UTC.",
                value=repr(name)[:40],
            ) from None
        return found
    return wanted


def parse_start(text: str, *, now: float, zone: str = DEFAULT_ZONE) -> float:
    """The start ``text`` means, in unix seconds; ``now`` in unix seconds, ``zone`` an IANA name.

    ``HH:MM`` is today in ``zone``; ``YYYY-MM-DD HH:MM`` that day; ``in 2h``, ``in 90m``,
    ``in 1h30m``, ``in 2d`` that long from now. Raises ServiceError for text it cannot read,
    a time that does not exist, a start that is not in the future, or one more than
    :data:`MAX_AHEAD_DAYS` days ahead.
    """
    value = " ".join(text.strip().lower().split())
    tz = ZoneInfo(check_zone(zone))
    local_now = datetime.fromtimestamp(now, tz)
    when: datetime | None = None
    try:
        if m := _CLOCK.match(value):
            when = local_now.replace(hour=int(m[1]), minute=int(m[2]), second=0, microsecond=0)
        elif m := _DATE.match(value):
            when = datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[5]), tzinfo=tz)
        elif m := _IN.match(value):
            seconds = sum(int(n) * _UNIT[u] for n, u in _PART.findall(m[1]))
            when = local_now + timedelta(seconds=seconds)
    except ValueError:  # 25:00, February 30th
        when = None
    if when is None:
        raise ServiceError(UNKNOWN, value=repr(text)[:40])
    at = when.timestamp()
    if at <= now:
        raise ServiceError("That start time is in the past. Give a time later than now.")
    if at > now + MAX_AHEAD_DAYS * 86400:
        raise ServiceError("A start can be at most {n} days ahead.", n=MAX_AHEAD_DAYS)
    return at
