"""A photo of the board as the move, in headless chromium on a phone (CONTRACT §12):
the camera button's photo becomes the pending move with its preview score, the
tiles the reader was unsure of are marked (a stubbed answer below shows them
whatever the reader is sure of), and Confirm stores the move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from corpus import record_before
from playwright.sync_api import expect

from .helpers import PHONE, tap_cell

pytestmark = pytest.mark.browser

PHOTOS = Path(__file__).resolve().parents[1] / "data" / "photos"
"""Example photos with what is on the table (tests/data/photos/README.md)."""


def test_a_photo_proposes_the_move_and_confirm_stores_it_with_its_score(
        live_server: str, browser: Any) -> None:
    example = json.loads((PHOTOS / "example-2-held-out.json").read_text())
    game, place = example["game_and_move"].split("#")
    record, move = record_before(game, int(place))
    context = browser.new_context(**PHONE)
    # The import answers in this browser's session: the page may enter moves.
    made = context.request.post(f"{live_server}/api/games/import", data=record)
    assert made.status == 201, made.text()
    game_id = made.json()["id"]
    turn = made.json()["turn"]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server}/games/{game_id}")
    page.wait_for_selector("[data-board][data-drawn]")

    camera = page.locator("[data-photo-input]")
    expect(camera).to_have_attribute("capture", "environment")
    box = page.locator(".photo-button").bounding_box()
    assert box is not None and box["height"] >= 44
    # The photo is read in a worker process started on first use: allow for it.
    with page.expect_response(lambda r: r.url.endswith(f"/api/games/{game_id}/photo"),
                              timeout=30_000) as answered:
        camera.set_input_files(str(PHOTOS / example["photo"]))
    read = answered.value.json()["tiles"]
    assert sorted((t["row"], t["col"], t["color"], t["shape"]) for t in read) \
        == sorted((t["row"], t["col"], t["color"], t["shape"]) for t in move["tiles"])

    pending = page.locator("[data-board] .layer-pend g.pending")
    expect(pending).to_have_count(len(move["tiles"]))
    expect(page.locator("[data-preview]")).to_contain_text(f"= {move['score']}")
    status = page.locator("[data-photo-status]")
    expect(status).to_contain_text("3 tiles read from the photo")
    # What the reader was unsure of is marked on the board and named for
    # screen readers (the mark says it to the eye; the sticky entry stays low).
    unsure = [t for t in read if t["low"]]
    expect(page.locator("[data-board] .overlay-photo-low")).to_have_count(len(unsure))
    for tile in unsure:
        expect(status.locator(".sr-only")).to_contain_text(
            f"{tile['color']} {tile['shape']}")

    # Fixing one takes two taps: the tile, which goes back (and its mark with
    # it) and opens the picker with the kinds the reader found likely (the
    # answer's "likely": 2-4 kinds, its own reading first), then the right
    # kind (here the reading itself, which is the move's).
    for left, tile in enumerate(reversed(unsure)):
        tap_cell(page, tile["row"], tile["col"])
        expect(pending).to_have_count(len(move["tiles"]) - 1)
        expect(page.locator("[data-board] .overlay-photo-low")).to_have_count(
            len(unsure) - 1 - left)
        likely = page.locator("[data-picker] [data-likely] [data-kind]")
        expect(likely.first).to_have_attribute(
            "data-kind", f"{tile['color']} {tile['shape']}")
        assert 2 <= likely.count() <= 4
        likely.first.tap()
        expect(pending).to_have_count(len(move["tiles"]))
        expect(page.locator("[data-preview]")).to_contain_text(f"= {move['score']}")

    expect(page.locator("[data-confirm]")).to_be_enabled()
    page.tap("[data-confirm]")
    expect(page.locator("[data-board] .layer-pend g.pending")).to_have_count(0)
    expect(page.locator("[data-board] .overlay-photo-low")).to_have_count(0)
    state = context.request.get(f"{live_server}/api/games/{game_id}").json()
    assert state["turn"] == turn + 1
    last = state["moves"][-1]
    assert last["score"] == move["score"]
    assert sorted((t["row"], t["col"], t["color"], t["shape"]) for t in last["tiles"]) \
        == sorted((t["row"], t["col"], t["color"], t["shape"]) for t in move["tiles"])
    assert errors == []
    context.close()


def test_an_unreadable_photo_says_why_and_proposes_nothing(
        live_server: str, browser: Any, tmp_path: Path) -> None:
    context = browser.new_context(**PHONE)
    made = context.request.post(f"{live_server}/api/games",
                                data={"players": ["Ann", "Bob"]})
    page = context.new_page()
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(f"{live_server}/games/{made.json()['id']}")
    page.wait_for_selector("[data-board][data-drawn]")
    # photo.js comes only once a photo is taken (static/later.js).
    assert not [url for url in fetched if "/assets/photo.js" in url]
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"not a photo at all")
    page.locator("[data-photo-input]").set_input_files(str(junk))
    status = page.locator("[data-photo-status].error")
    expect(status).to_contain_text("not a JPEG or PNG photo", timeout=30_000)
    assert len([url for url in fetched if "/assets/photo.js" in url]) == 1
    expect(page.locator("[data-board] .layer-pend g.pending")).to_have_count(0)
    context.close()


def test_an_unsure_tile_opens_the_picker_with_its_likely_kinds_first(
        live_server: str, browser: Any) -> None:
    """The reader's "likely" kinds (best first) open the picker of an unsure
    tile: any of them is one more tap; every unsure tile stays marked until it
    is changed. The photo's answer is stubbed (route interception)."""
    context = browser.new_context(**PHONE)
    made = context.request.post(f"{live_server}/api/games",
                                data={"players": ["Ann", "Bob"]})
    game_id = made.json()["id"]
    page = context.new_page()
    page.goto(f"{live_server}/games/{game_id}")
    page.wait_for_selector("[data-board][data-drawn]")
    page.evaluate("() => { window.heard = []; window.scorekeeper.board"
                  ".on('pending', p => window.heard.push(p)); }")
    tiles = [
        {"row": 0, "col": 0, "color": "red", "shape": "circle", "confidence": 0.99,
         "low": False},
        {"row": 0, "col": 1, "color": "red", "shape": "square", "confidence": 0.4,
         "low": True, "label": "Uncertain: red square",
         "likely": [["red", "square"], ["red", "diamond"], ["orange", "square"]]},
        {"row": 0, "col": 2, "color": "red", "shape": "starburst", "confidence": 0.5,
         "low": True, "label": "Uncertain: red starburst",
         "likely": [["red", "starburst"]]},
    ]
    answer = {"tiles": tiles, "matched": [], "conflicts": [], "text": "3 tiles read",
              "warning": None}
    page.route(f"**/api/games/{game_id}/photo",
               lambda route: route.fulfill(json=answer))
    page.locator("[data-photo-input]").set_input_files(
        files=[{"name": "p.jpg", "mimeType": "image/jpeg", "buffer": b"\xff\xd8stub"}])
    pending = page.locator("[data-board] .layer-pend g.pending")
    expect(pending).to_have_count(3)
    marks = page.locator("[data-board] .overlay-photo-low")
    expect(marks).to_have_count(2)

    taps = 0
    tap_cell(page, 0, 1)
    taps += 1
    likely = page.locator("[data-picker] [data-likely] [data-kind]")
    expect(likely).to_have_count(3)
    assert likely.evaluate_all("els => els.map(e => e.dataset.kind)") == [
        "red square", "red diamond", "orange square"]
    expect(marks).to_have_count(1)  # the other unsure tile keeps its mark
    expect(page.locator("[data-picker][data-ready]")).to_be_visible()
    likely.nth(1).tap()
    taps += 1
    assert taps == 2
    expect(pending).to_have_count(3)
    # The board tells its listeners once the picked tile is painted.
    page.wait_for_function("() => window.heard.at(-1).length === 3")
    assert sorted(page.evaluate("() => window.heard.at(-1)")) == [
        [0, 0, "red", "circle"], [0, 1, "red", "diamond"], [0, 2, "red", "starburst"]]
    expect(page.locator("[data-picker] [data-likely]")).to_be_hidden()
    context.close()
