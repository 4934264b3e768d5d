"""localtime.js shows the server's times in the device's own zone and the page's
language, and tells the server that zone (a cookie) for the next pages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from flask import Flask
from test_history_helpers import Stored, corpus_record
from test_pages_times import START

from scorekeeper.store import backup

pytestmark = pytest.mark.browser


@pytest.fixture
def live_history(live_app: Flask, live_server: str) -> str:
    """The app on a free port, holding one game created at START (UTC)."""
    with live_app.test_request_context():
        backup.restore_backup([Stored(corpus_record(), ["Anna", "Chris"], START)])
    return f"{live_server}/history"


def test_history_dates_are_shown_in_the_devices_time_zone(
    live_history: str, browser: Any
) -> None:
    tokyo = timezone(timedelta(hours=9))  # no daylight saving time
    local = START.astimezone(tokyo)
    assert local.day != START.astimezone(UTC).day  # 20:05 UTC is 05:05 next day
    context = browser.new_context(
        timezone_id="Asia/Tokyo",
        locale="en-GB",
        viewport={"width": 390, "height": 844},
    )
    tab = context.new_page()
    tab.goto(live_history)
    stamp = tab.locator("tr[data-game-id] time").first
    assert stamp.get_attribute("data-local") == "1"
    text = stamp.inner_text()
    assert "UTC" not in text
    assert local.strftime("%H:%M") in text
    assert str(local.day) in text
    # The year shows when it is not this year (the game is from 2025).
    assert (str(local.year) in text) == (local.year != datetime.now().year)
    assert stamp.get_attribute("title") == "Jan 1, 2025, 8:05\u202fPM UTC"


def test_times_follow_the_pages_language_and_the_server_learns_the_zone(
    live_history: str, browser: Any
) -> None:
    context = browser.new_context(
        timezone_id="Asia/Tokyo", locale="en-US",
        viewport={"width": 390, "height": 844},
    )
    tab = context.new_page()
    tab.goto(live_history + "?lang=de")
    stamp = tab.locator("tr[data-game-id] time").first
    # Intl in the page's language (German: day first, a "." after it).
    assert stamp.inner_text().startswith("2. Jan")
    assert stamp.get_attribute("title") == "01.01.2025, 20:05 UTC"
    cookies = {c["name"]: c["value"] for c in context.cookies()}
    assert cookies["tz"] == "Asia/Tokyo"

    tab.reload()
    # Now the server writes Tokyo time itself (the title keeps its text).
    assert tab.locator("tr[data-game-id] time").first.get_attribute("title") == (
        "02.01.2025, 05:05"
    )
