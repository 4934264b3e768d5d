"""One guest against the real `python -m scorekeeper`: thousands of idle
connections, a body far larger than its route takes, a thousand new games, a
disk nearly full (CONTRACT §8.1).

Each test starts the command as test_server_process.py does and reaches the
edge as a guest would, over TCP on the loopback.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_server_process import HOST, alive, call, server

from scorekeeper import connections
from scorekeeper.web import live, quotas

IDLE_CONNECTIONS = 5_000
"""Connections one guest opens and holds while the table plays."""


def _open_files_for_the_test(wanted: int) -> None:
    """Raise this process's soft open-files limit to hold `wanted` sockets, or skip."""
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"the hard open-files limit ({hard}) holds fewer than {wanted}")
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _hold(stack: ExitStack, port: int, count: int) -> list[socket.socket]:
    """Open count connections to port and keep them open (closed with stack)."""
    held = []
    for _ in range(count):
        sock = stack.enter_context(socket.create_connection((HOST, port), timeout=30))
        held.append(sock)
    return held


def _timed_get(port: int, path: str) -> tuple[int, float]:
    began = time.monotonic()
    with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=30) as answer:
        answer.read()
        return answer.status, time.monotonic() - began


@pytest.mark.parametrize("extra", [(), ("--workers", "2")], ids=["default", "workers"])
def test_the_table_is_answered_while_a_guest_holds_thousands_of_connections(
    tmp_path: Path, extra: tuple[str, ...],
) -> None:
    _open_files_for_the_test(IDLE_CONNECTIONS + 200)
    with server(tmp_path / "instance", *extra) as (proc, port):
        game = call(port, "POST", "/api/games", {"players": ["Ann", "Bob"]})
        with ExitStack() as stack:
            _hold(stack, port, IDLE_CONNECTIONS)
            times = []
            for _ in range(3):
                status, took = _timed_get(port, f"/api/games/{game['id']}")
                assert status == 200
                times.append(took)
            # The first may wait for the last of the guest's to be accepted.
            assert min(times) <= 1.0, times
            assert proc.poll() is None
        assert alive(proc.pid)
        assert call(port, "GET", f"/api/games/{game['id']}")["id"] == game["id"]


def test_an_idle_connection_is_closed_after_the_idle_time(tmp_path: Path) -> None:
    with server(tmp_path / "instance") as (_proc, port):
        with socket.create_connection((HOST, port)) as sock:
            sock.settimeout(connections.IDLE_SECONDS + 3 * connections.CLEANUP_SECONDS)
            began = time.monotonic()
            assert sock.recv(1) == b""  # the server closed it
            assert time.monotonic() - began >= connections.IDLE_SECONDS - 1


def _answer_to_headers(port: int, head: bytes) -> tuple[bytes, float]:
    """Send head and a few bytes of body; return the status line and how soon
    it came."""
    with socket.create_connection((HOST, port), timeout=10) as sock:
        began = time.monotonic()
        sock.sendall(head + b"\r\n" + b'{"players": [')
        answer = sock.recv(4096)
        return answer.split(b"\r\n", 1)[0], time.monotonic() - began


def test_a_huge_game_body_is_refused_at_its_headers(tmp_path: Path) -> None:
    with server(tmp_path / "instance") as (_proc, port):
        head = (b"POST /api/games HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/json\r\n"
                b"Content-Length: 104857600\r\n")
        status, took = _answer_to_headers(port, head)
        assert status.startswith(b"HTTP/1.1 413"), status
        assert took < 2.0
        temp_files = list((tmp_path / "instance").rglob("*.tmp"))
        assert not temp_files


def test_a_chunked_game_body_is_cut_at_the_routes_limit(tmp_path: Path) -> None:
    with server(tmp_path / "instance") as (_proc, port):
        with socket.create_connection((HOST, port), timeout=10) as sock:
            sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\n"
                         b"Content-Type: application/json\r\n"
                         b"Transfer-Encoding: chunked\r\n\r\n")
            chunk = b"100000\r\n" + b" " * 0x100000 + b"\r\n"  # 1 MB each
            sent = 0
            try:
                for _ in range(64):
                    sock.sendall(chunk)
                    sent += 1
                answer = sock.recv(4096)
            except OSError:  # refused and closed while the guest still sent
                answer = b""
            assert answer[:12] in (b"", b"HTTP/1.1 413"), answer[:100]
        # The app takes 2 MB (config.MAX_CONTENT_LENGTH): cut off soon after.
        assert sent < 16


def test_a_photo_body_may_be_larger_than_a_games(tmp_path: Path) -> None:
    with server(tmp_path / "instance") as (_proc, port):
        game = call(port, "POST", "/api/games", {"players": ["Ann", "Bob"]})
        head = (f"POST /api/games/{game['id']}/photo HTTP/1.1\r\nHost: x\r\n"
                "Content-Type: multipart/form-data; boundary=b\r\n"
                "Content-Length: 5000000\r\n").encode()
        with socket.create_connection((HOST, port), timeout=3) as sock:
            sock.sendall(head + b"\r\n" + b"--b\r\n")
            # Not refused at the headers: the server waits for the rest.
            with pytest.raises(TimeoutError):
                sock.recv(4096)


def test_a_large_restore_needs_the_admins_right_before_its_body_is_read(
    tmp_path: Path,
) -> None:
    with server(tmp_path / "instance", "--trusted-proxy", HOST) as (_proc, port):
        head = (b"POST /api/restore HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/json\r\n"
                b"Content-Length: 104857600\r\n")
        # A guest (a device the trusted proxy names): refused at once.
        status, _took = _answer_to_headers(
            port, head + b"X-Forwarded-For: 192.0.2.7\r\nX-Admin-Pin: 0\r\n")
        assert status.startswith(b"HTTP/1.1 413"), status
        # This machine (as the proxy names it) holds nothing by where it is.
        status, _took = _answer_to_headers(
            port, head + b"X-Forwarded-For: 127.0.0.1\r\n")
        assert status.startswith(b"HTTP/1.1 413"), status
        # The device that opened the admin link holds the admin's right: its
        # body is read.
        key = (tmp_path / "instance" / "admin_key").read_text().strip()
        opened = urllib.request.build_opener(_NoRedirect()).open
        try:
            opened(f"http://{HOST}:{port}/admin/key/{key}", timeout=30)
        except urllib.error.HTTPError as answer:
            cookie = answer.headers["Set-Cookie"].split(";", 1)[0]
        with socket.create_connection((HOST, port), timeout=3) as sock:
            sock.sendall(head + f"Cookie: {cookie}\r\n\r\n".encode() + b'{"format"')
            with pytest.raises(TimeoutError):
                sock.recv(4096)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Keep a redirect's answer (and its Set-Cookie) instead of following it."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _post(port: int, path: str, body: Any,
          headers: dict[str, str]) -> tuple[int, Any, Any]:
    """POST JSON; return (status, JSON answer, headers), an error status too."""
    try:
        answer = call(port, "POST", path, body, headers)
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read()), refused.headers
    return 201, answer, None


def test_a_guest_starting_a_thousand_games_is_refused_after_a_few(
    tmp_path: Path,
) -> None:
    guest = {"X-Forwarded-For": "192.0.2.7"}  # a device, as the proxy names it
    with server(tmp_path / "instance", "--trusted-proxy", HOST) as (_proc, port):
        statuses = []
        for _ in range(1000):
            status, answer, headers = _post(
                port, "/api/games", {"players": ["Ann", "Bob"]}, guest)
            statuses.append(status)
        started = statuses.count(201)
        assert started == quotas.NEW_GAMES[0]
        assert statuses.count(429) == 1000 - started
        assert answer["error"]["code"] == "too_many_games"
        assert int(headers["Retry-After"]) > 0
        assert call(port, "GET", "/api/games")["total"] == started


@contextmanager
def small_disk(folder: Path, megabytes: int) -> Iterator[Path]:
    """A tmpfs of this size mounted on folder (root only), unmounted at the end."""
    folder.mkdir(parents=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(folder)],
        capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small filesystem here: "
                    + mounted.stderr.decode(errors="replace"))
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_with_the_disk_nearly_full_moves_are_stored_and_new_games_refused(
    tmp_path: Path,
) -> None:
    reserve = quotas.DISK_RESERVE_BYTES
    with small_disk(tmp_path / "disk", reserve // 2**20 + 16) as disk, \
            server(disk / "instance") as (_proc, port):
        game = call(port, "POST", "/api/games", {"players": ["Ann", "Bob"]})
        token = {"X-Edit-Token": game["edit_token"]}
        # Fill the disk until one to two MiB are left: far under the reserve,
        # and still room for the moves of the games being played.
        free = shutil.disk_usage(disk).free
        with open(disk / "filler", "wb") as filler:
            filler.truncate(0)
            for _ in range((free - 2**20) // 2**20):
                filler.write(b"\0" * 2**20)
        assert 2**20 <= shutil.disk_usage(disk).free < 2 * 2**20 < reserve

        status, answer, _headers = _post(
            port, "/api/games", {"players": ["Cas", "Dirk"]}, {})
        assert status == 507
        assert answer["error"]["code"] == "disk_full"
        moves = [
            {"type": "place", "tiles": [
                {"row": 0, "col": 0, "color": "red", "shape": "circle"}]},
            {"type": "place", "tiles": [
                {"row": 0, "col": 1, "color": "red", "shape": "square"}]},
        ]
        for move in moves:
            assert _post(port, f"/api/games/{game['id']}/moves", move, token)[0] == 201
        assert call(port, "GET", f"/api/games/{game['id']}")["turn"] == 2

        (disk / "filler").unlink()
        assert _post(port, "/api/games", {"players": ["Cas", "Dirk"]}, {})[0] == 201


def test_an_event_stream_outlasts_the_idle_time(tmp_path: Path) -> None:
    with server(tmp_path / "instance") as (_proc, port):
        game = call(port, "POST", "/api/games", {"players": ["Ann", "Bob"]})
        began = time.monotonic()
        url = f"http://{HOST}:{port}/games/{game['id']}/tv/events"
        with urllib.request.urlopen(url, timeout=60) as stream:
            lines = stream.read().decode().splitlines()
        took = time.monotonic() - began
        # A stream is a request under way: it runs its whole length (web/live.py),
        # past the idle time, and the heartbeats reach the screen.
        assert took >= live.STREAM_SECONDS - 1 > connections.IDLE_SECONDS
        assert ": still here" in lines
