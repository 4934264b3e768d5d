"""The season page's screenshots in docs/screenshots/ (season-390x844.png,
season-1920x1080.png): two club nights of one season, each with tables played
to their end, the standings by placement. Run from the repository root with
the test extra installed, chromium at /usr/bin."""
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from scorekeeper import create_app

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
OUT.mkdir(parents=True, exist_ok=True)
SMALL = {"colors": 3, "copies": 1, "hand_size": 1}
COLOURS = ("red", "orange", "yellow")
SHAPES = ("circle", "crisscross", "diamond")

app = create_app({"DATABASE": tempfile.mkdtemp() + "/s.sqlite3", "SECRET_KEY": "s"})
client = app.test_client()


def played_out(event: dict, players: list[str], order: list[tuple[int, int]]) -> None:
    """A small game played to its end, the tiles in the order given."""
    made = client.post("/api/games", json={
        "players": players, "variant": SMALL, "event": event["id"]},
        headers={"X-Event-Token": event["edit_token"]}).get_json()
    for row, col in order:
        state = client.get(f"/api/games/{made['id']}").get_json()
        if state["status"] == "finished":
            return
        client.post(f"/api/games/{made['id']}/moves", json={
            "type": "place",
            "tiles": [{"row": row, "col": col, "color": COLOURS[row],
                       "shape": SHAPES[col]}]},
            headers={"X-Edit-Token": made["edit_token"]})


square = [(r, c) for r in range(3) for c in range(3)]
snake = [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1), (0, 2), (1, 2), (2, 2)]
season = client.post("/api/seasons", json={"name": "Winter season"}).get_json()
for name, day, tables in (
    ("December club night", "2026-12-04",
     [(["Chloé", "Bram", "Sofia", "Daan"], square), (["Emma", "Finn"], snake),
      (["Gijs", "Hanna", "Ivo"], square)]),
    ("January club night", "2027-01-08",
     [(["Chloé", "Emma", "Gijs"], snake), (["Bram", "Finn", "Hanna", "Ivo"], square),
      (["Sofia", "Daan"], square)]),
):
    night = client.post("/api/events", json={"name": name, "date": day}).get_json()
    for players, order in tables:
        played_out(night, players, order)
    client.patch(f"/api/events/{night['id']}", json={"season": season["id"]},
                 headers={"X-Event-Token": night["edit_token"]})

server = make_server("127.0.0.1", 0, app, threaded=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_port}"

with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                args=["--no-sandbox"])
    for w, h in ((390, 844), (1920, 1080)):
        mobile = w < 800
        ctx = browser.new_context(viewport={"width": w, "height": h},
                                  is_mobile=mobile, has_touch=mobile,
                                  device_scale_factor=1)
        page = ctx.new_page()
        page.goto(f"{base}/seasons/{season['id']}?scoring=placement&lang=en")
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(OUT / f"season-{w}x{h}.png"))
        ctx.close()
        print("wrote", f"season-{w}x{h}.png")
    browser.close()
server.shutdown()
