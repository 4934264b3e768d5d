"""The thinking-time countdown of table discipline (RULES §7) in headless chromium:
it reaches zero, beeps, vibrates, and one tap records the timeout penalty; a
move entered by tapping then carries its thinking time."""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.request
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from .helpers import PHONE, tap_cell

pytestmark = pytest.mark.browser

# Records what the page asks of the speaker and the vibration motor.
SPY = """
window.__vibrations = [];
navigator.vibrate = function (pattern) {
  window.__vibrations.push(pattern); return true;
};
window.__beeps = 0;
window.AudioContext = function () {
  var ctx = {state: "running", currentTime: 0, destination: {},
    resume: function () {},
    createGain: function () { return {gain: {value: 0}, connect: function () {}}; },
    createOscillator: function () {
      return {frequency: {value: 0}, connect: function () {},
              start: function () { window.__beeps += 1; }, stop: function () {}};
    }};
  return ctx;
};
"""


def state(base: str, game_id: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"{base}/api/games/{game_id}") as response:
        data: dict[str, Any] = json.load(response)
    return data


def test_s7_the_countdown_reaches_zero_and_one_tap_records_the_timeout(
    live_server: str, live_app: Flask, browser: Any
) -> None:
    context = browser.new_context(**PHONE)
    context.add_init_script(SPY)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    # The new-game form, with its table-discipline section opened.
    page.goto(f"{live_server}/games/new")
    page.fill("#names-0", "Ann")
    page.fill("#names-1", "Bob")
    page.tap("[data-discipline-options] summary")
    page.fill("#move_seconds", "10")
    page.check("input[name=on_timeout][value=deduct]")
    page.fill("#penalty_points", "3")
    page.tap("form.new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    expect(page.locator("[data-countdown-left]")).to_have_text(
        re.compile(r"0:(10|09|08)"))

    # The turn started 9 seconds ago: zero comes within about a second.
    past = (datetime.now(UTC) - timedelta(seconds=9)).isoformat(
        timespec="microseconds")
    with sqlite3.connect(live_app.config["DATABASE"]) as db:
        db.execute("UPDATE games SET updated_at = ? WHERE id = ?", [past, game_id])
    page.reload()
    clock = page.locator("[data-countdown]")
    expect(clock).to_have_attribute("data-expired", "", timeout=5000)
    expect(page.locator("[data-countdown-left]")).to_have_text("0:00")
    expect(clock.locator(".countdown-label")).to_have_text("Time is up!")
    assert page.evaluate("window.__vibrations") == [[300, 120, 300]]
    assert page.evaluate("window.__beeps") == 2
    assert int(clock.get_attribute("data-thinking") or "-1") >= 10

    # One tap records the penalty, through the page's CSRF-protected form.
    tap = page.locator("[data-countdown-tap]")
    expect(tap).to_be_visible()
    expect(tap).to_have_text("Ann is out of time: 3 points off and the turn passes")
    tap.tap()
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator(".flashes")).to_contain_text(
        "Ann: out of time: 3 points deducted")
    after = state(live_server, game_id)
    assert after["moves"] == [{"player": 0, "type": "penalty", "reason": "timeout",
                               "score": -3, "consequence": "deduct"}]
    assert after["current_player"] == 1
    expect(page.locator("section.scores [data-total]")).to_have_text(["-3", "0"])
    # The countdown starts again for Bob.
    expect(page.locator("[data-countdown-left]")).to_have_text(
        re.compile(r"0:(10|09|08|07)"))

    # Bob's first tile, entered by tapping, carries his thinking time.
    tap_cell(page, 0, 0)
    page.tap('[data-picker] [data-kind="red circle"]')
    expect(page.locator("[data-confirm]")).to_be_enabled()
    page.tap("[data-confirm]")
    expect(page.locator("section.scores [data-total]")).to_have_text(["-3", "1"])
    # The total shows the preview's guess at once; the server's answer ends it.
    expect(page.locator(".player.guessed")).to_have_count(0)
    placed = state(live_server, game_id)["moves"][-1]
    assert placed["type"] == "place"
    assert isinstance(placed["seconds"], int) and 0 <= placed["seconds"] <= 30
    assert errors == []
    context.close()
