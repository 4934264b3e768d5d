"""Durations, dates and times in the reader's language and zone."""

from __future__ import annotations

from datetime import datetime

from babel import dates

from .. import i18n
from ..i18n import gettext
from ..timestamps import parse_utc


def duration(minutes: int | None) -> str:
    """Return a duration as players say it: "1 h 05 min", "12 min" or "–"."""
    if minutes is None:
        return "–"
    if minutes >= 60:
        return gettext("%(h)d h %(m)02d min", h=minutes // 60, m=minutes % 60)
    return gettext("%(m)d min", m=minutes)


def _local(moment: datetime) -> datetime:
    """Return a moment in the reader's zone (UTC until the page knows theirs)."""
    return moment.astimezone(i18n.current().zone)


def _zone_suffix(moment: datetime) -> str:
    """Return " UTC" while the reader's zone is unknown, else ""."""
    return "" if i18n.current().zone_known else " UTC"


def date(value: str | None) -> str:
    """Return a timestamp's date and time in the reader's language and zone:
    "26 nov. 2026 14:05" (with " UTC" while the zone is unknown)."""
    moment = parse_utc(value)
    if moment is None:
        return ""
    return local_time(value, "datetime")


def local_time(value: str | None, style: str = "datetime") -> str:
    """Return a timestamp as the page shows it before the browser localises it:
    date and time in the reader's language and zone, or only the date with style
    "date" ("" when there is none)."""
    moment = parse_utc(value)
    if moment is None:
        return ""
    locale = i18n.current().locale
    local = _local(moment)
    day = dates.format_date(local, "medium", locale=locale)
    if style == "date":
        return day
    clock = dates.format_time(local, "short", locale=locale)
    joined = dates.get_datetime_format("medium", locale=locale)
    return str(joined).format(clock, day) + _zone_suffix(local)
