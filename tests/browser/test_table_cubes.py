"""Qwirkle Cubes by tapping: the set choice, the picker counting cubes per colour."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import tiles_json
from flask import Flask
from playwright.sync_api import expect
from test_pages_cubes import SHAPES, red_row

from .helpers import PHONE, tap_cell

pytestmark = pytest.mark.browser


@pytest.fixture
def live(live_app: Flask, live_server: str) -> tuple[str, str]:
    """The app (CSRF on) at a free port, with a cubes game whose 15 reds are down.

    Returns the base address and that game's join link.
    """
    client = live_app.test_client()
    game = client.post("/api/games", json={
        "players": ["Anna", "Bo"], "variant": {"name": "cubes"},
    }).get_json()
    column = [(r, 0, "red", SHAPES[r]) for r in range(2, 5)]
    for tiles in (red_row(0, 0), red_row(1, 1), column):
        response = client.post(
            f"/api/games/{game['id']}/moves",
            json={"type": "place", "tiles": tiles_json(tiles)},
            headers={"X-Edit-Token": game["edit_token"]},
        )
        assert response.status_code == 201, response.get_json()
    return live_server, f"{live_server}/games/{game['id']}/join/{game['edit_token']}"


@pytest.fixture
def page(live: tuple[str, str], browser: Any) -> Iterator[Any]:
    """A phone-sized page; fails the test on any script error."""
    tab = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    assert errors == []


def button(page: Any, kind: str) -> Any:
    return page.locator(f'[data-picker] [data-kind="{kind}"]')


def count(page: Any, kind: str) -> Any:
    return page.locator(f'[data-picker] [data-kind="{kind}"] .n')


def test_a_cubes_game_counts_pending_cubes_by_colour(
    live: tuple[str, str], page: Any
) -> None:
    base, _join = live
    page.goto(f"{base}/games/new")
    page.fill("#names-0", "Anna")
    page.fill("#names-1", "Bo")
    # The custom fields show only for a custom set.
    expect(page.locator(".custom-set")).to_be_hidden()
    page.check("input[name=tile_set][value=cubes]")
    expect(page.locator(".custom-set")).to_be_hidden()
    page.tap("form.new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator("[data-bag]")).to_have_text("78")
    assert page.locator("form[data-trade]").count() == 0

    tap_cell(page, 0, 0)
    page.tap('[data-picker] [data-kind="blue circle"]')
    tap_cell(page, 0, 1)
    expect(page.locator("[data-picker]")).to_be_visible()
    # One blue cube is pending: every blue face has 14 left, other colours 15.
    expect(count(page, "blue square")).to_have_text("14")
    expect(count(page, "red square")).to_have_text("15")
    page.tap('[data-picker] [data-kind="blue square"]')
    expect(page.locator("[data-preview]")).to_have_text("blue line 2 = 2")
    expect(page.locator("[data-confirm]")).to_be_enabled()
    page.tap("[data-confirm]")
    expect(page.locator("section.scores [data-total]")).to_have_text(["2", "0"])
    expect(page.locator('.color-left [data-color="blue"]')).to_have_text(
        "blue 13 left"
    )


def test_the_picker_greys_a_colour_whose_cubes_are_all_down(
    live: tuple[str, str], page: Any
) -> None:
    _base, join = live
    page.goto(join)
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator('.color-left [data-color="red"]')).to_have_text("red 0 left")
    tap_cell(page, 3, 1)  # beside the red cube at (3, 0): its face may follow
    expect(page.locator("[data-picker]")).to_be_visible()
    for shape in SHAPES:
        expect(button(page, f"red {shape}")).to_be_disabled()
        expect(count(page, f"red {shape}")).to_have_text("0")
    expect(button(page, f"blue {SHAPES[3]}")).to_be_enabled()
