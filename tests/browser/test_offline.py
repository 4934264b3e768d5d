"""A move confirmed while the server cannot be reached, in headless
chromium: kept on the device, shown as not sent, sent with its turn once the
server is back, and never stored twice."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from .helpers import PHONE, start_game, tap_cell

pytestmark = pytest.mark.browser


def stored_moves(base: str, page: Any) -> list[dict[str, Any]]:
    game_id = re.search(r"/games/(\d+)", page.url).group(1)
    with urllib.request.urlopen(f"{base}/api/games/{game_id}") as response:
        moves: list[dict[str, Any]] = json.load(response)["moves"]
    return moves


def enter_red_circle(page: Any) -> None:
    tap_cell(page, 0, 0)
    page.tap('[data-picker] [data-kind="red circle"]')
    expect(page.locator("[data-confirm]")).to_be_enabled()
    page.tap("[data-confirm]")


def test_a_move_confirmed_offline_is_kept_and_sent_when_the_server_is_back(
    live_server: str, browser: Any
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    start_game(page, live_server, ["Ann", "Bob"])
    page.wait_for_timeout(300)  # the first options answer is in

    context.set_offline(True)
    enter_red_circle(page)
    note = page.locator("[data-offline]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Not sent yet")
    kept = page.evaluate("() => Object.keys(localStorage).filter("
                         "k => k.startsWith('scorekeeper.pending:'))")
    assert len(kept) == 1
    assert json.loads(page.evaluate(f"localStorage.getItem('{kept[0]}')"))["move"][
        "turn"] == 0
    assert stored_moves(live_server, page) == []
    # The tile stays on the board as entered, and the scores are unchanged.
    expect(page.locator("section.scores [data-total]").first).to_have_text("0")

    context.set_offline(False)
    expect(note).to_contain_text("stored now", timeout=10_000)
    expect(page.locator("section.scores [data-total]").first).to_have_text("1")
    moves = stored_moves(live_server, page)
    assert len(moves) == 1 and moves[0]["tiles"][0]["color"] == "red"
    assert page.evaluate("() => Object.keys(localStorage).filter("
                         "k => k.startsWith('scorekeeper.pending:')).length") == 0
    assert errors == []


def test_a_move_stored_whose_answer_was_lost_is_not_stored_twice(
    live_server: str, browser: Any
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    page.wait_for_timeout(300)
    posts: list[int] = []

    def lose_answer(route: Any) -> None:
        # The server stores the move, then the connection drops before the answer.
        response = route.fetch()
        posts.append(response.status)
        route.abort("connectionreset")

    page.route(re.compile(r"/api/games/\d+/moves$"), lose_answer)
    enter_red_circle(page)
    expect(page.locator("[data-offline]")).to_contain_text("Not sent yet")
    assert posts == [201]
    page.unroute(re.compile(r"/api/games/\d+/moves$"))
    # The retry gets 409 (turn 0 is past) with a state holding this very move.
    expect(page.locator("[data-offline]")).to_contain_text("stored now",
                                                           timeout=10_000)
    assert len(stored_moves(live_server, page)) == 1
    expect(page.locator("section.scores [data-total]").first).to_have_text("1")


def test_a_kept_move_the_game_has_moved_past_is_dropped_and_said(
    live_server: str, live_app: Flask, browser: Any
) -> None:
    from scorekeeper.store import games as stored

    context = browser.new_context(**PHONE)
    page = context.new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    page.wait_for_timeout(300)
    context.set_offline(True)
    enter_red_circle(page)
    expect(page.locator("[data-offline]")).to_contain_text("Not sent yet")
    # Meanwhile another device entered a different first move.
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
    with live_app.app_context():
        stored.record_move(game_id, {"type": "place", "tiles": [
            {"row": 0, "col": 0, "color": "blue", "shape": "square"}]})
    context.set_offline(False)
    expect(page.locator("[data-offline]")).to_contain_text("had moved on",
                                                           timeout=10_000)
    moves = stored_moves(live_server, page)
    assert [m["tiles"][0]["color"] for m in moves] == ["blue"]
    # The page follows the game as it is.
    expect(page.locator("section.scores [data-total]").first).to_have_text("1")
    expect(page.locator(".player.current .name")).to_have_text("Bob")


def kept_moves(page: Any) -> list[dict[str, Any]]:
    """The moves this device keeps for sending later."""
    moves: list[dict[str, Any]] = page.evaluate(
        "() => Object.keys(localStorage).filter("
        "k => k.startsWith('scorekeeper.pending:'))"
        ".map(k => JSON.parse(localStorage.getItem(k)).move)")
    return moves


def open_game_after_a_first_move(live_server: str, live_app: Flask,
                                 context: Any) -> tuple[Any, int]:
    """Start a game, enter its first move from another device, open the page."""
    from scorekeeper.store import games as stored

    page = context.new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
    with live_app.app_context():
        stored.record_move(game_id, {"type": "place", "tiles": [
            {"row": 0, "col": 0, "color": "red", "shape": "circle"}]})
    page.reload()
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator("[data-trade]")).to_be_visible()
    return page, game_id


def test_a_trade_confirmed_offline_is_kept_and_sent_with_its_turn(
    live_server: str, live_app: Flask, browser: Any
) -> None:
    context = browser.new_context(**PHONE)
    page, _ = open_game_after_a_first_move(live_server, live_app, context)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    context.set_offline(True)
    page.select_option("[data-trade] select", "3")
    page.tap("[data-trade] button[type=submit]")
    note = page.locator("[data-offline]")
    expect(note).to_contain_text("Not sent yet")
    expect(page.locator("[data-preview]")).to_contain_text("Not sent yet")
    kept = kept_moves(page)
    assert [(m["type"], m["count"], m["turn"]) for m in kept] == [("trade", 3, 1)]
    assert len(stored_moves(live_server, page)) == 1

    context.set_offline(False)
    expect(note).to_contain_text("stored now", timeout=10_000)
    moves = stored_moves(live_server, page)
    assert [(m["type"], m.get("count")) for m in moves][1:] == [("trade", 3)]
    expect(page.locator(".player.current .name")).to_have_text("Ann")
    assert kept_moves(page) == []
    assert errors == []


def test_a_pass_stored_whose_answer_was_lost_is_not_stored_twice(
    live_server: str, browser: Any
) -> None:
    from corpus import GAMES

    record = json.loads((GAMES / "classic-10003.json").read_text())
    record["moves"].pop()
    record.pop("final")
    request = urllib.request.Request(
        f"{live_server}/api/games/import", data=json.dumps(record).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as response:
        created = json.load(response)
    turn = created["turn"]
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/games/{created['id']}/join/{created['edit_token']}")
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator("[data-pass]")).to_be_visible()  # the bag is empty
    posts: list[int] = []

    def lose_answer(route: Any) -> None:
        response = route.fetch()
        posts.append(response.status)
        route.abort("connectionreset")

    page.route(re.compile(r"/api/games/\d+/moves$"), lose_answer)
    page.tap("[data-pass] button[type=submit]")
    expect(page.locator("[data-offline]")).to_contain_text("Not sent yet")
    assert posts == [201]
    assert [(m["type"], m["turn"]) for m in kept_moves(page)] == [("pass", turn)]
    page.unroute(re.compile(r"/api/games/\d+/moves$"))
    # The retry gets 409 with a state whose move number `turn` is this pass.
    expect(page.locator("[data-offline]")).to_contain_text("stored now",
                                                           timeout=10_000)
    moves = stored_moves(live_server, page)
    assert len(moves) == turn + 1 and moves[-1]["type"] == "pass"
    assert kept_moves(page) == []


def test_a_kept_trade_is_dropped_when_another_trade_took_its_turn(
    live_server: str, live_app: Flask, browser: Any
) -> None:
    from scorekeeper.store import games as stored

    context = browser.new_context(**PHONE)
    page, game_id = open_game_after_a_first_move(live_server, live_app, context)
    context.set_offline(True)
    page.select_option("[data-trade] select", "2")
    page.tap("[data-trade] button[type=submit]")
    expect(page.locator("[data-offline]")).to_contain_text("Not sent yet")
    # Meanwhile another device traded another number of tiles on that turn:
    # the same kind of move, but not this one.
    with live_app.app_context():
        stored.record_move(game_id, {"type": "trade", "count": 4})
    context.set_offline(False)
    expect(page.locator("[data-offline]")).to_contain_text("had moved on",
                                                           timeout=10_000)
    moves = stored_moves(live_server, page)
    assert [(m["type"], m.get("count")) for m in moves][1:] == [("trade", 4)]
    assert kept_moves(page) == []
    expect(page.locator(".player.current .name")).to_have_text("Ann")


def test_a_kept_move_the_engine_refuses_marks_the_cells_it_names(
    live_server: str, browser: Any
) -> None:
    """The refusal of a kept move, once sent, is said and its cells are marked
    on the board (the sentence names no coordinates), until the move changes."""
    page = browser.new_context(**PHONE).new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    url = page.locator("[data-board]").get_attribute("data-api") + "/moves"
    # Two tiles not in one line, kept on this device as if confirmed offline.
    move = {"type": "place", "turn": 0, "tiles": [
        {"row": 0, "col": 0, "color": "red", "shape": "circle"},
        {"row": 1, "col": 1, "color": "red", "shape": "square"}]}
    page.evaluate("([url, move]) => localStorage.setItem('scorekeeper.pending:' + url,"
                  " JSON.stringify({url, move}))", [url, move])
    page.reload()
    note = page.locator("[data-offline]")
    expect(note).to_be_visible()
    expect(note).to_have_class(re.compile(r"\berror\b"))
    marks = page.locator("[data-board] rect.overlay-refused")
    expect(marks).not_to_have_count(0)
    tap_cell(page, 0, 0)
    page.tap('[data-picker] [data-kind="red circle"]')
    expect(marks).to_have_count(0)
    assert stored_moves(live_server, page) == []
