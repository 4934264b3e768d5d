"""Table discipline on the game page without reloads (RULES §7): a penalty is
recorded in place and the buttons then name the next player, an excluded player
moves apart from the scores, the countdown starts again with every turn, and
every request the page's scripts make asks for the page's own language."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from .helpers import PHONE, tap_cell

pytestmark = pytest.mark.browser

MARK = "window.__stayed = true"
"""Set once on the page; still there only if the page never reloaded."""


def strict_game(page: Any, base: str, names: list[str], lang: str = "en") -> int:
    """Start a game with a clock of 30 s, 3 points off for an illegal move and
    exclusion for running out of time; return its id."""
    page.goto(f"{base}/games/new?lang={lang}")
    for i, name in enumerate(names):
        page.fill(f"#names-{i}", name)
    page.tap("[data-discipline-options] summary")
    page.fill("#move_seconds", "30")
    page.check("input[name=on_illegal][value=deduct]")
    page.check("input[name=on_timeout][value=exclude]")
    page.fill("#penalty_points", "3")
    page.tap("form.new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    page.wait_for_selector("[data-board][data-drawn]")
    return int(page.url.rsplit("/", 1)[1])


def record_penalty(page: Any, reason: str) -> None:
    page.tap("[data-discipline] details.penalty summary")
    page.tap(f'[data-penalty-form] button[value="{reason}"]')


def test_s7_a_penalty_is_recorded_in_place_and_names_the_next_player(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    strict_game(page, live_server, ["Ann", "Bob", "Cy"])
    page.evaluate(MARK)

    record_penalty(page, "illegal")

    expect(page.locator(".flashes")).to_contain_text(
        "Ann: illegal move: 3 points deducted")
    expect(page.locator("section.scores [data-total]")).to_have_text(["-3", "0", "0"])
    expect(page.locator(".player.current .name")).to_have_text("Bob")
    buttons = page.locator("[data-penalty-form] button")
    expect(buttons).to_have_text([
        "Illegal move by Bob: 3 points off and the turn passes",
        "Bob is out of time: the player leaves the game",
    ])
    expect(page.locator("[data-penalty-form] input[name=turn]")).to_have_value("1")
    expect(page.locator("[data-countdown-tap]")).to_have_text(
        "Bob is out of time: the player leaves the game")
    assert page.evaluate("window.__stayed === true")
    assert errors == []


def test_s7_an_excluded_player_moves_apart_and_an_undo_brings_them_back(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    strict_game(page, live_server, ["Ann", "Bob", "Cy"])
    page.evaluate(MARK)

    record_penalty(page, "timeout")                          # Ann out

    out = page.locator("section[data-excluded-players]")
    expect(out.locator("li[data-excluded]")).to_have_text(["Ann 0"])
    expect(page.locator("section.scores .name")).to_have_text(["Bob", "Cy"])
    expect(page.locator(".player.current .name")).to_have_text("Bob")
    page.tap("[data-undo]")
    page.tap("[data-confirm-undo]")
    expect(page.locator("section[data-excluded-players]")).to_have_count(0)
    expect(page.locator("section.scores .name")).to_have_text(["Ann", "Bob", "Cy"])
    expect(page.locator("[data-penalty-form] button").first).to_have_text(
        "Illegal move by Ann: 3 points off and the turn passes")
    assert page.evaluate("window.__stayed === true")


def test_s7_the_countdown_starts_again_after_a_move_without_a_reload(
    live_server: str, live_app: Flask, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    game_id = strict_game(page, live_server, ["Ann", "Bob"])
    # Ann's turn started 25 of her 30 seconds ago.
    past = (datetime.now(UTC) - timedelta(seconds=25)).isoformat(
        timespec="microseconds")
    with sqlite3.connect(live_app.config["DATABASE"]) as db:
        db.execute("UPDATE games SET updated_at = ? WHERE id = ?", [past, game_id])
    page.reload()
    page.wait_for_selector("[data-board][data-drawn]")
    page.evaluate(MARK)
    expect(page.locator("[data-countdown-left]")).to_have_text(
        re.compile(r"0:0[0-5]"))

    tap_cell(page, 0, 0)
    page.tap('[data-picker] [data-kind="red circle"]')
    page.tap("[data-confirm]")

    expect(page.locator(".player.current .name")).to_have_text("Bob")
    expect(page.locator("[data-countdown-left]")).to_have_text(
        re.compile(r"0:(30|29|28|27)"))
    expect(page.locator("[data-countdown]")).not_to_have_attribute(
        "data-expired", "")
    assert page.evaluate("window.__stayed === true")


def test_every_request_of_the_game_page_asks_for_its_language(
    live_server: str, browser: Any
) -> None:
    # The browser says English; the page was chosen in German.
    page = browser.new_context(**PHONE, locale="en-US").new_page()
    strict_game(page, live_server, ["Ann", "Bob", "Cy"], lang="de")
    asked: list[tuple[str, str]] = []
    page.on("request", lambda r: asked.append(
        (r.url, r.headers.get("accept-language", ""))))

    record_penalty(page, "illegal")                          # table.js
    expect(page.locator(".player.current .name")).to_have_text("Bob")
    tap_cell(page, 0, 0)                                     # board.js
    page.tap('[data-picker] [data-kind="red circle"]')
    page.tap("[data-confirm]")
    expect(page.locator(".player.current .name")).to_have_text("Cy")
    record_penalty(page, "timeout")                          # Cy out: the page again
    expect(page.locator("section[data-excluded-players]")).to_have_count(1)

    scripted = [(url, lang) for url, lang in asked if "/static/" not in url]
    assert any("/api/games/" in url for url, _ in scripted)
    assert all(lang == "de" for _, lang in scripted), scripted
    # The API's sentences came back in German, as the page shows them.
    expect(page.locator("[data-last-move]")).to_contain_text("Letzter Zug")
