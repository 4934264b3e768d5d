"""Screenshots of the join QR section and the game header at 360 px
(docs/screenshots/join-qr-390x844.png, menu-<lang>-360x640.png): run from the
repository root with the test extra installed, chromium at /usr/bin."""
import json
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

sys.path.insert(0, ".")
from scorekeeper import create_app  # noqa: E402

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
OUT.mkdir(parents=True, exist_ok=True)
# As `python -m scorekeeper --host scorekeeper.test`: the join link names an
# address other devices reach (on 127.0.0.1 the page says it has none).
app = create_app({"DATABASE": tempfile.mkdtemp() + "/s.sqlite3", "SECRET_KEY": "s",
                  "LISTEN_HOST": "scorekeeper.test", "LISTEN_PORT": 5000})
record = json.loads(Path("tests/data/games/classic-10001.json").read_text())
record["moves"], record["final"] = record["moves"][:12], None
game = app.test_client().post("/api/games/import", json=record).get_json()
server = make_server("127.0.0.1", 0, app, threaded=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_port}"

with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                args=["--headless", "--no-sandbox", "--disable-gpu"])
    phone = browser.new_context(viewport={"width": 390, "height": 844},
                                is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.goto(f"{base}/games/{game['id']}/join/{game['edit_token']}")
    page.wait_for_selector("[data-board][data-drawn]")
    page.locator("details.share summary").tap()
    page.wait_for_function(
        "() => { const i = document.querySelector('details.share .qr img');"
        " return i.complete && i.naturalWidth > 0; }")
    share = page.locator("details.share")
    share.scroll_into_view_if_needed()
    share.screenshot(path=str(OUT / "join-qr-390x844.png"))
    print("wrote join-qr-390x844.png")
    small = browser.new_context(viewport={"width": 360, "height": 640},
                                is_mobile=True, has_touch=True)
    page = small.new_page()
    for lang in ("de", "fr", "es", "nl", "en"):
        page.goto(f"{base}/?lang={lang}")
        page.screenshot(path=str(OUT / f"menu-{lang}-360x640.png"),
                        clip={"x": 0, "y": 0, "width": 360, "height": 160})
        print(f"wrote menu-{lang}-360x640.png")
    browser.close()
