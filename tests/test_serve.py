"""Serving: the server's settings, the access log, --quiet, a port already in use,
and the real `python -m scorekeeper` with two worker processes on one database."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from conftest import make_app
from werkzeug.test import Client

from scorekeeper import __main__ as run_command
from scorekeeper import serve

ROOT = Path(__file__).resolve().parents[1]


def test_the_access_log_writes_one_line_per_request(tmp_path: Path) -> None:
    app = make_app(tmp_path / "log.sqlite3")
    stream = io.StringIO()
    client = Client(serve.AccessLog(app, stream))

    client.get("/games/new?x=1", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    client.get("/api/games/99")

    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert re.fullmatch(r'192\.0\.2\.7 \[[\d: -]+\] "GET /games/new\?x=1" 200 \d+ '
                        r"[\d.]+ms", lines[0])
    assert '"GET /api/games/99" 404' in lines[1]


def test_quiet_serves_the_app_without_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path / "q.sqlite3")
    assert serve.wrap(app, quiet=True) is app
    assert isinstance(serve.wrap(app, quiet=False), serve.AccessLog)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "inst"))
    monkeypatch.setenv(serve.QUIET_ENV, "1")
    assert not isinstance(serve.worker_app(), serve.AccessLog)
    monkeypatch.delenv(serve.QUIET_ENV)
    assert isinstance(serve.worker_app(), serve.AccessLog)


def test_a_port_in_use_is_one_line_naming_it_and_the_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "unused"))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        status = run_command.main([
            "--host", "127.0.0.1", "--port", str(port),
            "--instance", str(tmp_path / "inst"),
        ])
    err = capsys.readouterr().err
    assert status == 1
    assert err.count("\n") == 1
    assert f"Port {port} is already in use" in err and "--port" in err
    assert "Traceback" not in err


def test_workers_0_serves_in_this_process_on_waitress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served: dict[str, Any] = {}
    monkeypatch.setattr(serve, "_run_waitress",
                        lambda app, **kw: served.update(kw, app=app))
    monkeypatch.setattr(serve, "port_in_use", lambda host, port: False)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "unused"))

    status = run_command.main([
        "--port", "5124", "--workers", "0", "--threads", "12",
        "--instance", str(tmp_path / "inst"),
    ])

    assert status == 0
    assert served["port"] == 5124 and served["threads"] == 12
    # Every device keeps a connection: waitress's default limit of 100 is too few.
    assert served["connection_limit"] >= 1000
    # select() cannot watch a descriptor numbered 1024 or more (connections.py).
    assert served["asyncore_use_poll"] is True
    assert isinstance(served["app"], serve.AccessLog)


def test_workers_start_after_the_database_is_migrated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: dict[str, Any] = {}

    def fake_supervise(sock: socket.socket, workers: int, target: Any,
                       options: dict[str, Any]) -> None:
        database = tmp_path / "inst" / "scorekeeper.sqlite3"
        # Migrations ran once, in the parent, before any worker (pitfall 5).
        started.update(options, workers=workers, target=target,
                       migrated=database.exists(), address=sock.getsockname())
        sock.close()

    from scorekeeper import prefork

    monkeypatch.setattr(prefork, "supervise", fake_supervise)
    monkeypatch.setattr(serve, "port_in_use", lambda host, port: False)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "unused"))
    port = _free_port()

    status = run_command.main([
        "--port", str(port), "--workers", "3", "--quiet",
        "--instance", str(tmp_path / "inst"),
    ])

    assert status == 0 and started["migrated"]
    # The command listens; each worker runs waitress on its socket.
    assert started["address"][1] == port
    assert started["target"] is serve.run_worker
    assert started["workers"] == 3
    assert started["threads"] == serve.DEFAULT_THREADS
    assert os.environ.get(serve.QUIET_ENV) == "1"
    monkeypatch.delenv(serve.QUIET_ENV)


def test_every_worker_takes_the_commands_settings_and_the_same_admin_pin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "inst"))
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    from scorekeeper import create_app

    launcher = create_app()
    launcher.config.update(LISTEN_HOST="0.0.0.0", LISTEN_PORT=5126,
                           ALLOWED_HOSTS=["localhost", "scores.home"])
    monkeypatch.setenv(serve.WORKER_CONFIG_ENV, serve.worker_settings(launcher, 4))
    monkeypatch.setenv(serve.QUIET_ENV, "1")

    worker = serve.worker_app()

    assert isinstance(worker, type(launcher)) and worker is not launcher
    assert worker.config["ALLOWED_HOSTS"] == ["localhost", "scores.home"]
    assert (worker.config["LISTEN_HOST"], worker.config["LISTEN_PORT"]) == (
        "0.0.0.0", 5126)
    assert worker.config["ADMIN_PIN"] == launcher.config["ADMIN_PIN"]
    assert worker.config["SECRET_KEY"] == launcher.config["SECRET_KEY"]
    # Four workers share the machine's render slots: one render process each.
    assert worker.config["RENDER_SLOTS"] == 1
    client = worker.test_client()
    assert client.get("/", headers={"Host": "scores.home"}).status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _call(base: str, method: str, path: str, body: Any = None,
          headers: dict[str, str] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, json.loads(answer.read())


def test_the_real_command_serves_two_workers_that_agree_on_every_game(
    tmp_path: Path,
) -> None:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(serve.QUIET_ENV, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "--host", "127.0.0.1", "--port",
         str(port), "--workers", "2", "--instance", str(tmp_path / "inst")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        # Its own process group: a worker left behind can be stopped with it.
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/", timeout=2):
                    break
            except OSError:
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        status, created = _call(base, "POST", "/api/games", {"players": ["A", "B"]})
        assert status == 201
        token = {"X-Edit-Token": created["edit_token"]}
        url = f"/api/games/{created['id']}"
        tiles = [(0, 0, "red", "circle"), (0, 1, "red", "square"),
                 (1, 0, "blue", "circle"), (-1, 0, "green", "circle")]
        for turn, (r, c, color, shape) in enumerate(tiles):
            status, answer = _call(base, "POST", url + "/moves", {
                "type": "place", "turn": turn,
                "tiles": [{"row": r, "col": c, "color": color, "shape": shape}],
            }, token)
            assert status == 201 and answer["game"]["turn"] == turn + 1
            # Whichever worker answers, it has every move so far.
            for _ in range(4):
                assert _call(base, "GET", url)[1]["turn"] == turn + 1
        _call(base, "DELETE", url + "/moves/last", headers=token)
        for _ in range(4):
            state = _call(base, "GET", url)[1]
            assert state["turn"] == 3 and len(state["board"]) == 3
        # A PDF is drawn in a worker's render process, whichever worker answers.
        for _ in range(2):
            with urllib.request.urlopen(
                f"{base}/games/{created['id']}/scoresheet.pdf", timeout=30
            ) as pdf:
                assert pdf.status == 200 and pdf.read(5) == b"%PDF-"
        # Every worker answers only the allowed hosts the command worked out.
        for _ in range(4):
            foreign = urllib.request.Request(base + "/",
                                             headers={"Host": "evil.example"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(foreign, timeout=10)
            refused.value.close()
            assert refused.value.code == 400
        # One snapshot at start, by the command, not one per worker.
        assert len(list((tmp_path / "inst" / "snapshots").iterdir())) == 1
    finally:
        proc.terminate()
        stopped = True
        try:
            _out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            stopped = False
            os.killpg(proc.pid, signal.SIGKILL)
            _out, err = proc.communicate()
    # Stopped by a terminate, render processes and all (they once kept their
    # worker, and so the server, waiting forever).
    assert stopped, "the server did not stop"
    log = err.decode()
    assert re.search(rf'"POST /api/games/{created["id"]}/moves" 201', log)
    assert log.count('"GET /api/games/') >= 20
