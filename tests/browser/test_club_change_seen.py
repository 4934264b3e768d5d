"""A club night renamed, then deleted, on another device (CONTRACT §14), as a
page already open shows it without a reload: the night's own page (it polls)
and its TV view (it follows the event stream) take the new name, heading and
window title; once the night is deleted each says so, points to where its
games are kept, and stops asking the server."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

POLL_MS = 150
"""The pages' poll interval here (LIVE_POLL_MS), instead of 3 s."""


def api(base: str, method: str, path: str, body: Any = None,
        token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Event-Token"] = token
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode() if body is not None else None,
        headers=headers, method=method,
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def night_with_a_table(base: str) -> dict[str, Any]:
    """A club night with one running table, made on another device by the API."""
    event = api(base, "POST", "/api/events",
                {"name": "Friday club", "date": "2026-12-04"})
    game = api(base, "POST", "/api/games",
               {"players": ["Ann", "Bob"], "event": event["id"]}, event["edit_token"])
    event["table"] = game["id"]
    return event


def opened(page: Any, url: str, *asks: str) -> list[str]:
    """Open `url` in `page`, marked so that a reload shows; return the list of
    the requests it then makes to `url` plus one of `asks`."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url)
            if any(r.url.split("?")[0] == url + ask for ask in asks) else None)
    page.goto(url)
    page.evaluate("() => { window.notReloaded = true; }")
    return seen


def stays_quiet(page: Any, seen: list[str]) -> None:
    """Assert that no more requests in `seen` come over several poll intervals
    (and that some came before: the page was being watched)."""
    before = len(seen)
    assert before > 0
    page.wait_for_timeout(6 * POLL_MS)
    assert seen[before:] == [], seen


def test_the_nights_page_follows_a_rename_and_a_delete(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    live_app.config["LIVE_POLL_MS"] = POLL_MS
    event = night_with_a_table(live_server)
    page = browser.new_context().new_page()
    polls = opened(page, f"{live_server}/events/{event['id']}", "/tv.json")
    expect(page.locator("[data-event-live]")).to_have_attribute("data-tv-mode", "poll")

    api(live_server, "PATCH", f"/api/events/{event['id']}",
        {"name": "Saturday club", "date": "2026-12-05"}, event["edit_token"])
    expect(page.locator("h1")).to_have_text("Saturday club")
    expect(page).to_have_title(re.compile(r"^Saturday club · "))
    expect(page.locator("[data-event-day]")).to_contain_text("5")
    expect(page.locator("[data-event-gone]")).to_be_hidden()

    api(live_server, "DELETE", f"/api/events/{event['id']}", token=event["edit_token"])
    notice = page.locator("[data-event-gone]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("This club night was deleted")
    expect(notice.get_by_role("link", name="History")).to_have_attribute(
        "href", "/history")
    expect(notice.get_by_role("link", name="All club nights")).to_have_attribute(
        "href", "/events")
    # What leads to the night's own pages is gone; its table's game is kept.
    expect(page.get_by_role("link", name="TV view")).to_be_hidden()
    expect(page.locator(f"[data-table='{event['table']}'] a")).to_have_attribute(
        "href", f"/games/{event['table']}")
    assert page.evaluate("() => window.notReloaded === true")
    expect(page.locator("[data-event-live]")).to_have_attribute("data-tv-mode", "gone")
    stays_quiet(page, polls)


def test_the_nights_tv_view_follows_a_rename_and_a_delete(
    live_app: Flask, live_server: str, browser: Any
) -> None:
    live_app.config["LIVE_POLL_MS"] = POLL_MS
    event = night_with_a_table(live_server)
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    asked = opened(page, f"{live_server}/events/{event['id']}/tv", ".json", "/events")
    expect(page.locator("[data-etv]")).to_have_attribute("data-tv-mode", "events")

    # A name with the title's own separator in it: only the name is replaced.
    api(live_server, "PATCH", f"/api/events/{event['id']}",
        {"name": "TV · Saturday club"}, event["edit_token"])
    expect(page.locator("h1")).to_have_text("TV · Saturday club")
    expect(page).to_have_title("TV view · TV · Saturday club · Qwirkle Scorekeeper")

    api(live_server, "DELETE", f"/api/events/{event['id']}", token=event["edit_token"])
    notice = page.locator("[data-event-gone]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("This club night was deleted")
    expect(notice.get_by_role("link", name="History")).to_be_visible()
    expect(page.get_by_role("link", name="Back to the club night")).to_be_hidden()
    assert page.evaluate("() => window.notReloaded === true")
    expect(page.locator("[data-etv]")).to_have_attribute("data-tv-mode", "gone")
    stays_quiet(page, asked)
