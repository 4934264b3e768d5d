"""How many games a guest may start, a club night's tables, and the disk room
kept for the moves of the games being played (CONTRACT §8.1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import as_admin, make_app
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import quotas

GUEST = {"REMOTE_ADDR": "192.0.2.7"}
"""A device on the table's network (not this machine)."""

PLAYERS = {"players": ["Ann", "Bob"]}


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return make_app(tmp_path / "db.sqlite3", NEW_GAME_RATE=(3, 600.0))


def new_game(client: FlaskClient, environ: dict[str, str] | None = None,
             **body: Any) -> Any:
    return client.post("/api/games", json={**PLAYERS, **body},
                       environ_base=environ or GUEST)


def test_a_guest_starting_games_too_fast_gets_429_with_retry_after(
    app: Flask,
) -> None:
    client = app.test_client()
    statuses = [new_game(client).status_code for _ in range(5)]
    assert statuses == [201, 201, 201, 429, 429]
    refused = new_game(client)
    error = refused.get_json()["error"]
    assert error["code"] == "too_many_games"
    assert 0 < int(refused.headers["Retry-After"]) <= 600
    assert refused.headers["Retry-After"] in error["message"]
    assert client.get("/api/games").get_json()["total"] == 3


def test_the_rate_is_counted_per_device(app: Flask) -> None:
    client = app.test_client()
    for _ in range(3):
        assert new_game(client).status_code == 201
    assert new_game(client).status_code == 429
    assert new_game(client, {"REMOTE_ADDR": "192.0.2.8"}).status_code == 201


def test_s15_the_admins_device_is_not_counted_and_this_machine_is(
    app: Flask,
) -> None:
    local = {"REMOTE_ADDR": "127.0.0.1"}
    admin = as_admin(app.test_client())
    here = app.test_client()
    assert all(new_game(admin, local).status_code == 201 for _ in range(6))
    assert [new_game(here, local).status_code for _ in range(4)] == [201] * 3 + [429]


def test_an_imported_record_counts_as_a_new_game(app: Flask) -> None:
    client = app.test_client()
    made = new_game(client, {"REMOTE_ADDR": "127.0.0.1"}).get_json()
    record = client.get(f"/api/games/{made['id']}/record").get_json()
    statuses = [client.post("/api/games/import", json=record,
                            environ_base=GUEST).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]


def test_a_club_nights_tables_are_limited(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", MAX_NIGHT_TABLES=2)
    client = app.test_client()
    event = client.post("/api/events", json={"name": "Friday"}).get_json()
    headers = {"X-Event-Token": event["edit_token"]}
    answers = [client.post("/api/games", json={**PLAYERS, "event": event["id"]},
                           headers=headers) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 422]
    error = answers[2].get_json()["error"]
    assert error["code"] == "too_many_tables" and "2" in error["message"]
    assert len(client.get(f"/api/events/{event['id']}").get_json()["games"]) == 2
    # A game outside the night is still started.
    assert client.post("/api/games", json=PLAYERS).status_code == 201


def test_below_the_disk_reserve_new_games_get_507_and_moves_are_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = make_app(tmp_path / "db.sqlite3")
    client = app.test_client()
    game = new_game(client).get_json()
    headers = {"X-Edit-Token": game["edit_token"]}
    folder = str(tmp_path)
    measured = quotas.free_bytes(folder)
    assert measured is not None and measured > 0
    # The disk as it is, less all but a byte under the reserve.
    monkeypatch.setattr(quotas, "free_bytes", lambda path: (
        quotas.DISK_RESERVE_BYTES - 1 if path == folder else measured))

    refused = new_game(client)
    assert refused.status_code == 507
    assert refused.get_json()["error"]["code"] == "disk_full"
    assert "new game" in refused.get_json()["error"]["message"]
    move = client.post(f"/api/games/{game['id']}/moves", headers=headers,
                       json={"type": "place", "tiles": [
                           {"row": 0, "col": 0, "color": "red", "shape": "circle"}]},
                       environ_base=GUEST)
    assert move.status_code == 201
    assert client.get(f"/api/games/{game['id']}").get_json()["turn"] == 1


def test_the_new_game_page_says_why_it_refused(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    for _ in range(3):
        assert new_game(client).status_code == 201
    form = {"names-0": "Ann", "names-1": "Bob"}
    page = client.post("/games/new", data=form, environ_base=GUEST,
                       follow_redirects=True)
    assert "Too many new games from this device" in page.get_data(as_text=True)
    assert client.get("/api/games").get_json()["total"] == 3
