"""Game records through the API: export, import, the corpus round trip, bad records."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import Table, corpus_files
from flask.testing import FlaskClient

CORPUS = corpus_files()


def load(path: Path) -> dict[str, Any]:
    """Read one corpus record."""
    return json.loads(path.read_text(encoding="utf-8"))


def post_import(client: FlaskClient, record: object) -> Any:
    """POST a record to the import endpoint."""
    return client.post("/api/games/import", json=record)


def test_the_corpus_is_there() -> None:
    # The round-trip tests below are parametrised over it; an empty list would
    # silently test nothing.
    assert len(CORPUS) >= 10, "tests/data/games is missing"


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_importing_a_corpus_game_then_exporting_it_gives_the_same_bytes(
    client: FlaskClient, path: Path
) -> None:
    text = path.read_text(encoding="utf-8")
    record = json.loads(text)

    response = post_import(client, record)

    assert response.status_code == 201, response.get_json()
    state = response.get_json()
    assert state["edit_token"]
    assert state["status"] == "finished"
    assert state["final"] == record["final"]
    assert [p["score"] for p in state["players"]] == record["final"]["scores"]
    assert [m["score"] for m in state["moves"] if m["type"] == "place"] == [
        m["score"] for m in record["moves"] if m["type"] == "place"
    ]
    exported = client.get(f"/api/games/{state['id']}/record")
    assert exported.status_code == 200
    assert exported.mimetype == "application/json"
    assert exported.data.decode("utf-8") == text


def test_a_new_game_exports_a_record_that_imports_to_the_same_game(
    table: Table, client: FlaskClient
) -> None:
    game = table.new(["Ann", "Zoë"], first_player=1)
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    game.place((1, 0, "blue", "circle"))
    record_text = client.get(f"{game.url}/record").data.decode("utf-8")
    record = json.loads(record_text)

    copy_ = table.import_record(record)

    assert record["players"] == ["Ann", "Zoë"]
    assert record["final"] is None
    assert record["moves"][0]["player"] == 1
    assert client.get(f"{copy_.url}/record").data.decode("utf-8") == record_text
    original, imported = game.state(), copy_.state()
    for key in ("players", "current_player", "turn", "bag", "board", "moves"):
        assert imported[key] == original[key]


def test_an_imported_record_without_scores_gets_them_computed(
    client: FlaskClient,
) -> None:
    record = load(CORPUS[0])
    for move in record["moves"]:
        move.pop("score", None)
    del record["final"]

    response = post_import(client, record)

    assert response.status_code == 201
    assert [p["score"] for p in response.get_json()["players"]] == (
        load(CORPUS[0])["final"]["scores"]
    )


def test_a_wrong_score_answers_422_score_mismatch_naming_the_move(
    client: FlaskClient,
) -> None:
    record = load(CORPUS[0])
    record["moves"][4]["score"] += 1

    response = post_import(client, record)

    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "score_mismatch"
    assert error["move_number"] == 5
    assert "Move 5" in error["message"]
    assert client.get("/api/games").get_json()["total"] == 0


def test_an_illegal_move_in_a_record_answers_422_with_its_code(
    client: FlaskClient,
) -> None:
    record = load(CORPUS[0])
    record["moves"][2]["tiles"][0] = dict(record["moves"][0]["tiles"][0])

    response = post_import(client, record)

    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "occupied"
    assert error["move_number"] == 3
    assert "Move 3" in error["message"]


def test_a_move_out_of_turn_answers_422(client: FlaskClient) -> None:
    record = load(CORPUS[0])
    record["moves"][1]["player"] = record["moves"][0]["player"]

    response = post_import(client, record)

    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "out_of_turn"


def test_a_wrong_final_result_answers_422(client: FlaskClient) -> None:
    record = load(CORPUS[0])
    record["final"]["scores"][0] += 6

    response = post_import(client, record)

    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "final_mismatch"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda r: r.update(format="qwirkle-game/2"), "bad_record"),
        (lambda r: r.pop("format"), "bad_record"),
        (lambda r: r.update(variant={"colors": 12}), "bad_record"),
        (lambda r: r.update(players=["Solo"]), "bad_record"),
        (lambda r: r.update(players="Anna, Chris"), "bad_record"),
        (lambda r: r.update(moves={}), "bad_record"),
        (lambda r: r["moves"].__setitem__(0, "place"), "bad_record"),
        (lambda r: r["moves"][0].update(type="jump"), "bad_record"),
        (lambda r: r["moves"][0].update(tiles=[[0, 0, "red", "circle"]]), "bad_record"),
        (lambda r: r["moves"][0].update(player=9), "bad_record"),
        (lambda r: r["moves"][0].update(player="0"), "bad_record"),
        (lambda r: r.update(players=["Anna", "anna"]), "invalid_players"),
        (lambda r: r.update(players=["Anna", " Chris"]), "invalid_players"),
    ],
)
def test_a_malformed_record_answers_422_and_stores_nothing(
    client: FlaskClient, change: Any, code: str
) -> None:
    record = copy.deepcopy(load(CORPUS[0]))
    change(record)

    response = post_import(client, record)

    assert response.status_code == 422, response.get_json()
    assert response.get_json()["error"]["code"] == code
    assert client.get("/api/games").get_json()["total"] == 0


@pytest.mark.parametrize("body", [b"[]", b"not json", b'"qwirkle-game/1"'])
def test_an_import_body_that_is_not_an_object_answers_400(
    client: FlaskClient, body: bytes
) -> None:
    response = client.post(
        "/api/games/import", data=body, content_type="application/json"
    )

    assert response.status_code == 400


def test_undo_reopens_an_imported_finished_game(table: Table) -> None:
    record = load(CORPUS[0])
    game = table.import_record(record)

    state = game.undo()

    assert state["status"] == "active"
    assert state["final"] is None
    assert state["turn"] == len(record["moves"]) - 1
    last = record["moves"][-1]
    redo = game.move({"type": "place", "tiles": last["tiles"]})
    assert redo["score"] == last["score"]
    assert redo["end_bonus"] == 6
    assert redo["game"]["final"] == record["final"]


def test_preview_of_the_winning_move_says_it_ends_the_game(table: Table) -> None:
    record = load(CORPUS[1])
    last = record["moves"].pop()
    record.pop("final")
    game = table.import_record(record)

    response = game.client.post(f"{game.url}/preview", json={"tiles": last["tiles"]})

    body = response.get_json()
    assert body["score"] == last["score"]
    assert body["ends_game"] is True
    assert body["end_bonus"] == 6
    assert game.state()["status"] == "active"


def test_no_move_is_accepted_after_the_end(table: Table) -> None:
    game = table.import_record(load(CORPUS[2]))

    answer = game.move({"type": "pass"}, status=422)

    assert answer["error"]["code"] == "game_over"
    legal = game.client.get(f"{game.url}/legal").get_json()
    assert legal == {"kinds": {}, "cells": {}}


def test_the_scoresheet_of_a_corpus_game_adds_up_to_its_final_scores(
    table: Table,
) -> None:
    record = load(CORPUS[2])
    game = table.import_record(record)

    text = game.client.get(f"{game.url}/scoresheet.csv").data.decode("utf-8-sig")

    rows = [line.split(",") for line in text.splitlines()]
    assert rows[0] == ["Round", *record["players"]]
    assert rows[-1] == ["Total", *map(str, record["final"]["scores"])]
    seats = len(record["players"])
    for seat in range(seats):
        column = [int(row[seat + 1]) for row in rows[1:-1] if row[seat + 1] != ""]
        assert sum(column) == record["final"]["scores"][seat]
    assert len(rows) - 2 == -(-len(record["moves"]) // seats)
