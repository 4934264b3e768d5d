"""Insights over the API (CONTRACT §11): hints, stored analysis, Cubes' best move."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import Table, TableGame
from corpus import game_files, load
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import engine
from scorekeeper.store import games as stored

FIVE_REDS = [(0, c, "red", s) for c, s in enumerate(
    ["circle", "square", "diamond", "starburst", "clover"])]


def stored_columns(database: Path, game_id: int) -> list[tuple[Any, ...]]:
    """The analysis columns of the game's moves, in order."""
    with sqlite3.connect(database) as db:
        return db.execute(
            "SELECT seq, type, best_same_tiles, best_tiles FROM moves"
            " WHERE game_id = ? ORDER BY seq", [game_id]).fetchall()


def seat_sums(database: Path, game_id: int) -> list[tuple[int, int]]:
    with sqlite3.connect(database) as db:
        return db.execute(
            "SELECT eff_scored, eff_available FROM game_players WHERE game_id = ?"
            " ORDER BY seat", [game_id]).fetchall()


def imported(table: Table, name: str) -> TableGame:
    record = load(name)
    return table.import_record(record)


# --- hints ---


def test_hints_of_a_line_of_five_name_the_threat_and_its_completing_tiles(
    table: Table, client: FlaskClient,
) -> None:
    game = table.new()
    game.place(*FIVE_REDS)

    response = client.get(f"{game.url}/hints")

    assert response.status_code == 200
    body = response.get_json()
    assert body["threats"] == [{
        "cells": [[0, c] for c in range(5)],
        "completing": [
            {"row": 0, "col": -1, "color": "red", "shape": "crisscross", "unseen": 3},
            {"row": 0, "col": 5, "color": "red", "shape": "crisscross", "unseen": 3},
        ],
    }]
    assert body["dead_cells"] == []
    assert body["turn"] == 1
    assert body["hot_cells"][0]["points"] == 12  # 6 for the line + 6 for a Qwirkle


def test_hints_of_an_empty_board_are_empty(table: Table, client: FlaskClient) -> None:
    game = table.new()
    body = client.get(f"{game.url}/hints").get_json()
    assert body["threats"] == [] and body["dead_cells"] == []


def test_hints_of_a_recorded_game_are_the_engines_for_its_board(
    table: Table, client: FlaskClient,
) -> None:
    path = game_files("classic")[0]
    record = load(path)
    game = table.import_record(record)
    replayed, _names = engine.from_record(record)

    body = client.get(f"{game.url}/hints").get_json()

    expected = engine.hints(replayed.board).to_dict()
    assert body["threats"] == expected["threats"]
    assert body["dead_cells"] == expected["dead_cells"]
    assert body["dead_cells"], "a whole classic game leaves dead cells"


@pytest.mark.parametrize("what", ["hints", "analysis"])
def test_insights_of_an_unknown_game_answer_404_in_the_contract_shape(
    client: FlaskClient, what: str,
) -> None:
    response = client.get(f"/api/games/987654/{what}")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"]


# --- analysis ---


def test_the_analysis_lists_every_placing_move_with_best_at_least_its_score(
    table: Table, client: FlaskClient,
) -> None:
    path = game_files("classic")[0]
    record = load(path)
    game = table.import_record(record)

    body = client.get(f"{game.url}/analysis").get_json()

    placing = [n for n, m in enumerate(record["moves"], 1) if m["type"] == "place"]
    assert [m["number"] for m in body["moves"]] == placing
    for move, number in zip(body["moves"], placing, strict=True):
        assert move["player"] == record["moves"][number - 1]["player"]
        assert move["score"] == record["moves"][number - 1]["score"]
        assert move["best_same_tiles"] >= move["score"]
        assert move["best"] and set(move["best"][0]) == {"row", "col", "color",
                                                         "shape"}
    assert any(m["best_same_tiles"] > m["score"] for m in body["moves"])
    replayed, _ = engine.from_record(record)
    assert body["moves"] == engine.analyse_game(replayed).to_dict()["moves"]
    seats = body["efficiency"]
    assert [s["player"] for s in seats] == list(range(len(record["players"])))
    for seat in seats:
        assert 0 < seat["efficiency"] <= 1
        assert seat["scored"] == sum(m["score"] for m in body["moves"]
                                     if m["player"] == seat["player"])


def test_a_running_games_moves_are_analysed_when_first_asked_and_kept(
    table: Table, client: FlaskClient, database: Path,
) -> None:
    game = table.new()
    game.place((0, 0, "red", "circle"))
    game.trade(2)
    before = stored_columns(database, game.id)

    client.get(f"{game.url}/analysis")

    assert [row[2] for row in before] == [None, None]
    rows = stored_columns(database, game.id)
    assert rows[0][:3] == (0, "place", 1)
    assert rows[1][1:3] == ("trade", None)
    assert seat_sums(database, game.id) == [(1, 1), (0, 0)]


def test_a_game_is_analysed_as_its_last_move_ends_it(
    table: Table, database: Path,
) -> None:
    record = load(game_files("classic")[0])
    last = record["moves"][-1]
    assert last["type"] == "place" and record["final"] is not None
    record["moves"], record["final"] = record["moves"][:-1], None
    game = table.import_record(record)
    with sqlite3.connect(database) as db:
        db.execute("UPDATE moves SET best_same_tiles = NULL, best_tiles = NULL")
        db.execute("UPDATE game_players SET eff_scored = 0, eff_available = 0")

    game.place(*[(t["row"], t["col"], t["color"], t["shape"]) for t in last["tiles"]])

    assert game.state()["status"] == "finished"
    assert all(row[2] is not None for row in stored_columns(database, game.id)
               if row[1] == "place")
    assert all(available > 0 for _, available in seat_sums(database, game.id))


def test_a_move_that_missed_points_stores_the_better_placement(
    table: Table, client: FlaskClient, database: Path,
) -> None:
    game = table.new()
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    # Bob puts a red diamond above Ann's circle (2) where the row end pays 3.
    game.place((-1, 0, "red", "diamond"))

    body = client.get(f"{game.url}/analysis").get_json()

    second = body["moves"][1]
    assert (second["score"], second["best_same_tiles"]) == (2, 3)
    assert second["best"] in (
        [{"row": 0, "col": 2, "color": "red", "shape": "diamond"}],
        [{"row": 0, "col": -1, "color": "red", "shape": "diamond"}],
    )
    assert stored_columns(database, game.id)[1][3] is not None
    assert body["efficiency"][1] == {"player": 1, "scored": 2, "available": 3,
                                     "efficiency": pytest.approx(2 / 3)}
    assert seat_sums(database, game.id) == [(2, 2), (2, 3)]


def test_an_undo_takes_the_moves_analysis_away_and_the_next_move_gets_its_own(
    table: Table, client: FlaskClient, database: Path,
) -> None:
    game = table.new()
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    game.place((-1, 0, "red", "diamond"))
    before = client.get(f"{game.url}/analysis").get_json()

    game.undo()
    after_undo = client.get(f"{game.url}/analysis").get_json()
    game.place((0, 2, "red", "diamond"))
    after_redo = client.get(f"{game.url}/analysis").get_json()

    assert len(before["moves"]) == 2 and before["moves"][1]["score"] == 2
    assert len(after_undo["moves"]) == 1
    assert seat_sums(database, game.id)[1] == (3, 3)
    assert after_redo["moves"][1]["score"] == 3
    assert after_redo["moves"][1]["best_same_tiles"] == 3
    assert after_redo["efficiency"][1]["efficiency"] == 1


def test_a_correction_changes_the_stored_analysis(
    app: Flask, table: Table, client: FlaskClient, database: Path,
) -> None:
    game = table.new()
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    game.place((-1, 0, "red", "diamond"))
    game.place((1, 0, "red", "starburst"))
    first = client.get(f"{game.url}/analysis").get_json()

    moves = game.state()["moves"]
    moves[1]["tiles"] = [{"row": 0, "col": 2, "color": "red", "shape": "diamond"}]
    for move in moves:
        move.pop("score", None)
        move.pop("player", None)
    with app.test_request_context():
        stored.replace_moves(game.id, moves)
    second = client.get(f"{game.url}/analysis").get_json()

    assert first["moves"][1]["score"] == 2 and second["moves"][1]["score"] == 3
    assert second["moves"][1]["best_same_tiles"] == 3
    assert first["moves"][0] == second["moves"][0]
    assert [row[2] for row in stored_columns(database, game.id)] == [
        m["best_same_tiles"] for m in second["moves"]
    ]
    assert seat_sums(database, game.id)[1] == (3, 3)


def test_a_game_without_stored_analysis_is_analysed_once_and_kept(
    table: Table, client: FlaskClient, database: Path,
) -> None:
    game = imported(table, game_files("classic")[1].name)
    expected = client.get(f"{game.url}/analysis").get_json()
    with sqlite3.connect(database) as db:
        db.execute("UPDATE moves SET best_same_tiles = NULL, best_tiles = NULL")
        db.execute("UPDATE game_players SET eff_scored = 0, eff_available = 0")

    again = client.get(f"{game.url}/analysis").get_json()

    assert again == expected
    assert all(row[2] is not None for row in stored_columns(database, game.id)
               if row[1] == "place")
    sums = seat_sums(database, game.id)
    assert [s for s, _ in sums] == [e["scored"] for e in expected["efficiency"]]
    assert [a for _, a in sums] == [e["available"] for e in expected["efficiency"]]


def test_a_damaged_stored_analysis_is_worked_out_again(
    table: Table, client: FlaskClient, database: Path,
) -> None:
    game = table.new()
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    game.place((-1, 0, "red", "diamond"))
    expected = client.get(f"{game.url}/analysis").get_json()
    with sqlite3.connect(database) as db:
        db.execute("UPDATE moves SET best_tiles = '{\"not\": \"a list\"}'"
                   " WHERE seq = 1")

    assert client.get(f"{game.url}/analysis").get_json() == expected


# --- Qwirkle Cubes: the best move of an open hand ---


def cubes_game(table: Table) -> TableGame:
    return table.new(variant={"colors": 6, "copies": 15, "hand_size": 6,
                              "system": "cubes"})


def test_cubes_best_move_answers_the_best_placement_of_the_hand(
    table: Table, client: FlaskClient,
) -> None:
    game = cubes_game(table)
    assert game.created["variant"]["system"] == "cubes"
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    hand = [{"color": "red", "shape": "diamond"}, {"color": "blue", "shape": "star"}]

    bad = client.post(f"{game.url}/best-move", json={"hand": hand})
    good = client.post(f"{game.url}/best-move", json={"hand": [
        {"color": "red", "shape": "diamond"}, {"color": "blue", "shape": "clover"}]})

    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "unknown_tile"
    assert good.status_code == 200
    body = good.get_json()
    assert body["points"] == 3
    assert [(t["color"], t["shape"]) for t in body["tiles"]] == [("red", "diamond")]


def test_a_classic_game_keeps_hands_secret(table: Table, client: FlaskClient) -> None:
    game = table.new()
    response = client.post(f"{game.url}/best-move",
                           json={"hand": [{"color": "red", "shape": "circle"}]})
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "hands_not_open"


@pytest.mark.parametrize("body", [
    None, [], {"hand": "red circle"}, {"hand": []}, {"hand": [1]},
    {"hand": [{"color": 1, "shape": "circle"}]}, {"hand": [{}] * 100},
])
def test_a_malformed_hand_answers_400(
    table: Table, client: FlaskClient, body: Any,
) -> None:
    game = table.new()
    response = client.post(f"{game.url}/best-move", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "bad_request"
