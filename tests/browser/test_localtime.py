"""localtime.js shows the server's UTC times in the device's own time zone."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from test_pages_times import START, Stored
from werkzeug.serving import make_server

from scorekeeper import create_app, db

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture
def live_history(tmp_path: Path) -> Iterator[str]:
    """The app on a free port, holding one game created at START (UTC)."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "live.sqlite3"),
            "SECRET_KEY": "browser-test-key",
        }
    )
    with app.test_request_context():
        db.restore_games([Stored(["Anna", "Chris"], START)])
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/history"
    finally:
        server.shutdown()
        thread.join(5)


def test_history_dates_are_shown_in_the_devices_time_zone(live_history: str) -> None:
    tokyo = timezone(timedelta(hours=9))  # no daylight saving time
    local = START.astimezone(tokyo)
    assert local.day != START.astimezone(UTC).day  # 20:05 UTC is 05:05 next day
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
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
            assert stamp.get_attribute("title") == "2025-01-01 20:05 UTC"
        finally:
            browser.close()
