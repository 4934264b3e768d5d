"""Correcting a past move by tapping on the board before it (issue 10), in
headless chromium on a phone: no row or column number is typed or shown."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from .helpers import PHONE, settle, start_game

pytestmark = pytest.mark.browser


def tile(row: int, col: int, color: str, shape: str) -> dict[str, Any]:
    return {"row": row, "col": col, "color": color, "shape": shape}


def tap_svg(page: Any, selector: str) -> None:
    settle(page)
    box = page.locator(selector).bounding_box()
    assert box["width"] >= 44 and box["height"] >= 40  # a slot is inset a little
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_s3_a_past_move_is_corrected_by_tapping_its_tiles_off_and_on(
    live_server: str, live_app: Flask, browser: Any
) -> None:
    from scorekeeper.store import games as stored

    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    start_game(page, live_server, ["Ann", "Bob"])
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
    with live_app.app_context():
        for tiles in ([tile(0, 0, "red", "circle"), tile(0, 1, "red", "square")],
                      [tile(1, 0, "blue", "circle"), tile(1, 1, "blue", "square")],
                      [tile(-1, 0, "green", "circle")]):
            stored.record_move(game_id, {"type": "place", "tiles": tiles})

    page.goto(f"{live_server}/games/{game_id}/moves/2/edit")
    board = page.locator("[data-correct-board]")
    expect(board).to_be_visible()
    # The coordinates stay in the form, out of sight.
    expect(page.locator("[data-coordinates]")).to_be_hidden()
    expect(board).to_have_attribute("data-drawn", "2")
    # Take the blue square off, put a blue diamond left of the blue circle.
    tap_svg(page, '[data-move-tile="1,1"]')
    expect(board).to_have_attribute("data-drawn", "1")
    tap_svg(page, '[data-free="1,-1"]')
    expect(page.locator("[data-correct-picker]")).to_be_visible()
    page.tap('[data-correct-picker] [data-kind="blue diamond"]')
    expect(board).to_have_attribute("data-drawn", "2")
    page.tap("form.correct-form button[type=submit]")
    page.wait_for_url(re.compile(r"/replay"))

    with urllib.request.urlopen(f"{live_server}/api/games/{game_id}") as response:
        moves = json.load(response)["moves"]
    assert sorted((t["row"], t["col"], t["color"], t["shape"])
                  for t in moves[1]["tiles"]) == [
        (1, -1, "blue", "diamond"), (1, 0, "blue", "circle")]
    assert moves[1]["score"] == 4  # blue line 2 + circle column 2
    assert len(moves) == 3  # the later move is kept, rescored
    assert errors == []


def test_a_correction_that_breaks_a_later_move_changes_nothing_and_keeps_the_taps(
    live_server: str, live_app: Flask, browser: Any
) -> None:
    from scorekeeper.store import games as stored

    page = browser.new_context(**PHONE).new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
    with live_app.app_context():
        stored.record_move(game_id, {"type": "place", "tiles": [
            tile(0, 0, "red", "circle")]})
        stored.record_move(game_id, {"type": "place", "tiles": [
            tile(0, 1, "red", "square")]})
    page.goto(f"{live_server}/games/{game_id}/moves/1/edit")
    # Move 1 becomes a blue square and a blue circle left of it: move 2's red
    # square then ends a line of three sharing nothing. Refused, nothing stored.
    tap_svg(page, '[data-move-tile="0,0"]')
    tap_svg(page, '[data-free="0,0"]')
    page.tap('[data-correct-picker] [data-kind="blue square"]')
    tap_svg(page, '[data-free="0,-1"]')
    page.tap('[data-correct-picker] [data-kind="blue circle"]')
    page.tap("form.correct-form button[type=submit]")
    expect(page.locator("[data-error]")).to_be_visible()
    # The page comes back with the tiles as tapped, still on the board.
    expect(page.locator("[data-correct-board]")).to_have_attribute("data-drawn", "2")
    with urllib.request.urlopen(f"{live_server}/api/games/{game_id}") as response:
        moves = json.load(response)["moves"]
    assert moves[0]["tiles"] == [tile(0, 0, "red", "circle")]
