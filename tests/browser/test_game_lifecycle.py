"""Ending or abandoning a game from the history page, in headless
chromium: the history's link lands on the game page's closing part, open."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import PHONE, start_game, tap_cell

pytestmark = pytest.mark.browser


TABLET = {"viewport": {"width": 1024, "height": 768}, "has_touch": True}


@pytest.mark.parametrize("size", [PHONE, TABLET])
def test_the_history_end_link_opens_the_game_pages_closing_part(
    live_server: str, browser: Any, size: dict[str, Any]
) -> None:
    page = browser.new_context(**size).new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    tap_cell(page, 0, 0)
    page.click('[data-picker] [data-kind="red circle"]')
    page.click("[data-confirm]")
    expect(page.locator("section.scores [data-total]").first).to_have_text("1")
    page.goto(f"{live_server}/history")
    page.click("[data-end-link]")
    page.wait_for_url("**#close")
    closing = page.locator("details[data-close-game]")
    expect(closing).to_have_attribute("open", "")
    end = page.locator("[data-close=ended]")
    expect(end).to_be_visible()
    expect(end).to_be_in_viewport()
    # Closed by hand, it opens again when the link on this page is followed.
    page.click("details[data-close-game] summary")
    expect(closing).not_to_have_attribute("open", "")
    page.evaluate("location.hash = ''")
    page.evaluate("location.hash = 'close'")
    expect(closing).to_have_attribute("open", "")


def test_without_the_hash_the_closing_part_stays_shut(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    page.reload()
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator("details[data-close-game]")).not_to_have_attribute("open", "")
