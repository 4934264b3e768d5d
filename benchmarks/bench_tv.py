"""Table views on the real server: how fast a move reaches them, and what their
open event streams cost the other requests.

Usage:
    python benchmarks/bench_tv.py [--screens 12] [--moves 20] [--server-arg=...]

Starts `python -m scorekeeper` from this checkout (its defaults: one waitress
process; `--server-arg=--workers=4` for four), opens --screens table
views' event streams on one game (stdlib sockets, one thread each, reconnecting
as EventSource does after the `retry` the server sends), then enters --moves
moves one every 1.5 s and measures, per move, the time from the POST's answer
to each screen's event. Meanwhile a prober GETs /api/games/<id> every 50 ms;
its latency is compared with a run with no screen open. Prints medians and
p90s, and the server's CPU time (its whole process tree) per second of each
run. A stream holds one server thread for at most web.tv.STREAM_SECONDS; at
most STREAMS_PER_PROCESS at once per process, the others answer at once and
reconnect every BUSY_RETRY_MS (a poll).
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_club import (  # noqa: E402
    HOST,
    cpu_seconds,
    free_port,
    start_server,
    stop_server,
)

TILES = [(0, c, "red", shape) for c, shape in enumerate(
    ["circle", "square", "diamond", "clover", "starburst", "crisscross"])]


def request(port: int, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    data = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, body=data, headers={
        "Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    payload = response.read()
    conn.close()
    return response.status, json.loads(payload) if payload else None


class Screen(threading.Thread):
    """One table view's EventSource: reads events, reconnects after `retry`."""

    def __init__(self, port: int, path: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.stop = port, path, stop
        self.seen: dict[int, float] = {}  # turn -> when its event arrived
        self.connects = 0
        self.polled = 0  # connections that got the busy retry (a poll)

    def run(self) -> None:
        last_id, retry = "", 3.0
        while not self.stop.is_set():
            try:
                sock = socket.create_connection((HOST, self.port), timeout=40)
                self.connects += 1
                head = (f"GET {self.path} HTTP/1.1\r\nHost: {HOST}\r\n"
                        "Accept: text/event-stream\r\n"
                        f"Last-Event-ID: {last_id}\r\nConnection: close\r\n\r\n")
                sock.sendall(head.encode())
                buffer = b""
                while not self.stop.is_set():
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    buffer += chunk
                    while b"\n\n" in buffer:
                        block, buffer = buffer.split(b"\n\n", 1)
                        fields = {}
                        for line in block.decode().splitlines():
                            if ": " in line and not line.startswith(":"):
                                name, value = line.split(": ", 1)
                                fields[name.split("\r\n")[-1]] = value
                        if "retry" in fields:
                            retry = int(fields["retry"]) / 1000
                            # RETRY_MS (0.5 s) after a stream; longer: a poll.
                            self.polled += retry > 0.5
                        if "data" in fields:
                            last_id = fields.get("id", last_id)
                            turn = int(last_id.split("-", 1)[0])
                            self.seen.setdefault(turn, time.monotonic())
                sock.close()
            except OSError:
                pass
            self.stop.wait(retry)


def prober(port: int, path: str, stop: threading.Event, out: list[float]) -> None:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    while not stop.is_set():
        started = time.perf_counter()
        conn.request("GET", path)
        conn.getresponse().read()
        out.append(time.perf_counter() - started)
        stop.wait(0.05)
    conn.close()


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(port: int, pid: int, screens: int, moves: int) -> dict[str, Any]:
    _, game = request(port, "POST", "/api/games", {"players": ["Ann", "Bob"]})
    token, gid = game["edit_token"], game["id"]
    stop = threading.Event()
    views = [Screen(port, f"/games/{gid}/tv/events", stop) for _ in range(screens)]
    for view in views:
        view.start()
    probes: list[float] = []
    probe = threading.Thread(target=prober, args=(port, f"/api/games/{gid}", stop,
                                                  probes), daemon=True)
    probe.start()
    time.sleep(2)
    cpu, began = cpu_seconds(pid), time.monotonic()
    posted: dict[int, float] = {}
    # Trades after the first move: any number of moves, always legal.
    for turn in range(moves):
        body: dict[str, Any] = (
            {"type": "place", "tiles": [dict(zip(
                ("row", "col", "color", "shape"), TILES[0], strict=True))]}
            if turn == 0 else {"type": "trade", "count": 1})
        status, _ = request(port, "POST", f"/api/games/{gid}/moves",
                            {**body, "turn": turn}, {"X-Edit-Token": token})
        assert status == 201, status
        posted[turn + 1] = time.monotonic()
        time.sleep(1.5)
    time.sleep(5)
    cpu = (cpu_seconds(pid) - cpu) / (time.monotonic() - began)
    stop.set()
    # A screen shows turn t once it got t or a later state (a polling one may
    # skip a state: it shows the game as it is, not every step).
    delays, missed = [], 0
    for view in views:
        for t, at in posted.items():
            later = [when for turn, when in view.seen.items() if turn >= t]
            if later:
                delays.append(min(later) - at)
            else:
                missed += 1
    return {"delays": delays, "missed": missed, "probes": probes, "cpu": cpu,
            "connects": sum(view.connects for view in views),
            "polled": sum(view.polled for view in views)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screens", type=int, default=12)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--server-arg", action="append", default=[])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder), port, ["--quiet", *args.server_arg])
        try:
            base = run(port, server.pid, 0, 6)
            loaded = run(port, server.pid, args.screens, args.moves)
        finally:
            stop_server(server)
    ms = 1000
    print(f"server args: {args.server_arg or '(defaults)'}; screens {args.screens}")
    delays = loaded["delays"]
    print(f"move -> screen: median {statistics.median(delays) * ms:.0f} ms,"
          f" p90 {p(delays, .9) * ms:.0f} ms, max {max(delays) * ms:.0f} ms;"
          f" never shown {loaded['missed']}; connections {loaded['connects']}"
          f" ({loaded['polled']} of them answered as a poll)")
    print(f"server CPU (every process): {base['cpu'] * 100:.0f}% of one core with"
          f" no screen, {loaded['cpu'] * 100:.0f}% with {args.screens}")
    for name, probes in (("no screen", base["probes"]),
                         (f"{args.screens} screens", loaded["probes"])):
        print(f"GET state with {name}: median {statistics.median(probes) * ms:.1f} ms,"
              f" p90 {p(probes, .9) * ms:.1f} ms, p99 {p(probes, .99) * ms:.1f} ms"
              f" ({len(probes)} requests)")


if __name__ == "__main__":
    main()
