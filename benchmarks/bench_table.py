"""At the table, on a slow phone: latencies of the game page in chromium, CPU 4x slower.

Usage: python benchmarks/bench_table.py [--moves 12] [--throttle 4] [--game NAME]

Imports a corpus game up to ~100 tiles on the board, serves the app on 127.0.0.1
(werkzeug, a thread), opens the game page as the editing phone (390x844, touch)
with chromium's CPU throttled (CDP Emulation.setCPUThrottlingRate), and enters
the game's next recorded moves by tapping, as a player does:

- cell tap -> picker shown: from the tap (the finger lifting: pointerup, where
  the page acts) to the first frame in
  which the picker is open and greyed for that cell (data-ready; older
  code had no such mark: there, the picker being visible);
- tile tap -> preview shown: from the tap on a tile in the picker to the first
  frame showing the move's score (not the "…" placeholder);
- Confirm -> totals: from the tap on Confirm to the first frame whose totals
  differ from those before it (the preview's score, before the answer);
- Confirm -> board updated: from the tap on Confirm to the first frame whose
  board holds the move's tiles;
- requests per placing move (everything the page asked for between the first
  tap of the move and the board updated), and full page loads during the game;
- zoom taps per placing move: untimed taps a player spends bringing a cell to
  a tappable size first (a cell under 44 px zooms on its first tap),
  besides dragging a cell out from under the entry bar;
- replay: the finished game's replay page, one step forward at a time by the
  Next button: from the tap to the first frame showing the step (in place),
  or the next page's load event (a page per step, before).

"The first frame" is a requestAnimationFrame callback after the change, as a
MutationObserver in the page sees it. Trades and passes are entered with the
page's forms and not timed. Prints median, p90 and max per kind.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_page import ARGS, CHROMIUM  # noqa: E402

sys.path.insert(0, str(ROOT / "tests" / "browser"))
from helpers import CELL_PX, adjacency_order, into_view, settle  # noqa: E402
from helpers import cell_point as board_point  # noqa: E402

from scorekeeper import create_app  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "games"
PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
}

HARNESS = """
(() => {
  const log = [];
  window.__log = log;
  let queued = false;
  // Cheap on purpose: it runs in the measured frames.
  const snap = () => {
    queued = false;
    const board = document.querySelector('[data-board]');
    const layer = board && board.querySelector('.layer-tiles');
    const picker = document.querySelector('[data-picker]');
    const preview = document.querySelector('[data-preview]');
    const step = document.querySelector('[data-replay]');
    log.push({
      t: performance.now(),
      tiles: layer ? layer.childElementCount : 0,
      open: picker ? !picker.hidden : false,
      ready: picker ? picker.getAttribute('data-ready') : null,
      preview: preview ? preview.textContent : null,
      wait: preview ? preview.classList.contains('wait') : false,
      step: step ? step.getAttribute('data-step') : null,
      totals: Array.from(document.querySelectorAll('[data-scores] [data-total]'),
                         e => e.textContent).join(' '),
    });
  };
  // One snapshot in the first frame after any change of the page.
  const observer = new MutationObserver(() => {
    if (!queued) { queued = true; requestAnimationFrame(snap); }
  });
  const watch = () => observer.observe(document.documentElement,
    {subtree: true, childList: true, attributes: true, characterData: true});
  if (document.documentElement) { watch(); }
  else { document.addEventListener('DOMContentLoaded', watch); }
  // A tap ends when the finger lifts: the page acts on pointerup / click.
  window.__taps = [];
  document.addEventListener(
    'pointerup', () => window.__taps.push(performance.now()), true);
})();
"""
"""Runs in every page before its scripts: logs a snapshot at the frame after each
change, and the time of each tap."""


TOTALS = """Array.from(document.querySelectorAll('[data-scores] [data-total]'),
                       e => e.textContent).join(' ')"""
"""The totals on the page, as the harness logs them."""


def prefix_record(name: str, tiles: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Return the corpus game cut when the board reaches `tiles`, and the rest."""
    record = json.loads((CORPUS / f"{name}.json").read_text())
    count = 0
    for i, move in enumerate(record["moves"]):
        count += len(move.get("tiles", []))
        if count >= tiles:
            rest = record["moves"][i + 1:]
            record["moves"] = record["moves"][: i + 1]
            break
    record["final"] = None
    return record, rest


def cell_point(page: Any, row: int, col: int) -> tuple[float, float]:
    """Return the screen point of a board cell's centre, once the page settled
    (no one taps within a frame of the last tap)."""
    settle(page)
    return board_point(page, row, col)


def reach(page: Any, row: int, col: int) -> int:
    """Bring a cell where a finger taps it, untimed, as a player does first: a
    cell under 44 px takes one tap that zooms there, and a cell under the entry
    bar or off the board's frame is dragged into view. Return the taps spent."""
    spent = 0
    if page.evaluate(CELL_PX) < 44:
        page.touchscreen.tap(*cell_point(page, row, col))
        spent += 1
    into_view(page, row, col)
    return spent


def since_tap(page: Any, test: str, timeout: float = 20.0) -> float:
    """Wait until a logged frame after the last tap passes `test` (a JS predicate
    over a snapshot `s`); return its time after the tap in ms."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = page.evaluate(
            f"""() => {{
                const tap = window.__taps[window.__taps.length - 1];
                const hit = window.__log.find(s => s.t >= tap && ({test}));
                return hit ? hit.t - tap : null;
            }}"""
        )
        if found is not None:
            return float(found)
        time.sleep(0.02)
    raise SystemExit(f"timed out waiting for: {test}")


def summary(values: list[float]) -> str:
    """Return "median X ms, p90 Y, max Z (n N)"."""
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"median {statistics.median(ordered):6.1f} ms, p90 {p90:6.1f},"
            f" max {max(ordered):6.1f} (n {len(ordered)})")


def play(page: Any, moves: list[dict[str, Any]], board: set[tuple[int, int]],
         times: dict[str, list[float]], seen: list[str]) -> None:
    """Enter the recorded moves by tapping; add each latency to times."""
    for move in moves:
        if move["type"] != "place":
            last = page.evaluate("document.querySelector('[data-last-move]')"
                                 "?.textContent ?? ''")
            if move["type"] == "trade":
                page.select_option("[data-trade] select", str(move["count"]))
                page.tap("[data-trade] button")
            else:
                page.tap("[data-pass] button")
            # In place now; a new page before (a form post).
            page.wait_for_function(
                "(last) => (document.querySelector('[data-last-move]')"
                "?.textContent ?? '') !== last", arg=last)
            page.wait_for_selector("[data-board][data-drawn]")
            continue
        seen.clear()
        times["zoom taps per placing move"].append(0.0)
        for tile in adjacency_order(board, move["tiles"]):
            cell = f"{tile['row']},{tile['col']}"
            # Auto-advance may already have opened the picker on this cell.
            already = page.evaluate(
                "(cell) => { const p = document.querySelector('[data-picker]');"
                " return !p.hidden && p.getAttribute('data-ready') === cell; }", cell)
            if not already:
                times["zoom taps per placing move"][-1] += reach(
                    page, tile["row"], tile["col"])
                page.touchscreen.tap(*cell_point(page, tile["row"], tile["col"]))
                times["cell tap -> picker shown"].append(since_tap(
                    page, f"s.open && (s.ready === {json.dumps(cell)} ||"
                    " (s.ready === null && !document.querySelector('[data-picker]')"
                    ".hasAttribute('data-ready') && window.__old))"))
            kind = f"{tile['color']} {tile['shape']}"
            button = page.locator(f'[data-picker] [data-kind="{kind}"]')
            button.wait_for(state="visible")
            page.wait_for_function(
                "(k) => !document.querySelector(`[data-picker] [data-kind=\"${k}\"]`)"
                ".disabled", arg=kind)
            before = page.evaluate(
                "document.querySelector('[data-preview]').textContent")
            button.tap()
            times["tile tap -> preview shown"].append(since_tap(
                page, f"!s.wait && s.preview !== {json.dumps(before)}"
                " && s.preview !== '…'"))
            board.add((tile["row"], tile["col"]))
        expected = len(board)
        page.wait_for_function("!document.querySelector('[data-confirm]').disabled")
        totals = page.evaluate(TOTALS)
        page.tap("[data-confirm]")
        times["Confirm -> totals"].append(
            since_tap(page, f"s.totals !== {json.dumps(totals)}"))
        times["Confirm -> board updated"].append(
            since_tap(page, f"s.tiles === {expected}"))
        page.wait_for_timeout(150)  # let the page settle (old code: legal refetch)
        times["requests per placing move"].append(float(len(seen)))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--throttle", type=float, default=4.0)
    parser.add_argument("--game", default="classic-10002")
    parser.add_argument("--tiles", type=int, default=70)
    parser.add_argument("--replay-steps", type=int, default=15)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    record, rest = prefix_record(args.game, args.tiles)
    full = json.loads((CORPUS / f"{args.game}.json").read_text())
    times: dict[str, list[float]] = {
        "cell tap -> picker shown": [], "tile tap -> preview shown": [],
        "Confirm -> totals": [], "Confirm -> board updated": [],
        "requests per placing move": [],
        "zoom taps per placing move": [],
        "replay step": [],
    }
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({
            "DATABASE": str(Path(tmp) / "bench.sqlite3"), "SECRET_KEY": "bench",
        })
        client = app.test_client()
        created = client.post("/api/games/import", json=record).get_json()
        finished = client.post("/api/games/import", json=full).get_json()
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(**PHONE)
            context.add_init_script(HARNESS)
            page = context.new_page()
            seen: list[str] = []
            page.on("request", lambda r: seen.append(r.url))
            loads: list[str] = []
            page.on("load", lambda: loads.append(page.url))
            page.goto(f"{base}/games/{created['id']}/join/{created['edit_token']}")
            page.wait_for_selector("[data-board][data-drawn]")
            page.evaluate("window.__old = !document.querySelector('[data-game-state]')")
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            board = {(t["row"], t["col"]) for t in created["board"]}
            loads.clear()
            play(page, rest[: args.moves], board, times, seen)
            reloads = len(loads)

            # Replay: step forward with the Next button.
            page.goto(f"{base}/games/{finished['id']}/replay?move=10")
            page.wait_for_selector("[data-replay]")
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            for step in range(11, 11 + args.replay_steps):
                loads.clear()
                page.tap("a[data-replay-go=next]")
                page.wait_for_function(
                    f"document.querySelector('[data-replay]')"
                    f".getAttribute('data-step') === '{step}'")
                if loads or page.evaluate("window.__taps.length === 0"):
                    # A page per step: its load event after the navigation began.
                    page.wait_for_load_state("load")
                    times["replay step"].append(page.evaluate(
                        "performance.getEntriesByType('navigation')[0].loadEventEnd"))
                    cdp = context.new_cdp_session(page)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
                else:
                    times["replay step"].append(
                        since_tap(page, f"s.step === '{step}'"))
            browser.close()
        server.shutdown()
    print(f"game page, {args.game} from {len(created['board'])} tiles,"
          f" {args.moves} recorded moves entered by tapping, phone 390x844,"
          f" CPU throttled {args.throttle:g}x")
    for kind, values in times.items():
        if not values:
            continue
        if kind.startswith(("requests", "zoom")):
            print(f"{kind:30} median {statistics.median(values):.0f},"
                  f" max {max(values):.0f}")
        else:
            print(f"{kind:30} {summary(values)}")
    print(f"{'page loads during the game':30} {reloads}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
