"""CONTRACT §8: the new-game form, rename, the API, import and restore all apply
the one name rule, and refuse the same bad name with the same code."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import new_game
from flask import Flask
from flask.testing import FlaskClient
from test_export_records import upload
from test_history_helpers import corpus_record, parse

from scorekeeper.store import stats

BAD_TABLES = [
    (["Ann", "Bo\x00b"], "name_forbidden_character"),
    (["Ann", "Bo\x1bb"], "name_forbidden_character"),
    (["Ann", "Bo\u202eb"], "name_forbidden_character"),
    (["Ann", "Bo\u200bb"], "name_forbidden_character"),
    (["Ann", "B" * 41], "name_too_long"),
    (["Ann Lee", "ann  lee"], "names_duplicate"),
    (["Ann", "ANN"], "names_duplicate"),
]
"""Tables every path must refuse, with the name rule's code."""


def games_stored(app: Flask) -> int:
    with app.app_context():
        return stats.count_games()


def code_on_page(response: Any) -> str:
    """The name rule's code the page shows with its error."""
    found = parse(response.data).find(data_code=True)
    assert found is not None, response.data
    return str(found.attrs["data-code"])


def record_with(names: list[str]) -> dict[str, Any]:
    record = corpus_record()
    record["players"] = names
    return record


@pytest.mark.parametrize(("names", "code"), BAD_TABLES)
def test_the_new_game_form_refuses_a_bad_table(
    app: Flask, client: FlaskClient, names: list[str], code: str
) -> None:
    data = {f"names-{i}": name for i, name in enumerate(names)}
    response = client.post("/games/new", data=data)

    assert response.status_code == 200
    assert code_on_page(response) == code
    assert games_stored(app) == 0


@pytest.mark.parametrize(("names", "code"), BAD_TABLES)
def test_renaming_refuses_a_bad_table(
    app: Flask, client: FlaskClient, names: list[str], code: str
) -> None:
    game_id = new_game(client, "Cas", "Dirk")
    data = {f"names-{i}": name for i, name in enumerate(names)}
    response = client.post(f"/games/{game_id}/rename", data=data)

    assert code_on_page(response) == code
    state = client.get(f"/api/games/{game_id}").get_json()
    assert [p["name"] for p in state["players"]] == ["Cas", "Dirk"]


@pytest.mark.parametrize(("names", "code"), BAD_TABLES)
def test_the_api_refuses_a_bad_table(
    app: Flask, client: FlaskClient, names: list[str], code: str
) -> None:
    response = client.post("/api/games", json={"players": names})

    assert response.status_code == 400
    error = response.get_json()["error"]
    assert (error["code"], error["detail"]) == ("invalid_players", code)
    assert games_stored(app) == 0


@pytest.mark.parametrize(("names", "code"), BAD_TABLES)
def test_the_api_import_refuses_a_record_with_a_bad_table(
    app: Flask, client: FlaskClient, names: list[str], code: str
) -> None:
    response = client.post("/api/games/import", json=record_with(names))

    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["detail"]) == ("invalid_players", code)
    assert games_stored(app) == 0


@pytest.mark.parametrize(("names", "code"), BAD_TABLES)
def test_the_import_page_refuses_a_record_with_a_bad_table(
    app: Flask, client: FlaskClient, names: list[str], code: str
) -> None:
    response = upload(client, json.dumps(record_with(names)).encode())

    assert response.status_code == 422
    assert code_on_page(response) == code
    assert games_stored(app) == 0


@pytest.mark.parametrize(("names", "code"), BAD_TABLES)
def test_restore_refuses_a_backup_with_a_bad_table_and_stores_nothing(
    app: Flask, client: FlaskClient, names: list[str], code: str
) -> None:
    good = corpus_record()
    backup = {"format": "qwirkle-backup/1", "exported_at": "2026-01-01T00:00:00Z",
              "games": [good, record_with(names)]}
    response = upload(client, json.dumps(backup).encode(), url="/restore")

    assert response.status_code == 422
    assert code_on_page(response) == code
    assert games_stored(app) == 0


def test_every_path_stores_a_name_as_the_rule_writes_it(client: FlaskClient) -> None:
    by_form = new_game(client, " Ann \t Lee ", "Zoe\u0308")
    by_api = client.post(
        "/api/games", json={"players": ["Ann\u00a0 Lee", "Zoe\u0308"]}
    ).get_json()["id"]
    client.post(f"/games/{by_form}/rename",
                data={"names-0": "  Ann   Lee ", "names-1": "Bo  Smith"})

    names = [
        [p["name"] for p in client.get(f"/api/games/{game}").get_json()["players"]]
        for game in (by_form, by_api)
    ]
    assert names == [["Ann Lee", "Bo Smith"], ["Ann Lee", "Zoë"]]
    players = parse(client.get("/players").data).find_all("tr", data_player=True)
    assert sorted(row.attrs["data-player"] for row in players) == [
        "annlee", "bosmith", "zoë"]
