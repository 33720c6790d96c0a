"""Reading a tournament's start: today's clock time, a date, a delay; in the server's zone."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service import ServiceError
from service.start_time import check_zone, parse_start

NOW = datetime(2026, 12, 4, 15, 30, tzinfo=UTC).timestamp()


def at(*args, zone="UTC"):
    return datetime(*args, tzinfo=ZoneInfo(zone)).timestamp()


def test_a_clock_time_is_today_in_the_server_zone():
    assert parse_start("20:00", now=NOW) == at(2026, 12, 4, 20, 0)
    # Berlin is UTC+1 in December: 20:00 there is 19:00 UTC
    assert parse_start("20:00", now=NOW, zone="Europe/Berlin") == at(2026, 12, 4, 19, 0)
    assert parse_start(" 20.15 ", now=NOW) == at(2026, 12, 4, 20, 15)


def test_a_date_and_time():
    assert parse_start("2026-12-05 09:05", now=NOW) == at(2026, 12, 5, 9, 5)
    assert parse_start("2026-12-24 20:00", now=NOW, zone="America/New_York") == at(
        2026, 12, 24, 20, 0, zone="America/New_York"
    )


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("in 2h", 7200), ("in 90m", 5400), ("in 1h30m", 5400), ("IN 2 hours", 7200), ("in 1d", 86400)],
)
def test_a_delay(text, seconds):
    assert parse_start(text, now=NOW) == NOW + seconds


@pytest.mark.parametrize("text", ["10:00", "2026-12-01 20:00", "in 0m", "15:30"])
def test_a_start_in_the_past_is_refused(text):
    with pytest.raises(ServiceError, match="in the past"):
        parse_start(text, now=NOW)


@pytest.mark.parametrize("text", ["tonight", "25:00", "2026-02-30 20:00", "in soon", "", "8pm"])
def test_an_unknown_time_is_refused_with_the_accepted_forms(text):
    with pytest.raises(ServiceError, match="cannot read") as info:
        parse_start(text, now=NOW)
    assert "20:00" in str(info.value) and "in 2h" in str(info.value)


def test_too_far_ahead_is_refused():
    with pytest.raises(ServiceError, match="365 days"):
        parse_start("2028-01-01 20:00", now=NOW)


def test_time_zones_are_checked_and_spelled_as_the_standard_library_does():
    assert check_zone("europe/berlin") == "Europe/Berlin"
    assert check_zone("utc") == "UTC"
    with pytest.raises(ServiceError, match="time zone"):
        check_zone("Mars/Olympus")


@given(st.integers(1, 60 * 24 * 30))
def test_any_delay_in_minutes_lands_that_far_ahead(minutes):
    assert parse_start(f"in {minutes}m", now=NOW) == NOW + 60 * minutes
