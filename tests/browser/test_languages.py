"""The table in another language on a phone: the menu, the board's sentences."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import PHONE, start_game, tap_cell

pytestmark = pytest.mark.browser


def test_the_language_menu_opens_by_tapping_and_switches_the_page(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE, locale="en-US").new_page()
    page.goto(f"{live_server}/history")
    summary = page.locator("[data-lang-menu] summary")
    box = summary.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44

    summary.tap()
    link = page.locator('[data-lang-menu] a[lang="nl"]')
    expect(link).to_be_visible()
    link_box = link.bounding_box()
    assert link_box is not None and link_box["height"] >= 44
    link.tap()

    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("h1")).to_have_text("Geschiedenis")
    # Remembered: the next page stays Dutch without ?lang.
    page.goto(f"{live_server}/players")
    expect(page.locator("h1")).to_have_text("Spelers")


def test_the_board_speaks_the_pages_language_not_the_browsers(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE, locale="en-US").new_page()
    page.goto(f"{live_server}/?lang=fr")
    start_game(page, live_server, ["Anna", "Chris"])
    tap_cell(page, 0, 0)
    page.tap('[data-picker] [data-kind="red clover"]')
    # The preview comes from the API, asked in the page's language.
    expect(page.locator("[data-preview]")).to_have_text("pion seul 1 = 1")
    tap_cell(page, 0, 1)
    page.tap('[data-picker] [data-kind="red diamond"]')
    expect(page.locator("[data-preview]")).to_have_text("ligne rouge 2 = 2")
    expect(page.locator("[data-confirm]")).to_be_enabled()
