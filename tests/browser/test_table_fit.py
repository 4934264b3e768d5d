"""Every page of the table fits its screen, in every language, in headless
chromium: on a phone (360x640, 390x844) and a TV (1280x720, 1920x1080) the
first move's hint, every total and the last-move line are on screen and
uncovered; the table view is no taller than the screen, in play and at the end
(a long end sentence, four players with 12-letter names); no control lies over
another; no player card is clipped. One browser context per screen size, a few
pages per language. And a correction begun at the table: three taps to start
it, one to come back to the corrected totals."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from corpus import load
from playwright.sync_api import expect

from .helpers import cell_point, tap_cell

pytestmark = pytest.mark.browser

LANGUAGES = ("nl", "en", "de", "fr", "es")
NAMES = ["Bartholomeus", "Christabella", "Maximiliaan", "Wilhelmienne"]
"""Four players with 12-letter names."""

SCREENS = {
    (360, 640): {"is_mobile": True, "has_touch": True},
    (390, 844): {"is_mobile": True, "has_touch": True},
    (1280, 720): {},
    (1920, 1080): {},
}

SEEN = """
  // Is a box on screen, under neither sticky bar, and what is drawn there
  // (elementFromPoint at its corners and centre) the element, or `also`?
  (el, box, also) => {
    const head = document.querySelector('header').getBoundingClientRect().bottom;
    const entry = document.querySelector('.game > [data-entry]');
    const style = entry && getComputedStyle(entry);
    const bar = style && style.position === 'sticky' && style.bottom === '0px'
      ? entry.getBoundingClientRect().top : innerHeight;
    return [[box.left + 2, box.top + 2], [box.right - 2, box.bottom - 2],
            [(box.left + box.right) / 2, (box.top + box.bottom) / 2]]
      .every(([x, y]) => {
        if (y <= head || y >= Math.min(bar, innerHeight) || x <= 0 || x >= innerWidth) {
          return false;
        }
        const hit = document.elementFromPoint(x, y);
        return el.contains(hit) || (also && also.contains(hit));
      });
  }
"""

GAME_PAGE = f"""() => {{
  const seen = {SEEN};
  const hint = document.querySelector('[data-first-hint]');
  const last = document.querySelector('[data-last-move]');
  let lines = null;
  if (last && !last.hidden) {{
    const range = document.createRange();
    range.selectNodeContents(last);
    lines = [...range.getClientRects()].map(r => seen(last, r));
  }}
  return {{
    // The hint lets taps through to the board (pointer-events: none).
    hint: hint ? seen(hint, hint.getBoundingClientRect(),
                      document.querySelector('[data-board]')) : null,
    totals: [...document.querySelectorAll('section.scores [data-total]')]
      .map(el => seen(el, el.getBoundingClientRect())),
    last: lines,
    clipped: [...document.querySelectorAll(
        'section.scores .player, section.scores .player > *')]
      .filter(el => el.scrollWidth > el.clientWidth)
      .map(el => el.className + ': ' + el.textContent.trim()),
  }};
}}"""

OVERLAPS = """() => {
  // Every control drawn on screen: the control is what its centre hits.
  const controls = document.querySelectorAll(
    'a[href], button, summary, select, input:not([type=hidden]):not(.sr-only)');
  const out = [];
  for (const el of controls) {
    const box = el.getBoundingClientRect();
    // Not drawn: hidden, or inside a closed <details>.
    const drawn = el.checkVisibility(
      {contentVisibilityAuto: true, visibilityProperty: true});
    if (!box.width || !box.height || !drawn) { continue; }
    const x = (box.left + box.right) / 2, y = (box.top + box.bottom) / 2;
    if (x < 0 || x >= innerWidth || y < 0 || y >= innerHeight) { continue; }
    const hit = document.elementFromPoint(x, y);
    // A control under a sticky bar (scrolled there) is the bar's business.
    if (hit && hit.closest('header, .game > [data-entry]') &&
        !el.closest('header, [data-entry]')) {
      continue;
    }
    if (!hit || !(el.contains(hit) || hit.contains(el) && el.tagName === 'INPUT')) {
      out.push((el.textContent.trim() || el.outerHTML.slice(0, 60)) + ' under ' +
               (hit ? hit.outerHTML.slice(0, 60) : 'nothing'));
    }
  }
  return out;
}"""

TV_PAGE = """() => ({
  height: document.documentElement.scrollHeight,
  width: document.documentElement.scrollWidth,
  bag: (() => {
    const r = document.querySelector('[data-tv-bag]').getBoundingClientRect();
    return r.bottom <= innerHeight && r.height > 0;
  })(),
  clipped: [...document.querySelectorAll('.tv-player, .tv-player > *')]
    .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.textContent.trim()),
})"""


def games(context: Any, base: str) -> dict[str, str]:
    """Make the table's games as this device, which may enter their moves:
    an empty one, four long names in play, the same game at its end. Return
    each one's game page."""
    record = load("classic-10003.json")
    record["players"] = NAMES
    playing = {**record, "moves": record["moves"][:20], "final": None}
    made = {
        "empty": context.request.post(
            f"{base}/api/games", data={"players": ["Anna", "Bram"]}),
        "playing": context.request.post(f"{base}/api/games/import", data=playing),
        "ended": context.request.post(f"{base}/api/games/import", data=record),
    }
    for answer in made.values():
        assert answer.status == 201, answer.text()
    return {
        name: f"{base}/games/{answer.json()['id']}" for name, answer in made.items()
    }


def opened(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("[data-board][data-drawn], [data-tv-board][data-tiles]")
    page.evaluate("document.fonts.ready")


@pytest.mark.parametrize("size", list(SCREENS), ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_page_fits_its_screen_in_every_language(
    live_server: str, browser: Any, size: tuple[int, int]
) -> None:
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, **SCREENS[size])
    urls = games(context, live_server)
    page = context.new_page()
    tv = width >= 1000
    for lang in LANGUAGES:
        opened(page, f"{urls['empty']}?lang={lang}")
        first = page.evaluate(GAME_PAGE)
        assert first["hint"] is True, (lang, first)
        assert all(first["totals"]), (lang, first)
        assert page.evaluate(OVERLAPS) == [], lang

        opened(page, f"{urls['playing']}?lang={lang}")
        playing = page.evaluate(GAME_PAGE)
        assert playing["hint"] is None
        assert all(playing["totals"]) and len(playing["totals"]) == 4, (lang, playing)
        assert playing["last"] and all(playing["last"]), (lang, playing)
        assert playing["clipped"] == [], (lang, playing)
        assert page.evaluate(OVERLAPS) == [], lang
        if not tv:
            continue
        for state in ("playing", "ended"):
            opened(page, f"{urls[state]}/tv?lang={lang}")
            shown = page.evaluate(TV_PAGE)
            fits = shown["height"] <= height and shown["width"] <= width
            assert fits, (lang, state, shown)
            assert shown["bag"] and shown["clipped"] == [], (lang, state, shown)
            assert page.evaluate(OVERLAPS) == [], (lang, state)
    # The new-game form's "Start the game" is in reach on the first screen.
    page.goto(f"{live_server}/games/new")
    start = page.locator("form.new-game button[type=submit]")
    assert start.evaluate("""el => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight && el.contains(
            document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2));
    }""")
    context.close()


def ann_and_bob(browser: Any, base: str) -> tuple[Any, dict[str, Any]]:
    """A 390x844 phone and a new game of Ann and Bob it may enter moves of."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    made = context.request.post(f"{base}/api/games", data={"players": ["Ann", "Bob"]})
    assert made.status == 201, made.text()
    return context, made.json()


def test_a_correction_begun_at_the_table_comes_back_to_the_new_totals(
    live_server: str, browser: Any
) -> None:
    context, game = ann_and_bob(browser, live_server)
    moves = [
        [(0, 0, "red", "circle"), (0, 1, "red", "square")], [(0, 2, "red", "diamond")]
    ]
    for tiles in moves:
        body = {"type": "place", "tiles": [
            {"row": r, "col": c, "color": k, "shape": s} for r, c, k, s in tiles]}
        answer = context.request.post(
            f"{live_server}/api/games/{game['id']}/moves", data=json.dumps(body),
            headers={"Content-Type": "application/json",
                     "X-Edit-Token": game["edit_token"]})
        assert answer.status == 201, answer.text()
    page = context.new_page()
    opened(page, f"{live_server}/games/{game['id']}")
    totals = page.locator("section.scores [data-total]")
    expect(totals).to_have_text(["2", "3"])

    taps = 0
    for target in ("[data-table-menu] > summary", "[data-recent] li[data-n='2'] a"):
        page.tap(target)
        taps += 1
    page.wait_for_selector("form.correct-form")
    assert taps <= 2
    # Bob traded one tile rather than placing his.
    page.select_option("select[name=type]", "trade")
    expect(page.locator("[data-count]")).to_be_visible()
    page.fill("input[name=count]", "1")
    page.tap("form.correct-form button[type=submit]")  # the one tap back
    page.wait_for_url(f"{live_server}/games/{game['id']}")
    expect(totals).to_have_text(["2", "0"])
    expect(page.locator("section.scores .player .last")).to_have_text(["+2", "⇄ 1"])
    context.close()


def opened_game(browser: Any, base: str) -> tuple[Any, Any]:
    """Ann and Bob's new game open on the phone; return the context and page."""
    context, game = ann_and_bob(browser, base)
    page = context.new_page()
    opened(page, f"{base}/games/{game['id']}")
    return context, page


def pick(page: Any, row: int, col: int, kind: str) -> None:
    """Tap a cell, then the tile for it in the picker."""
    tap_cell(page, row, col)
    expect(page.locator(f"[data-picker][data-ready='{row},{col}']")).to_be_visible()
    page.tap(f'[data-picker] .picker-grid [data-kind="{kind}"]')


def test_confirm_moves_the_totals_before_the_answer_and_a_refusal_puts_them_back(
    live_server: str, browser: Any
) -> None:
    context, page = opened_game(browser, live_server)
    held: list[Any] = []
    page.route("**/api/games/*/moves", lambda route: held.append(route))
    pick(page, 0, 0, "red circle")
    expect(page.locator("[data-preview]")).to_contain_text("1")
    page.tap("[data-confirm]")
    # The answer is held: the totals are the preview's.
    totals = page.locator("section.scores [data-total]")
    expect(totals).to_have_text(["1", "0"])
    expect(page.locator("section.scores .player").first).to_have_class(
        re.compile(r"\bguessed\b"))
    assert len(held) == 1
    held[0].fulfill(status=422, json={"error": {
        "code": "illegal", "message": "Refused for the test.", "cells": []}})
    expect(totals).to_have_text(["0", "0"])
    expect(page.locator("section.scores .player").first).to_have_class(
        re.compile(r"\breverted\b"))
    expect(page.locator("[data-preview]")).to_have_text("Refused for the test.")
    context.close()


def test_a_panned_board_is_marked_and_fitted_again_after_confirm(
    live_server: str, browser: Any
) -> None:
    context, page = opened_game(browser, live_server)
    fit = page.locator("[data-fit]")
    for n, (col, kind) in enumerate([(0, "red circle"), (1, "red square")], 1):
        pick(page, 0, col, kind)
        expect(fit).not_to_have_class(re.compile(r"\bmore\b"))
        if n == 2:
            # A finger drags the tiles to the left edge, half out of view.
            box = page.locator("[data-board]").bounding_box()
            x, y = cell_point(page, 0, 0)
            page.mouse.move(x, y)
            page.mouse.down()
            page.mouse.move(box["x"], y, steps=6)
            page.mouse.up()
            expect(fit).to_have_class(re.compile(r"\bmore\b"))
        page.tap("[data-confirm]")
        page.wait_for_selector(f"[data-board][data-drawn='{n}']")
        # Fitted again: the whole board in view.
        expect(fit).not_to_have_class(re.compile(r"\bmore\b"))
    context.close()
