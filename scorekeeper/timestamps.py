"""Stored timestamps read back: ISO text to an aware datetime, and the minutes
between two."""

from __future__ import annotations

from datetime import UTC, datetime


def parse_time(value: str | None) -> datetime | None:
    """Return a stored ISO timestamp as an aware datetime (None if empty or bad).

    The datetime keeps the offset written in the timestamp (a restored backup may
    carry one); parse_utc converts it to UTC.
    """
    if not value or not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if moment.tzinfo is None:
            # Stored times are UTC; an old naive one is read as such.
            return moment.replace(tzinfo=UTC)
        # Converting year 1 or 9999 with an offset would leave datetime's range
        # later (OverflowError): such a time is no time at all.
        moment.astimezone(UTC)
    except (ValueError, OverflowError):
        return None
    return moment


def parse_utc(value: str | None) -> datetime | None:
    """Return a stored ISO timestamp as an aware UTC datetime (None if empty or bad)."""
    moment = parse_time(value)
    return None if moment is None else moment.astimezone(UTC)


def duration_minutes(first: str | None, last: str | None) -> int | None:
    """Return whole minutes between two timestamps (None when either is unknown)."""
    start, end = parse_utc(first), parse_utc(last)
    if start is None or end is None:
        return None
    try:
        return max(0, round((end - start).total_seconds() / 60))
    except OverflowError:
        return None
