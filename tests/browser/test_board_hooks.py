"""The board hook API (window.scorekeeper.board) that hints and photo build on."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import PHONE, start_game

pytestmark = pytest.mark.browser


def test_overlay_propose_and_events_drive_the_board(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    start_game(page, live_server, ["Ann", "Bob"])
    page.evaluate(
        """() => {
            window.heard = {pending: [], confirmed: []};
            const b = window.scorekeeper.board;
            b.on('pending', tiles => window.heard.pending.push(tiles));
            b.on('confirmed', answer => window.heard.confirmed.push(answer));
        }"""
    )
    # overlay: cells get the kind's class; an empty list clears that kind only.
    page.evaluate(
        "() => { scorekeeper.board.overlay([[0, 0], [0, 1]], 'hint');"
        " scorekeeper.board.overlay([[2, 2]], 'threat'); }"
    )
    expect(page.locator("[data-board] rect.overlay-hint")).to_have_count(2)
    expect(page.locator("[data-board] rect.overlay-threat")).to_have_count(1)
    page.evaluate("() => scorekeeper.board.overlay([], 'hint')")
    expect(page.locator("[data-board] rect.overlay-hint")).to_have_count(0)
    expect(page.locator("[data-board] rect.overlay-threat")).to_have_count(1)

    # propose: the tiles are pending as if tapped and the usual preview runs.
    page.evaluate(
        "() => scorekeeper.board.propose("
        "[[0, 0, 'red', 'circle'], [0, 1, 'red', 'square']])"
    )
    expect(page.locator("[data-board] g.pending")).to_have_count(2)
    expect(page.locator("[data-preview]")).to_have_text("red line 2 = 2")
    assert page.evaluate("() => window.heard.pending.at(-1)") == [
        [0, 0, "red", "circle"], [0, 1, "red", "square"]
    ]
    page.tap("[data-confirm]")
    expect(page.locator("section.scores [data-total]")).to_have_text(["2", "0"])
    page.wait_for_function("() => window.heard.confirmed.length === 1")
    answer = page.evaluate("() => window.heard.confirmed[0]")
    assert answer["score"] == 2
    assert answer["game"]["turn"] == 1
    # The move's tiles left the pending move: its listeners hear it empty.
    assert page.evaluate("() => window.heard.pending.at(-1)") == []
    # An overlay outlives the redraw of a new turn until its owner clears it.
    expect(page.locator("[data-board] rect.overlay-threat")).to_have_count(1)
    # A proposal on an occupied cell adds nothing.
    assert page.evaluate(
        "() => scorekeeper.board.propose([[0, 0, 'blue', 'circle']])"
    ) is False
    expect(page.locator("[data-board] g.pending")).to_have_count(0)
    assert errors == []
