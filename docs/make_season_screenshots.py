"""The season's screenshots in docs/screenshots/: the season page
(season-390x844.png, season-1920x1080.png), its roster as the organiser of
one of its nights sees it (season-roster-390x844.png), its TV view
(season-tv-1920x1080.png), two club nights of one season,
each with tables played to their end, the standings by placement; a third
night's Swiss round (swiss-WxH.png: its first round played, the second
suggested) and the table cards of the round started from it (cards-WxH.png).
Run from the repository root with the test extra installed, chromium at
/usr/bin."""
import io
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from scorekeeper import create_app

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
OUT.mkdir(parents=True, exist_ok=True)
SMALL = {"colors": 3, "copies": 1, "hand_size": 1}
COLOURS = ("red", "orange", "yellow")
SHAPES = ("circle", "crisscross", "diamond")

ADMIN_KEY = "a" * 43
# The admin link, then the admin's grant, make the browser the third night's
# organiser (its pairing, its cards and their codes); a LAN address to listen
# on gives the cards their join codes.
app = create_app({"DATABASE": tempfile.mkdtemp() + "/s.sqlite3", "SECRET_KEY": "s",
                  "ADMIN_KEY": ADMIN_KEY, "LISTEN_HOST": "192.168.1.10",
                  "LISTEN_PORT": 5000})
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

# The third night: round one played; the page pairs round two, Swiss.
round_one = [(["Chloé", "Bram", "Sofia", "Daan"], square),
             (["Emma", "Finn", "Gijs", "Hanna"], snake)]
february = client.post("/api/events", json={
    "name": "February club night", "date": "2027-02-05"}).get_json()
for players, order in round_one:
    played_out(february, players, order)
client.patch(f"/api/events/{february['id']}", json={"season": season["id"]},
             headers={"X-Event-Token": february["edit_token"]})
present = "\n".join(name for players, _order in round_one for name in players)
client.post(f"/api/seasons/{season['id']}/roster", json={"add": [
    "Chloé", "Bram", "Sofia", "Daan", "Emma", "Finn", "Gijs", "Hanna", "Ivo",
    "Jorien"]}, headers={"X-Event-Token": february["edit_token"]})


def shoot(page: Any, name: str) -> None:
    """Save the page's screenshot as a small PNG (256 colours: flat pages
    lose nothing a reader sees)."""
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    shot.quantize(256).save(OUT / name, optimize=True)
    print("wrote", name)


def organise(page: Any) -> None:
    """Open the admin link, then take the third night's organiser right."""
    page.goto(f"{base}/admin/key/{ADMIN_KEY}")
    page.goto(f"{base}/events/{february['id']}")
    page.click("[data-grant-event] button[type=submit]")
    page.wait_for_selector("[data-table-cards-link]")


def suggest_swiss(page: Any) -> None:
    """Pair the next round on the night's page, Swiss, as the organiser taps it."""
    page.goto(f"{base}/events/{february['id']}?lang=en")
    page.fill("textarea[name=present]", present)
    page.check("input[name=mode][value=swiss]")
    page.click("[data-suggest]")
    page.wait_for_selector("[data-suggestion]")
    page.wait_for_function("() => [...document.images].every(i => i.complete)")


server = make_server("127.0.0.1", 0, app, threaded=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_port}"

SIZES = ((390, 844), (1920, 1080))


def sized(browser: Any, w: int, h: int) -> Any:
    """A page in a new browser context of w x h (a touch phone below 800 px)."""
    mobile = w < 800
    return browser.new_context(viewport={"width": w, "height": h},
                               is_mobile=mobile, has_touch=mobile,
                               device_scale_factor=1).new_page()


with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                args=["--no-sandbox"])
    for w, h in SIZES:
        page = sized(browser, w, h)
        page.goto(f"{base}/seasons/{season['id']}?scoring=placement&lang=en")
        page.wait_for_load_state("networkidle")
        shoot(page, f"season-{w}x{h}.png")
        organise(page)
        suggest_swiss(page)
        # The next round's box from its heading: the players present, the
        # Swiss choice, the suggestion and the button that starts it.
        page.evaluate("window.scrollTo(0, document.getElementById('seating-h')"
                      ".getBoundingClientRect().top + scrollY - 56)")
        shoot(page, f"swiss-{w}x{h}.png")
        page.context.close()
    page = sized(browser, *SIZES[0])
    organise(page)
    page.goto(f"{base}/seasons/{season['id']}?scoring=placement&lang=en#roster")
    page.wait_for_load_state("networkidle")
    page.evaluate("window.scrollTo(0, document.getElementById('roster')"
                  ".getBoundingClientRect().top + scrollY - 56)")
    shoot(page, "season-roster-390x844.png")
    page.context.close()
    page = sized(browser, *SIZES[1])
    page.goto(f"{base}/seasons/{season['id']}/tv?scoring=placement&lang=en")
    page.wait_for_load_state("networkidle")
    shoot(page, "season-tv-1920x1080.png")
    page.context.close()
    # Round two starts; both sizes show its cards.
    page = sized(browser, *SIZES[0])
    organise(page)
    suggest_swiss(page)
    page.click("[data-start-tables]")
    page.wait_for_selector("[data-tables]")
    for w, h in SIZES:
        page = sized(browser, w, h)
        organise(page)
        page.goto(f"{base}/events/{february['id']}/cards?lang=en")
        page.wait_for_load_state("networkidle")
        shoot(page, f"cards-{w}x{h}.png")
        page.context.close()
    browser.close()
server.shutdown()
