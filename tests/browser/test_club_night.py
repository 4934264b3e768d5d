"""A club night in the browser (CONTRACT §14): three tables join by the event's QR
code, moves come in, the event's TV view follows by itself, and the standings
and ratings appear.

The server listens as `scorekeeper.test` (chromium maps that name to
127.0.0.1), so the join link in the QR code is the address other phones use,
and cookies go over a plain-HTTP name that is not loopback (ECOSYSTEM.md,
pitfall 2). Set CLUB_SCREENSHOTS to a folder to keep the screenshots the docs'
club night page shows (docs/CLUB.md, docs/screenshots/).
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from playwright.sync_api import expect

from .helpers import PHONE, launch, scan_qr

pytestmark = pytest.mark.browser

HOST = "scorekeeper.test"


def post_move(page: Any, game_id: int, tiles: list[tuple[int, int, str, str]]) -> None:
    """Send a place move as the game page does (its session and CSRF token)."""
    status = page.evaluate(
        """async ([id, tiles]) => {
            const token = document.querySelector('meta[name=csrf-token]').content;
            const body = {type: 'place', tiles: tiles.map(
                ([row, col, color, shape]) => ({row, col, color, shape}))};
            const answer = await fetch(`/api/games/${id}/moves`, {
                method: 'POST', credentials: 'same-origin',
                headers: {'Content-Type': 'application/json', 'X-CSRFToken': token},
                body: JSON.stringify(body)});
            return answer.status;
        }""",
        [game_id, [list(t) for t in tiles]],
    )
    assert status == 201


def more_games(app: Flask, count: int) -> None:
    """Finish `count` games of two to four of five players (1 to 4 points)."""
    client = app.test_client()
    rng = random.Random(5)
    names = ["Anna", "Bram", "Chloé", "Daan", "Eva"]
    row = [(0, 0, "red", "circle"), (0, 1, "red", "square"),
           (0, 2, "red", "diamond"), (0, 3, "red", "clover")]
    for _ in range(count):
        game = client.post("/api/games", json={
            "players": rng.sample(names, rng.choice([2, 3, 4]))}).get_json()
        token = {"X-Edit-Token": game["edit_token"]}
        tiles = [dict(zip(("row", "col", "color", "shape"), t, strict=True))
                 for t in row[:rng.randint(1, 4)]]
        client.post(f"/api/games/{game['id']}/moves", headers=token,
                    json={"type": "place", "tiles": tiles})
        client.post(f"/api/games/{game['id']}/close", headers=token,
                    json={"reason": "ended"})


def start_table(page: Any, base: str, event_id: int, names: list[str]) -> int:
    """From the event page, start a table through the new-game form."""
    page.goto(f"{base}/events/{event_id}")
    page.tap("[data-add-table]")
    select = page.locator("select[name=event]")
    expect(select).to_have_value(str(event_id))
    for i, name in enumerate(names):
        page.fill(f"#names-{i}", name)
    page.tap("form.new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


@pytest.mark.long
def test_three_tables_join_by_the_qr_code_and_the_tv_view_follows(
    live_app: Flask, live_server: str, playwright: Any
) -> None:
    port = urlsplit(live_server).port
    live_app.config.update(LISTEN_HOST=HOST, LISTEN_PORT=port)
    base = f"http://{HOST}:{port}"
    shots = os.environ.get("CLUB_SCREENSHOTS")
    browser = launch(playwright, f"--host-resolver-rules=MAP {HOST} 127.0.0.1")
    try:
        host = browser.new_context(**PHONE).new_page()
        host.goto(f"{base}/events")
        host.fill("#name", "Friday club night")
        host.tap("form.event-form button[type=submit]")
        host.wait_for_url(re.compile(r"/events/\d+$"))
        event_id = int(host.url.rsplit("/", 1)[1])

        # The join code, read from the pixels on the host's screen.
        code = host.locator("img[data-join-qr]")
        expect(code).to_be_visible()
        host.wait_for_function(
            "() => document.querySelector('img[data-join-qr]').naturalWidth > 0")
        link = scan_qr(host, code)
        assert link.startswith(f"{base}/events/{event_id}/join/"), link

        first = start_table(host, base, event_id, ["Anna", "Bram"])

        # Two more phones scan it: each may then start its own table.
        tables = {first: host}
        for names in (["Chloé", "Daan", "Eva"], ["Floor", "Gijs"]):
            phone = browser.new_context(**PHONE).new_page()
            phone.goto(f"{base}/events/{event_id}")
            expect(phone.locator("[data-add-table]")).to_have_count(0)
            phone.goto(link)
            expect(phone.locator("[data-add-table]")).to_be_visible()
            tables[start_table(phone, base, event_id, names)] = phone
        ids = list(tables)
        assert len(ids) == 3

        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(f"{base}/events/{event_id}/tv")
        cards = tv.locator("[data-etv-table]")
        expect(cards).to_have_count(3)
        expect(tv.locator("[data-etv]")).to_have_attribute("data-tv-mode", "events")

        # A phone watching the night's own page, opened before the moves.
        watcher = browser.new_context(**PHONE).new_page()
        watcher.goto(f"{base}/events/{event_id}")
        watcher.evaluate("() => { window.notReloaded = true; }")

        # Moves come in at every table; the TV follows without a reload.
        tv.evaluate("() => { window.notReloaded = true; }")
        post_move(tables[ids[0]], ids[0], [(0, 0, "red", "circle"),
                                           (0, 1, "red", "square")])
        post_move(tables[ids[1]], ids[1], [(0, 0, "blue", "starburst")])
        post_move(tables[ids[2]], ids[2], [(0, 0, "green", "circle"),
                                           (0, 1, "green", "square"),
                                           (0, 2, "green", "diamond")])
        card = tv.locator(f"[data-etv-table='{ids[2]}']")
        expect(card.locator("li").nth(0)).to_contain_text("3")
        expect(card.locator("li.current")).to_contain_text("Gijs")
        first_card = tv.locator(f"[data-etv-table='{ids[0]}']")
        expect(first_card.locator("li.current")).to_contain_text("Bram")
        expect(first_card.locator("li").nth(0)).to_contain_text("2")

        # The night's page follows too (it polls: the streams are the TV's).
        expect(watcher.locator(f"[data-table='{ids[2]}']")).to_contain_text(
            "Floor 3", timeout=15_000)
        assert watcher.evaluate("() => window.notReloaded === true")

        # The first table ends its game: standings and ratings appear.
        host.goto(f"{base}/games/{ids[0]}")
        host.evaluate(
            "document.querySelectorAll('details').forEach(d => d.open = true)")
        # The form's answer is a navigation: wait for it, or the next goto
        # may interrupt it on a loaded machine.
        with host.expect_navigation():
            host.locator("[data-close='ended']").tap()
        standings = tv.locator("[data-etv-standings] tbody tr")
        expect(standings).to_have_count(2)
        expect(standings.nth(0)).to_contain_text("Anna")
        expect(tv.locator("[data-etv-none]")).to_be_hidden()
        assert tv.evaluate("() => window.notReloaded === true")

        host.goto(f"{base}/events/{event_id}")
        row = host.locator("[data-standing='Anna']")
        expect(row.locator("[data-rank]")).to_have_text("1")
        # The rating's detail opens with a tap (tests/browser/test_club_fit.py).
        expect(row.locator("[data-rating] [data-rating-detail]")).to_have_text(
            re.compile("±"), use_inner_text=False)
        host.goto(f"{base}/players")
        rating = host.locator("tr[data-player='anna'] [data-rating]")
        expect(rating).not_to_have_text("–")

        # The rating chart's smallest text, as drawn on a 390 px phone.
        host.goto(f"{base}/players/Anna")
        smallest = host.evaluate(
            "() => Math.min(...[...document.querySelectorAll("
            "'[data-rating-chart] svg text')].map(t => { const m = t.getScreenCTM();"
            " return Math.hypot(m.a, m.b) * parseFloat(t.getAttribute('font-size'));"
            " }))")
        assert smallest >= 11, smallest

        if shots:
            folder = Path(shots)
            host.goto(f"{base}/events/{event_id}")
            host.screenshot(path=str(folder / "club-night-390x844.png"), full_page=True)
            tv.screenshot(path=str(folder / "club-night-tv-1920x1080.png"))
            # A longer history for the chart: 24 more games of four players.
            more_games(live_app, 24)
            host.goto(f"{base}/players/Anna")
            host.evaluate("document.querySelector('[data-stat=rating]')"
                          ".closest('div').scrollIntoView(); window.scrollBy(0, -60)")
            host.screenshot(path=str(folder / "rating-history-390x844.png"))
    finally:
        browser.close()
