"""What a person at the table reaches, in headless chromium on
phones: every total and the whole last-move line in sight after Confirm, one
picker row per colour, a correction in a few taps, charts readable in both
schemes, dead cells explained with hints off, "+N" always in one place, and
the cells of an engine refusal marked on the board."""

from __future__ import annotations

import re
from typing import Any

import pytest
from corpus import record_before
from flask import Flask
from playwright.sync_api import expect

from .helpers import PHONE, adjacency_order, settle, tap_cell

pytestmark = pytest.mark.browser


def phone(width: int, height: int) -> dict[str, Any]:
    return {"viewport": {"width": width, "height": height}, "is_mobile": True,
            "has_touch": True}


def import_game(
    context: Any, base: str, game: str, place: int
) -> tuple[Any, dict, dict]:
    """Import a corpus game up to its placing move `place`; open its page as the
    device that may enter moves. Return the page, the state and the move."""
    record, move = record_before(game, place)
    made = context.request.post(f"{base}/api/games/import", data=record)
    assert made.status == 201, made.text()
    page = context.new_page()
    page.goto(f"{base}/games/{made.json()['id']}")
    page.wait_for_selector("[data-board][data-drawn]")
    return page, made.json(), move


def tap_in(page: Any, state: dict, move: dict) -> int:
    """Enter a placing move as a player does: a cell, then its tile, in an
    order each touches the board; return the taps it took (Confirm not yet)."""
    board = {(t["row"], t["col"]) for t in state["board"]}
    taps = 0
    for t in adjacency_order(board, move["tiles"]):
        tap_cell(page, t["row"], t["col"])
        expect(page.locator(f"[data-picker][data-ready='{t['row']},{t['col']}']")).to_be_visible()
        page.tap(f'[data-picker] .picker-grid [data-kind="{t["color"]} {t["shape"]}"]')
        taps += 2
    expect(page.locator("[data-preview]")).to_contain_text(f"= {move['score']}")
    return taps


IN_SIGHT = """() => {
    // Each point of an element: on screen, under no sticky bar, and the
    // element itself (or its text) is what is drawn there.
    const head = document.querySelector('header').getBoundingClientRect().bottom;
    const entry = document.querySelector('[data-entry]');
    const foot = entry ? entry.getBoundingClientRect().top : innerHeight;
    const seen = (el, r) => [[r.left + 2, r.top + 2], [r.right - 2, r.bottom - 2],
                             [(r.left + r.right) / 2, (r.top + r.bottom) / 2]]
        .every(([x, y]) => y > head && y < Math.min(foot, innerHeight) && x > 0 &&
               x < innerWidth && el.contains(document.elementFromPoint(x, y)));
    const totals = [...document.querySelectorAll('section.scores [data-total]')]
        .map(el => seen(el, el.getBoundingClientRect()));
    const last = document.querySelector('[data-last-move]');
    const text = last.firstChild;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, text.length);
    // Every line box of the sentence, its end ("= 7") included.
    const lines = [...range.getClientRects()].map(r => seen(last, r));
    return {totals, lines, text: last.textContent, scrolled: scrollY};
}"""


@pytest.mark.parametrize("size", [(360, 640), (390, 844)])
def test_after_confirm_every_total_and_the_whole_last_move_are_in_sight(
    live_server: str, browser: Any, size: tuple[int, int]
) -> None:
    context = browser.new_context(**phone(*size))
    # Four players late in a game: four cards, a long sentence, a big board.
    page, state, move = import_game(context, live_server, "classic-10003", 40)
    before = page.evaluate("scrollY")
    tap_in(page, state, move)
    page.tap("[data-confirm]")
    expect(page.locator("[data-board] .layer-pend g.pending")).to_have_count(0)
    expect(page.locator("[data-last-move]")).to_contain_text(f"= {move['score']}")
    settle(page)
    seen = page.evaluate(IN_SIGHT)
    assert seen["totals"] == [True] * 4, seen
    assert seen["lines"] and all(seen["lines"]), seen
    assert re.search(r"= \d+$", seen["text"]), seen
    # Opening the picker scrolled nothing for good.
    assert seen["scrolled"] == before
    context.close()


@pytest.mark.parametrize("colors", [3, 4, 5, 6, 7, 8])
def test_at_360_px_the_picker_has_one_row_per_colour(
    live_server: str, browser: Any, colors: int
) -> None:
    """A row a colour, a column a shape, every tile at least 42 px wide (8
    shapes across 360 px) and 44 px high."""
    context = browser.new_context(**phone(360, 640))
    made = context.request.post(f"{live_server}/api/games", data={
        "players": ["Ann", "Bob"],
        "variant": {"colors": colors, "shapes": colors, "copies": 2,
                    "hand_size": min(6, colors)}})
    assert made.status == 201, made.text()
    page = context.new_page()
    page.goto(f"{live_server}/games/{made.json()['id']}")
    page.wait_for_selector("[data-board][data-drawn]")
    tap_cell(page, 0, 0)
    expect(page.locator("[data-picker][data-ready='0,0']")).to_be_visible()
    tiles = page.evaluate("""() => [...document.querySelectorAll(
        '[data-picker] .picker-grid [data-kind]')].map(b => {
            const r = b.getBoundingClientRect();
            return [b.dataset.kind.split(' ')[0], Math.round(r.top), r.width,
                    r.height, r.right];
        })""")
    rows: dict[int, list[str]] = {}
    for color, top, width, height, right in tiles:
        rows.setdefault(top, []).append(color)
        assert width >= 42 and height >= 44, (color, width, height)
        assert right <= 360
    assert len(rows) == colors
    for row in rows.values():
        assert len(row) == colors and len(set(row)) == 1, rows
    context.close()


def test_a_recent_move_is_two_taps_from_its_correction(
    live_server: str, browser: Any
) -> None:
    context = browser.new_context(**PHONE)
    page, state, move = import_game(context, live_server, "classic-10001", 20)
    turn = state["turn"]
    taps = 0
    page.locator("[data-table-menu] > summary").tap()
    taps += 1
    recent = page.locator("[data-recent]")  # open with the menu
    links = recent.locator("li a")
    expect(links).to_have_count(5)
    expect(links.first).to_have_text(f"Correct move {turn}")
    # The move before the last: its correction.
    links.nth(1).tap()
    taps += 1
    page.wait_for_url(re.compile(rf"/moves/{turn - 1}/edit\?back=game$"))
    expect(page.locator("h1")).to_contain_text(f"Correct move {turn - 1}")
    assert taps <= 2

    # After a move entered here, the list starts with it (in place, no reload).
    page.go_back()
    page.wait_for_selector("[data-board][data-drawn]")
    tap_in(page, state, move)
    page.tap("[data-confirm]")
    first = page.locator("[data-recent] li").first
    expect(first.locator("a")).to_have_text(f"Correct move {turn + 1}")
    expect(first.locator("span")).to_contain_text(f"= {move['score']}")
    expect(page.locator("[data-recent] li")).to_have_count(5)
    context.close()


CHART_TEXT = """() => {
    const rgb = s => s.match(/[\\d.]+/g).slice(0, 4).map(Number);
    const lum = ([r, g, b]) => {
        const c = v => {
            v /= 255;
            return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
    };
    const background = el => {
        for (; el; el = el.parentElement) {
            const c = rgb(getComputedStyle(el).backgroundColor);
            if (c.length < 4 || c[3] > 0) { return c; }
        }
        return [255, 255, 255];
    };
    const svg = document.querySelector('svg.score-chart');
    const scale = svg.getScreenCTM().a;
    return [...svg.querySelectorAll('text')].map(t => {
        const a = lum(rgb(getComputedStyle(t).fill)), b = lum(background(svg));
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        return [t.textContent, ratio, parseFloat(getComputedStyle(t).fontSize) * scale];
    });
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_chart_text_is_readable_on_a_phone_in_both_schemes(
    live_server: str, browser: Any, scheme: str
) -> None:
    context = browser.new_context(**PHONE, color_scheme=scheme)
    record, _ = record_before("classic-10003", 56)
    made = context.request.post(f"{live_server}/api/games/import", data=record)
    page = context.new_page()
    for path in ("analysis", "replay"):
        page.goto(f"{live_server}/games/{made.json()['id']}/{path}")
        texts = page.evaluate(CHART_TEXT)
        assert len(texts) > 10
        for label, ratio, px in texts:
            assert ratio >= 4.5, (path, label, ratio)
            assert px >= 11, (path, label, px)
    context.close()


def test_with_hints_off_the_dead_cells_are_explained(
    live_server: str, browser: Any
) -> None:
    context = browser.new_context(**PHONE)
    page, _, _ = import_game(context, live_server, "classic-10003", 50)
    expect(page.locator("[data-hints-toggle]")).not_to_be_checked()
    dead = page.locator("[data-board] rect.slot.dead")
    expect(dead.first).to_be_attached()
    expect(dead.first.locator("title")).to_have_text(re.compile("dead cell", re.I))
    legend = page.locator(".board-legend")
    expect(legend).to_be_visible()
    expect(legend).to_have_text("no tile fits any more")
    context.close()


def test_every_card_puts_plus_n_in_one_place(
    live_server: str, browser: Any
) -> None:
    """Two players: "+N" on the line under each total; four: a card a line,
    "+N" at its end, in one column down the cards."""
    context = browser.new_context(**phone(360, 640))
    cards_js = """() => [
        ...document.querySelectorAll('section.scores .player')]
        .map(c => [c.querySelector('[data-total]').textContent,
                   c.querySelector('[data-total]').getBoundingClientRect().toJSON(),
                   c.querySelector('.last').getBoundingClientRect().toJSON()])"""
    page, _, _ = import_game(context, live_server, "classic-10001", 20)
    cards = page.evaluate(cards_js)
    assert len(cards) == 2
    assert all(last["top"] >= total["bottom"] - 1 for _, total, last in cards), cards
    page, _, _ = import_game(context, live_server, "classic-10003", 30)
    cards = page.evaluate(cards_js)
    assert len(cards) == 4 and any(len(total) >= 2 for total, _, _ in cards)
    assert all(total["top"] < last["bottom"] and last["top"] < total["bottom"]
               and last["left"] >= total["right"] for _, total, last in cards), cards
    rights = [last["right"] for _, _, last in cards]
    assert max(rights) - min(rights) <= 2, cards  # the current card's thicker border
    context.close()


def test_a_greyed_tile_tapped_marks_the_cells_the_refusal_names(
    live_server: str, live_app: Flask, browser: Any
) -> None:
    """The engine's refusal sentence no longer names coordinates: the board
    shows the cells it names."""
    context = browser.new_context(**PHONE)
    made = context.request.post(f"{live_server}/api/games",
                                data={"players": ["Ann", "Bob"]})
    game = made.json()
    context.request.post(f"{live_server}/api/games/{game['id']}/moves", data={
        "type": "place", "tiles": [
            {"row": 0, "col": 0, "color": "red", "shape": "circle"},
            {"row": 0, "col": 1, "color": "red", "shape": "square"}]},
        headers={"X-Edit-Token": game["edit_token"]})
    page = context.new_page()
    page.goto(f"{live_server}/games/{game['id']}")
    page.wait_for_selector("[data-board][data-drawn]")
    tap_cell(page, 0, 2)
    expect(page.locator("[data-picker][data-ready='0,2']")).to_be_visible()
    # A blue circle does not fit the red line.
    grey = page.locator('[data-picker] .picker-grid [data-kind="blue circle"]')
    expect(grey).to_have_class(re.compile(r"\boff\b"))
    box = grey.bounding_box()  # aria-disabled: a finger still taps it
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("[data-preview].error")).not_to_be_empty()
    why = context.request.get(
        f"{live_server}/games/{game['id']}/options?cell=0,2&tiles=[]&why=blue%20circle").json()
    cells = why["error"]["cells"]
    assert cells
    expect(page.locator("[data-board]")).to_have_attribute(
        "data-bad", ";".join(f"{r},{c}" for r, c in cells))
    expect(page.locator("[data-board] rect.bad")).not_to_have_count(0)
    context.close()
