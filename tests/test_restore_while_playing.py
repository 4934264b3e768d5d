"""A restore never breaks the table: it stores its games a short
batch per transaction, so a move or a new game posted while it runs is stored at
once; a restore that fails part-way leaves nothing; and a database kept locked by
another writer answers 503 with Retry-After, never 500, on the API and on pages."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import as_admin, make_app
from flask import Flask
from flask.testing import FlaskClient
from test_history_helpers import corpus_names, corpus_record

from scorekeeper.formats import backup as backup_format
from scorekeeper.store import backup as backup_store
from scorekeeper.store import connection, stats

GAMES = 7
"""Games in the backup: more than two batches before the pause."""

PAUSE_AT = 5
"""The restore stops before checking this game, two batches of two stored."""


def backup_of(tmp_path: Path, games: int = GAMES) -> dict[str, Any]:
    source = make_app(tmp_path / "source.sqlite3").test_client()
    for name in corpus_names()[:games]:
        assert source.post("/api/games/import", json=corpus_record(name)).status_code \
            == 201
    document: dict[str, Any] = json.loads(source.get("/api/backup").data)
    assert len(document["games"]) == games
    return document


@pytest.fixture
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of two games; a writer waits at most one second for the lock, so
    that a restore holding it for longer shows as a failed move."""
    monkeypatch.setattr(backup_store, "BATCH", 2)
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 1000)


class Paused:
    """Stops a restore before it checks game PAUSE_AT, until released."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reached = threading.Event()
        self.go = threading.Event()
        check = backup_format.check_record

        def paused_check(document: object, number: int | None = None) -> Any:
            if number == PAUSE_AT:
                self.reached.set()
                self.go.wait(30)
            return check(document, number)

        # A backup's games are checked by the check LISTS names for them.
        monkeypatch.setitem(backup_format.LISTS, "games", paused_check)


@pytest.fixture
def paused(monkeypatch: pytest.MonkeyPatch) -> Iterator[Paused]:
    pause = Paused(monkeypatch)
    yield pause
    pause.go.set()


def restoring(app: Flask, document: dict[str, Any]) -> tuple[threading.Thread, list]:
    """Start restoring document over the API in a thread of its own."""
    answers: list = []
    body = json.dumps(document).encode()

    def run() -> None:
        answers.append(as_admin(app.test_client()).post(
            "/api/restore", data=body, content_type="application/json"))

    thread = threading.Thread(target=run)
    thread.start()
    return thread, answers


def table_game(client: FlaskClient) -> tuple[int, dict[str, str]]:
    created = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    return created["id"], {"X-Edit-Token": created["edit_token"]}


def red_circle(client: FlaskClient, game_id: int, headers: dict[str, str]) -> Any:
    return client.post(f"/api/games/{game_id}/moves", headers=headers, json={
        "type": "place",
        "tiles": [{"row": 0, "col": 0, "color": "red", "shape": "circle"}],
    })


def count(app: Flask) -> int:
    with app.app_context():
        return stats.count_games()


def test_a_move_and_a_new_game_are_stored_while_a_restore_is_mid_way(
    app: Flask, client: FlaskClient, tmp_path: Path, short_waits: None,
    paused: Paused,
) -> None:
    game_id, headers = table_game(client)
    thread, answers = restoring(app, backup_of(tmp_path))
    assert paused.reached.wait(60)
    # The restore has stored two batches and is checking the next game.
    mid_way = count(app)

    move = red_circle(client, game_id, headers)
    new = client.post("/api/games", json={"players": ["Cy", "Di"]})
    page = client.post("/games/new", data={"names-0": "Ed", "names-1": "Flo"})
    paused.go.set()
    thread.join(60)

    assert mid_way == 1 + 2 * 2
    assert move.status_code == 201, move.get_json()
    assert new.status_code == 201, new.get_json()
    assert page.status_code == 302
    assert answers[0].status_code == 200, answers[0].get_json()
    assert answers[0].get_json() == {"restored": GAMES, "skipped": 0}
    assert count(app) == 1 + GAMES + 2
    assert client.get(f"/api/games/{game_id}").get_json()["players"][0]["score"] == 1


def test_a_restore_that_fails_late_removes_what_it_stored_and_nothing_else(
    app: Flask, client: FlaskClient, tmp_path: Path, short_waits: None,
    paused: Paused,
) -> None:
    game_id, headers = table_game(client)
    document = backup_of(tmp_path)
    document["games"][-1]["moves"][3]["score"] += 1
    thread, answers = restoring(app, document)
    assert paused.reached.wait(60)
    mid_way = count(app)
    move = red_circle(client, game_id, headers)
    paused.go.set()
    thread.join(60)

    assert mid_way == 1 + 2 * 2
    assert move.status_code == 201
    refused = answers[0]
    assert refused.status_code == 422
    assert refused.get_json()["error"]["game_number"] == GAMES
    assert count(app) == 1
    assert client.get(f"/api/games/{game_id}").get_json()["players"][0]["score"] == 1
    with app.app_context():
        db = connection.get_db()
        assert db.execute("SELECT count(*) FROM moves").fetchone()[0] == 1
        assert db.execute("SELECT count(*) FROM game_players").fetchone()[0] == 2


@pytest.fixture
def locked(database: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """The app, its writers waiting 0.2 s, while another connection holds the
    write lock (a writer in another process, say)."""
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 200)
    app = make_app(database)
    client = app.test_client()
    created = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    app.config["test_game"] = created
    other = sqlite3.connect(database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield app
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_busy_database_answers_503_with_retry_after_on_the_api(
    locked: Flask,
) -> None:
    client = locked.test_client()
    created = locked.config["test_game"]
    move = red_circle(client, created["id"], {"X-Edit-Token": created["edit_token"]})
    new = client.post("/api/games", json={"players": ["Cy", "Di"]})
    read = client.get(f"/api/games/{created['id']}")

    for answer in (move, new):
        assert answer.status_code == 503
        assert int(answer.headers["Retry-After"]) > 0
        error = answer.get_json()["error"]
        assert error["code"] == "busy"
        assert "nothing was changed" in error["message"]
    assert read.status_code == 200  # readers are never kept waiting (WAL)


def test_a_busy_database_answers_503_with_retry_after_on_a_page(
    locked: Flask,
) -> None:
    client = locked.test_client()
    answer = client.post("/games/new", data={"names-0": "Cy", "names-1": "Di"})

    assert answer.status_code == 503
    assert int(answer.headers["Retry-After"]) > 0
    assert answer.mimetype == "text/html"
    assert b"busy storing something else" in answer.data


def test_batches_store_every_game_and_skip_one_given_twice(
    app: Flask, client: FlaskClient, tmp_path: Path, short_waits: None
) -> None:
    # An odd number of games: the last batch is a short one.
    document = backup_of(tmp_path, 5)
    document["games"].append(document["games"][0])  # twice in one file: skipped
    answer = client.post("/api/restore", data=json.dumps(document),
                         content_type="application/json")
    assert answer.get_json() == {"restored": 5, "skipped": 1}
    assert count(app) == 5
