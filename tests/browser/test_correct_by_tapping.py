"""Correcting a past move by tapping on the board before it, in
headless chromium on a phone: no row or column number is typed or shown."""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from .helpers import PHONE, settle, start_game

pytestmark = pytest.mark.browser


def tile(row: int, col: int, color: str, shape: str) -> dict[str, Any]:
    return {"row": row, "col": col, "color": color, "shape": shape}


def game_with_moves(
    page: Any, live_server: str, live_app: Flask, moves: list[list[dict[str, Any]]]
) -> int:
    """Start a game for Ann and Bob on this page's device, record the placing
    moves (each a list of tiles) straight into the store; return its id."""
    from scorekeeper.store import games as stored

    start_game(page, live_server, ["Ann", "Bob"])
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
    with live_app.app_context():
        for tiles in moves:
            stored.record_move(game_id, {"type": "place", "tiles": tiles})
    return game_id


THREE_MOVES = [
    [tile(0, 0, "red", "circle"), tile(0, 1, "red", "square")],
    [tile(1, 0, "blue", "circle"), tile(1, 1, "blue", "square")],
    [tile(-1, 0, "green", "circle")],
]
"""Ann's red pair, Bob's blue pair under it, Ann's green circle above."""


def tap_svg(page: Any, selector: str) -> None:
    settle(page)
    box = page.locator(selector).bounding_box()
    assert box["width"] >= 44 and box["height"] >= 40  # a slot is inset a little
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_s3_a_past_move_is_corrected_by_tapping_its_tiles_off_and_on(
    live_server: str, live_app: Flask, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    game_id = game_with_moves(page, live_server, live_app, THREE_MOVES)

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
    page = browser.new_context(**PHONE).new_page()
    game_id = game_with_moves(page, live_server, live_app, [
        [tile(0, 0, "red", "circle")], [tile(0, 1, "red", "square")]])
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


def past_answer(base: str, game_id: int, number: int, query: dict[str, str]) -> Any:
    """The server's options for correcting move `number`, as the picker asks."""
    url = (f"{base}/games/{game_id}/moves/{number}/options?"
           + urllib.parse.urlencode(query))
    with urllib.request.urlopen(url) as response:
        return json.load(response)


def test_the_correction_picker_greys_what_the_engine_refuses_at_that_step(
    live_server: str, live_app: Flask, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    game_id = game_with_moves(page, live_server, live_app, THREE_MOVES)

    page.goto(f"{live_server}/games/{game_id}/moves/2/edit")
    board = page.locator("[data-correct-board]")
    picker = page.locator("[data-correct-picker]")
    expect(board).to_have_attribute("data-drawn", "2")
    tap_svg(page, '[data-free="1,2"]')
    expect(picker).to_be_visible()
    expect(picker).not_to_have_attribute("aria-busy", "true")
    pending = json.dumps([[1, 0, "blue", "circle"], [1, 1, "blue", "square"]])
    query = {"cell": "1,2", "tiles": pending}
    fits = set(past_answer(live_server, game_id, 2, query)["kinds"])
    assert "blue diamond" in fits and "red circle" not in fits
    kinds = page.locator("[data-correct-picker] [data-kind]")
    shown = {
        kinds.nth(i).get_attribute("data-kind"): "off" in (
            kinds.nth(i).get_attribute("class") or "").split()
        for i in range(kinds.count())
    }
    assert {kind for kind, off in shown.items() if not off} == fits
    red_circle = page.locator('[data-correct-picker] [data-kind="red circle"]')
    expect(red_circle).to_have_attribute("aria-disabled", "true")

    # A greyed tile says the engine's reason and goes nowhere.
    red_circle.tap(force=True)  # greyed (aria-disabled), still a button
    reason = past_answer(live_server, game_id, 2,
                         {**query, "why": "red circle"})["error"]["message"]
    assert reason
    expect(page.locator("[data-correct-say]")).to_have_text(reason)
    expect(board).to_have_attribute("data-drawn", "2")
    expect(picker).to_be_visible()
    page.tap('[data-correct-picker] [data-kind="blue diamond"]')
    expect(board).to_have_attribute("data-drawn", "3")

    # The cell move 3 later filled was free then: the engine of that step
    # answers (a green circle fitted above the red circle, with nothing pending).
    for cell in ("1,0", "1,1", "1,2"):
        tap_svg(page, f'[data-move-tile="{cell}"]')
    expect(board).to_have_attribute("data-drawn", "0")
    tap_svg(page, '[data-free="-1,0"]')
    expect(picker).not_to_have_attribute("aria-busy", "true")
    expect(page.locator('[data-correct-picker] [data-kind="green circle"]')
           ).to_have_attribute("aria-disabled", "false")
    expect(page.locator('[data-correct-picker] [data-kind="green square"]')
           ).to_have_attribute("aria-disabled", "true")
    assert errors == []


def test_a_cell_nothing_fits_says_so_in_the_correction_picker(
    live_server: str, live_app: Flask, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    game_id = game_with_moves(page, live_server, live_app, THREE_MOVES[:2])
    page.goto(f"{live_server}/games/{game_id}/moves/2/edit")
    # Above the red circle, off the line of this move's blue tiles: nothing.
    tap_svg(page, '[data-free="-1,0"]')
    expect(page.locator("[data-correct-say]")).to_contain_text(
        "Nothing left can go on this cell")
    expect(page.locator('[data-correct-picker] [data-kind].off')).to_have_count(36)
