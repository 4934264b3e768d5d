"""The club's tables on a 360 px phone: the standings of a club night and the
players' page fit without scrolling sideways, in all five languages, and a
rating's skill ± uncertainty is a tap away (a tooltip needs a mouse)."""

from __future__ import annotations

import glob
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"
NAMES = ["Anna", "Bram van der Berg-Hoogeveen", "Chloé", "Daan",
         "Eva-Marie Wolfeschlegelstein", "Frits"]
SMALL = {"viewport": {"width": 360, "height": 640}, "is_mobile": True,
         "has_touch": True}

OVERFLOW = """() => {
    const wide = [...document.querySelectorAll('main *')].filter(el => {
        const box = el.getBoundingClientRect();
        return el.checkVisibility() && box.width > 0
            && (box.left < -0.5 || box.right > innerWidth + 0.5);
    }).map(el => el.tagName + '.' + el.className);
    // (.sr-only text is clipped to a pixel on purpose: not a scroll box.)
    const scrolled = [...document.querySelectorAll('main *')].filter(el =>
        el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1
        && getComputedStyle(el).overflowX !== 'visible'
    ).map(el => el.tagName + '.' + el.className);
    return {page: document.documentElement.scrollWidth, wide, scrolled};
}"""
"""What sticks out of a 360 px screen, or scrolls sideways inside its box."""


def club_night(app: Flask) -> int:
    """Return a club night of finished corpus games among six players, two of
    them with long names, so every row has a rating and points in hundreds."""
    client = app.test_client()
    event = client.post("/api/events", json={"name": "Club night"}).get_json()
    for i, path in enumerate(sorted(glob.glob(str(GAMES / "classic-*.json")))[:12]):
        record = json.loads(Path(path).read_text())
        if not record.get("final"):
            continue
        record["players"] = [NAMES[(i + k) % len(NAMES)]
                             for k in range(len(record["players"]))]
        answer = client.post(f"/api/games/import?event={event['id']}", json=record,
                             headers={"X-Event-Token": event["edit_token"]})
        assert answer.status_code == 201
    return int(event["id"])


@pytest.mark.parametrize("lang", ["nl", "en", "de", "fr", "es"])
def test_the_club_tables_fit_a_360_px_phone(
    live_app: Flask, live_server: str, browser: Any, lang: str
) -> None:
    event = club_night(live_app)
    page = browser.new_context(**SMALL, locale=lang).new_page()
    for path, table in ((f"/events/{event}", "[data-standings]"),
                        (f"/events/{event}/standings", "[data-standings]"),
                        ("/players", ".players-table")):
        page.goto(f"{live_server}{path}?lang={lang}")
        rows = page.locator(f"{table} tbody tr")
        expect(rows).to_have_count(len(NAMES))
        expect(rows.locator("[data-rating-more]")).to_have_count(len(NAMES))
        found = page.evaluate(OVERFLOW)
        assert found == {"page": 360, "wide": [], "scrolled": []}, (path, found)
    page.context.close()


def test_a_ratings_detail_shows_on_a_tap(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    event = club_night(live_app)
    ratings = {r["name"]: r for r in live_app.test_client().get(
        "/api/ratings").get_json()}
    page = browser.new_context(**SMALL, locale="en").new_page()
    name = "Frits"  # the last row: its detail opens below the table
    for path, where in (
        (f"/events/{event}/standings", f"[data-standing='{name}'] [data-rating]"),
        ("/players", f".players-table tr:has(a:text-is('{name}')) [data-rating]"),
        (f"/head-to-head?a=Anna&b={name}", "[data-h2h='rating_b']"),
    ):
        page.goto(f"{live_server}{path}")
        cell = page.locator(where)
        detail = cell.locator("[data-rating-detail]")
        expect(detail).to_be_hidden()
        mine = ratings[name]
        summary = cell.locator("summary")
        expect(summary).to_have_text(f"{mine['ordinal']:.1f}")
        summary.tap()
        expect(detail).to_be_visible()
        expect(detail).to_have_text(
            f"skill {mine['mu']:.1f} ± {mine['sigma']:.1f}"
            f" ({mine['games']} rated games)")
        # On screen, on top of whatever lies below it, and the page still fits.
        box = detail.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        detail.scroll_into_view_if_needed()
        assert page.evaluate("""el => {
            const b = el.getBoundingClientRect();
            return el.contains(document.elementFromPoint(b.left + b.width / 2,
                                                         b.top + b.height / 2));
        }""", detail.element_handle())
        assert page.evaluate(OVERFLOW) == {"page": 360, "wide": [], "scrolled": []}
        # A second tap closes it again.
        summary.tap()
        expect(detail).to_be_hidden()
    page.context.close()
