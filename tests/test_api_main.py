"""The run command and the app factory's settings."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest
from conftest import make_app

from scorekeeper import __main__ as run_command
from scorekeeper import create_app, net, serve


def test_the_run_command_creates_the_app_then_serves_and_prints_the_addresses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    served: dict[str, Any] = {}

    def fake_serve(app: Any, host: str, port: int, args: Any) -> int:
        served.update(app=app, host=host, port=port, args=args)
        return 0

    monkeypatch.setattr(serve, "serve", fake_serve)
    monkeypatch.setattr(net, "lan_addresses", lambda: ["192.168.1.20"])
    # setenv, not delenv: teardown then restores what main() overwrites.
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "unused"))
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)

    status = run_command.main(["--port", "5123", "--instance", str(tmp_path / "inst")])

    out = capsys.readouterr().out
    assert status == 0
    assert served["host"] == "0.0.0.0" and served["port"] == 5123
    assert served["args"].workers == serve.DEFAULT_WORKERS
    assert served["args"].quiet is False
    assert "http://127.0.0.1:5123/" in out
    assert "http://192.168.1.20:5123/" in out
    assert served["app"].config["DATABASE"] == str(
        tmp_path / "inst" / "scorekeeper.sqlite3"
    )
    key = tmp_path / "inst" / "secret_key"
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600


def test_a_single_host_prints_only_its_own_address() -> None:
    assert net.urls("127.0.0.1", 8000) == ["http://127.0.0.1:8000/"]


def test_the_secret_key_is_generated_once_and_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)

    first = create_app({"DATABASE": str(tmp_path / "a.sqlite3")})
    first.config.pop("SECRET_KEY")
    second = create_app({"DATABASE": str(tmp_path / "a.sqlite3")})

    assert len(second.config["SECRET_KEY"]) >= 32
    assert second.config["SECRET_KEY"] == create_app(
        {"DATABASE": str(tmp_path / "a.sqlite3")}).config["SECRET_KEY"]
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-env")
    assert create_app({"DATABASE": str(tmp_path / "a.sqlite3")}).config[
        "SECRET_KEY"] == "from-env"


def test_factory_settings_for_a_table_on_a_lan(tmp_path: Path) -> None:
    app = make_app(tmp_path / "x.sqlite3", WTF_CSRF_ENABLED=True)

    assert app.config["WTF_CSRF_TIME_LIMIT"] is None
    assert app.config["SESSION_COOKIE_SECURE"] is False
    assert app.config["MAX_CONTENT_LENGTH"] == 2 * 1024 * 1024
    assert app.jinja_env.globals["_"]("Round") == "Round"
    assert set(app.blueprints) >= {"api", "table", "history", "players", "files"}


def test_an_unexpected_error_under_api_answers_500_in_json(tmp_path: Path) -> None:
    app = make_app(tmp_path / "x.sqlite3", TESTING=False)

    @app.get("/api/_boom")
    def _boom() -> str:
        raise RuntimeError("boom")

    response = app.test_client().get("/api/_boom")

    assert response.status_code == 500
    assert response.get_json()["error"]["code"] == "internal_error"
    assert "boom" not in response.get_data(as_text=True)
