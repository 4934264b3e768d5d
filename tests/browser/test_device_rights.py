"""Edit rights that last (CONTRACT §15), in headless chromium: a browser
restart keeps the right to enter moves, a second browser gets it with the game
PIN, and the admin page shows PINs only to the admin link or the admin PIN.

Each browser context is its own device: the server trusts the test's loopback
"proxy" (--trusted-proxy 127.0.0.1) and each context names its address in
X-Forwarded-For, as a reverse proxy would.
Pages are opened as http://scorekeeper.test (mapped to 127.0.0.1), a name
chromium does not treat as a secure origin, like a LAN address (ECOSYSTEM
pitfall 2: a Secure cookie would be dropped there).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper import create_app

from .conftest import files_read_at_once
from .helpers import LAN_HOST, PHONE, open_menu, start_game, tap_cell

pytestmark = pytest.mark.browser

ADMIN_PIN = "97531864"
ADMIN_KEY = "k" * 43


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = create_app({
        "TESTING": True,
        "DATABASE": str(tmp_path / "live.sqlite3"),
        "SECRET_KEY": "browser-test-key",
        "WTF_CSRF_ENABLED": True,
        "ADMIN_PIN": ADMIN_PIN,
        "ADMIN_KEY": ADMIN_KEY,
        "TRUSTED_PROXIES": ["127.0.0.1"],
    })
    live = make_server("127.0.0.1", 0, files_read_at_once(app), threaded=True)
    thread = threading.Thread(target=live.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{LAN_HOST}:{live.server_port}"
    finally:
        live.shutdown()
        thread.join(5)


def phone(browser: Any, address: str, **extra: Any) -> Any:
    """A new browser context: a phone at address, as the proxy names it."""
    return browser.new_context(
        **PHONE, extra_http_headers={"X-Forwarded-For": address}, **extra
    )


def place(page: Any, row: int, col: int, kind: str, total: str) -> None:
    """Enter a one-tile move by tapping, confirm it, wait for the seat's total."""
    tap_cell(page, row, col)
    page.click(f'[data-picker] [data-kind="{kind}"]')
    page.click("[data-confirm]")
    expect(page.locator("section.scores [data-total]").first).to_have_text(total)


def test_a_restarted_browser_still_enters_moves(server: str, lan_browser: Any) -> None:
    first = phone(lan_browser, "192.168.1.20")
    page = first.new_page()
    start_game(page, server, ["Ann", "Bob"])
    game_url = page.url
    place(page, 0, 0, "red circle", "1")
    saved = first.storage_state()
    first.close()
    # A restart keeps the cookies that have an expiry and drops session cookies.
    kept = [c for c in saved["cookies"] if c["expires"] and c["expires"] > 0]
    assert {c["name"] for c in saved["cookies"]} - {c["name"] for c in kept} \
        >= {"session"}
    assert any(c["name"] == "scorekeeper_device" and not c["secure"] for c in kept)

    again = phone(lan_browser, "192.168.1.20",
                  storage_state={"cookies": kept, "origins": []})
    page = again.new_page()
    page.goto(game_url)
    page.wait_for_selector("[data-board][data-drawn]")
    # Bob's move: a red square beside Ann's red circle.
    tap_cell(page, 0, 1)
    page.click('[data-picker] [data-kind="red square"]')
    page.click("[data-confirm]")
    expect(page.locator("section.scores [data-total]").nth(1)).to_have_text("2")
    again.close()


def test_a_second_browser_gets_the_right_with_the_game_pin(
    server: str, lan_browser: Any
) -> None:
    host = phone(lan_browser, "192.168.1.20")
    page = host.new_page()
    start_game(page, server, ["Ann", "Bob"])
    game_url = page.url
    open_menu(page)
    page.click("details.share summary")
    pin = re.sub(r"\D", "", page.locator("p.game-pin").inner_text().split("(")[0])
    assert len(pin) == 8  # store.games.PIN_DIGITS

    other = phone(lan_browser, "192.168.1.30").new_page()
    other.goto(game_url)
    other.wait_for_selector("[data-board][data-drawn]")
    expect(other.locator("[data-confirm]")).to_have_count(0)
    other.click("details.claim summary")
    other.fill("input[name=pin]", pin)
    other.click("details.claim button[type=submit]")
    other.wait_for_selector("[data-board][data-drawn]")
    place(other, 0, 0, "red circle", "1")


def test_s15_the_admin_page_shows_pins_to_the_admin_link_or_the_admin_pin(
    server: str, lan_browser: Any
) -> None:
    host = phone(lan_browser, "192.168.1.20").new_page()
    start_game(host, server, ["Ann", "Bob"])
    open_menu(host)
    host.click("details.share summary")
    pin = re.sub(r"\D", "", host.locator("p.game-pin").inner_text().split("(")[0])

    guest = phone(lan_browser, "192.168.1.30").new_page()
    refused = guest.goto(f"{server}/admin")
    assert refused is not None and refused.status == 403
    expect(guest.locator("[data-pin]")).to_have_count(0)
    assert pin not in guest.content()
    guest.fill("input[name=admin_pin]", "11111111")
    guest.click("main form button[type=submit]")
    expect(guest.locator("[data-error]")).to_be_visible()
    assert pin not in guest.content()
    guest.fill("input[name=admin_pin]", ADMIN_PIN)
    guest.click("main form button[type=submit]")
    expect(guest.locator("[data-pin]")).to_have_text(pin)

    # The server's own machine is given nothing by where it is: it opens the
    # admin link the command printed.
    here = phone(lan_browser, "127.0.0.1").new_page()
    assert here.goto(f"{server}/admin").status == 403
    here.goto(f"{server}/admin/key/{ADMIN_KEY}")
    expect(here.locator("[data-pin]")).to_have_text(pin)
    # The admin hands itself the right, then enters a move.
    here.click("[data-grant]")
    here.wait_for_selector("[data-board][data-drawn]")
    place(here, 0, 0, "red circle", "1")
