"""Replaying a finished corpus game in headless chromium: buttons, keys and slider."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from corpus import GAMES as CORPUS
from flask import Flask

from .helpers import PHONE

pytestmark = pytest.mark.browser

RECORD = json.loads((CORPUS / "classic-10003.json").read_text(encoding="utf-8"))


@pytest.fixture
def live_game(live_app: Flask, live_server: str) -> str:
    """The app (CSRF on) on a free port, holding one finished corpus game."""
    response = live_app.test_client().post("/api/games/import", json=RECORD)
    assert response.status_code == 201
    game_id = response.get_json()["id"]
    return f"{live_server}/games/{game_id}/replay"


@pytest.fixture
def page(live_game: str, browser: Any) -> Iterator[Any]:
    """A desktop-sized page; fails the test on any console error (e.g. CSP)."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and "Failed to load resource" not in m.text
            else None
        ),
    )
    tab.on("pageerror", lambda e: errors.append(str(e)))
    # Report failed requests by URL (the browser's own favicon probe aside).
    tab.on(
        "response",
        lambda r: (
            errors.append(f"{r.status} {r.url}")
            if r.status >= 400 and not r.url.endswith("/favicon.ico")
            else None
        ),
    )
    yield tab
    assert errors == []


def expected(step: int) -> tuple[int, list[int]]:
    """Tiles on the board and running totals after `step` moves of the record."""
    tiles, totals = 0, [0] * len(RECORD["players"])
    for move in RECORD["moves"][:step]:
        tiles += len(move.get("tiles", []))
        totals[move["player"]] += move.get("score", 0)
    if step == len(RECORD["moves"]):
        totals = RECORD["final"]["scores"]
    return tiles, totals


def shown(page: Any) -> tuple[int, int, list[int]]:
    """Return (step, tiles on the board, totals) as the page shows them."""
    step = int(page.get_attribute("[data-replay]", "data-step"))
    tiles = page.locator(".replay-board g.rtile").count()
    totals = [
        int(page.inner_text(f"[data-total='{seat}']"))
        for seat in range(len(RECORD["players"]))
    ]
    return step, tiles, totals


def check(page: Any, step: int) -> None:
    tiles, totals = expected(step)
    assert shown(page) == (step, tiles, totals)
    assert page.url.endswith(f"move={step}") or step == len(RECORD["moves"])


def test_replay_with_buttons_keys_and_slider(live_game: str, page: Any) -> None:
    last = len(RECORD["moves"])
    page.goto(f"{live_game}?move=0")
    check(page, 0)

    page.click("a[data-replay-go=next]")
    page.wait_for_url(re.compile(r"move=1$"))
    check(page, 1)
    assert page.locator(".replay-board g.placed").count() == len(
        RECORD["moves"][0]["tiles"]
    )

    for step in (2, 3, 4):
        page.keyboard.press("ArrowRight")
        page.wait_for_url(re.compile(rf"move={step}$"))
    check(page, 4)

    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r"move=3$"))
    check(page, 3)

    page.click("a[data-replay-go=last]")
    page.wait_for_url(re.compile(rf"move={last}$"))
    check(page, last)
    assert "Game over" in page.inner_text(".final")
    assert page.locator("span[data-replay-go=next]").count() == 1

    page.keyboard.press("Home")
    page.wait_for_url(re.compile(r"move=0$"))
    check(page, 0)

    page.keyboard.press("End")
    page.wait_for_url(re.compile(rf"move={last}$"))

    page.click("a[data-replay-go=prev]")
    page.wait_for_url(re.compile(rf"move={last - 1}$"))
    check(page, last - 1)

    page.click("a[data-replay-go=first]")
    page.wait_for_url(re.compile(r"move=0$"))

    # The slider jumps straight to a step.
    slider = page.locator("[data-replay-slider]")
    slider.evaluate("el => { el.value = '20'; el.dispatchEvent(new Event('change')); }")
    page.wait_for_url(re.compile(r"move=20$"))
    check(page, 20)


def test_a_shared_step_address_opens_that_step(live_game: str, page: Any) -> None:
    page.goto(f"{live_game}?move=17")
    check(page, 17)
    title = page.inner_text("[data-replay-title]")
    mover = RECORD["players"][RECORD["moves"][16]["player"]]
    assert "Move 17" in title and mover in title
    # The board keeps its frame from step to step (no jumping around).
    box = page.get_attribute(".replay-board", "viewBox")
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"move=18$"))
    assert page.get_attribute(".replay-board", "viewBox") == box


def test_on_a_phone_the_step_buttons_answer_taps(live_game: str, browser: Any) -> None:
    tab = browser.new_context(**PHONE).new_page()
    tab.goto(f"{live_game}?move=5")
    tab.tap("a[data-replay-go=next]")
    tab.wait_for_url(re.compile(r"move=6$"))
    check(tab, 6)
    # The board fits the phone's width.
    width = tab.eval_on_selector(
        ".replay-board", "el => el.getBoundingClientRect().width"
    )
    assert 300 <= width <= 390
    # A step reads without scrolling: summary, totals and the whole board
    # are on the first screen.
    for selector in ("[data-replay-title]", ".totals", ".replay-board"):
        bottom = tab.eval_on_selector(
            selector, "el => el.getBoundingClientRect().bottom"
        )
        assert bottom <= 844, selector
    height = tab.eval_on_selector(
        ".replay-board", "el => el.getBoundingClientRect().height"
    )
    assert height >= 300


def test_the_score_sheet_prints_without_the_app_chrome(
    live_game: str, browser: Any
) -> None:
    sheet = live_game.replace("/replay", "/scoresheet")
    tab = browser.new_page()
    tab.goto(sheet)
    assert tab.is_visible("header.top")
    tab.emulate_media(media="print")
    assert not tab.is_visible("header.top")
    assert not tab.is_visible(".no-print")
    assert tab.is_visible("table.sheet")
    rows = tab.locator("table.sheet tbody tr").count()
    assert rows == len(RECORD["moves"]) // len(RECORD["players"])
    pdf = tab.pdf(format="A4")
    assert pdf.startswith(b"%PDF-")
