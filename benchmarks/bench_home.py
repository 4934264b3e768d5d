"""The home page on a big database: its running and finished games' queries.

Usage:
    python benchmarks/gen_db.py --games 50000 --out /tmp/h50k.sqlite3
    python benchmarks/bench_home.py --db /tmp/h50k.sqlite3 [--rounds 200]

Opens the database with the app (which migrates it: mind that on a database you
keep), adds --running running games (a household has a few), then GETs `/`
through the test client --rounds times and prints the median and p90 wall time
per page (and its CPU time: on a shared machine, waiting for a core is not the
page's cost) and SQLite's plan for the running games' query.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.store.connection import get_db  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a database from gen_db.py")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--running", type=int, default=3)
    args = parser.parse_args()
    app = create_app({"DATABASE": args.db, "TESTING": True,
                      "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    with app.app_context():
        db = get_db()
        running = next(iter(db.query(
            "SELECT count(*) AS n FROM games WHERE status = 'active'")))["n"]
        total = next(iter(db.query("SELECT count(*) AS n FROM games")))["n"]
    for _ in range(max(0, args.running - running)):
        client.post("/api/games", json={"players": ["Ann", "Bob"]})
    with app.app_context():
        plan = [row["detail"] for row in get_db().query(
            "EXPLAIN QUERY PLAN SELECT id FROM games WHERE status = 'active'"
            " ORDER BY updated_at DESC, id DESC LIMIT 20")]
    for _ in range(10):
        assert client.get("/").status_code == 200
    times, cpu = [], []
    for _ in range(args.rounds):
        began, began_cpu = time.perf_counter(), time.process_time()
        client.get("/")
        cpu.append((time.process_time() - began_cpu) * 1000)
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    print(f"home page, {total:,} games ({max(running, args.running)} running):"
          f" median {statistics.median(times):.2f} ms,"
          f" p90 {times[int(len(times) * 0.9)]:.2f} ms; CPU median"
          f" {statistics.median(cpu):.2f} ms")
    print("plan of the running games' query:", "; ".join(plan))


if __name__ == "__main__":
    main()
