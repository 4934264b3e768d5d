"""The club season in headless chromium (CONTRACT §14, §15): the organiser
starts a season and its nights through the pages and keeps the right across a
browser restart; a night restored onto a fresh instance gets its organiser
back from the admin; a table's move is corrected from the night's page.

As in test_device_rights.py, pages are opened as http://scorekeeper.test
(mapped to 127.0.0.1): a plain-HTTP name that is not loopback, so the join
link in the QR code is the address other phones use and the device cookie is
kept as on a LAN.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper import create_app

from .conftest import files_read_at_once
from .helpers import LAN_HOST, PHONE, scan_qr
from .test_club_night import post_move, start_table

pytestmark = pytest.mark.browser

ADMIN_KEY = "s" * 43


@contextmanager
def serving(database: Path) -> Iterator[tuple[Flask, str]]:
    """An instance on its own database, listening as LAN_HOST (its join
    links name it); yield the app and its base address."""
    app = create_app({
        "TESTING": True,
        "DATABASE": str(database),
        "SECRET_KEY": "browser-test-key",
        "WTF_CSRF_ENABLED": True,
        "ADMIN_KEY": ADMIN_KEY,
    })
    live = make_server("127.0.0.1", 0, files_read_at_once(app), threaded=True)
    app.config.update(LISTEN_HOST=LAN_HOST, LISTEN_PORT=live.server_port)
    thread = threading.Thread(target=live.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, f"http://{LAN_HOST}:{live.server_port}"
    finally:
        live.shutdown()
        thread.join(5)


def submit_name(page: Any, url: str, name: str) -> int:
    """Fill the name on a start form (a season's or a night's), tap its button,
    return the id the page it leads to names."""
    page.goto(url)
    page.fill("#name", name)
    with page.expect_navigation():
        page.tap("form.event-form button[type=submit]")
    return int(page.url.rsplit("/", 1)[1])


def test_the_organiser_keeps_the_season_night_across_a_browser_restart(
    tmp_path: Path, lan_browser: Any
) -> None:
    with serving(tmp_path / "club.sqlite3") as (_app, base):
        first = lan_browser.new_context(**PHONE)
        page = first.new_page()
        season_id = submit_name(page, f"{base}/seasons", "Winter season")
        submit_name(page, f"{base}/events", "December club night")
        night = submit_name(page, f"{base}/events", "January club night")
        page.select_option("[data-event-season] select", str(season_id))
        with page.expect_navigation():
            page.tap("[data-event-season] button[type=submit]")
        expect(page.locator("[data-event-season] select")).to_have_value(
            str(season_id))
        start_table(page, base, night, ["Anna", "Bram"])

        # Mid-night the browser restarts: only cookies with an expiry survive.
        saved = first.storage_state()
        first.close()
        kept = [c for c in saved["cookies"] if c["expires"] and c["expires"] > 0]
        assert "session" not in {c["name"] for c in kept}
        again = lan_browser.new_context(
            **PHONE, storage_state={"cookies": kept, "origins": []})
        page = again.new_page()
        second = start_table(page, base, night, ["Chloé", "Daan", "Eva"])

        page.goto(f"{base}/events/{night}")
        expect(page.locator("[data-tables] li")).to_have_count(2)
        expect(page.locator(f"[data-table='{second}']")).to_contain_text("Chloé")
        code = page.locator("img[data-join-qr]")
        code.scroll_into_view_if_needed()
        page.wait_for_function(
            "() => document.querySelector('img[data-join-qr]').naturalWidth > 0")
        link = scan_qr(page, code)
        assert link.startswith(f"{base}/events/{night}/join/"), link

        # The season holds the second night alone.
        page.goto(f"{base}/seasons/{season_id}")
        expect(page.locator("main")).to_contain_text("January club night")
        expect(page.locator("main")).not_to_contain_text("December club night")
        again.close()


def test_a_restored_night_gets_its_organiser_back_from_the_admin(
    tmp_path: Path, lan_browser: Any
) -> None:
    with serving(tmp_path / "old.sqlite3") as (_old, old_base):
        organiser = lan_browser.new_context(**PHONE)
        page = organiser.new_page()
        night = submit_name(page, f"{old_base}/events", "Friday club night")
        start_table(page, old_base, night, ["Anna", "Bram"])
        # The history's backup link, fetched as the page would.
        backup = page.evaluate(
            "() => fetch('/backup').then(r => r.ok ? r.text() : '')").encode()
        organiser.close()
    assert json.loads(backup)["games"]

    with serving(tmp_path / "new.sqlite3") as (app, base):
        admin = lan_browser.new_context(**PHONE)
        page = admin.new_page()
        page.goto(f"{base}/admin/key/{ADMIN_KEY}")
        page.goto(f"{base}/restore")
        page.set_input_files("input[type=file]", files=[{
            "name": "backup.json", "mimeType": "application/json",
            "buffer": backup}])
        with page.expect_navigation():
            page.tap("main form button[type=submit]")
        page.goto(f"{base}/events")
        page.locator("main a", has_text="Friday club night").first.tap()
        page.wait_for_url(re.compile(r"/events/\d+$"))
        restored = int(page.url.rsplit("/", 1)[1])
        with page.expect_navigation():
            page.tap("[data-grant-event] button[type=submit]")
        expect(page.locator("[data-grant-event]")).to_have_count(0)

        # A new admin key ends the admin right: what is left is the grant.
        app.config["ADMIN_KEY"] = "t" * 43
        assert page.goto(f"{base}/admin").status == 403
        start_table(page, base, restored, ["Chloé", "Daan"])
        page.goto(f"{base}/events/{restored}")
        expect(page.locator("[data-tables] li")).to_have_count(2)
        expect(page.locator("[data-event-change]")).to_be_visible()

        stranger = lan_browser.new_context(**PHONE).new_page()
        stranger.goto(f"{base}/events/{restored}")
        expect(stranger.locator("[data-add-table]")).to_have_count(0)
        admin.close()


def test_a_tables_move_is_corrected_from_the_nights_page_in_three_taps(
    tmp_path: Path, lan_browser: Any
) -> None:
    with serving(tmp_path / "club.sqlite3") as (_app, base):
        context = lan_browser.new_context(**PHONE)
        page = context.new_page()
        night = submit_name(page, f"{base}/events", "Friday club night")
        game = start_table(page, base, night, ["Anna", "Bram"])
        page.wait_for_selector("[data-board][data-drawn]")
        post_move(page, game, [(0, 0, "red", "circle"), (0, 1, "red", "square")])
        post_move(page, game, [(1, 0, "blue", "circle")])

        page.goto(f"{base}/events/{night}")
        expect(page.locator(f"[data-table='{game}']")).to_contain_text("Bram 2")
        taps = 0
        for target in (f"[data-table='{game}'] a", "[data-table-menu] > summary",
                       "[data-recent] li[data-n='2'] a"):
            page.tap(target)
            taps += 1
        page.wait_for_selector("form.correct-form")
        assert taps <= 3
        # Bram traded one tile rather than placing his.
        page.select_option("select[name=type]", "trade")
        page.fill("input[name=count]", "1")
        with page.expect_navigation():
            page.tap("form.correct-form button[type=submit]")

        moves = page.evaluate(
            "id => fetch(`/api/games/${id}`).then(r => r.json())", game)["moves"]
        assert [m["type"] for m in moves] == ["place", "trade"]
        page.goto(f"{base}/events/{night}")
        expect(page.locator(f"[data-table='{game}']")).to_contain_text("Bram 0")
        context.close()
