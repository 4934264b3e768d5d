"""The encoded state reuses each move's JSON, yet always equals a fresh replay.

Also Qwirkle Cubes games through the API (unseen counted per colour).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import Table, TableGame, corpus_files, make_app
from flask import Flask

from scorekeeper import engine
from scorekeeper.store import cache, games, loaded
from scorekeeper.store.cache import per_move
from scorekeeper.web.api import games as api

RED_PAIR = [{"row": 0, "col": 0, "color": "red", "shape": "circle"},
            {"row": 0, "col": 1, "color": "red", "shape": "square"}]
BLUE = [{"row": 1, "col": 0, "color": "blue", "shape": "circle"}]
GREEN = [{"row": -1, "col": 0, "color": "green", "shape": "circle"}]


def fresh_state(database: Path, game_id: int) -> dict[str, Any]:
    """Return the state of a game replayed from the file by an app of its own."""
    reference = make_app(database)
    with reference.test_request_context():
        with loaded(game_id) as row:  # this app's first read: a replay
            return api.state_json(row)


def play(game: TableGame, move: dict[str, Any]) -> dict[str, Any]:
    """Post a move body (record fields dropped) and return the answer's state."""
    body = {k: v for k, v in move.items() if k not in ("player", "score")}
    return game.move(body)["game"]


@pytest.mark.parametrize("path", corpus_files()[:3] + corpus_files()[-3:],
                         ids=lambda p: p.stem)
def test_every_answer_equals_a_fresh_replay_through_undos(
    database: Path, table: Table, path: Path
) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    game = table.new(record["players"], variant=record["variant"],
                     first_player=record["moves"][0]["player"])
    moves = record["moves"]
    for number, move in enumerate(moves, start=1):
        state = play(game, move)
        if number % 7 == 0:
            # Take two back and play them again: new Move objects, same content.
            game.undo()
            assert game.undo() == fresh_state(database, game.id)
            play(game, moves[number - 2])
            state = play(game, move)
        if number % 5 == 0 or number == len(moves):
            assert state == fresh_state(database, game.id), number
            assert game.state() == state
    assert state["final"] is not None


def test_an_undo_then_a_different_move_drops_the_undone_json(
    database: Path, table: Table
) -> None:
    game = table.new()
    game.place(*[tuple(t.values()) for t in RED_PAIR])
    game.move({"type": "place", "tiles": BLUE})
    assert game.state()["moves"][-1]["tiles"] == BLUE

    game.undo()
    state = game.move({"type": "place", "tiles": GREEN})["game"]

    assert state == fresh_state(database, game.id)
    assert state["moves"][-1]["tiles"] == GREEN
    assert GREEN[0] in state["board"] and BLUE[0] not in state["board"]


def test_writes_that_never_encode_the_state_leave_no_stale_json(
    app: Flask, database: Path, table: Table
) -> None:
    # The pages write through db without asking for the API's state in between:
    # an undo and a different move leave the move count as it was.
    game = table.new()
    game.move({"type": "place", "tiles": RED_PAIR})
    game.move({"type": "place", "tiles": BLUE})
    game.state()
    with app.test_request_context():
        games.undo_last_move(game.id)  # the undone game goes back to the cache
        games.record_move(game.id, {"type": "place", "tiles": GREEN})

    state = game.state()

    assert state == fresh_state(database, game.id)
    assert state["moves"][1]["tiles"] == GREEN


def test_a_correction_is_never_served_from_the_old_json(
    app: Flask, database: Path, table: Table
) -> None:
    game = table.new()
    game.move({"type": "place", "tiles": RED_PAIR})
    game.move({"type": "place", "tiles": BLUE})
    game.state()  # the cached game now carries its encoded moves
    with app.test_request_context():
        # The corrected game goes back to the cache, as after a page's correction.
        games.replace_moves(game.id, [{"type": "place", "tiles": RED_PAIR},
                                      {"type": "place", "tiles": GREEN}])

    state = game.state()

    assert state == fresh_state(database, game.id)
    assert state["moves"][1]["tiles"] == GREEN


def test_a_write_by_a_second_app_is_seen_despite_the_cached_json(
    database: Path, table: Table
) -> None:
    game = table.new()
    game.move({"type": "place", "tiles": RED_PAIR})
    game.state()
    other = make_app(database).test_client()
    headers = game.headers
    assert other.delete(f"{game.url}/moves/last", headers=headers).status_code == 200
    assert other.post(f"{game.url}/moves", headers=headers,
                      json={"type": "place", "tiles": GREEN}).status_code == 201

    state = game.state()

    assert state == fresh_state(database, game.id)
    assert state["moves"][0]["tiles"] == GREEN


def cached_game(app: Flask, game_id: int) -> Any:
    """The Game object app's cache holds for game_id (None when none)."""
    entry = app.extensions["scorekeeper_game_cache"]._games.get(game_id)
    return entry.game if entry is not None else None


def test_moves_another_process_added_are_read_on_top_of_the_cached_game(
    app: Flask, database: Path, table: Table
) -> None:
    # Two apps on one file are two server processes, each with its own cache.
    path = corpus_files()[0]
    record = json.loads(path.read_text(encoding="utf-8"))
    game = table.new(record["players"], first_player=record["moves"][0]["player"])
    other_app = make_app(database)
    other = other_app.test_client()
    moves = [{k: v for k, v in m.items() if k not in ("player", "score")}
             for m in record["moves"]]
    play(game, moves[0])
    assert other.get(game.url).status_code == 200
    held = cached_game(other_app, game.id)
    for move in moves[1:4]:
        play(game, move)  # written by the first process only

    state = other.get(game.url).get_json()

    assert state == fresh_state(database, game.id)
    assert state["turn"] == 4
    # Caught up from the three new moves: the same Game, not a replay.
    assert cached_game(other_app, game.id) is held
    # An undo there (revision changed) makes the other process replay afresh.
    game.undo()
    state = other.get(game.url).get_json()
    assert state == fresh_state(database, game.id) and state["turn"] == 3
    assert cached_game(other_app, game.id) is not held
    # An undo and a different move there: the same turn as the second process
    # holds, other moves; it must not take its game as merely behind.
    game.undo()
    state = game.move({"type": "trade", "count": 2})["game"]
    assert state["turn"] == 3
    fresh = other.get(game.url).get_json()
    assert fresh == fresh_state(database, game.id)
    assert fresh["moves"][-1]["type"] == "trade"


def test_a_deleted_game_is_gone_and_a_reimport_is_fresh(
    database: Path, table: Table
) -> None:
    path = corpus_files()[0]
    record = json.loads(path.read_text(encoding="utf-8"))
    game = table.import_record(record)
    assert game.state()["turn"] == len(record["moves"])
    assert game.client.delete(game.url, headers=game.headers).status_code == 200
    assert game.client.get(game.url).status_code == 404

    record["moves"] = record["moves"][:5]
    record["final"] = None
    again = table.import_record(record)

    assert again.state() == fresh_state(database, again.id)
    assert again.state()["turn"] == 5


def test_per_move_rebuilds_only_what_changed(app: Flask) -> None:
    built: list[int] = []

    def build(move: engine.Move, previous: int | None) -> int:
        built.append(move.score)
        return move.score + (previous or 0)  # a running total

    with app.test_request_context():
        game_id, _token = games.create_game(["Ann", "Bob"])
        games.record_move(game_id, {"type": "place", "tiles": RED_PAIR})
        games.record_move(game_id, {"type": "place", "tiles": BLUE})
        with loaded(game_id) as row:
            assert per_move(row, "t", build) == [2, 4]
            assert per_move(row, "t", build) == [2, 4]
            assert built == [2, 2]

            row.game.pop()
            row.game.push({"type": "place", "tiles": GREEN})
            assert per_move(row, "t", build) == [2, 4]
            assert built == [2, 2, 2]
            row.game.pop()
            assert per_move(row, "t", build) == [2]
            assert per_move(row, "other", build) == [2]


CUBES = {"system": "cubes", "colors": 6, "copies": 15, "hand_size": 6}


def test_a_cubes_game_through_the_api(database: Path, table: Table) -> None:
    game = table.new(variant=CUBES)
    created = game.created
    assert created["variant"]["system"] == "cubes"
    assert created["unseen"] == [
        {"color": color, "shape": "", "count": 15}
        for color in ("red", "orange", "yellow", "green", "blue", "purple")
    ]

    answer = game.move({"type": "place", "tiles": RED_PAIR})
    state = answer["game"]

    assert answer["score"] == 2
    assert state == fresh_state(database, game.id)
    assert state["unseen"][0] == {"color": "red", "shape": "", "count": 13}
    assert sum(kind["count"] for kind in state["unseen"]) == 88
    legal = game.client.get(f"{game.url}/legal").get_json()
    assert "red circle" in legal["kinds"] and "blue square" in legal["kinds"]
    assert game.client.get(f"{game.url}/scoresheet.csv").status_code == 200
    assert game.undo() == fresh_state(database, game.id)


def flask_writes(value: Any) -> bytes:
    """Return value as Flask's JSON provider writes it: compact, ASCII-escaped,
    in the value's own key order, one newline after."""
    return (json.dumps(value, separators=(",", ":")) + "\n").encode()


def test_every_answer_is_the_fresh_state_as_flask_writes_it(
    database: Path, table: Table
) -> None:
    # The answer is spliced from parts encoded apart, some kept from earlier
    # answers: names beyond ASCII, a thinking time, a deduction, an exclusion
    # and a leave must come out byte for byte as the state's dict, built
    # afresh in CONTRACT order, encoded whole.
    game = table.new(["Zoë", "Ōkubo", "李雷"], options={
        "move_seconds": 30, "on_illegal": "deduct", "on_timeout": "exclude",
        "penalty_points": 4})
    bodies: list[dict[str, Any]] = [
        {"type": "place", "tiles": RED_PAIR, "seconds": 12},
        {"type": "penalty", "reason": "illegal"},
        {"type": "place", "tiles": BLUE},
        {"type": "penalty", "reason": "timeout"},
        {"type": "leave", "player": 1},
    ]
    for body in bodies:
        response = game.client.post(f"{game.url}/moves", json=body,
                                    headers=game.headers)
        assert response.status_code == 201, response.get_json()
        answer = response.get_json()
        fresh = fresh_state(database, game.id)
        assert response.data == flask_writes({
            "score": answer["score"], "end_bonus": answer["end_bonus"],
            "text": fresh["last_move"]["text"], "game": fresh}), body
        assert game.client.get(game.url).data == flask_writes(fresh)
    assert answer["game"]["status"] == "finished"
    assert [p["name"] for p in answer["game"]["players"]] == ["Zoë", "Ōkubo", "李雷"]
    assert b"\\u00eb" in response.data and "Zoë".encode() not in response.data


@pytest.mark.parametrize("path", corpus_files()[:2], ids=lambda p: p.stem)
def test_a_corpus_game_answers_its_fresh_state_byte_for_byte(
    database: Path, table: Table, path: Path
) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    game = table.new(record["players"], first_player=record["moves"][0]["player"])
    reference = make_app(database)
    for move in record["moves"]:
        body = {k: v for k, v in move.items() if k not in ("player", "score")}
        response = game.client.post(f"{game.url}/moves", json=body,
                                    headers=game.headers)
        with reference.test_request_context():
            cache.forget(game.id)  # replayed afresh from the file
            with loaded(game.id) as row:
                fresh = api.state_json(row)
        assert response.data == flask_writes({
            "score": fresh["moves"][-1]["score"],
            "end_bonus": fresh["last_move"]["end_bonus"],
            "text": fresh["last_move"]["text"], "game": fresh})
    assert fresh["final"] is not None


def test_a_rename_shows_in_the_next_answer(
    app: Flask, database: Path, table: Table
) -> None:
    game = table.new(["Ann", "Bob"])
    game.move({"type": "place", "tiles": RED_PAIR})  # the cached game keeps its parts
    with app.test_request_context():
        games.rename_players(game.id, ["Ann", "Bobby"])

    answer = game.move({"type": "place", "tiles": BLUE})

    assert [p["name"] for p in answer["game"]["players"]] == ["Ann", "Bobby"]
    assert "Bobby" in answer["game"]["last_move"]["spoken"]
    assert answer["game"] == fresh_state(database, game.id)
