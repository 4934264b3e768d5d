"""Helpers for the browser tests: Debian's chromium, a phone, the table's board."""

from __future__ import annotations

import re
from typing import Any

import cv2
import numpy as np

CHROMIUM = "/usr/bin/chromium"
"""Debian's chromium (Playwright's own browsers are never installed)."""

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""The machine's recommended flags for headless chromium."""

LAN_HOST = "scorekeeper.test"
"""The name the lan_browser fixture maps to 127.0.0.1: plain HTTP and not
loopback, as a LAN address (a Secure cookie would be dropped there)."""

PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True
}
"""Keyword arguments of `browser.new_context()` for a 390x844 touch phone."""


def launch(playwright: Any, *extra: str) -> Any:
    """Start Debian's chromium headless with the machine's recommended flags."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS + list(extra))


def open_menu(page: Any) -> None:
    """Open the game page's menu: the switches, the table view, the join code
    and the corrections (a click: a tap where the context has touch)."""
    page.locator("[data-table-menu] > summary").click()
    page.wait_for_selector("[data-table-menu][open]")


def start_game(page: Any, base: str, names: list[str]) -> None:
    """Fill the new-game form by tapping and typing, then wait for the game page."""
    page.goto(f"{base}/games/new")
    for i, name in enumerate(names):
        page.fill(f"#names-{i}", name)
    page.tap("form.new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    page.wait_for_selector("[data-board][data-drawn]")


CELL_PX = "() => document.querySelector('[data-board]').getScreenCTM().a * 100"
"""The size of one board cell on screen, in CSS px."""


def settle(page: Any) -> None:
    """Wait for what the page does after its next frame (board.js draws the free
    cells and moves the view then, after showing a picked tile's score)."""
    page.evaluate(
        "() => new Promise(done => requestAnimationFrame("
        "() => setTimeout(() => requestAnimationFrame(() => setTimeout(done, 0)), 0)))"
    )


def cell_point(page: Any, row: int, col: int) -> tuple[float, float]:
    """Where the centre of a board cell is on screen now."""
    x, y = page.evaluate(
        """([r, c]) => {
            const svg = document.querySelector('[data-board]');
            const p = svg.createSVGPoint();
            p.x = c * 100 + 50; p.y = r * 100 + 50;
            const q = p.matrixTransform(svg.getScreenCTM());
            return [q.x, q.y];
        }""",
        [row, col],
    )
    return x, y


def board_window(page: Any) -> tuple[float, float, float, float]:
    """The part of the board a finger can reach: (left, top, right, bottom),
    under the sticky header and the fit button, above the sticky entry bar."""
    left, top, right, bottom = page.evaluate(
        """() => {
            const box = document.querySelector('[data-board]').getBoundingClientRect();
            const head = document.querySelector('header').getBoundingClientRect();
            const entry = document.querySelector('[data-entry]');
            let bottom = Math.min(box.bottom, innerHeight);
            if (entry) {
                const bar = entry.getBoundingClientRect();
                if (bar.left < box.right && bar.right > box.left && bar.top > box.top) {
                    bottom = Math.min(bottom, bar.top);
                }
            }
            // The fit button sits over the board's top corner.
            const fit = document.querySelector('[data-fit]');
            const below = fit ? fit.getBoundingClientRect().bottom : 0;
            return [box.left, Math.max(box.top, head.bottom, below), box.right, bottom];
        }"""
    )
    return left, top, right, bottom


def into_view(page: Any, row: int, col: int) -> tuple[float, float]:
    """Drag a board cell out of reach into view, as a finger would (under the
    header or the entry bar, or off the board's frame); return its centre."""
    settle(page)  # no person taps within a frame of the last tap
    left, top, right, bottom = board_window(page)
    if bottom - top < 120:
        # The board is scrolled (nearly) off the screen, as after going back
        # to the page from far down it: a person scrolls it into sight first.
        page.locator("[data-board]").scroll_into_view_if_needed()
        settle(page)
        left, top, right, bottom = board_window(page)
    x, y = cell_point(page, row, col)
    margin = 30
    if not (left + margin < x < right - margin and top + margin < y < bottom - margin):
        cx, cy = (left + right) / 2, (top + bottom) / 2
        page.mouse.move(cx, cy)
        page.mouse.down()
        page.mouse.move(cx + (cx - x) / 2, cy + (cy - y) / 2, steps=4)
        page.mouse.move(cx + (cx - x), cy + (cy - y), steps=4)
        page.mouse.up()
        settle(page)
        x, y = cell_point(page, row, col)
    return x, y


def tap_cell(page: Any, row: int, col: int) -> None:
    """Tap the centre of a board cell, wherever the board view has put it; a
    cell out of reach is first dragged into view."""
    page.touchscreen.tap(*into_view(page, row, col))


def adjacency_order(board: set[tuple[int, int]], tiles: list[dict]) -> list[dict]:
    """Order a move's tiles so that each one touches the board or an earlier one."""
    placed, left, out = set(board), list(tiles), []
    while left:
        for tile in left:
            r, c = tile["row"], tile["col"]
            if not placed or {(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)} & placed:
                out.append(tile)
                placed.add((r, c))
                left.remove(tile)
                break
        else:
            raise AssertionError("the move does not touch the board")
    return out


def scan_qr(page: Any, image: Any) -> str:
    """The text of the QR code an element shows, read from its pixels as a
    phone's camera keeps looking: up to five screenshots, 0.2 s apart (a
    loaded machine may paint the image a frame late); "" when none is found."""
    for _ in range(5):
        found = decode_qr(image.screenshot())
        if found:
            return found
        page.wait_for_timeout(200)
    return ""


def decode_qr(png: bytes) -> str:
    """The text of the QR code in a screenshot, framed in a little white as a
    camera sees the page, through OpenCV's two detectors; "" when none.

    The plain detector alone misses some codes outright, however often it
    looks: of 200 random join links drawn as the event page draws them
    (segno's SVG at 220 px in chromium) it missed 3, and the club night's
    test failed so in two fresh-ci runs of about eight. Framed, with the
    ArUco detector after it, it missed none."""
    pixels = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    framed = cv2.copyMakeBorder(pixels, 20, 20, 20, 20, cv2.BORDER_CONSTANT,
                                value=(255, 255, 255))
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        found, _points, _code = detector.detectAndDecode(framed)
        if found:
            return str(found)
    return ""
