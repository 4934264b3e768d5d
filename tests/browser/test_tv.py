"""The table view in headless chromium: it follows moves entered on
another device through server-sent events, or by polling without EventSource,
and its totals are big on a 1920x1080 screen and on a phone."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import PHONE

pytestmark = pytest.mark.browser


def api(base: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Edit-Token"] = token
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode() if body is not None else None,
        headers=headers, method="POST" if body is not None else "GET",
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def place(base: str, game: dict[str, Any], row: int, col: int, color: str,
          shape: str) -> None:
    api(base, f"/api/games/{game['id']}/moves", {"type": "place", "tiles": [
        {"row": row, "col": col, "color": color, "shape": shape}]}, game["edit_token"])


@pytest.mark.parametrize("mode", ["events", "poll"])
def test_the_table_view_follows_moves_from_another_device(
    live_server: str, browser: Any, mode: str
) -> None:
    game = api(live_server, "/api/games", {"players": ["Ann", "Bob", "Cy"]})
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    if mode == "poll":
        context.add_init_script("delete window.EventSource;")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    polled: list[str] = []
    page.on("request", lambda r: polled.append(r.url) if "/tv.json" in r.url else None)
    page.goto(f"{live_server}/games/{game['id']}/tv")
    expect(page.locator("[data-tv]")).to_have_attribute("data-tv-mode", mode)
    totals = page.locator("[data-tv-total]")
    expect(totals).to_have_text(["0", "0", "0"])
    board = page.locator("[data-tv-board]")
    expect(board).to_have_attribute("data-tiles", "0")
    page.wait_for_timeout(300)  # the stream is open

    place(live_server, game, 0, 0, "red", "circle")
    expect(totals).to_have_text(["1", "0", "0"], timeout=8000)
    # The live board shows the move, its tile ringed as the last move.
    expect(board).to_have_attribute("data-tiles", "1")
    expect(board.locator("g.c-red")).to_have_count(1)
    expect(board.locator("rect.last")).to_have_count(1)
    expect(page.locator("[data-tv-turn]")).to_have_text("Bob to play")
    expect(page.locator('[data-tv-player="1"]')).to_have_class(
        "tv-player current")
    expect(page.locator("[data-tv-last]")).to_contain_text("Ann")
    # Pushed through the open stream, not polled: no tv.json was asked for.
    assert (polled == []) == (mode == "events"), polled
    # Big across the table: the totals take a good part of the screen height.
    height = page.locator("[data-tv-total]").first.bounding_box()["height"]
    assert height > 150
    assert errors == []


def test_on_a_phone_every_player_and_the_timer_fit_the_screen(
    live_server: str, browser: Any
) -> None:
    game = api(live_server, "/api/games", {
        "players": ["Alexandra", "Bartholomew", "Chris", "Dee"],
        "options": {"move_seconds": 60}})
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/games/{game['id']}/tv")
    timer = page.locator("[data-tv-timer]")
    # The turn's minute started when the game was made: on a slow machine a
    # second or more has gone by before the page shows it.
    expect(timer).to_have_text(re.compile(r"^(1:00|0:[45]\d)$"), timeout=3000)
    shown = timer.text_content()
    expect(timer).not_to_have_text(shown or "", timeout=3000)  # it counts down
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    for card in page.locator("[data-tv-player]").all():
        box = card.bounding_box()
        assert box["y"] + box["height"] <= 844
    # The clock says what it counts; the board follows below, the phone's width.
    expect(page.locator("[data-tv-clock]")).to_contain_text("Thinking time left")
    board = page.locator("[data-tv-board]").bounding_box()
    assert board is not None and board["width"] >= 300
    assert board["x"] + board["width"] <= 390


WORDS_ON_ONE_LINE = """(el) => {
    // Each word of the name: how many line boxes it takes, and whether it
    // sticks out of its card.
    const text = el.firstChild;
    const card = el.closest('[data-tv-player]').getBoundingClientRect();
    const out = [];
    const re = /\\S+/g;
    let m;
    while ((m = re.exec(text.data)) !== null) {
        const range = document.createRange();
        range.setStart(text, m.index);
        range.setEnd(text, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        const box = range.getBoundingClientRect();
        const inside = box.left >= card.left - 1 && box.right <= card.right + 1;
        out.push([m[0], tops.size, inside]);
    }
    return out;
}"""


@pytest.mark.parametrize("names", [
    ["Alexandra", "Bartholomew", "Chris", "Dee"],
    ["Maximilianus Bartholomew", "Wolfgangwilhelmina", "Anna Maria Lopez"],
])
def test_on_a_small_phone_names_break_only_between_words(
    live_server: str, browser: Any, names: list[str]
) -> None:
    game = api(live_server, "/api/games", {"players": names})
    page = browser.new_context(viewport={"width": 360, "height": 640},
                               is_mobile=True, has_touch=True).new_page()
    page.goto(f"{live_server}/games/{game['id']}/tv")
    page.evaluate("document.fonts.ready")
    cards = page.locator(".tv-name")
    expect(cards).to_have_text(names)
    for i, name in enumerate(names):
        words = cards.nth(i).evaluate(WORDS_ON_ONE_LINE)
        assert [w for w, _, _ in words] == name.split()
        for word, lines, inside in words:
            assert lines == 1, f"{word!r} of {name!r} is broken over {lines} lines"
            assert inside, f"{word!r} of {name!r} sticks out of its card"
    # Only a word too wide for its card shrinks the font; the others keep the
    # full size (1.4rem, 1.3rem with four players), and none goes below 12 px.
    sizes = page.eval_on_selector_all(
        ".tv-name", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    full = 20.8 if len(names) >= 4 else 22.4
    for name, size in zip(names, sizes, strict=True):
        longest = max(len(word) for word in name.split())
        assert size >= 12, (name, size)
        if longest <= 9:
            assert size == full, (name, size)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_on_a_1080p_screen_the_board_stands_beside_the_totals(
    live_server: str, browser: Any
) -> None:
    """A TV (1920x1080): the live board left, as high as the screen, the totals
    and the labelled clock right; nothing scrolls."""
    game = api(live_server, "/api/games", {"players": ["Ann", "Bob", "Cy", "Dee"]})
    place(live_server, game, 0, 0, "red", "circle")
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(f"{live_server}/games/{game['id']}/tv")
    board = page.locator("[data-tv-board]")
    expect(board).to_have_attribute("data-tiles", "1")
    box = board.bounding_box()
    assert box is not None and box["height"] >= 900 and box["width"] >= 800
    for card in page.locator("[data-tv-player]").all():
        card_box = card.bounding_box()
        assert card_box["x"] >= box["x"] + box["width"]  # beside the board
        assert card_box["y"] + card_box["height"] <= 1080
    expect(page.locator("[data-tv-clock]")).to_contain_text("This turn")
    clock = page.locator("[data-tv-timer]").bounding_box()
    assert clock["y"] + clock["height"] <= 1080
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920


@pytest.mark.parametrize(("lang", "names"), [
    ("en", ["The board, 0 tiles", "The board, 1 tile", "The board, 2 tiles"]),
    ("fr", ["La grille, 0 pion", "La grille, 1 pion", "La grille, 2 pions"]),
])
def test_board_name_counts_its_tiles_in_the_page_language(
    live_server: str, browser: Any, lang: str, names: list[str]
) -> None:
    """The board's accessible name follows the moves in the singular and the
    plural of the page's language (it said "1 tiles" when only its number was
    replaced), on the table view and on the game page that entered them."""
    game = api(live_server, "/api/games", {"players": ["Ann", "Bob"]})
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    tv = context.new_page()
    tv.goto(f"{live_server}/games/{game['id']}/tv?lang={lang}")
    board = tv.locator("[data-tv-board]")
    expect(board).to_have_attribute("aria-label", names[0])
    game_page = context.new_page()
    game_page.goto(f"{live_server}/games/{game['id']}?lang={lang}")
    game_board = game_page.locator("[data-board]")
    for count, (row, col, shape) in enumerate([(0, 0, "circle"), (0, 1, "square")], 1):
        place(live_server, game, row, col, "red", shape)
        expect(board).to_have_attribute("aria-label", names[count], timeout=8000)
        expect(game_board).to_have_attribute(
            "aria-label", re.compile("^" + re.escape(names[count])), timeout=8000)
    context.close()
