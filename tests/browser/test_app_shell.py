"""The home-screen app: manifest, icons, and a dark scheme that follows
the phone and keeps every text at WCAG AA contrast, in headless chromium."""

from __future__ import annotations

import io
import json
import urllib.parse
import urllib.request
from typing import Any

import pytest
from flask import Flask
from PIL import Image

from .helpers import PHONE

pytestmark = pytest.mark.browser

# Every visible text node's element: its colour against the first opaque
# background up its ancestors (WCAG relative luminance), large text at 3:1.
CONTRAST = """
() => {
  function rgba(s) {
    const m = s.match(/rgba?\\(([^)]+)\\)/); if (!m) { return [0, 0, 0, 0]; }
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  }
  function lum(c) {
    const v = c.slice(0, 3).map(x => { x /= 255;
      return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  }
  function background(el) {
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] >= 0.99) { return c; }
    }
    return rgba(getComputedStyle(document.body).backgroundColor);
  }
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || seen.has(el)) { continue; }
    seen.add(el);
    if (el.closest("svg, [hidden], .sr-only, .paper, option")) { continue; }
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!r.width || !r.height || style.visibility === "hidden"
        || parseFloat(style.opacity) < 0.5) { continue; }
    const fg = rgba(style.color), bg = background(el);
    const a = lum(fg) + 0.05, b = lum(bg) + 0.05;
    const ratio = Math.max(a, b) / Math.min(a, b);
    const size = parseFloat(style.fontSize), weight = parseInt(style.fontWeight, 10);
    const large = size >= 24 || (size >= 18.66 && weight >= 700);
    if (ratio < (large ? 3 : 4.5)) {
      bad.push(el.tagName + "." + el.className + " '" + node.textContent.trim()
               .slice(0, 30) + "' " + ratio.toFixed(2));
    }
  }
  return bad;
}
"""


def _game(base: str) -> int:
    request = urllib.request.Request(
        f"{base}/api/games", data=json.dumps({"players": ["Ann", "Bob"]}).encode(),
        headers={"Content-Type": "application/json"}, method="POST",
    )
    with urllib.request.urlopen(request) as response:
        state = json.load(response)
    move = {"type": "place", "tiles": [{"row": 0, "col": 0, "color": "red",
                                        "shape": "circle"}]}
    request = urllib.request.Request(
        f"{base}/api/games/{state['id']}/moves", data=json.dumps(move).encode(),
        headers={"Content-Type": "application/json",
                 "X-Edit-Token": state["edit_token"]}, method="POST",
    )
    urllib.request.urlopen(request).close()
    return int(state["id"])


def test_the_manifest_makes_a_standalone_app_with_its_icons(
    live_server: str, browser: Any
) -> None:
    page = browser.new_context(**PHONE).new_page()
    page.goto(live_server + "/")
    href = page.get_attribute("link[rel=manifest]", "href")
    apple = page.get_attribute("link[rel=apple-touch-icon]", "href")
    assert page.get_attribute("meta[name=theme-color]", "content")
    with urllib.request.urlopen(live_server + href) as response:
        manifest = json.load(response)
    assert manifest["display"] == "standalone" and manifest["name"]
    # start_url is relative to the manifest, which lives under /static/.
    assert urllib.parse.urljoin(live_server + href, manifest["start_url"]) == (
        live_server + "/"
    )
    sizes = {}
    for icon in manifest["icons"]:
        url = urllib.parse.urljoin(live_server + href, icon["src"])
        with urllib.request.urlopen(url) as response:
            image = Image.open(io.BytesIO(response.read()))
        assert f"{image.width}x{image.height}" == icon["sizes"]
        sizes[icon["sizes"]] = icon["type"]
    assert sizes == {"192x192": "image/png", "512x512": "image/png"}
    with urllib.request.urlopen(live_server + apple) as response:
        assert Image.open(io.BytesIO(response.read())).size == (180, 180)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_every_page_keeps_its_text_at_aa_contrast_in_either_scheme(
    live_server: str, live_app: Flask, browser: Any, scheme: str
) -> None:
    game_id = _game(live_server)
    context = browser.new_context(**PHONE, color_scheme=scheme)
    page = context.new_page()
    # The game page with its edit controls (the browser that started it).
    page.goto(f"{live_server}/games/new")
    page.fill("#names-0", "Ann")
    page.fill("#names-1", "Bob")
    page.tap("form.new-game button[type=submit]")
    page.wait_for_selector("[data-board][data-drawn]")
    own = page.url
    urls = [own, "/", "/history", "/players", f"/games/{game_id}",
            f"/games/{game_id}/replay", "/games/new", f"/games/{game_id}/tv"]
    for url in urls:
        page.goto(url if url.startswith("http") else live_server + url)
        background = page.evaluate(
            "getComputedStyle(document.body).backgroundColor"
        )
        dark = background == "rgb(20, 21, 24)"
        assert dark == (scheme == "dark"), (url, background)
        assert page.evaluate(CONTRAST) == [], url
