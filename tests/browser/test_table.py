"""The table app in headless chromium on a phone: start a game, play it by tapping."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from corpus import GAMES as CORPUS
from playwright.sync_api import expect

from .helpers import PHONE, adjacency_order, launch, start_game, tap_cell

pytestmark = pytest.mark.browser


def pick(page: Any, kind: str) -> None:
    """Tap a tile in the picker."""
    page.tap(f'[data-picker] [data-kind="{kind}"]')


def totals(page: Any) -> Any:
    """The players' totals on the page."""
    return page.locator("section.scores [data-total]")


def preview(page: Any) -> Any:
    """The live preview line."""
    return page.locator("[data-preview]")


def confirm(page: Any) -> None:
    """Tap Confirm once the preview has enabled it."""
    expect(page.locator("[data-confirm]")).to_be_enabled()
    page.tap("[data-confirm]")


def test_sample_game_by_tapping(
    live_server: str, browser: Any, tmp_path: Path
) -> None:
    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    start_game(page, live_server, ["Anna", "Chris", "Sally", "Dave"])
    expect(totals(page)).to_have_text(["0", "0", "0", "0"])
    expect(page.locator("[data-bag]")).to_have_text("84")

    # 1. Anna: three red tiles in a row, 3 points. The third cell is chosen for her
    # (auto-advance along the line): 6 taps for 3 tiles.
    tap_cell(page, 0, 0)
    expect(page.locator("[data-picker]")).to_be_visible()
    pick(page, "red clover")
    expect(preview(page)).to_have_text("single tile 1 = 1")
    tap_cell(page, 0, 1)
    pick(page, "red diamond")
    expect(page.locator("[data-picker]")).to_be_visible()
    pick(page, "red circle")
    expect(preview(page)).to_have_text("red line 3 = 3")
    confirm(page)
    expect(totals(page)).to_have_text(["3", "0", "0", "0"])
    expect(page.locator(".player.current .name")).to_have_text("Chris")

    # 2. Chris: three squares down from the end of the red line: red line 4 + square 3.
    tap_cell(page, 0, 3)
    # A tile already on the board, or one that cannot go there, is greyed out.
    expect(page.locator('[data-picker] [data-kind="red clover"]')).to_be_disabled()
    expect(page.locator('[data-picker] [data-kind="blue clover"]')).to_be_disabled()
    pick(page, "red square")
    tap_cell(page, 1, 3)
    pick(page, "blue square")
    pick(page, "green square")
    expect(preview(page)).to_contain_text("red line 4")
    expect(preview(page)).to_contain_text("square line 3")
    expect(preview(page)).to_contain_text("= 7")
    confirm(page)
    expect(totals(page)).to_have_text(["3", "7", "0", "0"])

    # 3. Sally: a blue circle; with it pending, the picker greys what cannot join it.
    tap_cell(page, 1, 2)
    pick(page, "blue circle")
    expect(preview(page)).to_contain_text("= 4")
    tap_cell(page, 2, 2)
    expect(page.locator('[data-picker] [data-kind="red diamond"]')).to_be_disabled()
    expect(page.locator('[data-picker] [data-kind="green circle"]')).to_be_enabled()
    # An illegal entry: a blue clover two cells left of the circle leaves a gap.
    tap_cell(page, 1, 0)
    pick(page, "blue clover")
    expect(preview(page)).to_have_class("preview error")
    expect(preview(page)).to_contain_text("A cell between the placed tiles is empty")
    expect(page.locator("[data-confirm]")).to_be_disabled()
    expect(page.locator("[data-board] g.pending")).to_have_count(2)
    expect(page.locator("[data-board] rect.bad")).not_to_have_count(0)
    tap_cell(page, 1, 0)  # tapping a pending tile takes it back
    expect(page.locator("[data-board] g.pending")).to_have_count(1)
    expect(preview(page)).to_contain_text("circle line 2")
    expect(preview(page)).to_contain_text("blue line 2")
    confirm(page)
    expect(totals(page)).to_have_text(["3", "7", "4", "0"])

    # 4. Dave: green clover and green diamond above Anna's row: 2 + 2 + 2.
    tap_cell(page, -1, 0)
    pick(page, "green clover")
    tap_cell(page, -1, 1)
    pick(page, "green diamond")
    expect(preview(page)).to_contain_text("= 6")
    confirm(page)
    expect(totals(page)).to_have_text(["3", "7", "4", "6"])
    expect(page.locator(".player .last")).to_have_text(["+3", "+7", "+4", "+6"])
    expect(page.locator("[data-bag]")).to_have_text("75")
    expect(page.locator('td[data-kind="green clover"] .n')).to_have_text("2")
    expect(page.locator("[data-board] rect.last")).to_have_count(2)

    shot = tmp_path / "table-390x844.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000

    # Undo Dave's move, with a confirmation asked on the page itself.
    page.tap("text=Undo last move")
    expect(page.locator("[data-undo-confirm]")).to_contain_text("Dave: ")
    page.tap("[data-confirm-undo]")
    expect(totals(page)).to_have_text(["3", "7", "4", "0"])
    expect(page.locator(".player.current .name")).to_have_text("Dave")
    expect(preview(page)).to_have_text("The last move was taken back.")
    expect(page.locator("[data-board] g.t")).to_have_count(7)

    # A reload shows the same stored game.
    page.reload()
    page.wait_for_selector("[data-board][data-drawn='7']")
    expect(totals(page)).to_have_text(["3", "7", "4", "0"])
    assert errors == []


def test_form_post_and_move_over_a_lan_host_name(
    live_server: str, playwright: Any
) -> None:
    """Not loopback: a Secure session cookie is dropped here (ECOSYSTEM pitfall 2)."""
    port = live_server.rsplit(":", 1)[1]
    browser = launch(playwright, "--host-resolver-rules=MAP scorekeeper.test 127.0.0.1")
    page = browser.new_context(**PHONE).new_page()
    start_game(page, f"http://scorekeeper.test:{port}", ["Ann", "Bob"])
    assert page.url.startswith(f"http://scorekeeper.test:{port}/games/")
    tap_cell(page, 0, 0)
    pick(page, "orange starburst")
    confirm(page)
    expect(totals(page)).to_have_text(["1", "0"])
    # A CSRF-protected form post (trade) also goes through.
    page.select_option("[data-trade] select", "2")
    page.tap("[data-trade] button")
    expect(page.locator(".player .last")).to_have_text(["+1", "⇄ 2"])
    browser.close()


def test_landscape_tablet_shows_board_beside_scores(
    live_server: str, browser: Any, tmp_path: Path
) -> None:
    page = browser.new_context(viewport={"width": 1024, "height": 700},
                               has_touch=True).new_page()
    start_game(page, live_server, ["Ann", "Bob", "Cy"])
    board = page.locator("[data-board]").bounding_box()
    scores = page.locator("section.scores").bounding_box()
    assert scores["x"] > board["x"] + board["width"] - 1
    page.screenshot(path=str(tmp_path / "table-1024x700.png"))
    # Colour-blind mode: a letter on each tile, remembered across pages.
    assert not page.locator("td[data-kind='red circle'] text.cb").is_visible()
    page.tap("[data-cb-toggle]")
    expect(page.locator("[data-cb-toggle]")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("td[data-kind='red circle'] text.cb")).to_be_visible()
    page.goto(f"{live_server}/games/new")
    expect(page.locator("form.new-game")).to_be_visible()
    assert page.evaluate("document.documentElement.classList.contains('cb-mode')")


def test_a_second_device_conflict_reloads_and_viewers_follow(
    live_server: str, browser: Any
) -> None:
    first = browser.new_context(**PHONE).new_page()
    start_game(first, live_server, ["Ann", "Bob"])
    game_url = first.url
    join = first.locator("p.join-link a").get_attribute("href")
    # The code names the LAN address (the page was opened as 127.0.0.1); this
    # server listens on loopback only, so the second phone uses the same path there.
    path = join.split("/", 3)[3]
    second = browser.new_context(**PHONE).new_page()
    second.goto(f"{live_server}/{path}")
    second.wait_for_selector("[data-board][data-drawn]")
    viewer = browser.new_context(**PHONE).new_page()
    viewer.goto(game_url)
    expect(viewer.locator("text=View only")).to_be_visible()

    # The first phone has a tile pending when the second one confirms a move.
    tap_cell(first, 0, 0)
    pick(first, "red circle")
    tap_cell(second, 0, 0)
    pick(second, "blue square")
    confirm(second)
    expect(totals(second)).to_have_text(["1", "0"])
    confirm(first)
    # 409: nothing stored twice; the page reloads to the stored game.
    expect(first.locator("[data-board] g.t.c-blue")).to_have_count(1, timeout=10_000)
    expect(totals(first)).to_have_text(["1", "0"])
    # The viewer's page follows by itself (it polls while nothing is being entered).
    expect(totals(viewer)).to_have_text(["1", "0"], timeout=12_000)


def test_one_finger_pans_and_two_fingers_zoom(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    view = page.evaluate("document.querySelector('[data-board]').viewBox.baseVal.width")
    box = page.locator("[data-board]").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate(
        """([cx, cy]) => {
            const svg = document.querySelector('[data-board]');
            const ev = (type, id, x, y) => svg.dispatchEvent(new PointerEvent(type, {
                pointerId: id, clientX: x, clientY: y, bubbles: true,
                pointerType: 'touch', isPrimary: id === 1}));
            ev('pointerdown', 1, cx - 20, cy); ev('pointerdown', 2, cx + 20, cy);
            for (let i = 1; i <= 10; i++) {
                ev('pointermove', 1, cx - 20 - 8 * i, cy);
                ev('pointermove', 2, cx + 20 + 8 * i, cy);
            }
            ev('pointerup', 1, cx - 100, cy); ev('pointerup', 2, cx + 100, cy);
        }""",
        [cx, cy],
    )
    assert page.evaluate(
        "document.querySelector('[data-board]').viewBox.baseVal.width"
    ) < view / 2
    x_before = page.evaluate("document.querySelector('[data-board]').viewBox.baseVal.x")
    page.evaluate(
        """([cx, cy]) => {
            const svg = document.querySelector('[data-board]');
            const ev = (type, x) => svg.dispatchEvent(new PointerEvent(type, {
                pointerId: 7, clientX: x, clientY: cy, bubbles: true,
                pointerType: 'touch', isPrimary: true}));
            ev('pointerdown', cx);
            for (let i = 1; i <= 10; i++) { ev('pointermove', cx + 10 * i); }
            ev('pointerup', cx + 100);
        }""",
        [cx, cy],
    )
    x_after = page.evaluate("document.querySelector('[data-board]').viewBox.baseVal.x")
    assert x_after < x_before  # dragged right: the view moved left
    # A drag is no tap: no cell got selected, the picker stays closed.
    expect(page.locator("[data-picker]")).to_be_hidden()
    page.tap("[data-fit]")
    assert page.evaluate(
        "document.querySelector('[data-board]').viewBox.baseVal.width"
    ) == view


def test_the_last_move_ends_the_game_and_shows_the_final_screen(
    live_server: str, browser: Any
) -> None:
    record = json.loads((CORPUS / "classic-10003.json").read_text())
    last = record["moves"].pop()
    final = record.pop("final")
    created = import_game(live_server, record)
    board = {(t["row"], t["col"]) for t in created["board"]}
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/games/{created['id']}/join/{created['edit_token']}")
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator("[data-hand]").first).to_be_visible()  # bag empty: hands shown
    for tile in adjacency_order(board, last["tiles"]):
        tap_cell(page, tile["row"], tile["col"])
        pick(page, f"{tile['color']} {tile['shape']}")
    expect(preview(page)).to_contain_text("end bonus 6")
    confirm(page)
    ranking = page.locator("ol.ranking li .total")
    scores = final["scores"]
    expect(ranking).to_have_text([str(s) for s in sorted(scores, reverse=True)])
    winner = record["players"][scores.index(max(scores))]
    expect(page.locator("ol.ranking li.winner .name")).to_contain_text(winner)
    finisher = record["players"][final["end_bonus_player"]]
    reason = page.locator("[data-reason]")
    expect(reason).to_contain_text(f"{finisher} placed their last tile")
    expect(page.locator("[data-entry]")).to_have_count(0)
    expect(page.locator("text=Undo last move")).to_be_visible()


def import_game(base: str, record: dict) -> dict:
    """Import a record through the live server's API; return the created state."""
    request = urllib.request.Request(
        f"{base}/api/games/import", data=json.dumps(record).encode(),
        headers={"Content-Type": "application/json"}, method="POST",
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_a_100_tile_game_page_weighs_under_150_kb(
    live_server: str, browser: Any
) -> None:
    record = json.loads((CORPUS / "classic-10002.json").read_text())
    count = 0
    for i, move in enumerate(record["moves"]):
        count += len(move.get("tiles", []))
        if count >= 100:
            record["moves"] = record["moves"][: i + 1]
            break
    record["final"] = None
    created = import_game(live_server, record)
    assert len(created["board"]) >= 100
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{live_server}/games/{created['id']}/join/{created['edit_token']}")
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.goto(f"{live_server}/games/{created['id']}")
    page.wait_for_selector(f"[data-board][data-drawn='{len(created['board'])}']")
    weight = page.evaluate("""() => [
        ...performance.getEntriesByType('navigation'),
        ...performance.getEntriesByType('resource').filter(
            e => /\\.(css|js)$/.test(new URL(e.name).pathname))
    ].reduce((sum, e) => sum + e.decodedBodySize, 0)""")
    assert 20_000 < weight < 150 * 1024


def test_a_move_can_be_entered_with_the_keyboard(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(
        viewport={"width": 1024, "height": 700}, has_touch=True
    ).new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    page.focus("[data-board]")
    # The cursor's cell is announced as it moves.
    spoken = page.locator("[data-board-cursor]")
    expect(spoken).to_have_text("free cell, row 0, column 0")
    page.keyboard.press("Enter")  # the only free cell on an empty board
    # The focus goes to the picker's first tile; arrows move over the tiles.
    red_circle = page.locator('[data-picker] [data-kind="red circle"]')
    expect(red_circle).to_be_focused()
    expect(red_circle).to_have_attribute("aria-label", "red circle, 3 left")
    for key in ["ArrowDown"] * 3 + ["ArrowRight"] * 2:  # green row, diamond column
        page.keyboard.press(key)
    expect(page.locator('[data-picker] [data-kind="green diamond"]')).to_be_focused()
    page.keyboard.press("Enter")
    # After the pick the focus is back on the board, not lost.
    expect(page.locator("[data-board]")).to_be_focused()
    expect(spoken).to_contain_text("green diamond")
    page.keyboard.press("ArrowRight")
    expect(spoken).to_have_text("free cell, row 0, column 1")
    page.keyboard.press("Enter")
    first = page.locator("[data-picker] [data-kind]:not(.off)").first
    expect(first).to_be_focused()
    page.focus('[data-picker] [data-kind="green clover"]')
    page.keyboard.press("Enter")
    expect(preview(page)).to_have_text("green line 2 = 2")
    page.focus("[data-confirm]")
    page.keyboard.press("Enter")
    expect(totals(page)).to_have_text(["2", "0"])


def test_on_a_small_phone_the_chosen_cell_stays_visible_above_the_picker(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
    ).new_page()
    start_game(page, live_server, ["Anna", "Chris", "Sally", "Dave"])
    tap_cell(page, 0, 0)
    pick(page, "red clover")
    tap_cell(page, 1, 0)
    expect(page.locator("[data-picker]")).to_be_visible()
    cell = page.locator("[data-board] rect.selected").bounding_box()
    entry = page.locator("[data-entry]").bounding_box()
    header = page.locator("header").bounding_box()
    assert header["height"] <= cell["y"]
    assert cell["y"] + cell["height"] <= entry["y"] + 1
    # Every tile of the picker is on screen, and so is Confirm.
    last = page.locator("[data-picker] [data-kind]").last.bounding_box()
    assert last["y"] + last["height"] <= 640
    assert page.locator("[data-confirm]").bounding_box()["y"] >= 0
