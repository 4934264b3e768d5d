"""The join QR code shows and scans: the game page's "Enter moves from
another device" section, opened by a tap in chromium, shows an image that OpenCV
decodes from the screenshot's pixels to the join link the page prints."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from .helpers import PHONE, open_menu, scan_qr, start_game

pytestmark = pytest.mark.browser


def test_the_join_code_shows_and_decodes_to_the_join_link(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    # As `python -m scorekeeper --host scorekeeper.test` would set it: the link
    # names the address other devices reach.
    live_app.config["LISTEN_HOST"] = "scorekeeper.test"
    live_app.config["LISTEN_PORT"] = 5000
    page = browser.new_context(**PHONE).new_page()
    start_game(page, live_server, ["Anna", "Bram"])

    open_menu(page)
    page.locator("details.share summary").tap()
    image = page.locator("details.share .qr img")
    image.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => { const i = document.querySelector('details.share .qr img');"
        " return i.complete && i.naturalWidth > 0; }")
    link = page.locator("details.share .join-link a").inner_text()
    found = scan_qr(page, image)

    assert link.startswith("http://scorekeeper.test:5000/games/")
    assert "/join/" in link
    assert found == link
    box = image.bounding_box()
    assert box["width"] >= 100 and box["height"] >= 100

