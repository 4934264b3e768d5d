"""Timestamps on pages: a <time> element with UTC text that localtime.js localises."""

from __future__ import annotations

from datetime import UTC, datetime

from markupsafe import Markup


def parse_time(value: str | None) -> datetime | None:
    """Return a stored ISO timestamp as an aware datetime (None if empty or bad).

    The datetime keeps the offset written in the timestamp (a restored backup may
    carry one); parse_utc converts it to UTC.
    """
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        # Stored times are UTC; an old naive one is read as such.
        return moment.replace(tzinfo=UTC)
    return moment


def parse_utc(value: str | None) -> datetime | None:
    """Return a stored ISO timestamp as an aware UTC datetime (None if empty or bad)."""
    moment = parse_time(value)
    return None if moment is None else moment.astimezone(UTC)


def time_tag(value: str | None, style: str = "datetime", empty: str = "–") -> Markup:
    """Return `<time datetime="…Z" data-localtime="style">YYYY-MM-DD HH:MM UTC</time>`.

    The UTC text is what a browser without JavaScript shows; static/localtime.js
    rewrites it to the device's own time zone and keeps the UTC text as a title.
    """
    moment = parse_utc(value)
    if moment is None:
        return Markup.escape(empty)
    text = moment.strftime("%Y-%m-%d" if style == "date" else "%Y-%m-%d %H:%M UTC")
    return Markup('<time datetime="{}" data-localtime="{}">{}</time>').format(
        moment.strftime("%Y-%m-%dT%H:%M:%SZ"), style, text
    )
