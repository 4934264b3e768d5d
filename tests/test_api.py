"""The JSON API, row by row of CONTRACT §4, with every error answer."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Table, TableGame, tiles_json
from flask.testing import FlaskClient

RED_PAIR = ((0, 0, "red", "circle"), (0, 1, "red", "square"))


def error_of(response: Any) -> dict[str, Any]:
    """Return the CONTRACT error object of a response, checking its shape."""
    body = response.get_json()
    assert set(body) >= {"error"}, body
    assert isinstance(body["error"]["code"], str)
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


# --- POST /api/games ---


def test_creating_a_game_answers_201_with_the_state_and_an_edit_token(
    client: FlaskClient,
) -> None:
    response = client.post("/api/games", json={"players": ["Ann", "Bob"]})

    assert response.status_code == 201
    state = response.get_json()
    assert isinstance(state["edit_token"], str) and len(state["edit_token"]) >= 16
    assert state["status"] == "active"
    assert state["players"] == [
        {"name": "Ann", "score": 0, "hand": 6, "qwirkles": 0, "excluded": False,
         "left": False},
        {"name": "Bob", "score": 0, "hand": 6, "qwirkles": 0, "excluded": False,
         "left": False},
    ]
    assert state["options"] == {"move_seconds": None, "on_illegal": "retry",
                                "on_timeout": "none", "penalty_points": 5}
    assert state["current_player"] == 0
    assert state["turn"] == 0
    assert state["bag"] == 108 - 12
    assert state["board"] == [] and state["moves"] == []
    assert state["final"] is None
    assert state["variant"]["name"] == "classic"
    assert len(state["unseen"]) == 36
    assert all(kind["count"] == 3 for kind in state["unseen"])


def test_a_generalised_set_with_eight_players_and_a_chosen_starter(
    client: FlaskClient,
) -> None:
    names = [f"P{i}" for i in range(8)]
    response = client.post("/api/games", json={
        "players": names,
        "variant": {"colors": 8, "copies": 2, "hand_size": 5},
        "first_player": 5,
    })

    assert response.status_code == 201
    state = response.get_json()
    assert state["current_player"] == 5
    assert state["variant"] == {
        "name": "generalised", "colors": 8, "shapes": 8, "copies": 2, "hand_size": 5,
    }
    assert state["bag"] == 8 * 8 * 2 - 8 * 5


def test_player_names_are_trimmed(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"players": ["  Ann  ", "Bob\t Smith"]})

    assert response.status_code == 201
    assert [p["name"] for p in response.get_json()["players"]] == ["Ann", "Bob Smith"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "invalid_players"),
        ({"players": "Ann, Bob"}, "invalid_players"),
        ({"players": ["Ann"]}, "invalid_players"),
        ({"players": ["A", "B", "C", "D", "E"]}, "invalid_players"),
        ({"players": [f"P{i}" for i in range(9)], "variant": {"colors": 5}},
         "invalid_players"),
        ({"players": ["Ann", ""]}, "invalid_players"),
        ({"players": ["Ann", "   "]}, "invalid_players"),
        ({"players": ["Ann", "ann "]}, "invalid_players"),
        ({"players": ["Ann", "B" * 41]}, "invalid_players"),
        ({"players": ["Ann", 7]}, "invalid_players"),
        ({"players": ["Ann", "Bo\x00b"]}, "invalid_players"),
        ({"players": ["Ann", "Bob"], "variant": {"colors": 2}}, "invalid_variant"),
        ({"players": ["Ann", "Bob"], "variant": {"colors": 9}}, "invalid_variant"),
        ({"players": ["Ann", "Bob"], "variant": {"copies": 0}}, "invalid_variant"),
        ({"players": ["Ann", "Bob"], "variant": {"copies": 10}}, "invalid_variant"),
        ({"players": ["Ann", "Bob"], "variant": {"hand_size": 0}}, "invalid_variant"),
        ({"players": ["Ann", "Bob"], "variant": {"hand_size": 13}}, "invalid_variant"),
        ({"players": ["Ann", "Bob"], "variant": {"colors": "6"}}, "invalid_variant"),
        ({"players": ["Ann", "Bob"], "variant": {"colors": 6.0}}, "invalid_variant"),
        ({"players": ["Ann", "Bob"], "variant": "classic"}, "invalid_variant"),
        ({"players": ["Ann", "Bob"], "first_player": 2}, "bad_request"),
        ({"players": ["Ann", "Bob"], "first_player": -1}, "bad_request"),
        ({"players": ["Ann", "Bob"], "first_player": True}, "bad_request"),
        ({"players": ["Ann", "Bob"], "first_player": "0"}, "bad_request"),
    ],
)
def test_a_bad_new_game_answers_400(
    client: FlaskClient, body: dict[str, Any], code: str
) -> None:
    response = client.post("/api/games", json=body)

    assert response.status_code == 400
    assert error_of(response)["code"] == code
    assert client.get("/api/games").get_json()["total"] == 0


@pytest.mark.parametrize(
    "data",
    [b"", b"not json", b"[1, 2]", b'"Ann"', b"null", b"{",
     '{"players": ["\xe9"'.encode("latin-1")],
)
def test_a_body_that_is_not_a_json_object_answers_400(
    client: FlaskClient, data: bytes
) -> None:
    response = client.post("/api/games", data=data, content_type="application/json")

    assert response.status_code == 400
    assert error_of(response)["code"] == "bad_request"


# --- GET /api/games/<id> ---


def test_getting_a_game_shows_the_same_state_as_its_creation(table: Table) -> None:
    game = table.new(["Ann", "Bob", "Cas"])

    state = game.state()

    assert state["id"] == game.id
    assert "edit_token" not in state
    assert {k: v for k, v in game.created.items() if k != "edit_token"} == state


@pytest.mark.parametrize(
    "url", ["/api/games/999", "/api/games/0", "/api/games/99999999999999999999999",
            "/api/games/abc", "/api/games/-1", "/api/nothing-here"],
)
def test_an_unknown_game_answers_404(client: FlaskClient, url: str) -> None:
    response = client.get(url)

    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"


def test_a_wrong_method_answers_405_in_json(client: FlaskClient) -> None:
    response = client.put("/api/games")

    assert response.status_code == 405
    assert error_of(response)["code"] == "method_not_allowed"


# --- POST /api/games/<id>/moves ---


def test_a_placing_move_is_scored_and_stored(table: Table) -> None:
    game = table.new()

    answer = game.place(*RED_PAIR)

    assert answer["score"] == 2
    state = answer["game"]
    assert state["turn"] == 1
    assert state["current_player"] == 1
    assert state["players"][0]["score"] == 2
    assert state["board"] == tiles_json(RED_PAIR)
    assert state["moves"] == [
        {"player": 0, "type": "place", "tiles": tiles_json(RED_PAIR), "score": 2}
    ]
    assert state["last_move"]["breakdown"]["points"] == 2
    assert state["last_move"]["breakdown"]["lines"][0]["kind"] == "color"
    assert game.state() == state


def test_a_trade_scores_zero_and_keeps_the_bag(table: Table) -> None:
    game = table.new(variant={"colors": 3, "copies": 1, "hand_size": 2})
    game.place((0, 0, "red", "circle"))  # bag: 9 - 2 * 2 - 1 = 4

    answer = game.trade(1)

    assert answer["score"] == 0
    assert answer["game"]["moves"][-1] == {
        "player": 1, "type": "trade", "count": 1, "score": 0
    }
    assert answer["game"]["bag"] == 4


def test_a_pass_once_the_bag_is_empty_scores_zero(table: Table) -> None:
    game = table.new(["A", "B", "C"], variant={"colors": 3, "copies": 1,
                                              "hand_size": 3})
    game.place((0, 0, "red", "circle"))  # 9 tiles, all in hands: the bag is empty

    answer = game.pass_turn()

    assert answer["score"] == 0
    assert answer["game"]["moves"][-1] == {"player": 1, "type": "pass", "score": 0}
    assert answer["game"]["players"][0]["hand"] == 2


def test_the_turn_field_guards_against_a_stale_client(table: Table) -> None:
    game = table.new()
    game.place(*RED_PAIR, turn=0)

    answer = game.place((1, 0, "blue", "circle"), turn=0, status=409)

    assert answer["error"]["code"] == "turn_conflict"
    assert answer["game"]["turn"] == 1
    assert answer["game"]["moves"][0]["score"] == 2
    assert game.state()["turn"] == 1


def test_a_move_with_the_current_turn_is_accepted(table: Table) -> None:
    game = table.new()
    game.place(*RED_PAIR, turn=0)

    answer = game.place((1, 0, "blue", "circle"), turn=1)

    assert answer["score"] == 2
    assert answer["game"]["turn"] == 2


@pytest.mark.parametrize(
    ("headers", "code"),
    [({}, "missing_edit_token"), ({"X-Edit-Token": "wrong"}, "bad_edit_token"),
     ({"X-Edit-Token": ""}, "bad_edit_token")],
)
def test_a_write_without_the_right_edit_token_answers_403(
    client: FlaskClient, table: Table, headers: dict[str, str], code: str
) -> None:
    game = table.new()
    other = client.application.test_client()  # no session: like another device

    response = other.post(f"{game.url}/moves", json={"type": "place", "tiles":
                          tiles_json(RED_PAIR)}, headers=headers)
    undo = other.delete(f"{game.url}/moves/last", headers=headers)

    assert response.status_code == 403
    assert error_of(response)["code"] == code
    assert undo.status_code == 403
    assert game.state()["turn"] == 0


def test_the_token_of_another_game_is_refused(table: Table) -> None:
    first, second = table.new(), table.new(["Cas", "Dee"])
    other = first.client.application.test_client()

    response = other.post(f"{second.url}/moves", headers=first.headers,
                          json={"type": "place", "tiles": tiles_json(RED_PAIR)})

    assert response.status_code == 403


def test_the_creating_session_may_write_without_the_header(client: FlaskClient) -> None:
    state = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()

    response = client.post(f"/api/games/{state['id']}/moves",
                           json={"type": "place", "tiles": tiles_json(RED_PAIR)})

    assert response.status_code == 201


def test_a_move_for_an_unknown_game_answers_404(client: FlaskClient) -> None:
    response = client.post("/api/games/42/moves", json={"type": "pass"},
                           headers={"X-Edit-Token": "x"})

    assert response.status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"type": "jump"},
        {"type": None},
        {"type": "place"},
        {"type": "place", "tiles": "red circle"},
        {"type": "place", "tiles": [["0", "0", "red", "circle"]]},
        {"type": "place", "tiles": [{"row": 0, "col": 0, "color": "red"}]},
        {"type": "place", "tiles": [{"row": "0", "col": 0, "color": "red",
                                     "shape": "circle"}]},
        {"type": "place", "tiles": [{"row": 0.5, "col": 0, "color": "red",
                                     "shape": "circle"}]},
        {"type": "place", "tiles": [{"row": True, "col": 0, "color": "red",
                                     "shape": "circle"}]},
        {"type": "place", "tiles": [{"row": 0, "col": 0, "color": 1,
                                     "shape": "circle"}]},
        {"type": "place", "tiles": [{"row": 10**30, "col": 0, "color": "red",
                                     "shape": "circle"}]},
        {"type": "place", "tiles": [{"row": i, "col": 0, "color": "red",
                                     "shape": "circle"} for i in range(100)]},
        {"type": "trade"},
        {"type": "trade", "count": "2"},
        {"type": "trade", "count": 0},
        {"type": "trade", "count": -1},
        {"type": "trade", "count": 2.0},
        {"type": "pass", "turn": "0"},
        {"type": "pass", "turn": -1},
        {"type": "pass", "turn": True},
    ],
)
def test_a_malformed_move_answers_400_and_stores_nothing(
    table: Table, body: dict[str, Any]
) -> None:
    game = table.new()

    answer = game.move(body, status=400)

    assert answer["error"]["code"] == "bad_request"
    assert game.state()["turn"] == 0


@pytest.mark.parametrize(
    ("moves", "body", "code"),
    [
        ([], {"type": "place", "tiles": []}, "empty_move"),
        ([], {"type": "trade", "count": 1}, "first_move_trade"),
        ([], {"type": "pass"}, "pass_not_allowed"),
        ([], {"type": "place", "tiles": tiles_json([(0, 0, "red", "circle"),
                                                    (0, 0, "red", "square")])},
         "same_cell_twice"),
        ([], {"type": "place", "tiles": tiles_json([(0, 0, "red", "circle"),
                                                    (0, 1, "blue", "square")])},
         "mixed_line"),
        ([], {"type": "place", "tiles": tiles_json([(0, 0, "red", "circle"),
                                                    (1, 1, "red", "square")])},
         "not_in_line"),
        ([], {"type": "place", "tiles": tiles_json([(0, 0, "red", "circle"),
                                                    (0, 2, "red", "square")])},
         "gap"),
        ([], {"type": "place", "tiles": tiles_json([(0, 0, "pink", "circle")])},
         "unknown_tile"),
        ([], {"type": "place", "tiles": tiles_json([(0, i, "red", "circle")
                                                    for i in range(7)])},
         "too_many_tiles"),
        ([RED_PAIR], {"type": "place", "tiles": tiles_json([(5, 5, "red",
                                                            "diamond")])},
         "not_connected"),
        ([RED_PAIR], {"type": "place", "tiles": tiles_json([(0, 0, "red",
                                                            "diamond")])},
         "occupied"),
        ([RED_PAIR], {"type": "place", "tiles": tiles_json([(0, 2, "red",
                                                            "circle")])},
         "duplicate_in_line"),
        ([RED_PAIR], {"type": "trade", "count": 7}, "too_many_tiles"),
        ([RED_PAIR], {"type": "pass"}, "pass_not_allowed"),
    ],
)
def test_an_illegal_move_answers_422_with_its_code_and_stores_nothing(
    table: Table, moves: list[Any], body: dict[str, Any], code: str
) -> None:
    game = table.new()
    for tiles in moves:
        game.place(*tiles)
    before = game.state()

    answer = game.move(body, status=422)

    assert answer["error"]["code"] == code
    assert len(answer["error"]["message"]) > 10
    assert isinstance(answer["error"]["cells"], list)
    assert game.state() == before


def test_an_illegal_move_gives_its_cells_and_names_its_tile(table: Table) -> None:
    game = table.new()
    game.place(*RED_PAIR)

    answer = game.place((0, 0, "red", "diamond"), status=422)

    # The page marks the cells; the sentence names the tile.
    assert [0, 0] in answer["error"]["cells"]
    assert answer["error"]["message"] == "This cell already holds a tile: red circle."


def test_trading_more_than_the_bag_holds_answers_422(table: Table) -> None:
    game = table.new(variant={"colors": 3, "copies": 1, "hand_size": 3})
    game.place((0, 0, "red", "circle"))  # bag: 9 - 2 * 3 - 1 = 2

    answer = game.trade(3, status=422)

    assert answer["error"]["code"] == "trade_exceeds_bag"
    assert game.trade(2)["game"]["bag"] == 2


def test_tile_exhausted_when_every_copy_is_on_the_board(table: Table) -> None:
    game = table.new(variant={"colors": 3, "copies": 1, "hand_size": 3})
    game.place((0, 0, "red", "circle"), (0, 1, "red", "diamond"))

    answer = game.place((1, 1, "red", "circle"), status=422)

    assert answer["error"]["code"] == "tile_exhausted"


# --- DELETE /api/games/<id>/moves/last ---


def test_undo_takes_back_the_last_move(table: Table) -> None:
    game = table.new()
    game.place(*RED_PAIR)
    game.place((1, 0, "blue", "circle"))

    state = game.undo()

    assert state["turn"] == 1
    assert state["current_player"] == 1
    assert state["players"][1]["score"] == 0
    assert game.state() == state


def test_undo_without_moves_answers_409(table: Table) -> None:
    game = table.new()

    answer = game.undo(status=409)

    assert answer["error"]["code"] == "nothing_to_undo"


def test_undo_with_a_stale_turn_answers_409(table: Table) -> None:
    game = table.new()
    game.place(*RED_PAIR)

    response = game.client.delete(f"{game.url}/moves/last?turn=0", headers=game.headers)

    assert response.status_code == 409
    assert response.get_json()["game"]["turn"] == 1
    assert game.state()["turn"] == 1
    assert game.client.delete(f"{game.url}/moves/last?turn=x",
                              headers=game.headers).status_code == 400
    assert game.client.delete(f"{game.url}/moves/last?turn=1",
                              headers=game.headers).status_code == 200


def test_undo_on_an_unknown_game_answers_404(client: FlaskClient) -> None:
    assert client.delete("/api/games/7/moves/last").status_code == 404


# --- scoresheet, preview, legal, list, delete ---


def test_the_scoresheet_csv_has_rounds_in_seat_order_and_a_total(table: Table) -> None:
    game = table.new(["Ann", "Bob", "=Cas"], first_player=1)
    game.place(*RED_PAIR)                                  # Bob: 2
    game.place((1, 0, "blue", "circle"))                   # Cas: 2
    game.place((-1, 0, "green", "circle"))                 # Ann: 3
    game.place((2, 0, "yellow", "circle"))                 # Bob: 4

    response = game.client.get(f"{game.url}/scoresheet.csv")

    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    text = response.data.decode("utf-8")
    assert text.startswith("\ufeff")
    assert text[1:].splitlines() == [
        "Round,Ann,Bob,'=Cas",
        "1,3,2,2",
        "2,,4,",
        "Total,3,6,2",
    ]


def test_preview_scores_a_move_without_storing_it(
    table: Table, client: FlaskClient
) -> None:
    game = table.new()
    game.place(*RED_PAIR)
    other = client.application.test_client()  # read-only: no token needed

    response = other.post(f"{game.url}/preview", json={
        "tiles": tiles_json([(1, 0, "red", "diamond"), (1, 1, "red", "circle")])
    })

    assert response.status_code == 200
    body = response.get_json()
    assert body["ok"] is True
    assert body["score"] == 6
    assert body["ends_game"] is False and body["end_bonus"] == 0
    assert sorted(line["points"] for line in body["breakdown"]["lines"]) == [2, 2, 2]
    assert game.state()["turn"] == 1


def test_preview_of_an_illegal_move_answers_422(table: Table) -> None:
    game = table.new()
    game.place(*RED_PAIR)

    response = game.client.post(f"{game.url}/preview", json={
        "type": "place", "tiles": tiles_json([(0, 2, "red", "circle")])})

    assert response.status_code == 422
    assert error_of(response)["code"] == "duplicate_in_line"
    bad = game.client.post(f"{game.url}/preview", json={"type": "trade", "count": 1})
    assert bad.status_code == 400


def test_legal_cells_on_an_empty_board_are_the_origin_for_every_kind(
    table: Table,
) -> None:
    game = table.new()

    body = game.client.get(f"{game.url}/legal").get_json()

    assert len(body["kinds"]) == 36
    assert all(cells == [[0, 0]] for cells in body["kinds"].values())
    assert len(body["cells"]["0,0"]) == 36


def test_legal_cells_follow_the_board(table: Table) -> None:
    game = table.new()
    game.place(*RED_PAIR)

    body = game.client.get(f"{game.url}/legal").get_json()

    assert [0, 2] in body["kinds"]["red diamond"]
    assert "red circle" not in body["cells"].get("0,2", [])
    assert "blue circle" in body["cells"]["1,0"]


def test_listing_and_deleting_games(table: Table, client: FlaskClient) -> None:
    first, second = table.new(), table.new(["Cas", "Dee"])
    first.place(*RED_PAIR)

    listed = client.get("/api/games").get_json()

    assert listed["total"] == 2
    assert [g["id"] for g in listed["games"]] == [first.id, second.id]
    assert listed["games"][0]["scores"] == [2, 0]
    assert "edit_token" not in listed["games"][0]
    assert client.get("/api/games?status=done").status_code == 400
    assert client.get("/api/games?limit=0").status_code == 400
    other = client.application.test_client()
    assert other.delete(second.url).status_code == 403
    assert client.delete(second.url, headers=second.headers).status_code == 200
    assert client.get(second.url).status_code == 404
    assert client.get("/api/games?status=active").get_json()["total"] == 1


# --- size, headers ---


def test_an_oversized_body_answers_413_in_json(client: FlaskClient) -> None:
    big = b'{"players": ["' + b"x" * (3 * 1024 * 1024) + b'"]}'

    response = client.post("/api/games", data=big, content_type="application/json")

    assert response.status_code == 413
    assert error_of(response)["code"] == "request_entity_too_large"


def test_answers_carry_the_security_headers(client: FlaskClient) -> None:
    response = client.get("/api/games")

    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_a_game_handle_from_the_table_helper(table: Table) -> None:
    game = table.new()
    assert isinstance(game, TableGame)
    assert game.headers == {"X-Edit-Token": game.token}


def test_get_game_answers_304_while_nothing_changed_and_200_after_a_change(
    client: FlaskClient, table: Table
) -> None:
    game = table.new(["Ann", "Bob"])
    first = client.get(game.url)
    etag = first.headers["ETag"]

    unchanged = client.get(game.url, headers={"If-None-Match": etag})
    game.place((0, 0, "red", "circle"))
    moved = client.get(game.url, headers={"If-None-Match": etag})

    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    assert unchanged.status_code == 304 and unchanged.data == b""
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    assert moved.get_json()["turn"] == 1


def test_renaming_a_player_changes_the_etag(client: FlaskClient, table: Table) -> None:
    from scorekeeper.store import games

    game = table.new(["Ann", "Bob"])
    etag = client.get(game.url).headers["ETag"]
    with client.application.app_context():
        games.rename_players(game.id, ["Ann", "Bobby"])

    renamed = client.get(game.url, headers={"If-None-Match": etag})

    assert renamed.status_code == 200
    assert [p["name"] for p in renamed.get_json()["players"]] == ["Ann", "Bobby"]
