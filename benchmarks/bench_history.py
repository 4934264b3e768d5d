"""Median server time of the history pages on a large database (Flask test client).

    python benchmarks/gen_db.py --games 10000 --out /tmp/history-10k.sqlite3
    python benchmarks/bench_history.py --db /tmp/history-10k.sqlite3

Prints, per page, the median and 90th percentile of the time the app takes to
answer (no network), against its target: a median under 100 ms for the history
page and a replay step, under 50 ms at 50,000 games for the players
list, head-to-head, name search and a player's statistics. Run it
on 10,000 and on 50,000 games to see that none grows faster than the data.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.store import stats  # noqa: E402

TARGETS_MS = {
    "history page 1": 100.0,
    "replay step (random game, cold)": 100.0,
    "player statistics": 50.0,
    "players list": 50.0,
    "head to head": 50.0,
    "history, name search": 50.0,
}
"""Each targeted page's median time (issues 2 and 12)."""


def measure(client, urls: list[str]) -> list[float]:  # noqa: ANN001
    """GET each URL once; return the times in ms (fail on a non-200)."""
    times = []
    for url in urls:
        began = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - began) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}")
    return times


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return 1 when a targeted page misses its target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a database from gen_db.py")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if not Path(args.db).exists():
        raise SystemExit(f"{args.db} does not exist; run benchmarks/gen_db.py first")

    app = create_app({"DATABASE": args.db, "SECRET_KEY": "bench", "TESTING": True})
    rng = random.Random(args.seed)
    with app.app_context():
        games = stats.count_games()
        names = [row["name"] for row in stats.player_summaries()]
    pages = max(1, games // 25)
    n = args.repeat
    cases = {
        "history page 1": ["/history"] * n,
        "history, random page": [
            f"/history?page={rng.randint(1, pages)}" for _ in range(n)
        ],
        "history, name search": [
            f"/history?q={rng.choice(names)[:3]}" for _ in range(n)
        ],
        "player statistics": [f"/players/{rng.choice(names)}" for _ in range(n)],
        "replay step (random game, cold)": [
            f"/games/{rng.randint(1, games)}/replay?move={rng.randint(0, 50)}"
            for _ in range(n)
        ],
        "players list": ["/players"] * n,
        "head to head": [
            "/head-to-head?a={}&b={}".format(*rng.sample(names, 2))
            for _ in range(n)
        ],
        "score sheet page": [
            f"/games/{rng.randint(1, games)}/scoresheet" for _ in range(n)
        ],
    }
    client = app.test_client()
    client.get("/history")  # warm imports, templates and the page cache
    print(f"{games} games, {len(names)} player names, {n} requests per case")
    print(f"{'case':34} {'median ms':>10} {'p90 ms':>8}")
    failed = False
    for case, urls in cases.items():
        times = sorted(measure(client, urls))
        median = statistics.median(times)
        p90 = times[int(0.9 * (len(times) - 1))]
        mark = ""
        if case in TARGETS_MS:
            target = TARGETS_MS[case]
            mark = f"< {target:.0f} " + ("ok" if median < target else "SLOW")
            failed |= median >= target
        print(f"{case:34} {median:10.1f} {p90:8.1f} {mark}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
