"""The real `python -m scorekeeper` as a household runs it: one
process, one helper for photos and PDFs, no process left behind by `kill -9`,
its port free again right after Ctrl+C, and no slow client holding it up.

Each test starts the command on a free loopback port, in a process group of its
own, and stops the group (and every process it started) at the end.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import serve

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc and kills process trees")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def descendants(pid: int) -> list[int]:
    """Return every process pid started, children of children included (each
    thread's: a child started by a request's thread is listed under it)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        for task in Path(f"/proc/{current}").glob("task/*/children"):
            try:
                children = task.read_text()
            except OSError:
                continue
            for child in map(int, children.split()):
                found.append(child)
                todo.append(child)
    return found


def workers_of(pid: int) -> list[int]:
    """Return the live `--workers` processes of the server pid (multiprocessing
    also starts its resource tracker, which is not one)."""
    found = []
    for child in descendants(pid):
        try:
            line = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in line and alive(child):
            found.append(child)
    return found


def alive(pid: int) -> bool:
    """Return whether pid runs (a zombie, dead but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _as_a_terminal_starts_it() -> None:
    """Give the command Ctrl+C's default action, as a terminal's shell does.

    A suite started as a background job of a script (`cmd &`) ignores SIGINT,
    and Python keeps an inherited "ignore": without this, the Ctrl+C tests
    would test how the suite was launched, not the command.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(instance: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """Start the command, wait until it answers; its output goes to a file."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(serve.QUIET_ENV, None)
    instance.mkdir(parents=True, exist_ok=True)
    log = open(instance / "server.log", "ab")  # noqa: SIM115 - the child keeps it
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "--host", HOST, "--port", str(port),
         "--instance", str(instance), "--quiet", *extra],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True, preexec_fn=_as_a_terminal_starts_it,
    )
    log.close()
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/", timeout=5):
                return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(
                    "the server did not start: "
                    + (instance / "server.log").read_text(errors="replace")
                ) from None
            time.sleep(0.2)


@contextmanager
def server(
    instance: Path, *extra: str,
) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """The command serving on a free port; its whole tree is killed at the end."""
    port = free_port()
    proc = start(instance, port, *extra)
    tree = descendants(proc.pid)
    try:
        yield proc, port
    finally:
        tree += descendants(proc.pid)
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in tree:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.wait(30)


def call(port: int, method: str, path: str, body: Any = None,
         headers: dict[str, str] | None = None, timeout: float = 30) -> Any:
    request = urllib.request.Request(
        f"http://{HOST}:{port}{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        data = answer.read()
    return json.loads(data) if data[:1] in (b"{", b"[") else data


def wait_until(check: Any, seconds: float) -> bool:
    """Return whether check() became true within seconds."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def a_pdf(port: int) -> None:
    """Ask for a game's score sheet as a PDF: it is drawn in the helper process."""
    game = call(port, "POST", "/api/games", {"players": ["Ann", "Bob"]})
    assert call(port, "GET", f"/games/{game['id']}/scoresheet.pdf")[:5] == b"%PDF-"


def test_the_default_command_is_one_process_and_one_helper_at_most(
        tmp_path: Path) -> None:
    with server(tmp_path / "inst") as (proc, port):
        # Not granian and four worker processes, as it once was.
        assert descendants(proc.pid) == []
        a_pdf(port)
        a_pdf(port)
        helpers = descendants(proc.pid)
        assert len([p for p in helpers if alive(p)]) == 1


@pytest.mark.parametrize("extra", [(), ("--workers", "2")], ids=["default", "workers"])
def test_kill_9_of_the_server_leaves_no_process_behind(
        tmp_path: Path, extra: tuple[str, ...]) -> None:
    with server(tmp_path / "inst", *extra) as (proc, port):
        for _ in range(4):  # with workers, each worker process draws in its helper
            a_pdf(port)
        started = descendants(proc.pid)
        assert started, "the PDFs were drawn in a helper process"
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        # Once, the helpers (and the workers) lived on.
        assert wait_until(lambda: not any(alive(p) for p in started), 15), \
            [p for p in started if alive(p)]


@pytest.mark.parametrize("extra", [(), ("--workers", "2")], ids=["default", "workers"])
def test_a_restart_right_after_ctrl_c_binds_the_port_at_once(
        tmp_path: Path, extra: tuple[str, ...]) -> None:
    instance = tmp_path / "inst"
    with server(instance, *extra) as (proc, port):
        # A connection the server closes first leaves it in TIME_WAIT, a minute.
        with socket.create_connection((HOST, port), timeout=10) as sock:
            sock.sendall(f"GET / HTTP/1.0\r\nHost: {HOST}:{port}\r\n\r\n".encode())
            while sock.recv(65536):
                pass
        workers = descendants(proc.pid)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        # Every worker stopped with the command (Ctrl+C reaches the group).
        assert wait_until(lambda: not any(alive(p) for p in workers), 10)
    # Not "Port ... is already in use" and exit 1, for a minute, as it once was.
    proc = start(instance, port, *extra)
    try:
        assert call(port, "GET", "/api/games")["games"] == []
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)


@pytest.mark.parametrize("extra", [(), ("--workers", "2")], ids=["default", "workers"])
def test_trickled_request_bodies_leave_other_requests_answered(
        tmp_path: Path, extra: tuple[str, ...]) -> None:
    with server(tmp_path / "inst", *extra) as (_proc, port):
        stop = threading.Event()
        slow: list[socket.socket] = []
        try:
            for _ in range(64):
                sock = socket.create_connection((HOST, port), timeout=10)
                sock.sendall(
                    f"POST /api/games HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                    "Content-Type: application/json\r\nContent-Length: 1000\r\n"
                    "\r\n{".encode())
                slow.append(sock)

            def trickle() -> None:
                while not stop.wait(2):
                    for sock in slow:
                        with suppress(OSError):
                            sock.sendall(b" ")

            threading.Thread(target=trickle, daemon=True).start()
            time.sleep(3)
            # Under granian (4 workers of 8 threads), as before, 64 trickling
            # bodies held every thread: these waited as long as they trickled.
            # Each worker is waitress now, which reads a body before a thread
            # sees it.
            for _ in range(5):
                game = call(port, "POST", "/api/games", {"players": ["Ann", "Bob"]},
                            timeout=15)
                assert call(port, "GET", f"/api/games/{game['id']}",
                            timeout=15)["turn"] == 0
        finally:
            stop.set()
            for sock in slow:
                sock.close()


def test_a_worker_that_dies_is_replaced_and_the_others_answer_meanwhile(
        tmp_path: Path) -> None:
    with server(tmp_path / "inst", "--workers", "2") as (proc, port):
        workers = workers_of(proc.pid)
        assert len(workers) == 2, workers
        game = call(port, "POST", "/api/games", {"players": ["Ann", "Bob"]})
        os.kill(workers[0], signal.SIGKILL)
        # The other worker answers at once; the command starts a new one.
        for _ in range(10):
            assert call(port, "GET", f"/api/games/{game['id']}")["turn"] == 0
        assert wait_until(lambda: len(workers_of(proc.pid)) == 2, 20)
        assert workers[0] not in workers_of(proc.pid)
        for _ in range(10):
            assert call(port, "GET", f"/api/games/{game['id']}")["turn"] == 0


def test_the_helper_starts_on_the_first_pdf_and_stops_when_idle(tmp_path: Path) -> None:
    from conftest import make_app

    from scorekeeper.web import helper

    app = make_app(tmp_path / "db.sqlite3", RENDER_IN_PROCESS=True, HELPER_IDLE=1.0)
    client = app.test_client()
    game = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    assert client.get(f"/games/{game['id']}/scoresheet.pdf").data[:5] == b"%PDF-"
    pid = helper._HELPER.pid()
    assert pid is not None and alive(pid)
    # Without work for HELPER_IDLE seconds, its 100 MB go back to the machine.
    assert wait_until(lambda: not alive(pid), 15)
    assert helper._HELPER.pid() is None
