"""The photo endpoint on the real server: its time end to end, and what photos
being read do to the other routes.

Usage:
    python benchmarks/bench_photo_api.py [--uploads 20] [--seconds 20]
        [--photo-clients 3] [--readers 4] [--server-arg=--workers=N ...]

Starts `python -m scorekeeper` from this checkout (bench_club's helpers: its own
instance folder, a free loopback port), imports the corpus game of --photo cut
before the move it shows (default `tests/data/photos/example-2-held-out.jpg`,
50 KB, classic-10008 before its 8th placing move, 3 new tiles). Then:

1. **end to end**: --warmup then --uploads photos one after another, each
   timed from the request's first byte to the answer's last (multipart
   upload, reading in a render worker, JSON back); the warm-up's are reported
   apart (the first photo a server process takes starts its render worker and
   loads OpenCV there), the median and p90 of the rest.
2. **other routes while photos are read**: --readers threads ask the game's
   state (`GET /api/games/<id>`, no ETag, so the state is built) and a preview
   (`POST /api/games/<id>/preview` of the move) back to back for --seconds,
   first alone (baseline), then while --photo-clients threads upload photos
   back to back. Reported: p50/p99 of the other routes in both phases, the
   photo answers by status (503 = a photo turned away by the semaphore after
   waiting PHOTO_WAIT), and the peak resident memory of the server's whole
   process tree (server, its workers, their render workers), sampled every
   50 ms from /proc.

Nothing is stored by a photo, so every upload reads the same position.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

from bench_club import free_port, process_tree, start_server, stop_server  # noqa: E402
from corpus import record_before  # noqa: E402
from photo_requests import (  # noqa: E402
    PHOTO,
    admin_cookie,
    import_game,
    photo_body,
    request,
)


def rss_mb(pid: int) -> float:
    """Resident memory of pid and its descendants now, in MB (Linux /proc)."""
    total = 0
    for each in process_tree(pid):
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of values, in ms."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index] * 1000


def other_routes(port: int, game_id: int, move: dict[str, Any], seconds: float,
                 readers: int) -> list[float]:
    """Ask state and preview back to back from `readers` threads; return latencies."""
    preview = json.dumps({"type": "place", "tiles": move["tiles"]}).encode()
    times: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def loop(k: int) -> None:
        n = 0
        while time.monotonic() < stop:
            if (n + k) % 2:
                status, _, t = request(port, "GET", f"/api/games/{game_id}")
            else:
                status, _, t = request(port, "POST", f"/api/games/{game_id}/preview",
                                       preview, {"Content-Type": "application/json"})
            if status != 200:
                raise SystemExit(f"other route answered {status}")
            with lock:
                times.append(t)
            n += 1

    threads = [threading.Thread(target=loop, args=(k,)) for k in range(readers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=8,
                        help="uploads first, untimed in the median (each server"
                             " process starts its render worker on its first)")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--photo-clients", type=int, default=3)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--server-arg", action="append", default=[])
    parser.add_argument("--photo", type=Path, default=PHOTO,
                        help="a photo with a JSON beside it naming game_and_move"
                             " (as bench_photo.py --examples writes them)")
    args = parser.parse_args(argv)

    about = json.loads(args.photo.with_suffix(".json").read_text())
    game_name, place = about["game_and_move"].split("#")
    record, move = record_before(game_name, int(place))
    data = args.photo.read_bytes()
    body = photo_body(data)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        proc = start_server(Path(folder), port, ["--quiet", *args.server_arg])
        try:
            game, headers = import_game(port, record)
            # The admin's device, as the host's laptop: no photo rate.
            headers = {**headers, **admin_cookie(port, Path(folder))}
            path = f"/api/games/{game['id']}/photo"
            want = sorted((t["row"], t["col"], t["color"], t["shape"])
                          for t in move["tiles"])

            # 1. end to end, one after another, after a warm-up that starts the
            # render worker (and loads OpenCV) in every server process.
            times = []
            for _ in range(args.warmup + args.uploads):
                status, answer, t = request(port, "POST", path, body, headers)
                got = sorted((t["row"], t["col"], t["color"], t["shape"])
                             for t in json.loads(answer).get("tiles", []))
                if status != 200 or got != want:
                    raise SystemExit(f"photo answered {status}: {answer[:300]!r}")
                times.append(t)
            cold, rest = times[:args.warmup], times[args.warmup:]
            print(f"photo end to end ({len(data) // 1024} KB JPEG, {len(want)} new"
                  f" tiles, {len(record['moves'])} moves stored): warm-up of"
                  f" {len(cold)}: first {cold[0]:.2f} s, slowest {max(cold):.2f} s;"
                  f" then median {statistics.median(rest):.3f} s, p90"
                  f" {percentile(rest, 90) / 1000:.3f} s, min {min(rest):.3f} s"
                  f" over {len(rest)}")

            # 2. the other routes, alone and while photos are read.
            base = other_routes(port, game["id"], move, args.seconds, args.readers)
            peak = [rss_mb(proc.pid)]
            statuses: dict[int, int] = {}
            photo_times: list[float] = []
            done = threading.Event()

            def uploader() -> None:
                while not done.is_set():
                    status, _, t = request(port, "POST", path, body, headers)
                    statuses[status] = statuses.get(status, 0) + 1
                    if status == 200:
                        photo_times.append(t)

            def sampler() -> None:
                while not done.is_set():
                    peak.append(rss_mb(proc.pid))
                    time.sleep(0.05)

            helpers = [threading.Thread(target=uploader)
                       for _ in range(args.photo_clients)]
            helpers.append(threading.Thread(target=sampler))
            for h in helpers:
                h.start()
            time.sleep(1.0)  # the uploads under way before measuring
            loaded = other_routes(port, game["id"], move, args.seconds, args.readers)
            done.set()
            for h in helpers:
                h.join()
            p50, p99 = percentile(base, 50), percentile(base, 99)
            print(f"other routes alone ({args.readers} clients): {len(base)}"
                  f" requests, p50 {p50:.1f} ms, p99 {p99:.1f} ms")
            p50, p99 = percentile(loaded, 50), percentile(loaded, 99)
            print(f"other routes with {args.photo_clients} clients uploading photos"
                  f" back to back: {len(loaded)} requests, p50 {p50:.1f} ms,"
                  f" p99 {p99:.1f} ms")
            median = statistics.median(photo_times) if photo_times else 0.0
            print(f"photos meanwhile: {dict(sorted(statuses.items()))} (status:"
                  f" count), median {median:.2f} s per answered photo; server tree"
                  f" peak RSS {max(peak):.0f} MB (before {peak[0]:.0f} MB)")
        finally:
            stop_server(proc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
