"""Shared fixtures: an app on a temporary database, its clients, a `table` helper."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from corpus import game_files
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import create_app
from scorekeeper.config import INSTANCE_ENV
from scorekeeper.store import schema

Tile = tuple[int, int, str, str]


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Run on every core (pytest-xdist's `-n auto`) where pytest-xdist is
    installed and neither `-n`, `-p no:xdist`, `--pdb` nor `--collect-only`
    was given; `-n 0` runs in one process. Set here rather than in addopts so
    that `pytest` still runs where xdist is missing (an older venv)."""
    option = config.option
    if (
        getattr(option, "numprocesses", 0) is None
        and not hasattr(config, "workerinput")
        and not option.usepdb
        and not option.collectonly
    ):
        option.numprocesses = "auto"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Start the long tests first. pytest-xdist hands tests out in this order,
    and one long test handed out last keeps its worker busy while the others
    have nothing left to do (the stateful API test alone takes over 100 s)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def corpus_files() -> list[Path]:
    """Return the corpus's game records (the probes file excluded)."""
    return game_files()


def make_app(database: Path, **overrides: Any) -> Flask:
    """Return a testing app on the given database file."""
    config = {
        "TESTING": True,
        "DATABASE": str(database),
        "SECRET_KEY": "test-secret-key",
        "WTF_CSRF_ENABLED": False,
    }
    config.update(overrides)
    return create_app(config)


@pytest.fixture(scope="session", autouse=True)
def instance_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The session's own instance folder (admin PIN, secret key, snapshots),
    not the checkout's instance/ that parallel workers would share."""
    path = tmp_path_factory.mktemp("instance")
    before = os.environ.get(INSTANCE_ENV)
    os.environ[INSTANCE_ENV] = str(path)
    yield path
    if before is None:
        os.environ.pop(INSTANCE_ENV, None)
    else:
        os.environ[INSTANCE_ENV] = before


_migrated: list[Path] = []
"""The session's migrated empty database (set by the fixture below)."""


@pytest.fixture(scope="session", autouse=True)
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty database migrated once per session (per xdist worker).

    Migrating a new file costs about 0.1 s, most of it waiting on fsync; the
    app fixtures copy this file instead, and the app's own start still checks
    (and would apply) every migration. Tests of migrating itself call
    `make_app` or `schema.init_db` on a new path, which migrates as before.
    """
    path = tmp_path_factory.mktemp("template") / "migrated.sqlite3"
    schema.init_db(str(path))
    _migrated[:] = [path]
    return path


def fresh_database(database: Path) -> Path:
    """Put a copy of the session's migrated empty database at database
    (unless a file is there already); return database."""
    if _migrated and not database.exists():
        shutil.copyfile(_migrated[0], database)
    return database


@pytest.fixture
def database(tmp_path: Path) -> Path:
    """Path of the test's own SQLite file."""
    return tmp_path / "scorekeeper.sqlite3"


@pytest.fixture
def app(database: Path) -> Iterator[Flask]:
    """The app on a fresh database file, CSRF off (as most tests want)."""
    yield make_app(fresh_database(database))


def client_at(app: Flask, address: str) -> FlaskClient:
    """A test client whose requests come from this address (a device on the
    network)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def as_admin(client: FlaskClient) -> FlaskClient:
    """Open the admin link in this client, as the host does from the start
    text (CONTRACT §15); return the client, now holding the admin right."""
    app = client.application
    response = client.get(f"/admin/key/{app.config['ADMIN_KEY']}")
    assert response.status_code == 302
    return client


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for app: the host's browser, which opened the admin link."""
    return as_admin(app.test_client())


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A CLI runner for app."""
    return app.test_cli_runner()


@pytest.fixture
def csrf_app(database: Path) -> Flask:
    """The app with CSRF protection on, as in production."""
    return make_app(fresh_database(database), WTF_CSRF_ENABLED=True)


@pytest.fixture
def csrf_client(csrf_app: Flask) -> FlaskClient:
    """A test client for the CSRF-protected app."""
    return csrf_app.test_client()


def tiles_json(tiles: Sequence[Tile]) -> list[dict[str, Any]]:
    """Turn (row, col, color, shape) tuples into the API's tile objects."""
    return [{"row": r, "col": c, "color": color, "shape": shape}
            for r, c, color, shape in tiles]


def new_game(client: FlaskClient, *names: str, **fields: Any) -> int:
    """Start a game through the form and return its id (the session gets the token)."""
    data = {f"names-{i}": name for i, name in enumerate(names)}
    data.update(fields)
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, response.data
    return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])


def hold(client: FlaskClient, game_id: int, token: str) -> None:
    """Give the client's device the right to a game by its join link."""
    response = client.get(f"/games/{game_id}/join/{token}")
    assert response.status_code == 302


def token_of(client: FlaskClient, game_id: int) -> str:
    """The edit token of a game the client's device holds a right to."""
    from scorekeeper.store.cache import loaded
    from scorekeeper.web import auth

    with client.application.test_request_context(), loaded(game_id) as row:
        token = str(row.edit_token)
    cookie = client.get_cookie(auth.DEVICE_COOKIE)
    assert cookie is not None, "this device holds no right"
    with client.application.test_request_context(
        headers={"Cookie": f"{auth.DEVICE_COOKIE}={cookie.value}"}
    ):
        assert auth.device_may_edit(game_id, token), "not this device's game"
    return token


class TableGame:
    """One game created through the API, with its edit token at hand."""

    def __init__(self, client: FlaskClient, state: dict[str, Any]) -> None:
        self.client = client
        self.id: int = state["id"]
        self.token: str = state["edit_token"]
        self.created = state

    @property
    def headers(self) -> dict[str, str]:
        """The header that authorises writes to this game."""
        return {"X-Edit-Token": self.token}

    @property
    def url(self) -> str:
        """The game's API address."""
        return f"/api/games/{self.id}"

    def move(self, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
        """POST a move body, assert the status, return the JSON answer."""
        response = self.client.post(
            f"{self.url}/moves", json=body, headers=self.headers
        )
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def place(self, *tiles: Tile, status: int = 201, **extra: Any) -> dict[str, Any]:
        """Place tiles given as (row, col, color, shape)."""
        return self.move({"type": "place", "tiles": tiles_json(tiles), **extra}, status)

    def trade(self, count: int, status: int = 201) -> dict[str, Any]:
        """Trade count tiles."""
        return self.move({"type": "trade", "count": count}, status)

    def pass_turn(self, status: int = 201) -> dict[str, Any]:
        """Pass."""
        return self.move({"type": "pass"}, status)

    def undo(self, status: int = 200) -> dict[str, Any]:
        """Undo the last move."""
        response = self.client.delete(f"{self.url}/moves/last", headers=self.headers)
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def state(self) -> dict[str, Any]:
        """GET the game state."""
        response = self.client.get(self.url)
        assert response.status_code == 200, response.get_json()
        return response.get_json()


class Table:
    """Starts games through the API (like flaskr's AuthActions)."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def new(
        self, players: Sequence[str] = ("Ann", "Bob"), **extra: Any
    ) -> TableGame:
        """Create a game and return its handle."""
        response = self.client.post(
            "/api/games", json={"players": list(players), **extra}
        )
        assert response.status_code == 201, response.get_json()
        return TableGame(self.client, response.get_json())

    def import_record(self, record: dict[str, Any]) -> TableGame:
        """Import a record and return the new game's handle."""
        response = self.client.post("/api/games/import", json=record)
        assert response.status_code == 201, response.get_json()
        return TableGame(self.client, response.get_json())


@pytest.fixture
def table(client: FlaskClient) -> Table:
    """The `table` helper on the test client."""
    return Table(client)
