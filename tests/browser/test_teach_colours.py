"""Teach the colours on a 390x844 phone: from the game's photo
section to the teaching page, a photo of one tile of each colour shows six
named swatches that fit the screen; keeping them brings the game back, and
the page can forget them again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from photo.teaching import APART, FAR_SHIFTED, photo, six
from playwright.sync_api import expect

from .helpers import PHONE, start_game

pytestmark = pytest.mark.browser

def middle(png: bytes) -> tuple[int, int, int]:
    """The BGR colour at the middle of a screenshot."""
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    b, g, r = img[img.shape[0] // 2, img.shape[1] // 2]
    return int(b), int(g), int(r)


FITS = "() => document.scrollingElement.scrollWidth <= window.innerWidth"


def test_a_household_teaches_its_colours_from_the_game_page(
        live_server: str, browser: Any, tmp_path: Path) -> None:
    picture = tmp_path / "colours.jpg"
    picture.write_bytes(photo(six(APART, 1), 1, 0.0, FAR_SHIFTED))
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    start_game(page, live_server, ["Ann", "Bob"])
    game_url = page.url

    page.locator("[data-teach-colours]").tap()
    expect(page.locator("h1")).to_have_text("Teach the colours")
    expect(page.locator("[data-colours-none]")).to_be_visible()
    camera = page.locator("[data-colours-input]")
    expect(camera).to_have_attribute("capture", "environment")
    camera.set_input_files(str(picture))
    page.locator("[data-colours-send]").tap()

    # Read in the helper process, started on first use: allow for it.
    read = page.locator("[data-colours-read] li")
    expect(read).to_have_count(6, timeout=30_000)
    assert [read.nth(i).get_attribute("data-color") for i in range(6)] == [
        "red", "orange", "yellow", "green", "blue", "purple"]
    expect(read.nth(1)).to_contain_text("orange")
    # Each swatch shows its hue (painted, not blocked by the page's CSP).
    red, orange = (middle(read.nth(i).locator("svg").screenshot()) for i in (0, 1))
    assert red[2] > 150 and red[1] < 80, red
    assert orange[2] > 150 and orange[1] > red[1] + 15, (red, orange)
    assert page.evaluate(FITS)
    keep = page.locator("[data-colours-keep]")
    box = keep.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] <= 390
    keep.tap()

    page.wait_for_url(game_url)
    expect(page.locator(".flash")).to_contain_text("The colours are kept")
    page.locator("[data-teach-colours]").tap()
    expect(page.locator("[data-colours-known] li")).to_have_count(6)
    assert page.evaluate(FITS)
    page.locator("[data-colours-forget]").tap()
    expect(page.locator(".flash")).to_contain_text("The colours are forgotten")
    expect(page.locator("[data-colours-none]")).to_be_visible()
    assert errors == []
    page.screenshot(path=str(tmp_path / "page.png"), full_page=True)
    context.close()
