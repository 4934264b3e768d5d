"""What a person at the table sees of the header and the new-game form (issues 18
and 21): no menu item clipped on a 360 px phone in any language, "R·G·B" that says
what it does, "Who starts" by the names typed, the table-discipline choices whole
at 390 px, and no control on the game page smaller than a finger."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from corpus import GAMES as CORPUS
from flask import Flask
from playwright.sync_api import expect

from .helpers import PHONE

pytestmark = pytest.mark.browser

SMALL_PHONE = {
    "viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True
}

LANGUAGES = ["en", "nl", "de", "fr", "es"]

CLIPPED = """() => {
    // Every header item, whole: its text not cut inside it, and the item inside
    // both the screen and the part of the menu that shows (no scrolling needed).
    const screen = document.documentElement.clientWidth;
    const nav = document.querySelector('header.top nav');
    const shown = nav.getBoundingClientRect();
    const items = [...document.querySelectorAll(
        'header.top nav a, header.top .cb-toggle, header.top .lang-menu summary')];
    return items.filter(e => {
        const r = e.getBoundingClientRect();
        const cut = e.scrollWidth > e.clientWidth + 0.5
            || e.scrollHeight > e.clientHeight + 0.5;
        const outside = r.left < -0.5 || r.right > screen + 0.5;
        const hidden = nav.contains(e)
            && (r.left < shown.left - 0.5 || r.right > shown.right + 0.5);
        return cut || outside || hidden || r.width < 44 || r.height < 44;
    }).map(e => [e.textContent.trim(), Math.round(e.getBoundingClientRect().left),
                 Math.round(e.getBoundingClientRect().right), e.scrollWidth,
                 e.clientWidth]);
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_menu_item_is_clipped_on_a_360_px_phone(
    live_server: str, browser: Any, lang: str
) -> None:
    page = browser.new_context(**SMALL_PHONE).new_page()
    for path in ("/", "/games/new", "/history"):
        page.goto(f"{live_server}{path}?lang={lang}")
        assert page.evaluate("document.documentElement.lang").startswith(lang)
        assert page.evaluate(CLIPPED) == [], (lang, path)
        # Nothing of the menu lies beyond what shows: it needs no sideways scroll.
        assert page.evaluate(
            "() => { const n = document.querySelector('header.top nav');"
            " return n.scrollWidth <= n.clientWidth + 0.5; }"), (lang, path)


def test_the_language_menu_is_named_by_what_it_shows(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/?lang=de")
    summary = page.locator(".lang-menu summary")
    # What a sighted person reads: the code alone (the rest is for screen readers).
    expect(summary.locator("[data-lang-code]")).to_have_text("DE")
    assert summary.evaluate("e => e.getBoundingClientRect().width") <= 60
    # The name a screen reader says (and voice control matches) starts with it.
    expect(summary).to_have_accessible_name(re.compile(r"^DE\b.*Deutsch"))


def test_rgb_says_what_it_does_when_it_is_turned_on(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/games/new")
    said = page.locator("[data-cb-said]")
    expect(said).to_be_hidden()
    page.tap("[data-cb-toggle]")
    expect(said).to_be_visible()
    expect(said).to_have_text("Colour-blind mode: a letter on every tile")
    page.tap("[data-cb-toggle]")
    expect(said).to_be_hidden()


def test_who_starts_offers_the_names_typed(live_server: str, browser: Any) -> None:
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/games/new")
    page.fill("#names-0", "Anna")
    page.fill("#names-1", "Bram")
    page.fill("#names-2", "Cas")
    offered = page.evaluate("""() => [...document.querySelectorAll(
        'select[name=starter] option')].filter(o => !o.hidden).map(o => o.text)""")
    assert offered == ["The app decides", "Anna", "Bram", "Cas"]
    page.select_option("select[name=starter]", label="Bram")
    page.tap("form.new-game button[type=submit]")
    page.wait_for_selector("[data-board][data-drawn]")
    expect(page.locator("[data-turn]")).to_have_text("Bram to play")


CUT_CHOICES = """() => {
    const screen = document.documentElement.clientWidth;
    // A select shows one line: its longest option must fit its face.
    const tooLong = e => {
        const c = document.createElement('canvas').getContext('2d');
        const s = getComputedStyle(e);
        c.font = s.fontWeight + ' ' + s.fontSize + ' ' + s.fontFamily;
        const widths = [...e.options].map(o => c.measureText(o.text).width);
        const widest = Math.max(...widths);
        return widest > e.clientWidth - 40;
    };
    return [...document.querySelectorAll(
        '[data-discipline-options] label, [data-discipline-options] select')]
      .filter(e => e.getBoundingClientRect().width > 0)
      .filter(e => e.scrollWidth > e.clientWidth + 0.5
                   || e.getBoundingClientRect().right > screen + 0.5
                   || (e.tagName === 'SELECT' && tooLong(e)))
      .map(e => e.textContent.trim().slice(0, 60));
}"""


def test_the_table_discipline_choices_show_whole_at_390_px(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    for lang in LANGUAGES:
        page.goto(f"{live_server}/games/new?lang={lang}")
        page.tap("[data-discipline-options] summary")
        cut = page.evaluate(CUT_CHOICES)
        assert cut == [], lang


def test_no_control_on_the_game_page_is_smaller_than_44_px(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    record = json.loads((CORPUS / "classic-10001.json").read_text())
    record["moves"], record["final"] = record["moves"][:10], None
    game = live_app.test_client().post("/api/games/import", json=record).get_json()
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/games/{game['id']}/join/{game['edit_token']}")
    page.wait_for_selector("[data-board][data-drawn]")
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    small = page.evaluate("""() => [...document.querySelectorAll(
        'input:not([type=hidden]), select, button, textarea')]
      // A visually hidden input (the photo's) is reached through its button.
      .filter(e => !e.classList.contains('sr-only'))
      .filter(e => { const r = e.getBoundingClientRect();
                     return r.width > 0 && (r.width < 44 || r.height < 44); })
      .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect().width,
                 e.getBoundingClientRect().height])""")
    assert small == []
