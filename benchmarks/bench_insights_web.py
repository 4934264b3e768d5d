"""Benchmark the insights' web side: hints and analysis over HTTP.

Run from the repository root:

    python benchmarks/bench_insights_web.py

Imports the classic corpus games (tests/data/games, through tests/corpus.py)
into a temporary database and times, with Flask's test client (server time
with the client's small overhead, no network):

- GET /api/games/<id>/hints on each whole game's final board (goal: hints
  for a late board ≤ 30 ms);
- GET /api/games/<id>/analysis cold (nothing stored: analysed and stored in
  the request) and stored (read back), goal: a whole game ≤ 1 s;
- the analysis page and a replay step of a game whose analysis is stored.
"""

from __future__ import annotations

import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from corpus import game_files, load  # noqa: E402

from scorekeeper import create_app  # noqa: E402


def timed(call: Callable[[], object]) -> float:
    """Return the milliseconds one call takes."""
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    """Print the median and worst time of each request over the corpus games."""
    folder = tempfile.mkdtemp()
    database = Path(folder) / "bench.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(database),
                      "SECRET_KEY": "bench"})
    client = app.test_client()
    ids = []
    for path in game_files("classic"):
        answer = client.post("/api/games/import", json=load(path))
        assert answer.status_code == 201, answer.get_json()
        ids.append(answer.get_json()["id"])

    def get(url: str) -> Callable[[], object]:
        def call() -> object:
            response = client.get(url)
            assert response.status_code == 200, url
            return response
        return call

    rows: dict[str, list[float]] = {}
    for _ in range(5):
        with sqlite3.connect(database) as db:
            db.execute("UPDATE moves SET best_same_tiles = NULL, best_tiles = NULL")
        for game_id in ids:
            rows.setdefault("GET hints, final board", []).append(
                timed(get(f"/api/games/{game_id}/hints")))
            rows.setdefault("GET analysis, cold (analysed and stored)", []).append(
                timed(get(f"/api/games/{game_id}/analysis")))
            rows.setdefault("GET analysis, stored", []).append(
                timed(get(f"/api/games/{game_id}/analysis")))
            rows.setdefault("analysis page, stored", []).append(
                timed(get(f"/games/{game_id}/analysis")))
            rows.setdefault("replay step, analysis stored", []).append(
                timed(get(f"/games/{game_id}/replay?move=20")))
    print(f"{len(ids)} classic corpus games, 5 rounds")
    print(f"{'request':45} {'median ms':>10} {'max ms':>8}")
    for name, values in rows.items():
        print(f"{name:45} {statistics.median(values):10.2f} {max(values):8.2f}")


if __name__ == "__main__":
    main()
