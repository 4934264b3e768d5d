"""Time recording a move through the API against a no-op Flask request (same run).

Usage: python benchmarks/bench_api.py [--rounds N] [--no-cache] [--http CLIENTS]

Replays the classic corpus games (tests/data/games) move by move through
POST /api/games/<id>/moves on a real SQLite file in a temporary folder, sent by
Flask's test client, and a no-op GET on the same app after each move. Server
time is measured around the WSGI call (the app's whole work for the request,
getting and releasing the connection included; not the test client's own
environ building). Prints medians, their ratio, and the client-side round trip too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # runs from a checkout without installing too

from scorekeeper import create_app  # noqa: E402
from scorekeeper.store import cache as game_cache  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "games"


def corpus_games() -> list[dict[str, Any]]:
    """Return the classic corpus records."""
    return [json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(CORPUS.glob("classic-*.json"))]


def timed(call: Any) -> tuple[float, Any]:
    """Return (seconds, result) of one call."""
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def run(rounds: int, cache: bool) -> dict[str, Any]:
    """Play every corpus game `rounds` times; return the timing samples."""
    folder = tempfile.mkdtemp(prefix="bench-api-")
    app = create_app({
        "DATABASE": str(Path(folder) / "bench.sqlite3"),
        "SECRET_KEY": "bench",
        "WTF_CSRF_ENABLED": False,
    })

    @app.get("/_noop")
    def _noop() -> str:
        return ""

    server_times: list[float] = []
    inner = app.wsgi_app

    def timed_wsgi(environ: Any, start_response: Any) -> Any:
        start = time.perf_counter()
        body = list(inner(environ, start_response))
        server_times.append(time.perf_counter() - start)
        return body

    app.wsgi_app = timed_wsgi  # type: ignore[method-assign]

    if not cache:
        game_cache._GameCache.take = lambda self, key: None  # type: ignore[method-assign]

    client = app.test_client()
    for _ in range(50):  # warm up imports, JIT-free paths and the page cache
        client.get("/_noop")
    move_times: list[float] = []
    by_turn: dict[int, list[float]] = {}
    noop_times: list[float] = []
    round_trips: dict[str, list[float]] = {"move": [], "noop": []}
    for _ in range(rounds):
        for record in corpus_games():
            created = client.post("/api/games", json={
                "players": record["players"],
                "first_player": record["moves"][0]["player"],
            }).get_json()
            url = f"/api/games/{created['id']}/moves"
            headers = {"X-Edit-Token": created["edit_token"]}
            for turn, move in enumerate(record["moves"]):
                body = {k: v for k, v in move.items() if k not in ("player", "score")}
                body["turn"] = turn
                start = time.perf_counter()
                response = client.post(url, json=body, headers=headers)
                round_trips["move"].append(time.perf_counter() - start)
                if response.status_code != 201:
                    raise SystemExit(f"move {turn + 1} refused: {response.get_json()}")
                move_times.append(server_times[-1])
                by_turn.setdefault(turn // 20, []).append(server_times[-1])
                seconds, _response = timed(lambda: client.get("/_noop"))
                round_trips["noop"].append(seconds)
                noop_times.append(server_times[-1])
    return {"moves": move_times, "noop": noop_times, "by_turn": by_turn,
            "round_trips": round_trips}


def run_http(clients: int) -> None:
    """Play the corpus games over HTTP through waitress, `clients` at once; print stats.

    Each client plays its own games with "turn" set; also counts 409s, errors
    and "database is locked" answers, then checks the file's integrity.
    """
    import http.client
    import sqlite3
    import threading

    import waitress

    folder = tempfile.mkdtemp(prefix="bench-http-")
    database = str(Path(folder) / "bench.sqlite3")
    app = create_app({"DATABASE": database, "SECRET_KEY": "bench"})
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=8)
    port = server.effective_port  # type: ignore[union-attr]
    threading.Thread(target=server.run, daemon=True).start()
    records = corpus_games()
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    locked = 0
    lock = threading.Lock()

    def client(index: int) -> None:
        nonlocal locked
        conn = http.client.HTTPConnection("127.0.0.1", port)

        def call(method: str, url: str, body: Any, headers: dict[str, str]) -> Any:
            nonlocal locked
            start = time.perf_counter()
            conn.request(method, url, json.dumps(body),
                         {"Content-Type": "application/json", **headers})
            response = conn.getresponse()
            data = response.read()
            with lock:
                latencies.append(time.perf_counter() - start)
                statuses[response.status] = statuses.get(response.status, 0) + 1
                if b"database is locked" in data:
                    locked += 1
            return json.loads(data)

        for record in records[index % 3::3]:
            created = call("POST", "/api/games", {
                "players": record["players"],
                "first_player": record["moves"][0]["player"]}, {})
            headers = {"X-Edit-Token": created["edit_token"]}
            for turn, move in enumerate(record["moves"]):
                body = {k: v for k, v in move.items() if k not in ("player", "score")}
                call("POST", f"/api/games/{created['id']}/moves",
                     {**body, "turn": turn}, headers)
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    # The server thread is a daemon: it ends with the process (closing it under
    # its running loop makes waitress print errors).
    latencies.sort()
    conn = sqlite3.connect(database)
    integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    conn.close()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    print(f"HTTP via waitress (8 threads), {clients} clients: {len(latencies)}"
          f" requests in {elapsed:.2f} s = {len(latencies) / elapsed:.0f} req/s")
    print(f"  latency p50 {pct(0.5):.2f} ms, p90 {pct(0.9):.2f} ms,"
          f" p99 {pct(0.99):.2f} ms")
    print(f"  statuses {dict(sorted(statuses.items()))}, database is locked:"
          f" {locked}, integrity_check: {integrity}")


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-cache", action="store_true",
                        help="replay every game from the moves table on each request")
    parser.add_argument("--http", type=int, metavar="CLIENTS",
                        help="instead: load test over HTTP with this many clients")
    args = parser.parse_args()
    if args.http:
        run_http(args.http)
        return
    result = run(args.rounds, cache=not args.no_cache)
    move = statistics.median(result["moves"])
    noop = statistics.median(result["noop"])
    print(f"moves recorded: {len(result['moves'])} "
          f"(cache {'off' if args.no_cache else 'on'})")
    print(f"median server time, POST move: {move * 1000:.3f} ms")
    print(f"median server time, no-op GET: {noop * 1000:.3f} ms")
    print(f"ratio: {move / noop:.2f}x")
    trips = {k: statistics.median(v) for k, v in result["round_trips"].items()}
    print(f"test-client round trip: move {trips['move'] * 1000:.3f} ms, no-op"
          f" {trips['noop'] * 1000:.3f} ms, ratio {trips['move'] / trips['noop']:.2f}x")
    for bucket, samples in sorted(result["by_turn"].items()):
        low, high = bucket * 20 + 1, bucket * 20 + 20
        print(f"  moves {low:>2}-{high:<2}: median "
              f"{statistics.median(samples) * 1000:.3f} ms")


if __name__ == "__main__":
    main()
