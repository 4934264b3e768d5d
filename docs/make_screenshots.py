"""The screenshots in docs/screenshots/ (closing notes of issues 8, 10 and 18):
run from the repository root with the test extra installed, chromium at /usr/bin."""
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "tests")
sys.path.insert(0, "tests/browser")
from bench_page import prefix_record  # noqa: E402
from corpus import record_before  # noqa: E402
from helpers import adjacency_order, settle, tap_cell  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from scorekeeper import create_app  # noqa: E402

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
OUT.mkdir(parents=True, exist_ok=True)
SIZES = [(360, 640), (390, 844), (844, 390), (1024, 768), (1920, 1080)]

app = create_app({"DATABASE": tempfile.mkdtemp() + "/s.sqlite3", "SECRET_KEY": "s"})
client = app.test_client()
running = client.post(
    "/api/games/import", json=prefix_record("classic-10002", 70)
).get_json()
import json  # noqa: E402

full = json.loads(Path("tests/data/games/classic-10002.json").read_text())
finished = client.post("/api/games/import", json=full).get_json()
server = make_server("127.0.0.1", 0, app, threaded=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_port}"


def shoot(browser, path, name, w, h, scheme="light", lang=None, picker=False, join=True,
          hints=False):
    mobile = w < 800
    ctx = browser.new_context(viewport={"width": w, "height": h}, is_mobile=mobile,
                              has_touch=mobile, color_scheme=scheme,
                              device_scale_factor=1)
    if hints:
        ctx.add_init_script(f"localStorage.setItem('sk-hints-{running['id']}', '1')")
    page = ctx.new_page()
    if join:
        page.goto(f"{base}/games/{running['id']}/join/{running['edit_token']}")
    page.goto(base + path + (f"?lang={lang}" if lang else ""))
    page.wait_for_load_state("networkidle")
    if picker:
        page.evaluate(
            "() => { const s = document.querySelector("
            "'[data-board] rect.slot:not(.dead)');"
            " s.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));"
            " s.dispatchEvent(new PointerEvent('pointerup', {bubbles: true})); }")
        page.wait_for_timeout(600)
    page.screenshot(path=str(OUT / f"{name}.png"))
    ctx.close()
    print("wrote", name)


def after_move(browser, w, h):
    """The game page of a 4-player game right after a move tapped in and
    confirmed: every total and the whole last-move line in sight."""
    ctx = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True,
                              has_touch=True, device_scale_factor=1)
    record, move = record_before("classic-10003", 40)
    state = ctx.request.post(f"{base}/api/games/import", data=record).json()
    page = ctx.new_page()
    page.goto(f"{base}/games/{state['id']}")
    page.wait_for_selector("[data-board][data-drawn]")
    board = {(t["row"], t["col"]) for t in state["board"]}
    for t in adjacency_order(board, move["tiles"]):
        tap_cell(page, t["row"], t["col"])
        page.wait_for_selector(f"[data-picker][data-ready='{t['row']},{t['col']}']")
        page.tap(f'[data-picker] .picker-grid [data-kind="{t["color"]} {t["shape"]}"]')
    page.tap("[data-confirm]")
    page.wait_for_function(
        "() => !document.querySelector('[data-board] .layer-pend svg.pending')")
    settle(page)
    page.wait_for_timeout(300)
    page.screenshot(path=str(OUT / f"game-after-move-{w}x{h}.png"))
    ctx.close()
    print("wrote", f"game-after-move-{w}x{h}")


def picker_8x8(browser):
    """An 8-colour, 8-shape set's picker at 360 px: a row per colour."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                              has_touch=True, device_scale_factor=1)
    made = ctx.request.post(f"{base}/api/games", data={
        "players": ["Ann", "Bob"],
        "variant": {"colors": 8, "shapes": 8, "copies": 2, "hand_size": 6}}).json()
    page = ctx.new_page()
    page.goto(f"{base}/games/{made['id']}")
    page.wait_for_selector("[data-board][data-drawn]")
    tap_cell(page, 0, 0)
    page.wait_for_selector("[data-picker][data-ready='0,0']")
    settle(page)
    page.screenshot(path=str(OUT / "picker-8x8-360.png"))
    ctx.close()
    print("wrote", "picker-8x8-360")


with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium",
                          args=["--headless", "--no-sandbox", "--disable-gpu"])
    game = f"/games/{running['id']}"
    for w, h in SIZES:
        shoot(b, game, f"game-{w}x{h}", w, h)
        shoot(b, f"{game}/tv", f"tv-{w}x{h}", w, h)
    shoot(b, game, "game-dark-390x844", 390, 844, scheme="dark")
    shoot(b, game, "hints-390x844", 390, 844, hints=True)
    shoot(b, game, "hints-1920x1080", 1920, 1080, hints=True)
    for lang in ("nl", "en", "de", "fr", "es"):
        shoot(b, game, f"game-{lang}-390x844", 390, 844, lang=lang)
    shoot(b, f"/games/{finished['id']}", "final-390x844", 390, 844)
    shoot(b, f"/games/{finished['id']}/analysis", "analysis-390x844", 390, 844)
    shoot(b, f"/games/{finished['id']}/replay?move=20", "replay-390x844", 390, 844)
    shoot(b, "/players", "players-360x640", 360, 640)
    after_move(b, 390, 844)
    after_move(b, 360, 640)
    picker_8x8(b)
    b.close()
server.shutdown()
