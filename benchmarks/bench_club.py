"""A club night on loopback: the real `python -m scorekeeper`, tables and screens.

Usage:
    python benchmarks/bench_club.py [--tables 200] [--screens 200] [--seconds 60]
        [--server-arg=--workers=N ...]
    python benchmarks/bench_club.py --cpu [--moves 600]

Starts `python -m scorekeeper` from this checkout in a subprocess (its own
instance folder, a free loopback port), then runs a bounded load with asyncio
(stdlib only, one keep-alive connection per device, as phones keep theirs):

- each table imports a corpus game cut at a random move (so boards are mid-game
  and late, as on a real evening), then enters the game's next recorded move
  every --move-every seconds as the game page does: the first tile's options
  for every cell (`options?tiles=[]`, once per turn), then after each tile
  but the last the cells the next one may go to (`options?cells=…` with the
  tiles pending: the 4 around a first tile, the 2 ends of a line after that),
  and the POST with `turn`; a finished game is followed by a new one;
- each spectator screen polls one table's game (`GET /api/games/<id>` with
  If-None-Match) every --poll-every seconds, as a viewing page does.

Every request sends `Accept-Encoding: gzip` as browsers do. Prints requests/s,
latency p50/p90/p99 overall and per kind, errors, the "database is locked"
count (answers and the server's log), the server's CPU time per request (its
processes' utime+stime from /proc, Linux), and `PRAGMA integrity_check`.

--cpu instead enters --moves recorded moves one after another on one
connection (the page's POST, answer compressed as for a browser) and prints
the server's CPU time per recorded move. The load stops by itself: nothing
runs past --seconds plus the time to stop the server.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "games"
HOST = "127.0.0.1"


def corpus() -> list[dict[str, Any]]:
    """Return the classic corpus records (complete games)."""
    return [json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(CORPUS.glob("classic-*.json"))]


# --- the server ---


def free_port() -> int:
    """Return a loopback port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start_server(
    instance: Path, port: int, extra: list[str]
) -> subprocess.Popen[bytes]:
    """Start `python -m scorekeeper` from this checkout; wait until it answers."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = open(instance / "server.log", "wb")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "--host", HOST, "--port", str(port),
         "--instance", str(instance), *extra],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    # Four spawned workers on a loaded machine took more than 30 s.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log = (instance / "server.log").read_text()
            raise SystemExit(f"the server stopped: {log}")
        try:
            with socket.create_connection((HOST, port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 120 s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server (SIGTERM, then SIGKILL after 10 s)."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def process_tree(pid: int) -> list[int]:
    """Return pid and every descendant, children of children included (Linux
    /proc). Each thread lists the children it started: the helper process is
    started by a request's thread, so reading the main thread's list alone
    missed it (once 451 MB reported where 938 MB were resident)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}").glob("task/*/children"):
            try:
                todo.extend(int(child) for child in task.read_text().split())
            except OSError:
                continue
    return found


def cpu_seconds(pid: int) -> float:
    """Return the CPU time (user + system) of pid and its descendants so far,
    those that ended and were waited for included (cutime, cstime)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for each in process_tree(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # utime, stime, then cutime, cstime (fields 14-17 of proc(5)).
        total += sum(int(value) for value in fields[11:15])
    return total / ticks


def pss_mb(pid: int) -> float:
    """Return the proportional set size of pid and every descendant, in MB: the
    memory the whole server takes (shared pages counted once, shared out)."""
    total = 0
    for each in process_tree(pid):
        try:
            for line in Path(f"/proc/{each}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
        except OSError:
            continue
    return total / 1024


# --- a minimal HTTP/1.1 keep-alive client ---


class Connection:
    """One device's keep-alive connection; reconnects when the server closed it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)

    async def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
            self.writer = None

    async def request(
        self, method: str, path: str, body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """Send one request; return (status, headers, body as sent).

        The body stays gzipped when it came so (see body()): the load generator
        shares the machine's two cores with the server, so it does no work it
        does not need."""
        for attempt in (1, 2):
            if self.writer is None:
                await self._open()
            try:
                return await self._exchange(method, path, body, headers or {})
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _exchange(
        self, method: str, path: str, body: Any, headers: dict[str, str]
    ) -> tuple[int, dict[str, str], bytes]:
        assert self.reader is not None and self.writer is not None
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}",
                 "Accept-Encoding: gzip", f"Content-Length: {len(data)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in headers.items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("closed by the server")
        status = int(status_line.split()[1])
        got: dict[str, str] = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            got[name.strip().lower()] = value.strip()
        if "content-length" in got:
            payload = await self.reader.readexactly(int(got["content-length"]))
        elif got.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                parts.append(chunk[:-2])
            payload = b"".join(parts)
        elif status in (204, 304):
            payload = b""
        else:
            payload = await self.reader.read()
            await self.close()
        if got.get("connection", "").lower() == "close":
            await self.close()
        return status, got, payload


def body(headers: dict[str, str], payload: bytes) -> bytes:
    """Return an answer's body, decompressed when it came gzipped."""
    if headers.get("content-encoding") == "gzip":
        return gzip.decompress(payload)
    return payload


class Tally:
    """Latencies by kind, statuses, errors, and answers saying the file was locked."""

    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = {}
        self.statuses: dict[int, int] = {}
        self.errors: list[str] = []
        self.locked = 0
        self.recording = True

    def add(self, kind: str, seconds: float, status: int, body: bytes) -> None:
        """Count one answer (only while recording: warm-up answers are not counted)."""
        if b"database is locked" in body:
            self.locked += 1
        if not self.recording:
            return
        self.latency.setdefault(kind, []).append(seconds * 1000)
        self.statuses[status] = self.statuses.get(status, 0) + 1


async def timed(
    tally: Tally, kind: str, conn: Connection, method: str, path: str,
    body: Any = None, headers: dict[str, str] | None = None,
    expect: tuple[int, ...] = (200,),
) -> tuple[int, dict[str, str], bytes]:
    """Send a request, count it under kind; an unexpected status is an error."""
    began = time.perf_counter()
    try:
        status, got, payload = await conn.request(method, path, body, headers)
    except (OSError, asyncio.IncompleteReadError) as exc:
        tally.errors.append(f"{kind}: {exc!r}")
        return 0, {}, b""
    tally.add(kind, time.perf_counter() - began, status, payload)
    if status not in expect:
        tally.errors.append(f"{kind} {path}: {status} {payload[:200]!r}")
    return status, got, payload


# --- tables and screens ---


def move_body(move: dict[str, Any], turn: int) -> dict[str, Any]:
    """Return the POST body of a recorded move."""
    body = {k: v for k, v in move.items() if k not in ("player", "score")}
    return {**body, "turn": turn}


class Table:
    """One table: a game in progress, fed the next recorded move when asked."""

    def __init__(self, records: list[dict[str, Any]], rng: random.Random) -> None:
        self.records = records
        self.rng = rng
        self.game_id = 0
        self.token = ""
        self.record: dict[str, Any] = {}
        self.turn = 0

    def board(self) -> set[tuple[int, int]]:
        """Return the cells taken after the moves entered so far."""
        return {
            (t["row"], t["col"])
            for move in self.record["moves"][: self.turn]
            for t in move.get("tiles", [])
        }

    async def new_game(self, conn: Connection, tally: Tally, mid_game: bool) -> None:
        """Import a corpus game cut at a random move (or at its start)."""
        record = self.rng.choice(self.records)
        cut = self.rng.randrange(len(record["moves"]) - 1) if mid_game else 0
        status, headers, payload = await timed(
            tally, "import", conn, "POST", "/api/games/import",
            {**record, "moves": record["moves"][:cut], "final": None}, expect=(201,),
        )
        if status != 201:
            raise SystemExit("could not import a game")
        created = json.loads(body(headers, payload))
        self.game_id, self.token = created["id"], created["edit_token"]
        self.record, self.turn = record, cut

    async def enter_move(self, conn: Connection, tally: Tally) -> None:
        """Ask the options as the page does, then POST the move."""
        move = self.record["moves"][self.turn]
        url = f"/games/{self.game_id}/options"
        await timed(tally, "options", conn, "GET", f"{url}?tiles=%5B%5D")
        taken = self.board()
        pending: list[list[Any]] = []
        tiles = move.get("tiles", [])
        for number, tile in enumerate(tiles, start=1):
            pending.append([tile["row"], tile["col"], tile["color"], tile["shape"]])
            taken.add((tile["row"], tile["col"]))
            if number == len(tiles):
                break
            cells = ahead(pending, taken)
            query = (f"cells={quote(';'.join(cells))}"
                     f"&tiles={quote(json.dumps(pending))}")
            await timed(tally, "options", conn, "GET", f"{url}?{query}")
        status, _h, _p = await timed(
            tally, "move", conn, "POST", f"/api/games/{self.game_id}/moves",
            move_body(move, self.turn), {"X-Edit-Token": self.token}, expect=(201,),
        )
        if status == 201:
            self.turn += 1


def ahead(pending: list[list[Any]], taken: set[tuple[int, int]]) -> list[str]:
    """Return the cells the page asks ahead for: around a single pending tile,
    else past both ends of their line."""
    def walk(r: int, c: int, dr: int, dc: int) -> list[str]:
        for _ in range(12):
            if (r, c) not in taken:
                return [f"{r},{c}"]
            r, c = r + dr, c + dc
        return []

    rows = [t[0] for t in pending]
    cols = [t[1] for t in pending]
    if len(pending) == 1:
        return [cell for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                for cell in walk(rows[0] + dr, cols[0] + dc, dr, dc)]
    if len(set(rows)) == 1:
        return walk(rows[0], max(cols), 0, 1) + walk(rows[0], min(cols), 0, -1)
    return walk(max(rows), cols[0], 1, 0) + walk(min(rows), cols[0], -1, 0)


async def run_table(
    table: Table, port: int, tally: Tally, every: float, until: float,
    rng: random.Random,
) -> None:
    """Enter a move every `every` seconds (random phase) until the deadline."""
    conn = Connection(port)
    try:
        await asyncio.sleep(rng.uniform(0, every))
        while time.monotonic() < until:
            planned = time.monotonic() + every
            if table.turn >= len(table.record["moves"]):
                await table.new_game(conn, tally, mid_game=False)
            else:
                await table.enter_move(conn, tally)
            await asyncio.sleep(max(0.0, planned - time.monotonic()))
    finally:
        await conn.close()


async def run_screen(
    table: Table, port: int, tally: Tally, every: float, until: float,
    rng: random.Random,
) -> None:
    """Poll one table's game with If-None-Match every `every` seconds."""
    conn = Connection(port)
    etag = ""
    try:
        await asyncio.sleep(rng.uniform(0, every))
        while time.monotonic() < until:
            planned = time.monotonic() + every
            headers = {"If-None-Match": etag} if etag else {}
            status, got, _payload = await timed(
                tally, "screen", conn, "GET", f"/api/games/{table.game_id}",
                headers=headers, expect=(200, 304),
            )
            etag = got.get("etag", etag)
            await asyncio.sleep(max(0.0, planned - time.monotonic()))
    finally:
        await conn.close()


def percentile(values: list[float], p: float) -> float:
    """Return the p-quantile (nearest rank) of values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def club(
    args: argparse.Namespace, port: int, pid: int
) -> tuple[Tally, float, float]:
    """Run the club night; return the tally, its seconds and the server's CPU."""
    rng = random.Random(args.seed)
    records = corpus()
    tally = Tally()
    tables = [Table(records, random.Random(rng.random())) for _ in range(args.tables)]
    setup = Connection(port)
    for table in tables:
        await table.new_game(setup, tally, mid_game=True)
    await setup.close()
    tally.latency.clear()
    tally.statuses.clear()
    began = time.monotonic()
    cpu_before = cpu_seconds(pid)
    until = began + args.seconds
    await asyncio.gather(
        *(run_table(t, port, tally, args.move_every, until, rng) for t in tables),
        *(run_screen(tables[i % len(tables)], port, tally, args.poll_every, until, rng)
          for i in range(args.screens)),
    )
    return tally, time.monotonic() - began, cpu_seconds(pid) - cpu_before


async def cpu_per_move(moves: int, port: int, pid: int) -> tuple[int, float, float]:
    """Enter recorded moves one after another; return (moves, seconds, server CPU)."""
    records = corpus()
    conn = Connection(port)
    tally = Tally()
    entered = 0
    table = Table(records, random.Random(1))
    spent = 0.0
    cpu = 0.0
    # Warm up imports and caches with one whole game, then measure.
    for measuring in (False, True):
        goal = len(records[0]["moves"]) if not measuring else moves
        count = 0
        record_index = 0
        began, cpu_before = time.monotonic(), cpu_seconds(pid)
        while count < goal:
            record = records[record_index % len(records)]
            record_index += 1
            status, headers, payload = await timed(
                tally, "create", conn, "POST", "/api/games",
                {"players": record["players"],
                 "first_player": record["moves"][0]["player"]}, expect=(201,),
            )
            created = json.loads(body(headers, payload))
            table.game_id, table.token = created["id"], created["edit_token"]
            for turn, move in enumerate(record["moves"]):
                if count >= goal:
                    break
                await timed(tally, "move", conn, "POST",
                            f"/api/games/{table.game_id}/moves", move_body(move, turn),
                            {"X-Edit-Token": table.token}, expect=(201,))
                count += 1
        if measuring:
            spent, entered = time.monotonic() - began, count
            cpu = cpu_seconds(pid) - cpu_before
    await conn.close()
    if tally.errors:
        raise SystemExit(f"errors: {tally.errors[:5]}")
    return entered, spent, cpu


def integrity(path: Path) -> str:
    """Return PRAGMA integrity_check of the database file."""
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--screens", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--move-every", type=float, default=10.0)
    parser.add_argument("--poll-every", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--cpu", action="store_true",
                        help="instead: server CPU per recorded move")
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--server-arg", action="append", default=[],
                        help="an extra argument for python -m scorekeeper")
    args = parser.parse_args(argv)
    if not Path("/proc/self/stat").exists():
        raise SystemExit("this benchmark reads the server's CPU time from /proc")

    with tempfile.TemporaryDirectory(prefix="bench-club-") as tmp:
        instance = Path(tmp)
        port = free_port()
        proc = start_server(instance, port, args.server_arg)
        try:
            if args.cpu:
                moves, seconds, cpu = asyncio.run(
                    cpu_per_move(args.moves, port, proc.pid)
                )
            else:
                tally, seconds, cpu = asyncio.run(club(args, port, proc.pid))
        finally:
            stop_server(proc)
        log = (instance / "server.log").read_text(errors="replace")
        locked_in_log = log.count("database is locked")
        check = integrity(instance / "scorekeeper.sqlite3")

    if args.cpu:
        print(f"{moves} recorded moves in {seconds:.2f} s, one after another")
        print(f"server CPU per recorded move: {cpu / moves * 1000:.2f} ms"
              f" (wall {seconds / moves * 1000:.2f} ms per move)")
        print(f"integrity_check: {check}")
        return 0
    every = [value for values in tally.latency.values() for value in values]
    total = len(every)
    print(f"club night: {args.tables} tables (a move every {args.move_every:g} s),"
          f" {args.screens} screens (a poll every {args.poll_every:g} s),"
          f" {seconds:.1f} s, server args {args.server_arg or 'none'}")
    print(f"{total} requests, {total / seconds:.0f} req/s; server CPU"
          f" {cpu / seconds * 100:.0f}% of one core,"
          f" {cpu / max(total, 1) * 1000:.2f} ms per request")
    print(f"{'kind':10} {'count':>7} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}"
          f" {'max':>8}")
    for kind, values in sorted(tally.latency.items()) + [("all", every)]:
        print(f"{kind:10} {len(values):7} {statistics.median(values):8.2f}"
              f" {percentile(values, 0.9):8.2f} {percentile(values, 0.99):8.2f}"
              f" {max(values):8.1f}")
    print(f"statuses {dict(sorted(tally.statuses.items()))};"
          f" errors {len(tally.errors)};"
          f" database is locked: {tally.locked} answers, {locked_in_log} in the log;"
          f" integrity_check: {check}")
    for error in tally.errors[:5]:
        print(f"  {error}")
    return 1 if tally.errors or check != "ok" else 0


if __name__ == "__main__":
    raise SystemExit(main())
