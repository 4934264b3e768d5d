"""Keeping the screen awake in headless chromium: the Wake Lock API
where the browser offers it, else (plain HTTP) a looping silent video started by
the first tap, and a switch that turns either off and is remembered.

Whether a phone's screen really stays on cannot be seen headless; these tests
check what Blink's video wake lock asks for (VideoWakeLock::ShouldBeActive: a
playing video on a visible page, over a fifth of the viewport and mostly on
screen) and that the switch stops it."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import PHONE, launch, open_menu, start_game

pytestmark = pytest.mark.browser

# Plain HTTP on the LAN: no Wake Lock API (the live server's 127.0.0.1 would
# count as a secure context).
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"

# A browser that plays no media before a gesture, muted or not (as iOS in low
# power mode; chromium plays muted video at once, even with
# --autoplay-policy=user-gesture-required).
STRICT_AUTOPLAY = """
(function () {
  var play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function () {
    if (!navigator.userActivation.isActive) {
      return Promise.reject(new DOMException("no gesture", "NotAllowedError"));
    }
    return play.call(this);
  };
})();
"""

# Counts the Wake Lock API's requests and releases.
SPY_WAKE_LOCK = """
window.__locks = {requested: 0, released: 0};
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true,
  get: function () { return {request: function () {
    window.__locks.requested += 1;
    var sentinel = new EventTarget();
    sentinel.release = function () { window.__locks.released += 1;
      return Promise.resolve(); };
    return Promise.resolve(sentinel);
  }}; }});
"""

VIDEO = """() => {
  const v = document.querySelector("video.awake-video");
  if (!v) { return null; }
  const r = v.getBoundingClientRect();
  const seen = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0))
    * Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0));
  return {paused: v.paused, muted: v.muted, time: v.currentTime,
          share: seen / (innerWidth * innerHeight),
          onscreen: seen / (r.width * r.height),
          taps: getComputedStyle(v).pointerEvents};
}"""


def test_on_plain_http_the_first_tap_starts_the_video_and_the_switch_stops_it(
    live_server: str, playwright: Any
) -> None:
    browser = launch(playwright)
    starter = browser.new_context(**PHONE).new_page()
    start_game(starter, live_server, ["Ann", "Bob"])
    # A viewer opening the game's address: no tap on this page yet (a tap on
    # the page before, as on the new-game form, would count as the gesture).
    context = browser.new_context(**PHONE)
    context.add_init_script(NO_WAKE_LOCK + STRICT_AUTOPLAY)
    page = context.new_page()
    page.goto(starter.url)
    page.wait_for_selector("[data-board][data-drawn]")
    toggle = page.locator("[data-awake]")
    assert toggle.get_attribute("aria-pressed") == "true"
    # Before any gesture the video may not play.
    before = page.evaluate(VIDEO)
    assert before is None or before["paused"]
    open_menu(page)  # any tap; the switch is in the menu
    assert toggle.is_visible()
    box = toggle.bounding_box()
    assert box["height"] >= 44
    page.wait_for_function("() => { const v = document.querySelector("
                           "'video.awake-video'); return v && v.currentTime > 0; }")
    playing = page.evaluate(VIDEO)
    assert not playing["paused"] and playing["muted"]
    assert playing["share"] > 0.2 and playing["onscreen"] >= 0.75
    assert playing["taps"] == "none"
    # It keeps going past the end of its two seconds (it loops by seeking).
    page.wait_for_timeout(2600)
    assert not page.evaluate(VIDEO)["paused"]

    toggle.tap()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.evaluate(VIDEO)["paused"]
    # Remembered: after a reload a tap no longer starts it.
    page.reload()
    page.wait_for_selector("[data-board][data-drawn]")
    assert page.locator("[data-awake]").get_attribute("aria-pressed") == "false"
    page.tap("h2#tracker-h")
    page.wait_for_timeout(300)
    after = page.evaluate(VIDEO)
    assert after is None or after["paused"]
    # And on again.
    open_menu(page)
    page.locator("[data-awake]").tap()
    page.wait_for_function("() => { const v = document.querySelector("
                           "'video.awake-video'); return v && !v.paused; }")
    browser.close()


def test_with_the_wake_lock_api_the_page_locks_and_the_switch_releases(
    live_server: str, browser: Any
) -> None:
    context = browser.new_context(**PHONE)
    context.add_init_script(SPY_WAKE_LOCK)
    page = context.new_page()
    start_game(page, live_server, ["Ann", "Bob"])
    page.wait_for_function("() => window.__locks.requested === 1")
    open_menu(page)
    page.locator("[data-awake]").tap()
    page.wait_for_function("() => window.__locks.released === 1")
    assert page.evaluate(VIDEO) is None  # no video where the API works
