"""Game page weight and drawing time with a 100-tile board, in headless chromium.

Usage: python benchmarks/bench_page.py [--runs 7] [--game classic-10002]

Imports the first moves of a corpus game (until 100 tiles lie on the board) into a
fresh database, serves the app on 127.0.0.1 (werkzeug, a thread), opens the game
page as the editing phone (390x844, touch) in a fresh browser context per run, and
prints:
- bytes of HTML + CSS + JS: the bodies (decoded) against the 150 KB budget, and
  on the wire (gzip as the browser asks for it, headers included) against the
  30 KB target;
- time from navigation start until board.js has drawn the board (its
  performance mark "board-drawn"), median and range over the runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "games"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
BUDGET = 150 * 1024
WIRE_TARGET = 30 * 1024
TILES = 100


def prefix_record(name: str, tiles: int = TILES) -> dict[str, Any]:
    """Return the corpus game cut after the move that brings the board to `tiles`."""
    record = json.loads((CORPUS / f"{name}.json").read_text())
    count = 0
    for i, move in enumerate(record["moves"]):
        count += len(move.get("tiles", []))
        if count >= tiles:
            record["moves"] = record["moves"][: i + 1]
            break
    record["final"] = None
    return record


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--game", default="classic-10002")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({
            "DATABASE": str(Path(tmp) / "bench.sqlite3"),
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": True,
        })
        record = prefix_record(args.game)
        client = app.test_client()
        created = client.post("/api/games/import", json=record).get_json()
        game_id, token = created["id"], created["edit_token"]
        board_tiles = len(created["board"])
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        times: list[float] = []
        weights: list[tuple[int, int, dict[str, int]]] = []
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for _ in range(args.runs):
                context = browser.new_context(
                    viewport={"width": 390, "height": 844}, is_mobile=True,
                    has_touch=True,
                )
                page = context.new_page()
                # The join link puts the edit token in this context's session.
                page.goto(f"{base}/games/{game_id}/join/{token}")
                # Measured: a fresh navigation with an empty cache (CSS/JS counted).
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
                page.goto(f"{base}/games/{game_id}")
                page.wait_for_selector(f"[data-board][data-drawn='{board_tiles}']")
                drawn = page.evaluate(
                    "performance.getEntriesByName('board-drawn')[0].startTime"
                )
                entries = page.evaluate("""() => {
                    const nav = performance.getEntriesByType('navigation')[0];
                    const res = performance.getEntriesByType('resource');
                    return [nav, ...res].map(e => ({name: e.name, type: e.initiatorType,
                        body: e.decodedBodySize, transfer: e.transferSize}));
                }""")
                kinds: dict[str, int] = {}
                body = transfer = 0
                for entry in entries:
                    name = entry["name"].split("?")[0]
                    if entry["type"] == "navigation":
                        kind = "html"
                    elif name.endswith(".css"):
                        kind = "css"
                    elif name.endswith(".js"):
                        kind = "js"
                    else:
                        continue  # API calls made after drawing are not page weight
                    kinds[kind] = kinds.get(kind, 0) + entry["body"]
                    body += entry["body"]
                    transfer += entry["transfer"]
                weights.append((body, transfer, kinds))
                times.append(drawn)
                context.close()
            browser.close()
        server.shutdown()
    body, transfer, kinds = weights[0]
    print(f"game page, {board_tiles} tiles on the board ({args.game}, "
          f"{len(record['moves'])} moves), phone 390x844, {args.runs} cold runs")
    print(f"HTML+CSS+JS bytes: {body} ({body / 1024:.1f} KB; "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
          + f"); budget {BUDGET} " + ("OK" if body <= BUDGET else "EXCEEDED"))
    print(f"on the wire, headers included: {transfer} ({transfer / 1024:.1f} KB);"
          f" target {WIRE_TARGET} " + ("OK" if transfer <= WIRE_TARGET else "MISSED"))
    median = statistics.median(times)
    print(f"board drawn after navigation start: median {median:.1f} ms"
          f" (min {min(times):.1f}, max {max(times):.1f})")
    return 0 if body <= BUDGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
