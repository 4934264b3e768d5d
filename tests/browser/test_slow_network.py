"""The table on a slow network: the totals move with the Confirm tap, and the
next player's tap, made before the stored move comes back, is not lost."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import PHONE, start_game, tap_cell

pytestmark = pytest.mark.browser

LATENCY_MS = 700
"""A slow café Wi-Fi's round trip: the answer to Confirm comes well after the
next player's finger."""


def test_a_tap_before_the_stored_move_comes_back_opens_its_picker(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    network = page.context.new_cdp_session(page)
    network.send("Network.enable")
    network.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": LATENCY_MS,
        "downloadThroughput": -1, "uploadThroughput": -1})
    tap_cell(page, 0, 0)
    page.tap('[data-picker] .picker-grid [data-kind="red circle"]')
    expect(page.locator("[data-confirm]")).to_be_enabled()
    page.tap("[data-confirm]")
    # The total is the page's guess at once; Bob taps while it still is.
    expect(page.locator(".player.guessed")).to_have_count(1)
    tap_cell(page, 0, 1)
    expect(page.locator(".player.guessed")).to_have_count(0)
    expect(page.locator('[data-picker][data-ready="0,1"]')).to_have_count(1)
    page.tap('[data-picker] .picker-grid [data-kind="red square"]')
    expect(page.locator("[data-confirm]")).to_be_enabled()
    page.tap("[data-confirm]")
    expect(page.locator("[data-turn]")).to_have_text("Ann to play")
