"""Hints on the game page in headless chromium: the toggle, its memory, the overlays."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import PHONE

pytestmark = pytest.mark.browser

FIVE_REDS = [
    {"row": 0, "col": c, "color": "red", "shape": s}
    for c, s in enumerate(["circle", "square", "diamond", "starburst", "clover"])
]


def api(base: str, path: str, body: Any, token: str | None = None) -> Any:
    """POST JSON to the API and return the answer's JSON."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Edit-Token"] = token
    request = urllib.request.Request(
        f"{base}{path}", data=json.dumps(body).encode(), headers=headers,
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def game_with_five_reds(base: str) -> tuple[int, str]:
    """A game whose board is a red line of five: one threat, two completing cells."""
    state = api(base, "/api/games", {"players": ["Ann", "Bob"]})
    api(base, f"/api/games/{state['id']}/moves",
        {"type": "place", "tiles": FIVE_REDS}, state["edit_token"])
    return state["id"], state["edit_token"]


def overlay_cells(page: Any, kind: str) -> list[list[int]]:
    """The cells the board marks with an overlay of this kind, as [row, col]."""
    cells: list[list[int]] = page.eval_on_selector_all(
        f"[data-board] .overlay-{kind}",
        "els => els.map(e => [Math.floor(+e.getAttribute('y') / 100),"
        " Math.floor(+e.getAttribute('x') / 100)]).sort()",
    )
    return cells


def test_the_hints_toggle_is_off_until_asked_and_remembered_per_game(
    live_server: str, browser: Any,
) -> None:
    first, _ = game_with_five_reds(live_server)
    second, _ = game_with_five_reds(live_server)
    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))

    page.goto(f"{live_server}/games/{first}")
    page.wait_for_selector("[data-board][data-drawn]")
    toggle = page.locator("[data-hints-toggle]")
    expect(toggle).not_to_be_checked()
    expect(page.locator("[data-hints-panel]")).to_be_hidden()
    assert overlay_cells(page, "threat") == []
    # hints.js comes once the hints are on (static/later.js:
    # the game page's 30 KB, bench_page.py).
    assert not [url for url in fetched if "/assets/hints.js" in url]

    toggle.tap()
    expect(page.locator("[data-board] .overlay-threat")).to_have_count(2)
    assert len([url for url in fetched if "/assets/hints.js" in url]) == 1
    assert overlay_cells(page, "threat") == [[0, -1], [0, 5]]
    expect(page.locator("[data-hints-summary]")).to_contain_text("Qwirkle threats: 1")
    expect(page.locator("[data-hints-threats] li")).to_have_text(
        ["red crisscross makes a Qwirkle (3 still out)"])

    page.reload()
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator("[data-hints-toggle]")).to_be_checked()
    expect(page.locator("[data-board] .overlay-threat")).to_have_count(2)

    page.goto(f"{live_server}/games/{second}")
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator("[data-hints-toggle]")).not_to_be_checked()
    assert overlay_cells(page, "threat") == []

    page.goto(f"{live_server}/games/{first}")
    page.wait_for_selector("[data-board][data-drawn]")
    page.locator("[data-hints-toggle]").tap()
    expect(page.locator("[data-board] .layer-over rect")).to_have_count(0)
    page.reload()
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator("[data-hints-toggle]")).not_to_be_checked()
    assert errors == []


def test_the_hints_follow_a_move_entered_on_another_device(
    live_server: str, browser: Any,
) -> None:
    game_id, token = game_with_five_reds(live_server)
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/games/{game_id}")
    page.wait_for_selector("[data-board][data-drawn]")
    page.locator("[data-hints-toggle]").tap()
    expect(page.locator("[data-board] .overlay-threat")).to_have_count(2)

    # Bob completes the Qwirkle elsewhere: the page hears of it by polling.
    api(live_server, f"/api/games/{game_id}/moves", {"type": "place", "tiles": [
        {"row": 0, "col": 5, "color": "red", "shape": "crisscross"}]}, token)

    expect(page.locator("[data-board] .overlay-threat")).to_have_count(0, timeout=15000)
    expect(page.locator("[data-hints-summary]")).to_contain_text("Qwirkle threats: 0")
    expect(page.locator("[data-board] .overlay-hot")).not_to_have_count(0)


def test_the_replay_draws_the_better_spot_at_each_step(
    live_server: str, browser: Any,
) -> None:
    game_id, token = game_with_five_reds(live_server)
    # Bob puts the red crisscross under the line (2) where its end made a Qwirkle.
    api(live_server, f"/api/games/{game_id}/moves", {"type": "place", "tiles": [
        {"row": 1, "col": 0, "color": "red", "shape": "crisscross"}]}, token)
    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server}/games/{game_id}/replay?move=0")
    best = page.locator("[data-best] .best-tile")
    line = page.locator("[data-best-line]")
    expect(best).to_have_count(0)
    expect(line).to_be_hidden()

    page.keyboard.press("ArrowRight")
    expect(line).to_have_text("Same tiles, best spot: this was it (5).")
    expect(best).to_have_count(0)

    page.keyboard.press("ArrowRight")
    expect(best).to_have_count(1)
    assert best.get_attribute("data-cell") in ("0,5", "0,-1")
    expect(line).to_have_text("Same tiles, best spot: 12 (scored 2, 17%).")
    # Drawn where the server draws it, in the frame of the board.
    box = best.bounding_box()
    board = page.locator(".replay-board").bounding_box()
    assert box and board and board["x"] <= box["x"] < board["x"] + board["width"]

    page.keyboard.press("Home")
    expect(best).to_have_count(0)
    assert errors == []


def test_cubes_best_move_of_a_roll_is_shown_on_request_and_proposed(
    live_server: str, browser: Any,
) -> None:
    state = api(live_server, "/api/games", {
        "players": ["Ann", "Bob"],
        "variant": {"colors": 6, "copies": 15, "hand_size": 6, "system": "cubes"}})
    game_id, token = state["id"], state["edit_token"]
    api(live_server, f"/api/games/{game_id}/moves", {"type": "place", "tiles": [
        {"row": 0, "col": 0, "color": "red", "shape": "circle"},
        {"row": 0, "col": 1, "color": "red", "shape": "square"}]}, token)
    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server}/games/{game_id}/join/{token}")
    page.wait_for_selector("[data-board][data-drawn]")
    box = page.locator("[data-best-move]")
    expect(box.locator("[data-best-find]")).to_be_hidden()  # closed by default

    box.locator("summary").tap()
    box.locator('[data-roll="red diamond"]').tap()
    box.locator('[data-roll="blue clover"]').tap()
    expect(box.locator("[data-roll-list]")).to_have_text("red diamond, blue clover")
    box.locator("[data-best-find]").tap()

    expect(box.locator("[data-best-result]")).to_have_text(
        "Best move: 3 (red diamond)")
    expect(page.locator("[data-board] .overlay-best")).to_have_count(1)
    box.locator("[data-best-propose]").tap()
    expect(page.locator("[data-preview]")).to_contain_text("= 3")
    assert errors == []


def test_every_hot_cell_is_drawn_the_best_apart_with_a_legend(
    live_server: str, browser: Any,
) -> None:
    game_id, _ = game_with_five_reds(live_server)
    with urllib.request.urlopen(f"{live_server}/api/games/{game_id}/hints") as r:
        hot_cells = json.load(r)["hot_cells"]
    top = hot_cells[0]["points"]
    best = sorted([h["row"], h["col"]] for h in hot_cells if h["points"] == top)
    others = sorted([h["row"], h["col"]] for h in hot_cells if h["points"] < top)
    assert len(hot_cells) == 5 and best and others  # up to 5, of two kinds here
    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server}/games/{game_id}")
    page.wait_for_selector("[data-board][data-drawn]")
    page.locator("[data-hints-toggle]").tap()

    expect(page.locator("[data-board] .overlay-warm")).to_have_count(len(others))
    assert overlay_cells(page, "hot") == best
    assert overlay_cells(page, "warm") == others
    # The best are the Qwirkle threats here: both marks show on those cells,
    # the hot one inside the threat's.
    assert overlay_cells(page, "threat") == best
    threat = page.locator("[data-board] .overlay-threat").first.bounding_box()
    hot = page.locator("[data-board] .overlay-hot").first.bounding_box()
    assert threat and hot and hot["width"] < threat["width"]
    assert threat["x"] < hot["x"] and hot["x"] + hot["width"] < threat["x"] + threat[
        "width"]
    # Drawn apart, and the legend says which is which.
    look = page.eval_on_selector_all(
        "[data-board] .overlay-hot, [data-board] .overlay-warm",
        "els => els.map(e => [e.getAttribute('class'),"
        " getComputedStyle(e).stroke, getComputedStyle(e).strokeDasharray])")
    assert len({(stroke, dash) for _, stroke, dash in look}) == 2
    legend = page.locator(".hints-legend")
    expect(legend).to_contain_text("best single tile")
    expect(legend).to_contain_text("next best single tiles")
    expect(legend.locator(".key-warm")).to_be_visible()
    summary = page.locator("[data-hints-summary]")
    expect(summary).to_contain_text(f"Best single tile: {top}")
    expect(summary).to_contain_text(
        "Next best: " + ", ".join(str(h["points"]) for h in hot_cells
                                  if h["points"] < top))
    assert errors == []
