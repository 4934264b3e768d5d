"""What the spoken sentence ("Say scores aloud") adds to every game state.

Run from the repository root:

    python benchmarks/bench_speech.py

Every state the API and the pages send carries `last_move.spoken` (and the
table view's `spoken`), built by text.spoken_last. This times it against the
whole state as the game page gets it (web/state.state_text), in Dutch, for
the corpus game classic-10002 with 60 tiles on the board (running) and at its end (the
winner and totals are said too): medians of 7 repeats, and their ratio, which
the machine's load disturbs less than the times themselves.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_page import prefix_record  # noqa: E402

from scorekeeper import create_app, i18n, text  # noqa: E402
from scorekeeper.store import loaded  # noqa: E402
from scorekeeper.web.state import state_text  # noqa: E402


def median_us(call: object, number: int = 300) -> float:
    times = timeit.repeat(call, number=number, repeat=7)  # type: ignore[arg-type]
    return statistics.median(times) / number * 1e6


def main() -> None:
    app = create_app({"DATABASE": tempfile.mkdtemp() + "/b.sqlite3",
                      "SECRET_KEY": "bench"})
    client = app.test_client()
    full = json.loads((ROOT / "tests/data/games/classic-10002.json").read_text())
    games = {
        "running (60 tiles)": client.post(
            "/api/games/import", json=prefix_record("classic-10002", 60)).get_json(),
        "finished": client.post("/api/games/import", json=full).get_json(),
    }
    print(f"load average {os.getloadavg()[0]:.1f}")
    with app.app_context(), i18n.language("nl"):
        for label, created in games.items():
            with loaded(created["id"]) as row:
                spoken = median_us(lambda: text.spoken_last(row.game, row.names))
                state = median_us(lambda: state_text(row))
            print(f"{label}: spoken_last {spoken:.1f} µs, state_text {state:.1f} µs,"
                  f" spoken / state {spoken / state:.1%}")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
