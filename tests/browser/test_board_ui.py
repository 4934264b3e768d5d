"""The board and controls at the table: any-order entry, tap targets
of at least 44 CSS px, a view that follows the play, dead cells and greyed
tiles that say why, and what the picker's tiles are called."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from corpus import GAMES as CORPUS
from engine.test_sample_game import MOVES, PLAYERS
from flask import Flask
from playwright.sync_api import expect

from .helpers import CELL_PX, PHONE, settle, start_game, tap_cell

pytestmark = pytest.mark.browser

SMALL_PHONE = {
    "viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True
}

def pick(page: Any, kind: str) -> None:
    """Tap a tile in the picker (Playwright waits until it is enabled)."""
    page.tap(f'[data-picker] [data-kind="{kind}"]')


def confirm(page: Any) -> None:
    """Tap Confirm once the preview has enabled it."""
    expect(page.locator("[data-confirm]")).to_be_enabled()
    page.tap("[data-confirm]")


def totals(page: Any) -> Any:
    """The players' totals on the page."""
    return page.locator("section.scores [data-total]")


def imported(app: Flask, name: str, moves: int | None = None) -> dict[str, Any]:
    """Import a corpus game (its first `moves` moves); return the API's answer."""
    record = json.loads((CORPUS / name).read_text())
    if moves is not None:
        record["moves"] = record["moves"][:moves]
        record["final"] = None
    return app.test_client().post("/api/games/import", json=record).get_json()


def join(page: Any, base: str, created: dict[str, Any]) -> None:
    """Open an imported game on this device with the right to enter moves."""
    page.goto(f"{base}/games/{created['id']}/join/{created['edit_token']}")
    page.wait_for_selector(f"[data-board][data-drawn='{len(created['board'])}']")


def test_the_sample_game_is_entered_by_tapping_its_tiles_in_any_order(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    start_game(page, live_server, PLAYERS)
    scores = [0] * 4
    not_adjacent_first = 0
    board: set[tuple[int, int]] = set()
    for number, (player, tiles, points, _) in enumerate(MOVES, start=1):
        # Last tile first: in moves 7 and 8 that tile touches no tile yet.
        order = list(reversed(tiles))
        row, col = order[0][:2]
        if board and not {(row + 1, col), (row - 1, col), (row, col + 1),
                          (row, col - 1)} & board:
            not_adjacent_first += 1
        for r, c, color, shape in order:
            if page.locator(f'[data-picker][data-ready="{r},{c}"]').count() == 0:
                tap_cell(page, r, c)
            # Where a finger taps, a cell is at least 44 CSS px.
            assert page.evaluate(CELL_PX) >= 44, number
            pick(page, f"{color} {shape}")
        expect(page.locator("[data-preview]")).to_contain_text(f"= {points}")
        confirm(page)
        scores[player] += points
        expect(totals(page)).to_have_text([str(s) for s in scores])
        # The total shown at once is the page's guess (dotted) until the
        # stored move comes back: each move is stored before the next.
        expect(page.locator(".player.guessed")).to_have_count(0)
        board |= {(t[0], t[1]) for t in tiles}
    assert not_adjacent_first >= 2
    assert scores == [20, 22, 25, 18]
    # A screen reader finds every tile by name and cell.
    name = '[aria-label="red clover, row 0, column 0"]'
    expect(page.locator(f"[data-board] [role=img]{name}")).to_have_count(1)
    expect(page.locator("[data-board] g.t[role=img][aria-label]")).to_have_count(25)
    assert errors == []


def test_a_gap_pending_still_greys_and_a_greyed_tile_says_why(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    tap_cell(page, 0, 0)
    pick(page, "red circle")
    tap_cell(page, 0, 1)
    pick(page, "red square")
    confirm(page)
    # Bob: a red diamond two cells right of the line, then the cell beyond it.
    tap_cell(page, 0, 3)
    pick(page, "red diamond")
    # Not touching the board yet: said, but the move may go on.
    expect(page.locator("[data-preview]")).to_have_class("preview error")
    # The cells in line with it show that they take a tap too.
    expect(page.locator("[data-board] rect.slot.line")).not_to_have_count(0)
    tap_cell(page, 0, 4)
    blue = page.locator('[data-picker] [data-kind="blue clover"]')
    expect(blue).to_be_disabled()  # greyed while the gap is pending
    expect(page.locator('[data-picker] [data-kind="red clover"]')).to_be_enabled()
    blue.tap(force=True)
    preview = page.locator("[data-preview]")
    expect(preview).to_have_class("preview error")
    expect(preview).to_contain_text("would hold red diamond, blue clover")
    # Filling the gap makes the move whole.
    pick(page, "red clover")
    tap_cell(page, 0, 2)
    pick(page, "red starburst")
    expect(preview).to_have_text("red line 5 = 5")


def test_dead_cells_are_drawn_dead_and_say_so(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    client = live_app.test_client()
    created = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    token = {"X-Edit-Token": created["edit_token"]}
    for tiles in ([[0, 0, "red", "circle"], [0, 1, "red", "square"]],
                  [[-1, 1, "red", "diamond"]], [[1, 0, "blue", "circle"]],
                  [[1, -1, "blue", "clover"]]):
        body = {"type": "place", "tiles": [
            {"row": r, "col": c, "color": color, "shape": shape}
            for r, c, color, shape in tiles]}
        answer = client.post(f"/api/games/{created['id']}/moves", json=body,
                             headers=token)
        assert answer.status_code == 201
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/games/{created['id']}/join/{created['edit_token']}")
    page.wait_for_selector("[data-board][data-drawn='5']")
    # (1, 1) and (-1, 0) take nothing (the server's list).
    expect(page.locator("[data-board] rect.slot.dead")).to_have_count(2)
    tap_cell(page, 1, 1)
    expect(page.locator("[data-picker]")).to_have_attribute("data-ready", "1,1")
    expect(page.locator("[data-picker] [data-kind]:not(.off)")).to_have_count(0)
    expect(page.locator("[data-preview]")).to_contain_text("A dead cell")
    page.locator('[data-picker] [data-kind="red clover"]').tap(force=True)
    expect(page.locator("[data-preview]")).to_contain_text(
        "This red clover does not fit")


def test_late_in_a_game_cells_stay_tappable_and_the_view_persists(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    record = json.loads((CORPUS / "classic-10001.json").read_text())
    # The last placing move before the end, entered on the board before it.
    number = max(i for i, m in enumerate(record["moves"][:-1]) if m["type"] == "place")
    move = record["moves"][number]
    created = imported(live_app, "classic-10001.json", number)
    page = browser.new_context(**SMALL_PHONE).new_page()
    join(page, live_server, created)
    assert page.evaluate(CELL_PX) >= 44
    # The whole board (the fit button): too small to tap, so a tap zooms in.
    page.tap("[data-fit]")
    small = page.evaluate(CELL_PX)
    assert small < 44
    box = page.locator("[data-board]").bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 3)
    settle(page)
    assert page.evaluate(CELL_PX) >= 44
    expect(page.locator("[data-picker]")).to_be_hidden()  # zoomed, nothing chosen
    # Zoom and pan outlive a reload ...
    page.wait_for_timeout(400)  # the view is saved a moment after it moves
    kept = page.get_attribute("[data-board]", "viewBox")
    page.reload()
    page.wait_for_selector("[data-board][data-drawn]")
    assert page.get_attribute("[data-board]", "viewBox") == kept
    # ... and a move entered by tapping, wherever the cells are.
    for tile in move["tiles"]:
        tap_cell(page, tile["row"], tile["col"])
        assert page.evaluate(CELL_PX) >= 44
        pick(page, f"{tile['color']} {tile['shape']}")
    before = page.evaluate(CELL_PX)
    confirm(page)
    expect(page.locator("[data-board]")).to_have_attribute(
        "data-drawn", str(len(created["board"]) + len(move["tiles"]))
    )
    assert page.evaluate(CELL_PX) == pytest.approx(before)


def test_names_wrap_and_the_last_points_are_large_at_360_px(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**SMALL_PHONE).new_page()
    start_game(page, live_server, ["Annabella", "Christophe", "Sally", "Dave"])
    tap_cell(page, 0, 0)
    pick(page, "red circle")
    confirm(page)
    for name in page.locator(".player .name").all():
        # Every letter shows: nothing is cut off.
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        assert name.evaluate("e => getComputedStyle(e).textOverflow") != "ellipsis"
    expect(page.locator(".player .name").first).to_have_text("Annabella")
    size = page.locator(".player .last").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 18
    assert page.locator("h1").count() == 1


def test_the_final_screens_board_fits_its_frame(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    over = imported(live_app, "classic-10002.json")
    for phone in (PHONE, SMALL_PHONE):
        page = browser.new_context(**phone).new_page()
        page.goto(f"{live_server}/games/{over['id']}")
        page.wait_for_selector("[data-board][data-drawn]")
        frame = page.locator("[data-board]").bounding_box()
        left, top, right, bottom = page.evaluate("""() => {
            const tiles = document.querySelector('[data-board] .layer-tiles');
            const b = tiles.getBoundingClientRect();
            return [b.left, b.top, b.right, b.bottom];
        }""")
        x, y = frame["x"], frame["y"]
        assert x - 1 <= left and right <= x + frame["width"] + 1
        assert y - 1 <= top and bottom <= y + frame["height"] + 1
        expect(page.locator("h1")).to_have_count(1)


def test_the_pickers_names_say_the_count_each_tile_shows(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    # axe on every page and state: tests/browser/test_every_page.py.
    playing = imported(live_app, "classic-10001.json", 20)
    page = browser.new_context(**PHONE).new_page()
    join(page, live_server, playing)
    slot = page.evaluate(
        "() => { const s = document.querySelector('[data-board] rect.slot:not(.dead)');"
        " return [Math.round(+s.getAttribute('y') / 100), "
        "Math.round(+s.getAttribute('x') / 100)]; }")
    tap_cell(page, *slot)
    button = page.locator("[data-picker] [data-kind]").first
    named = re.compile(r"^red circle, \d+ left$")
    expect(button).to_have_attribute("aria-label", named)
