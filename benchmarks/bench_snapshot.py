"""How long a snapshot of a large database takes, and how long it holds up a move.

    python benchmarks/gen_db.py --games 10000 --out /tmp/h10k.sqlite3
    python benchmarks/bench_snapshot.py --db /tmp/h10k.sqlite3

Copies the database to a temporary folder, then, as the server does, takes
snapshots (store.snapshots.take_snapshot, its default step and pause) in a
thread while the main thread enters moves on one game through the app (a trade,
then an undo, over and over; Flask test client on the real file). Prints the
snapshot's time (median of --repeat) and the move latencies without and during
snapshots: the longest is the worst stall a snapshot caused. Target:
a snapshot never blocks a move more than a moment.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.store import snapshots  # noqa: E402


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"n={len(values):5d}  median {statistics.median(values):6.2f}  p99"
            f" {p99:6.2f}  max {ordered[-1]:7.2f} ms")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a database from gen_db.py")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if not Path(args.db).exists():
        raise SystemExit(f"{args.db} does not exist; run benchmarks/gen_db.py first")

    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "scorekeeper.sqlite3"
        shutil.copyfile(args.db, database)
        app = create_app({"DATABASE": str(database), "SECRET_KEY": "bench",
                          "TESTING": True, "WTF_CSRF_ENABLED": False})
        client = app.test_client()
        game = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
        url, headers = f"/api/games/{game['id']}", {"X-Edit-Token": game["edit_token"]}
        first = client.post(f"{url}/moves", headers=headers, json={
            "type": "place", "tiles": [{"row": 0, "col": 0, "color": "red",
                                        "shape": "circle"}]})
        assert first.status_code == 201

        def moves(until: threading.Event | float) -> list[float]:
            times = []
            while not (until.is_set() if isinstance(until, threading.Event)
                       else time.perf_counter() > until):
                for method, path, body in (("POST", f"{url}/moves",
                                            {"type": "trade", "count": 1}),
                                           ("DELETE", f"{url}/moves/last", None)):
                    began = time.perf_counter()
                    response = client.open(path, method=method, json=body,
                                           headers=headers)
                    times.append((time.perf_counter() - began) * 1000)
                    assert response.status_code in (200, 201), response.get_json()
                time.sleep(0.005)
            return times

        quiet = moves(time.perf_counter() + 5)
        took: list[float] = []
        done = threading.Event()

        def snapshotting() -> None:
            for _ in range(args.repeat):
                began = time.perf_counter()
                snapshots.take_snapshot(str(database), Path(tmp) / "snapshots")
                took.append(time.perf_counter() - began)
            done.set()

        worker = threading.Thread(target=snapshotting)
        worker.start()
        during = moves(done)
        worker.join()
        size = database.stat().st_size / 1024 / 1024

    print(f"database: {args.db}, {size:.0f} MB; step {snapshots.PAGES_PER_STEP}"
          f" pages, pause {snapshots.PAUSE * 1000:.0f} ms")
    print(f"snapshot time: median {statistics.median(took):.2f} s"
          f" (runs: {', '.join(f'{t:.2f}' for t in took)})")
    print(f"moves, no snapshot:     {summary(quiet)}")
    print(f"moves, during snapshot: {summary(during)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
