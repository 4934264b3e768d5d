"""Club nights and ratings on a large database: re-rating every game,
and the pages that show ratings (Flask test client, no network).

    python benchmarks/gen_db.py --games 50000 --out /tmp/club-50k.sqlite3
    python benchmarks/bench_club_night.py --db /tmp/club-50k.sqlite3

Measures, with medians of --repeat runs:

- re-rating every finished game from the first (what a correction or a delete
  of the oldest game costs), target 5 s at 50,000 games, wall and CPU time
  (the CPU time says what a busy machine's wall time hides);
- re-rating after the newest game finishes (one game: the usual case);
- the players list with ratings, an event page of 12 tables (8 finished, 4
  running), its TV view's state, GET /api/ratings: target a median under 50 ms
  for the first two at 50,000 games.

The database gains one event (and 4 running games) each run; the ratings it
stores are brought up to date first, so the page timings are of fresh ratings.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.store import connection, ratings  # noqa: E402
from scorekeeper.store import events as club  # noqa: E402

TARGETS_MS = {
    "re-rate every game": 5000.0,
    "players list (ratings)": 50.0,
    "event page (12 tables)": 50.0,
}
"""Each targeted measurement's median."""


def timed(action) -> float:  # noqa: ANN001
    """Run action once; return its time in ms."""
    began = time.perf_counter()
    action()
    return (time.perf_counter() - began) * 1000


CPU: dict[str, list[float]] = {}
"""Each page's CPU times (ms), beside its wall times: on a loaded machine the
wall time mostly measures the wait for a core."""


def pages(client, url: str, repeat: int, name: str) -> list[float]:  # noqa: ANN001
    """GET url repeat times; return the wall times in ms and keep the CPU times
    in CPU[name] (fail on a non-200)."""
    times, cpu = [], CPU.setdefault(name, [])
    for _ in range(repeat):
        began, began_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}")
    return times


def p90(values: list[float]) -> float:
    """Return the 90th percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a database from gen_db.py")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--rerate-repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if not Path(args.db).exists():
        raise SystemExit(f"{args.db} does not exist; run benchmarks/gen_db.py first")
    app = create_app({"DATABASE": args.db, "SECRET_KEY": "bench", "TESTING": True,
                      "WTF_CSRF_ENABLED": False})
    results: dict[str, list[float]] = {}
    with app.app_context():
        db = connection.get_db()
        finished = db.conn.execute(
            "SELECT count(*) FROM games WHERE end_reason IS NOT NULL"
            " AND end_reason != 'abandoned'"
        ).fetchone()[0]
        first_rating = timed(lambda: ratings.refresh(db))
        cpu = []
        results["re-rate every game"] = []
        for _ in range(args.rerate_repeat):
            began = time.process_time()
            results["re-rate every game"].append(timed(lambda: ratings.rerate_all(db)))
            cpu.append((time.process_time() - began) * 1000)
        results["re-rate every game, CPU time"] = cpu
        newest = db.conn.execute(
            "SELECT finished_at, id FROM games WHERE finished_at IS NOT NULL"
            " ORDER BY finished_at DESC, id DESC LIMIT 1"
        ).fetchone()

        def newest_finishes() -> None:
            with connection.immediate(db):
                db.conn.execute(
                    "INSERT INTO rating_dirty (id, finished_at, game_id)"
                    " VALUES (1, ?, ?)", list(newest),
                )
            ratings.refresh(db)

        results["re-rate the newest game"] = [
            timed(newest_finishes) for _ in range(args.repeat)
        ]
        event_id, token = club.create_event("Bench night", "2026-12-04")
        for (game_id,) in db.conn.execute(
            "SELECT id FROM games WHERE finished_at IS NOT NULL"
            " ORDER BY id DESC LIMIT 8"
        ).fetchall():
            club.add_game(event_id, game_id)
    client = app.test_client()
    names = [r["name"] for r in client.get("/api/ratings").get_json()[:16]]
    for table in range(4):
        answer = client.post("/api/games", headers={"X-Event-Token": token}, json={
            "players": names[table * 4: table * 4 + 4], "event": event_id})
        if answer.status_code != 201:
            raise SystemExit(f"could not start a table: {answer.get_json()}")
    n = args.repeat
    for name, url in (
        ("players list (ratings)", "/players"),
        ("event page (12 tables)", f"/events/{event_id}"),
        ("event TV state (tv.json)", f"/events/{event_id}/tv.json"),
        ("GET /api/ratings", "/api/ratings"),
        ("a player's page (rating chart)", f"/players/{names[0]}"),
    ):
        results[name] = pages(client, url, n, name)

    print(f"{args.db}: {finished:,} finished games with a result; first rating"
          f" after the migration: {first_rating:,.0f} ms; load average"
          f" {os.getloadavg()[0]:.1f}")
    missed = False
    for name, values in results.items():
        median = statistics.median(values)
        target = TARGETS_MS.get(name)
        verdict = ""
        if target is not None:
            ok = median <= target
            missed = missed or not ok
            verdict = f"  target {target:,.0f} ms: {'ok' if ok else 'MISSED'}"
        cpu = f"  CPU {statistics.median(CPU[name]):7.1f} ms" if name in CPU else ""
        print(f"{name:34s} median {median:9.1f} ms  p90 {p90(values):9.1f} ms"
              f"{cpu}  (n={len(values)}){verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
