"""A move confirmed while the server cannot be reached (issue 10), in headless
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
