"""The server as a household runs it: memory of the whole process
tree at rest, after a photo, a PDF and minutes later; a pixel bomb, 64 slow
clients, 64 busy ones.

Usage:
    python benchmarks/bench_server.py [--server-arg=--workers=4 ...] [--seconds 10]
        [--later 150]

Starts `python -m scorekeeper` from this checkout (bench_club's helpers: its
own instance folder, a free loopback port), imports the corpus game the
example photo shows, then measures, in this order:

1. **idle**: the PSS of the server's whole process tree (every descendant,
   /proc/<pid>/smaps_rollup), 3 s after start;
2. **a photo**: `tests/data/photos/example-2-held-out.jpg` read twice (the
   first starts the helper process and loads OpenCV there): the tree's PSS
   after, and its peak while reading (sampled every 50 ms);
3. **pixel bombs**: a 116 KB PNG declaring 40 megapixels (7300 x 5475), and
   the same size as a baseline JPEG (a 40 MP phone photo): the answer, its
   time, and the tree's peak PSS while it is read, over the tree just before
   it and above idle (the helper, started by step 2, included);
4. **a PDF**: the game's score sheet as a PDF (drawn in the helper): the
   tree's PSS after;
5. **slow clients**: 64 connections each sending a POST's headers, then its
   body one byte every 2 s; meanwhile 20 ordinary requests (`GET` a game's
   state), one after another, each with a 10 s timeout: their median and
   slowest time, and how many got no answer;
6. **busy clients**: 64 keep-alive clients asking a game's state back to back
   for --seconds: requests/s, p50, p99, and the tree's CPU time per request;
7. **later**: the tree's PSS --later seconds after the PDF (default 150: the
   helper stops after HELPER_IDLE, 120 s, without work).

Prints one line per measure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import struct
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

from bench_club import (  # noqa: E402
    HOST,
    Connection,
    cpu_seconds,
    free_port,
    process_tree,
    pss_mb,
    start_server,
    stop_server,
)
from corpus import record_before  # noqa: E402
from photo_requests import PHOTO, import_game, photo_body, request  # noqa: E402


def png_bomb(width: int, height: int) -> bytes:
    """A real PNG of this many black pixels, deflated to about 116 KB."""
    raw = zlib.compress((b"\x00" + bytes(width * 3)) * height, 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw)
            + chunk(b"IEND", b""))


def jpeg_of(width: int, height: int) -> bytes:
    """A baseline JPEG of this size (grey noise in blocks, as a photo's detail)."""
    import cv2
    import numpy as np

    rng = np.random.default_rng(19)
    small = rng.integers(0, 255, (height // 16, width // 16, 3), np.uint8)
    img = cv2.resize(small, (width, height), interpolation=cv2.INTER_NEAREST)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok
    return bytes(buf.tobytes())


def while_sampling(pid: int, work: Any) -> tuple[Any, float]:
    """Run work() while sampling the tree's PSS every 50 ms; return (its result,
    the peak PSS in MB)."""
    peak = [pss_mb(pid)]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            peak.append(pss_mb(pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        result = work()
    finally:
        done.set()
        sampler.join()
    peak.append(pss_mb(pid))
    return result, max(peak)


def slow_clients(port: int, path: str, count: int = 64) -> str:
    """Open `count` connections trickling a body, then time ordinary requests."""
    stop = threading.Event()
    sockets = []
    for _ in range(count):
        sock = socket.create_connection((HOST, port), timeout=10)
        sock.sendall(f"POST /api/games HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 1000\r\n"
                     "\r\n{".encode())
        sockets.append(sock)

    def trickle() -> None:
        while not stop.wait(2):
            for sock in sockets:
                try:
                    sock.sendall(b" ")
                except OSError:
                    pass

    threading.Thread(target=trickle, daemon=True).start()
    time.sleep(3)
    times, failed = [], 0
    try:
        for _ in range(20):
            try:
                status, _, took = request(port, "GET", path, timeout=10)
                times.append(took)
                failed += status != 200
            except OSError:
                failed += 1
    finally:
        stop.set()
        for sock in sockets:
            sock.close()
    if not times:
        return f"{count} slow clients: no ordinary request answered (of 20)"
    return (f"{count} slow clients: ordinary requests median"
            f" {statistics.median(times) * 1000:.0f} ms, slowest"
            f" {max(times) * 1000:.0f} ms, unanswered within 10 s {failed} of 20")


def busy_clients(port: int, pid: int, path: str, clients: int, seconds: float) -> str:
    """`clients` keep-alive clients asking path back to back for seconds."""
    latencies: list[float] = []

    async def client(deadline: float) -> None:
        conn = Connection(port)
        try:
            while time.monotonic() < deadline:
                began = time.perf_counter()
                await conn.request("GET", path)
                latencies.append((time.perf_counter() - began) * 1000)
        finally:
            await conn.close()

    async def run() -> None:
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(client(deadline) for _ in range(clients)))

    cpu = cpu_seconds(pid)
    began = time.monotonic()
    asyncio.run(run())
    took = time.monotonic() - began
    cpu = cpu_seconds(pid) - cpu
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return (f"{clients} busy clients: {len(latencies) / took:.0f} requests/s,"
            f" p50 {statistics.median(latencies):.1f} ms, p99 {p99:.1f} ms,"
            f" server CPU {cpu / len(latencies) * 1000:.2f} ms per request")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server-arg", action="append", default=[])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--later", type=float, default=150.0,
                        help="seconds after the last PDF to measure the tree again")
    args = parser.parse_args()
    meta = json.loads(PHOTO.with_suffix(".json").read_text(encoding="utf-8"))
    game_name, place = meta["game_and_move"].split("#")
    record, _move = record_before(game_name, int(place))
    photo = photo_body(PHOTO.read_bytes())
    bombs = {"PNG declaring 40 MP": photo_body(png_bomb(7300, 5475), "png"),
             "baseline JPEG of 40 MP": photo_body(jpeg_of(7300, 5475))}
    print(f"server args: {args.server_arg or '(defaults)'}")
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        proc = start_server(Path(folder), port, ["--quiet", *args.server_arg])
        try:
            game, headers = import_game(port, record)
            state = f"/api/games/{game['id']}"
            time.sleep(3)
            idle = pss_mb(proc.pid)
            print(f"idle: {idle:.0f} MB PSS, {len(process_tree(proc.pid))}"
                  " processes")

            def photo_twice() -> list[tuple[int, bytes, float]]:
                return [request(port, "POST", state + "/photo", photo, headers)
                        for _ in range(2)]

            answers, peak = while_sampling(proc.pid, photo_twice)
            assert all(a[0] == 200 for a in answers), answers
            after = pss_mb(proc.pid)
            print(f"after a photo: {after:.0f} MB PSS ({len(process_tree(proc.pid))}"
                  f" processes), peak {peak:.0f} MB; first photo"
                  f" {answers[0][2]:.2f} s (the helper starts), second"
                  f" {answers[1][2]:.2f} s")
            for name, body in bombs.items():
                before = pss_mb(proc.pid)
                (status, answer, took), peak = while_sampling(
                    proc.pid, lambda body=body: request(
                        port, "POST", state + "/photo", body, headers))
                reason = json.loads(answer).get("error", {}).get("reason", "")
                print(f"{name} ({len(body) // 1024} KB): {status} {reason} in"
                      f" {took:.2f} s, peak {peak - before:+.0f} MB over the tree"
                      f" before it ({peak - idle:.0f} MB above idle, the helper"
                      " included)")
            status, _pdf, took = request(
                port, "GET", f"/games/{game['id']}/scoresheet.pdf", timeout=60)
            assert status == 200, status
            last_work = time.monotonic()
            print(f"after a PDF: {pss_mb(proc.pid):.0f} MB PSS"
                  f" ({len(process_tree(proc.pid))} processes), drawn in {took:.2f} s")
            print(slow_clients(port, state))
            print(busy_clients(port, proc.pid, state, 64, args.seconds))
            time.sleep(max(0.0, last_work + args.later - time.monotonic()))
            print(f"{args.later:.0f} s after the PDF: {pss_mb(proc.pid):.0f} MB PSS"
                  f" ({len(process_tree(proc.pid))} processes)")
        finally:
            stop_server(proc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
