"""The screenshots in docs/screenshots/ (closing notes of issues 8 and 10): run
from the repository root with the test extra installed, chromium at /usr/bin."""
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, "benchmarks")
from bench_page import prefix_record  # noqa: E402
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
    b.close()
server.shutdown()
