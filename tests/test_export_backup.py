"""Backup of all games and its restore: format, round trip, all or nothing."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import as_admin, make_app
from flask import Flask
from flask.testing import FlaskClient
from test_export_records import BOUNDARY, multipart
from test_history_helpers import corpus_names, corpus_record, parse

from scorekeeper import engine
from scorekeeper.formats import backup
from scorekeeper.store import loaded, stats


def import_corpus(client: FlaskClient, names: list[str] | None = None) -> list[int]:
    ids = []
    for name in names or corpus_names():
        response = client.post("/api/games/import", json=corpus_record(name))
        assert response.status_code == 201
        ids.append(response.get_json()["id"])
    return ids


def restore(client: FlaskClient, data: bytes) -> Any:
    return client.post(
        "/restore",
        data=multipart(data, "backup.json"),
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )


def without_exported_at(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "exported_at"}


def test_backup_holds_every_game_as_a_record_with_timestamps(
    client: FlaskClient,
) -> None:
    import_corpus(client)
    response = client.get("/backup")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    document = json.loads(response.data)
    assert document["format"] == "qwirkle-backup/1"
    assert len(document["games"]) == len(corpus_names())
    for entry, name in zip(document["games"], corpus_names(), strict=True):
        record = {k: v for k, v in entry.items() if k not in backup.EXTRA_KEYS}
        assert record == corpus_record(name)
        assert entry["created_at"]
        assert len(entry["move_times"]) == len(record["moves"])
        assert "edit_token" not in entry


def test_backup_record_equals_the_engine_record(
    app: Flask, client: FlaskClient
) -> None:
    import_corpus(client)
    # A running game too: its final is null.
    running = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    client.post(
        f"/api/games/{running['id']}/moves",
        json={
            "type": "place",
            "tiles": [{"row": 0, "col": 0, "color": "red", "shape": "circle"}],
        },
        headers={"X-Edit-Token": running["edit_token"]},
    )
    document = json.loads(client.get("/backup").data)
    with app.test_request_context():
        for entry in document["games"]:
            game_id = document["games"].index(entry) + 1
            record = {k: v for k, v in entry.items() if k not in backup.EXTRA_KEYS}
            with loaded(game_id) as row:
                expected = engine.to_record(row.game, row.names)
            # One record writer: the backup's stored-row path gives the same bytes.
            assert engine.dumps_record(record) == engine.dumps_record(expected)


def test_backup_then_restore_into_a_fresh_database_is_equal(
    client: FlaskClient, tmp_path: Path
) -> None:
    import_corpus(client)
    first = json.loads(client.get("/backup").data)

    fresh = as_admin(make_app(tmp_path / "fresh.sqlite3").test_client())
    response = restore(fresh, client.get("/backup").data)
    assert response.status_code == 302
    second = json.loads(fresh.get("/backup").data)
    assert without_exported_at(second) == without_exported_at(first)
    # The summaries the history and statistics read were rebuilt too.
    assert fresh.get("/history").data.count(b"data-game-id") == len(corpus_names())
    a = parse(client.get("/players/Anna").data).find(data_stat="avg_score").text()
    b = parse(fresh.get("/players/Anna").data).find(data_stat="avg_score").text()
    assert a == b


def test_restore_keeps_durations(client: FlaskClient, tmp_path: Path) -> None:
    import_corpus(client, ["classic-10001.json"])
    document = json.loads(client.get("/backup").data)
    entry = document["games"][0]
    entry["created_at"] = "2025-03-01T19:00:00+00:00"
    entry["move_times"] = [
        f"2025-03-01T19:{10 + i // 2:02d}:00+00:00" for i in range(len(entry["moves"]))
    ]
    fresh = as_admin(make_app(tmp_path / "fresh.sqlite3").test_client())
    assert restore(fresh, json.dumps(document).encode()).status_code == 302
    row = parse(fresh.get("/history").data).find("tr", data_game_id="1")
    assert "Mar 1, 2025, 7:00 PM UTC" in row.text()
    assert "29 min" in row.text()


def test_restore_is_all_or_nothing(app: Flask, client: FlaskClient) -> None:
    import_corpus(client, ["classic-10001.json", "classic-10002.json"])
    document = json.loads(client.get("/backup").data)
    document["games"].append(copy.deepcopy(document["games"][0]))
    bad = document["games"][2]
    bad["moves"][10]["score"] += 1
    response = restore(client, json.dumps(document).encode())
    assert response.status_code == 422
    message = parse(response.data).find(data_error=True).text()
    assert "Game 3" in message
    assert "Move 11" in message
    with app.app_context():
        assert stats.count_games() == 2


def _bad_backups() -> list[tuple[str, bytes, str]]:
    record = corpus_record()
    good = {"format": "qwirkle-backup/1", "games": [record]}
    unknown = copy.deepcopy(good)
    unknown["games"][0]["moves"][0]["tiles"][0]["shape"] = "hexagon"
    times = copy.deepcopy(good)
    times["games"][0]["move_times"] = ["yesterday"] * len(record["moves"])
    few_times = copy.deepcopy(good)
    few_times["games"][0]["move_times"] = []
    return [
        (
            "wrong format tag",
            json.dumps(dict(good, format="qwirkle-game/1")).encode(),
            "qwirkle-backup/1",
        ),
        ("a list", json.dumps([record]).encode(), "object"),
        ("not JSON", b"<html>", "not JSON"),
        ("games not a list", json.dumps(dict(good, games={})).encode(), "list"),
        (
            "a game that is a list",
            json.dumps(dict(good, games=[[1]])).encode(),
            "Game 1",
        ),
        ("unknown tile", json.dumps(unknown).encode(), "Game 1"),
        ("bad timestamp", json.dumps(times).encode(), "timestamp"),
        ("move_times too short", json.dumps(few_times).encode(), "move_times"),
    ]


@pytest.mark.parametrize(
    ("label", "data", "needle"), _bad_backups(), ids=[c[0] for c in _bad_backups()]
)
def test_a_bad_backup_is_refused_and_stores_nothing(
    app: Flask, client: FlaskClient, label: str, data: bytes, needle: str
) -> None:
    response = restore(client, data)
    assert response.status_code == 422, label
    assert needle in parse(response.data).find(data_error=True).text()
    with app.app_context():
        assert stats.count_games() == 0


def test_an_oversized_backup_is_refused(app: Flask, client: FlaskClient) -> None:
    app.config["MAX_BACKUP_BYTES"] = 50_000
    data = json.dumps(
        {"format": "qwirkle-backup/1", "games": [corpus_record()] * 10}
    ).encode()
    response = restore(client, data)
    assert response.status_code in (413, 422)
    with app.app_context():
        assert stats.count_games() == 0


def test_a_backup_bigger_than_the_request_limit_can_be_restored(
    app: Flask, client: FlaskClient
) -> None:
    # The app-wide body limit (2 MB) is for records; backups get their own.
    data = json.dumps(
        {
            "format": "qwirkle-backup/1",
            "games": [corpus_record()] * 5,
            "pad": "x" * (app.config["MAX_CONTENT_LENGTH"] + 1),
        }
    ).encode()
    assert restore(client, data).status_code == 302
    with app.app_context():
        assert stats.count_games() == 5


def test_restore_form_needs_the_csrf_token(csrf_client: FlaskClient) -> None:
    data = json.dumps({"format": "qwirkle-backup/1", "games": [corpus_record()]})
    assert restore(csrf_client, data.encode()).status_code == 400
    with csrf_client.application.app_context():
        assert stats.count_games() == 0


def test_backup_of_an_empty_database(client: FlaskClient) -> None:
    document = json.loads(client.get("/backup").data)
    assert document["games"] == []


def test_the_restoring_browser_may_edit_what_it_restored(
    client: FlaskClient, tmp_path: Path
) -> None:
    import_corpus(client, ["classic-10001.json"])
    fresh_app = make_app(tmp_path / "fresh.sqlite3")
    fresh = as_admin(fresh_app.test_client())
    assert restore(fresh, client.get("/backup").data).status_code == 302
    assert fresh.get("/games/1/delete").status_code == 200
    assert fresh_app.test_client().get("/games/1/delete").status_code == 403


def test_a_game_without_moves_keeps_its_first_player_through_backup_and_restore(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    created = client.post(
        "/api/games", json={"players": ["Ann", "Bob", "Cas"], "first_player": 2}
    ).get_json()
    document = json.loads(client.get("/backup").data)
    with app.test_request_context():
        with loaded(created["id"]) as row:
            expected = engine.to_record(row.game, row.names)
    entry = document["games"][0]

    fresh = as_admin(make_app(tmp_path / "fresh.sqlite3").test_client())
    assert restore(fresh, client.get("/backup").data).status_code == 302
    restored = fresh.get("/api/games/1").get_json()

    assert {k: v for k, v in entry.items() if k not in backup.EXTRA_KEYS} == expected
    assert (restored["first_player"], restored["current_player"]) == (2, 2)
