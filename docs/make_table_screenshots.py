"""The table's screenshots in docs/screenshots/: the first screen of a new game
(390x844), the table view at the end of a four-player game (1280x720) and four
players' cards in German at 360 px. Run from the repository root with the test
extra installed, chromium at /usr/bin."""
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
NAMES = ["Bartholomeus", "Christabella", "Maximiliaan", "Wilhelmienne"]

app = create_app({"DATABASE": tempfile.mkdtemp() + "/s.sqlite3", "SECRET_KEY": "s"})
client = app.test_client()
record = json.loads(Path("tests/data/games/classic-10003.json").read_text())
record["players"] = NAMES
playing = {**record, "moves": record["moves"][:20], "final": None}
made = {
    "empty": client.post("/api/games", json={"players": ["Anna", "Bram"]}),
    "playing": client.post("/api/games/import", json=playing),
    "ended": client.post("/api/games/import", json=record),
}
games = {name: answer.get_json() for name, answer in made.items()}
server = make_server("127.0.0.1", 0, app, threaded=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_port}"


def shoot(browser, game, path, name, w, h, lang="en", clip=None):
    mobile = w < 800
    ctx = browser.new_context(viewport={"width": w, "height": h}, is_mobile=mobile,
                              has_touch=mobile, device_scale_factor=1)
    page = ctx.new_page()
    page.goto(f"{base}/games/{game['id']}/join/{game['edit_token']}")
    page.goto(f"{base}/games/{game['id']}{path}?lang={lang}")
    page.wait_for_load_state("networkidle")
    page.evaluate("document.fonts.ready")
    if clip == "scores":
        box = page.locator("section.scores").bounding_box()
        clip = {"x": 0, "y": 0, "width": w, "height": box["y"] + box["height"] + 8}
    page.screenshot(path=str(OUT / f"{name}.png"), clip=clip)
    ctx.close()
    print("wrote", name)


with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium",
                          args=["--headless", "--no-sandbox", "--disable-gpu"])
    shoot(b, games["empty"], "", "first-screen-390x844", 390, 844)
    shoot(b, games["ended"], "/tv", "tv-end-1280x720", 1280, 720)
    shoot(b, games["playing"], "", "cards-de-360", 360, 640, lang="de", clip="scores")
    b.close()
server.shutdown()
