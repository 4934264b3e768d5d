"""A player leaves a running game on a phone (RULES §7.5): the menu's "Player
leaves", a tap on the name, the confirmation; the player is then marked as
left and the turn skips them."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import PHONE, open_menu, start_game, tap_cell

pytestmark = pytest.mark.browser


def place_one(page: Any, row: int, col: int, kind: str) -> None:
    """Enter a one-tile move by tapping and confirm it."""
    tap_cell(page, row, col)
    page.tap(f'[data-picker] [data-kind="{kind}"]')
    expect(page.locator("[data-confirm]")).to_be_enabled()
    page.tap("[data-confirm]")


def test_s7_5_a_player_leaves_from_the_menu_and_the_turn_skips_them(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    start_game(page, live_server, ["Ann", "Bob", "Cy"])
    place_one(page, 0, 0, "red circle")
    expect(page.locator("[data-turn]")).to_have_text("Bob to play")

    open_menu(page)
    page.locator("[data-leave]").click()
    expect(page.locator("h1")).to_have_text("Who leaves the game?")
    page.tap('[data-leave-seat="2"]')                 # Cy leaves in Bob's turn
    expect(page.locator("h1")).to_have_text("Does Cy leave the game?")
    page.tap("[data-confirm-leave]")

    expect(page.locator(".flashes")).to_contain_text("Cy: left the game")
    expect(page.locator("section.scores .name")).to_have_text(["Ann", "Bob"])
    expect(page.locator("[data-excluded-players] [data-left]")).to_contain_text(
        "Cy 0 left the game")
    expect(page.locator("[data-turn]")).to_have_text("Bob to play")
    page.wait_for_selector("[data-board][data-drawn]")
    place_one(page, 1, 0, "red square")              # Bob
    expect(page.locator("[data-turn]")).to_have_text("Ann to play")  # not Cy
    assert errors == []
