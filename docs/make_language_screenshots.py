"""The five-language screenshots in docs/screenshots/: the game page
at 360 px in nl, en, de, fr and es, whole (last move, the say-aloud switch),
and with a refused tile's sentence. Run from the repository root with the test
extra installed, chromium at /usr/bin."""
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, "benchmarks")
sys.path.insert(0, ".")
from bench_page import prefix_record  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from tests.browser.helpers import tap_cell  # noqa: E402

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
OUT.mkdir(parents=True, exist_ok=True)

app = create_app({"DATABASE": tempfile.mkdtemp() + "/s.sqlite3", "SECRET_KEY": "s"})
running = app.test_client().post(
    "/api/games/import", json=prefix_record("classic-10002", 70)
).get_json()
server = make_server("127.0.0.1", 0, app, threaded=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_port}"
# An empty cell beside the last tile placed: some tiles fit there, the greyed
# ones are refused with a sentence naming them and the line.
board = {(t["row"], t["col"]) for t in running["board"]}
last = running["board"][-1]
CELL = next((last["row"] + dr, last["col"] + dc)
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if (last["row"] + dr, last["col"] + dc) not in board)
NAMED = ("(kind) => document.querySelector('[data-preview]').textContent.includes("
         "JSON.parse(document.querySelector('[data-board]').dataset.text).names[kind])")

with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                args=["--headless", "--no-sandbox", "--disable-gpu"])
    for lang in ("nl", "en", "de", "fr", "es"):
        ctx = browser.new_context(viewport={"width": 360, "height": 640},
                                  is_mobile=True, has_touch=True, device_scale_factor=1)
        page = ctx.new_page()
        page.goto(f"{base}/games/{running['id']}/join/{running['edit_token']}")
        page.goto(f"{base}/games/{running['id']}?lang={lang}")
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(OUT / f"game-{lang}-360-full.png"), full_page=True)
        tap_cell(page, *CELL)
        page.wait_for_timeout(400)
        off = page.locator("[data-picker] [data-kind].off")
        for i in range(off.count()):
            off.nth(i).tap(force=True)
            page.wait_for_timeout(300)
            if page.evaluate(NAMED, off.nth(i).get_attribute("data-kind")):
                break
        page.locator("[data-preview]").scroll_into_view_if_needed()
        page.screenshot(path=str(OUT / f"game-{lang}-360x640-refusal.png"))
        print("wrote", lang, page.locator("[data-preview]").inner_text())
        ctx.close()
    browser.close()
server.shutdown()
