"""The table without reloads: a move, trade, pass and undo update the page from the
answers; a picked tile's score comes from the cell's options answer; another
device's move appears; replay steps in place with an address per step; and
without JavaScript the forms still work."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from corpus import GAMES as CORPUS
from flask import Flask
from playwright.sync_api import expect

from .helpers import PHONE, start_game, tap_cell

pytestmark = pytest.mark.browser

MARK = "window.__stayed = true"
"""Set once on the page; still there only if the page never reloaded."""


def stayed(page: Any) -> bool:
    """Whether the page is the same document as when marked."""
    return bool(page.evaluate("window.__stayed === true"))


def pick(page: Any, kind: str) -> None:
    page.tap(f'[data-picker] [data-kind="{kind}"]')


def totals(page: Any) -> Any:
    return page.locator("section.scores [data-total]")


def requests_of(page: Any) -> list[str]:
    """Start recording the paths the page asks for; return the growing list."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.method + " " + r.url.split("/", 3)[3]))
    return seen


def requested(page: Any, seen: list[str], count: int) -> None:
    """Wait (up to 5 s) until the page has asked for `count` things, then a little
    more, so that one more request would be seen too."""
    for _ in range(100):
        if len(seen) >= count:
            break
        page.wait_for_timeout(50)
    page.wait_for_timeout(200)
    assert len(seen) == count, seen


def test_a_whole_move_is_a_few_requests_and_no_reload(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    page.evaluate(MARK)
    # Only the move's own requests are counted: the 3-second poll for other
    # devices' moves is paused as in a hidden tab (table.js polls only while
    # the page is visible), so it never lands inside the move.
    page.evaluate(
        "Object.defineProperty(document, 'visibilityState', {get: () => 'hidden'})")
    # The first tile's options for every cell come once per turn, with the board.
    page.wait_for_load_state("networkidle")
    seen = requests_of(page)

    tap_cell(page, 0, 0)
    expect(page.locator("[data-picker][data-ready='0,0']")).to_have_count(1)
    assert seen == []  # the first tile's options came with the board
    pick(page, "red circle")
    # The score is on screen at once, from the options answer.
    expect(page.locator("[data-preview]")).to_have_text("single tile 1 = 1")
    # Then the cells the next tile may go to are asked ahead, in one request.
    requested(page, seen, 1)
    assert "/options?cells=" in seen[0]
    tap_cell(page, 0, 1)
    expect(page.locator("[data-picker][data-ready='0,1']")).to_have_count(1)
    pick(page, "red square")
    expect(page.locator("[data-preview]")).to_have_text("red line 2 = 2")
    # Auto-advance opened the next cell of the line, asked ahead with the
    # line's other end.
    expect(page.locator("[data-picker][data-ready='0,2']")).to_have_count(1)
    requested(page, seen, 2)
    assert "/options?cells=0%2C2%3B0%2C-1&tiles=" in seen[1]
    page.tap("[data-confirm]")
    expect(totals(page)).to_have_text(["2", "0"])
    expect(page.locator("[data-board] g.t")).to_have_count(2)
    expect(page.locator(".player.current .name")).to_have_text("Bob")
    expect(page.locator("[data-last-move]")).to_have_text(
        "Last move (Ann): red line 2 = 2"
    )
    expect(page.locator('td[data-kind="red circle"] .n')).to_have_text("2")
    requested(page, seen, 4)
    # The move's answer carried the state: no page, no `legal`, no state refetch;
    # only the next turn's first-tile options.
    assert seen[2] == f"POST api/games/{game_id(page)}/moves"
    assert [r.split("?")[0] for r in seen[3:]] == [f"GET games/{game_id(page)}/options"]
    assert not [r for r in seen if "/preview" in r or "/legal" in r]
    # The next move is entered on the new board without another request.
    tap_cell(page, 1, 0)
    pick(page, "blue circle")
    expect(page.locator("[data-preview]")).to_contain_text("= 2")
    requested(page, seen, 5)  # and that one asks ahead for the second tile
    assert "/options?cells=" in seen[4]
    assert stayed(page)


def game_id(page: Any) -> int:
    return int(re.search(r"/games/(\d+)", page.url).group(1))  # type: ignore[union-attr]


def test_trade_pass_and_undo_change_the_page_in_place(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    page.evaluate(MARK)
    expect(page.locator("[data-trade]")).to_be_hidden()  # no trade on the first move
    tap_cell(page, 0, 0)
    pick(page, "green diamond")
    page.tap("[data-confirm]")
    expect(totals(page)).to_have_text(["1", "0"])
    # Trading is allowed from the second move on: the form appears.
    expect(page.locator("[data-trade]")).to_be_visible()
    page.select_option("[data-trade] select", "3")
    page.tap("[data-trade] button")
    expect(page.locator(".player .last")).to_have_text(["+1", "⇄ 3"])
    expect(page.locator(".player.current .name")).to_have_text("Ann")
    expect(page.locator("[data-last-move]")).to_have_text("Last move (Bob): traded 3")
    expect(page.locator("[data-pass]")).to_be_hidden()  # the bag holds tiles

    page.tap("text=Undo last move")
    expect(page.locator("[data-undo-confirm]")).to_contain_text("Bob: traded 3")
    page.tap("[data-keep]")
    expect(page.locator("[data-undo-confirm]")).to_be_hidden()
    page.tap("text=Undo last move")
    page.tap("[data-confirm-undo]")
    expect(page.locator(".player .last")).to_have_text(["+1", "–"])
    expect(page.locator(".player.current .name")).to_have_text("Bob")
    page.tap("text=Undo last move")
    page.tap("[data-confirm-undo]")
    expect(totals(page)).to_have_text(["0", "0"])
    expect(page.locator("[data-board] g.t")).to_have_count(0)
    expect(page.locator("[data-undo]")).to_be_hidden()
    expect(page.locator("[data-trade]")).to_be_hidden()
    assert stayed(page)


def test_a_pass_with_the_bag_empty_updates_in_place(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    # 3 colours, 1 copy, hands of 6: the bag is empty from the start.
    page.goto(f"{live_server}/games/new")
    page.fill("#names-0", "Ann")
    page.fill("#names-1", "Bob")
    page.check("input[name=tile_set][value=custom]")
    page.fill("#colors", "3")
    page.fill("#copies", "1")
    page.fill("#hand_size", "6")
    page.tap("form.new-game button[type=submit]")
    page.wait_for_selector("[data-board][data-drawn]")
    page.evaluate(MARK)
    expect(page.locator("[data-pass]")).to_be_visible()
    page.tap("[data-pass] button")
    # A pass is the score sheet's "–" on the card; the last-move line says it.
    expect(page.locator(".player .last")).to_have_text(["–", "–"])
    expect(page.locator("[data-last-move]")).to_contain_text("passed")
    expect(page.locator(".player.current .name")).to_have_text("Bob")
    assert stayed(page)


def test_another_devices_move_appears_without_a_reload(
    live_server: str, browser: Any
) -> None:
    first = browser.new_context(**PHONE).new_page()
    start_game(first, live_server, ["Ann", "Bob"])
    viewer = browser.new_context(**PHONE).new_page()
    viewer.goto(first.url)
    viewer.wait_for_selector("[data-board][data-drawn='0']")
    viewer.evaluate(MARK)
    first.evaluate(MARK)
    tap_cell(first, 0, 0)
    pick(first, "yellow starburst")
    first.tap("[data-confirm]")
    expect(totals(first)).to_have_text(["1", "0"])
    expect(totals(viewer)).to_have_text(["1", "0"], timeout=12_000)
    expect(viewer.locator("[data-board] g.t.c-yellow")).to_have_count(1)
    expect(viewer.locator(".player.current .name")).to_have_text("Bob")
    assert stayed(viewer) and stayed(first)


def test_the_last_move_shows_the_final_screen_without_a_reload(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    record = json.loads((CORPUS / "classic-10001.json").read_text())
    last = record["moves"].pop()
    record["final"] = None
    created = live_app.test_client().post("/api/games/import", json=record).get_json()
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/games/{created['id']}/join/{created['edit_token']}")
    page.wait_for_selector("[data-board][data-drawn]")
    page.evaluate(MARK)
    board = {(t["row"], t["col"]) for t in created["board"]}
    order = list(last["tiles"])
    ordered, have = [], set(board)
    while order:
        tile = next(t for t in order if {
            (t["row"] + 1, t["col"]), (t["row"] - 1, t["col"]),
            (t["row"], t["col"] + 1), (t["row"], t["col"] - 1)} & have)
        ordered.append(tile)
        have.add((tile["row"], tile["col"]))
        order.remove(tile)
    for tile in ordered:
        tap_cell(page, tile["row"], tile["col"])
        pick(page, f"{tile['color']} {tile['shape']}")
    page.tap("[data-confirm]")
    expect(page.locator("ol.ranking li")).to_have_count(len(record["players"]))
    expect(page.locator("[data-entry]")).to_have_count(0)
    # Undo from the final screen reopens the game, still in place.
    page.tap("text=Undo last move")
    page.tap("[data-confirm-undo]")
    expect(page.locator("[data-entry]")).to_have_count(1)
    expect(page.locator("ol.ranking")).to_have_count(0)
    assert stayed(page)


def test_replay_steps_in_place_and_each_step_keeps_its_address(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    record = json.loads((CORPUS / "classic-10003.json").read_text())
    created = live_app.test_client().post("/api/games/import", json=record).get_json()
    base = f"{live_server}/games/{created['id']}/replay"
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{base}?move=3")
    page.evaluate(MARK)
    seen = requests_of(page)
    page.tap("a[data-replay-go=next]")
    expect(page.locator("[data-replay-step]")).to_have_text("4")
    assert page.url.endswith("?move=4")
    placed4 = len(record["moves"][3].get("tiles", []))
    expect(page.locator(".replay-board g.placed")).to_have_count(placed4)
    on_board = sum(len(m.get("tiles", [])) for m in record["moves"][:4])
    expect(page.locator(".replay-board g.rtile")).to_have_count(on_board)
    page.keyboard.press("End")
    expect(page.locator("[data-final]")).to_be_visible()
    assert page.url.endswith(f"?move={len(record['moves'])}")
    page.go_back()
    expect(page.locator("[data-replay-step]")).to_have_text("4")
    assert page.url.endswith("?move=4")
    # Every step came with the page: nothing asked but the page's own assets.
    assert [r for r in seen if not r.split()[1].startswith("static/")] == []
    assert stayed(page)
    # The address of a step opens that step, drawn by the server.
    page.goto(f"{base}?move=4")
    expect(page.locator(".replay-board g.rtile")).to_have_count(on_board)
    assert not stayed(page)


def test_without_javascript_trade_and_undo_still_work(
    live_server: str, browser: Any
) -> None:
    scripted = browser.new_context(**PHONE).new_page()
    start_game(scripted, live_server, ["Ann", "Bob"])
    tap_cell(scripted, 0, 0)
    pick(scripted, "red circle")
    scripted.tap("[data-confirm]")
    expect(totals(scripted)).to_have_text(["1", "0"])
    join = scripted.locator("p.join-link a").get_attribute("href")
    path = join.split("/", 3)[3]
    page = browser.new_context(java_script_enabled=False).new_page()
    page.goto(f"{live_server}/{path}")
    page.select_option("[data-trade] select", "2")
    page.click("[data-trade] button")
    expect(page.locator(".player .last")).to_have_text(["+1", "⇄ 2"])
    page.click("a[data-undo]")
    page.wait_for_url("**/undo")
    page.click("[data-confirm-undo]")
    expect(page.locator(".player .last")).to_have_text(["+1", "–"])
