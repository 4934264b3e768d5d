"""Who may do what, reached as a guest reaches it (CONTRACT §15): the real
command, a real reverse proxy in front of it on this machine in each header
mode (Debian's nginx configured as its guides show, and a small proxy process
writing Forwarded, X-Real-IP or nothing), and guests on addresses of their
own (127.0.0.x: loopback is a /8)."""

from __future__ import annotations

import http.client
import json
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from test_server_process import HOST, free_port, server

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

BACKUP = json.dumps({"format": "qwirkle-backup/1", "games": []}).encode()


class Browser:
    """A browser on one address: its own cookies, the page's CSRF token."""

    def __init__(self, port: int, address: str = HOST) -> None:
        self.port, self.address = port, address
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def send(self, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
        """Send one request, keep the cookies it sets; (status, body, headers)."""
        connection = http.client.HTTPConnection(HOST, self.port, timeout=30,
                                                source_address=(self.address, 0))
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            text = answer.read().decode("utf-8", "replace")
            for header in answer.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
            return answer.status, text, dict(answer.headers)
        finally:
            connection.close()

    def page(self, path: str) -> tuple[int, str]:
        """GET a page and take its CSRF token."""
        status, text, _ = self.send("GET", path)
        found = re.search(r'name="csrf-token" content="([^"]+)"', text)
        if found:
            self.csrf = found.group(1)
        return status, text

    def form(self, path: str, **fields: str) -> tuple[int, str]:
        """POST a form, with the CSRF token of the last page seen."""
        body = "&".join(f"{k}={v}" for k, v in {"csrf_token": self.csrf,
                                                   **fields}.items()).encode()
        status, text, _ = self.send("POST", path, body, {
            "Content-Type": "application/x-www-form-urlencoded"})
        return status, text

    def json(self, method: str, path: str, body: Any,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        status, text, _ = self.send(method, path, json.dumps(body).encode(), {
            "Content-Type": "application/json", **(headers or {})})
        return status, json.loads(text) if text.startswith("{") else text


# --- the proxies ---


@contextmanager
def nginx(tmp: Path, upstream: int) -> Iterator[int]:
    """Debian's nginx on a free loopback port, as its guides configure it."""
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (.ci/run installs nginx-light)")
    port = free_port()
    for folder in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp / folder).mkdir(parents=True, exist_ok=True)
    (tmp / "nginx.conf").write_text(f"""
daemon off;
master_process off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    server {{
        listen {HOST}:{port};
        location / {{
            proxy_pass http://{HOST}:{upstream};
            proxy_set_header Host $http_host;
            proxy_set_header X-Real-IP $remote_addr;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
    }}
}}
""")
    proc = subprocess.Popen([NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for(port, proc)
        yield port
    finally:
        proc.kill()
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


def _wait_for(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with suppress(OSError), socket.create_connection((HOST, port), timeout=1):
            return
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read().decode() if proc.stderr else "")
        time.sleep(0.05)
    raise AssertionError("the proxy did not start")


@contextmanager
def small_proxy(upstream: int, header: str | None) -> Iterator[int]:
    """A proxy process of a few lines: each request is passed on with one
    header naming its client (`header`, a format of the peer's address), or
    with none, and the connection closed after the answer."""
    listener = socket.create_server((HOST, 0))
    port = listener.getsockname()[1]
    stop = threading.Event()

    def relay(client: socket.socket) -> None:
        with client, socket.create_connection((HOST, upstream)) as up:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = client.recv(65536)
                if not chunk:
                    return
                head += chunk
            top, _, rest = head.partition(b"\r\n\r\n")
            lines = [line for line in top.split(b"\r\n")
                     if not line.lower().startswith(b"connection:")]
            lines.append(b"Connection: close")
            if header is not None:
                peer = client.getpeername()[0]
                lines.append(header.format(peer).encode())
            up.sendall(b"\r\n".join(lines) + b"\r\n\r\n" + rest)
            length = re.search(rb"(?im)^content-length:\s*(\d+)", top)
            missing = int(length.group(1)) - len(rest) if length else 0
            while missing > 0:
                chunk = client.recv(min(missing, 65536))
                if not chunk:
                    break
                up.sendall(chunk)
                missing -= len(chunk)
            while chunk := up.recv(65536):
                client.sendall(chunk)

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            threading.Thread(target=relay, args=(client,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield port
    finally:
        stop.set()
        thread.join(5)
        listener.close()


@contextmanager
def proxy(mode: str, tmp: Path, upstream: int) -> Iterator[int]:
    if mode == "nginx":
        with nginx(tmp / "nginx", upstream) as port:
            yield port
        return
    header = {"forwarded": "Forwarded: for={}", "x-real-ip": "X-Real-IP: {}",
              "none": None}[mode]
    with small_proxy(upstream, header) as port:
        yield port


MODES = ["nginx", "forwarded", "x-real-ip", "none"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """The command on a free port, with a game started by a phone of its own."""
    instance = tmp_path_factory.mktemp("trust-instance")
    with server(instance) as (_, port):
        yield port, instance


@pytest.mark.parametrize("mode", MODES)
def test_s15_through_a_proxy_on_this_machine_nothing_privileged_opens(
    served: tuple[int, Path], tmp_path: Path, mode: str
) -> None:
    upstream, instance = served
    host = Browser(upstream, "127.0.0.9")
    status, made = host.json("POST", "/api/games", {"players": ["Anna", "Bo"]})
    assert status == 201
    game_id, pin = made["id"], _pin(instance, made["id"])
    with proxy(mode, tmp_path, upstream) as port:
        guest = Browser(port)
        guest.page("/")

        restore = guest.send("POST", "/api/restore", BACKUP,
                             {"Content-Type": "application/json"})
        admin = guest.page("/admin")
        grant = guest.form("/admin/grant", game=str(game_id))
        move = guest.json("POST", f"/api/games/{game_id}/moves", {"type": "pass"},
                          {"X-CSRFToken": guest.csrf})

        assert restore[0] == 403 and "admin_pin_required" in restore[1]
        assert admin[0] == 403 and pin not in admin[1] and "data-pin" not in admin[1]
        assert grant[0] == 403
        assert move[0] == 403
        # The admin link opens it, through the proxy as anywhere: the right
        # is the device's, whatever address it comes from.
        guest.send("GET", f"/admin/key/{_admin_key(instance)}")
        assert guest.page("/admin")[0] == 200


def _pin(instance: Path, game_id: int) -> str:
    import sqlite3

    with sqlite3.connect(instance / "scorekeeper.sqlite3") as conn:
        return str(conn.execute("SELECT pin FROM games WHERE id = ?",
                                [game_id]).fetchone()[0])


def _admin_key(instance: Path) -> str:
    return (instance / "admin_key").read_text().strip()


def guess_from_8_addresses(port: int, game_id: int, pin: str) -> list[int]:
    """200 wrong guesses at a game's PIN, 25 from each of 8 addresses."""
    wrong = ("1" if pin[0] != "1" else "2") + pin[1:]
    answers = []
    for n in range(8):
        guest = Browser(port, f"127.0.0.{20 + n}")
        guest.page(f"/games/{game_id}")
        answers += [guest.form(f"/games/{game_id}/claim", pin=wrong)[0]
                    for _ in range(25)]
    return answers


def test_s15_after_200_wrong_guesses_from_8_addresses_the_right_ones_get_in(
    served: tuple[int, Path],
) -> None:
    port, instance = served
    owner = Browser(port, "127.0.0.20")  # shares an address with a guesser
    status, made = owner.json("POST", "/api/games", {"players": ["Anna", "Bo"]})
    game_id, pin = made["id"], _pin(instance, made["id"])

    answers = guess_from_8_addresses(port, game_id, pin)
    player = Browser(port, "127.0.0.40")
    player.page(f"/games/{game_id}")
    claimed = player.form(f"/games/{game_id}/claim", pin=pin)
    admin = Browser(port, "127.0.0.41")
    admin.page("/admin")
    admin_in = admin.form("/admin", admin_pin=(instance / "admin_pin").read_text()
                          .strip())

    assert answers.count(403) == 8 * 5 and answers.count(429) == 200 - 8 * 5
    assert claimed[0] == 302
    assert admin_in[0] == 302 and admin.page("/admin")[0] == 200
    owner.page(f"/games/{game_id}")
    assert owner.json("POST", f"/api/games/{game_id}/moves", {"type": "pass"},
                      {"X-CSRFToken": owner.csrf})[0] == 422  # heard: no first pass


def test_s15_behind_a_trusted_nginx_each_guest_is_counted_by_its_own_address(
    tmp_path: Path,
) -> None:
    with server(tmp_path / "instance", "--trusted-proxy", HOST) as (_, upstream), \
            nginx(tmp_path / "nginx", upstream) as port:
        host = Browser(port, "127.0.0.50")
        status, made = host.json("POST", "/api/games", {"players": ["Anna", "Bo"]})
        game_id = made["id"]
        pin = _pin(tmp_path / "instance", game_id)

        answers = guess_from_8_addresses(port, game_id, pin)
        player = Browser(port, "127.0.0.60")
        player.page(f"/games/{game_id}")

        assert answers.count(403) == 8 * 5
        assert player.form(f"/games/{game_id}/claim", pin=pin)[0] == 302
