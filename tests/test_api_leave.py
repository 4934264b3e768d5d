"""A player who leaves a running game through the JSON API (CONTRACT §4, §10;
RULES §7.5): who may record it, what the state says, undo, bad input, and the
stored game, its record and its score sheet."""

from __future__ import annotations

import csv
import io

import pytest
from conftest import Table, TableGame
from flask import Flask
from flask.testing import FlaskClient
from test_club_night import event_game, new_event

from scorekeeper.store import cache

OPENING = [(0, 0, "red", "circle"), (0, 1, "red", "square")]


def opened(table: Table) -> TableGame:
    """A 3-player game after Ann's opening move (Bob to move)."""
    game = table.new(("Ann", "Bob", "Cy"))
    game.place(*OPENING)
    return game


def test_s7_5_a_player_leaves_and_the_state_says_so(table: Table) -> None:
    game = opened(table)

    answer = game.move({"type": "leave", "player": 2})

    state = answer["game"]
    assert answer["score"] == 0 and answer["text"] == "left the game"
    assert [(p["left"], p["excluded"], p["hand"]) for p in state["players"]] == [
        (False, False, 6), (False, False, 6), (True, True, 0)]
    assert state["current_player"] == 1 and state["bag"] == 108 - 2 - 12
    assert state["moves"][-1] == {"player": 2, "type": "leave", "score": 0}
    # Bob plays, and the turn skips Cy.
    assert game.place((1, 0, "blue", "circle"))["game"]["current_player"] == 0


def test_s7_5_undo_takes_a_leave_back(table: Table) -> None:
    game = opened(table)
    before = game.state()
    game.move({"type": "leave", "player": 1})

    after = game.undo()

    for key in ("players", "current_player", "bag", "turn", "moves", "final"):
        assert after[key] == before[key], key


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"type": "leave"}, 400, "bad_request"),
        ({"type": "leave", "player": 3}, 400, "bad_request"),
        ({"type": "leave", "player": "1"}, 400, "bad_request"),
        ({"type": "leave", "player": True}, 400, "bad_request"),
        ({"type": "leave", "player": 1, "seconds": 5}, 400, "bad_request"),
        ({"type": "leave", "player": 2}, 422, "not_in_play"),
    ],
)
def test_s7_5_a_bad_leave_is_refused_and_changes_nothing(
    table: Table, body: dict, status: int, code: str
) -> None:
    game = opened(table)
    game.move({"type": "leave", "player": 2})
    before = game.state()

    answer = game.move(body, status)

    assert answer["error"]["code"] == code
    assert game.state() == before


def test_s7_5_nobody_leaves_a_finished_game(table: Table) -> None:
    game = opened(table)
    game.move({"type": "leave", "player": 1})
    final = game.move({"type": "leave", "player": 2})["game"]["final"]
    assert final == {"scores": [2, 0, 0], "end_bonus_player": None,
                     "reason": "left"}

    answer = game.move({"type": "leave", "player": 0}, 422)

    assert answer["error"]["code"] == "game_over"


def test_s7_5_the_table_and_the_organiser_may_record_a_leave_nobody_else(
    app: Flask, client: FlaskClient
) -> None:
    event = new_event(client, "Friday")
    game = event_game(client, event, ["Ann", "Bob", "Cy"])
    game.place(*OPENING)
    url = f"/api/games/{game.id}/moves"
    stranger = app.test_client()

    assert stranger.post(url, json={"type": "leave", "player": 2}).status_code == 403
    assert stranger.post(url, json={"type": "leave", "player": 2}, headers={
        "X-Event-Token": event["join_token"]}).status_code == 403
    assert stranger.post(url, json={"type": "leave", "player": 2}, headers={
        "X-Event-Token": event["edit_token"]}).status_code == 201
    assert game.move({"type": "leave", "player": 1})["game"]["final"] is not None


def test_s7_5_the_stored_game_its_record_and_its_sheet_keep_the_leave(
    app: Flask, table: Table, client: FlaskClient
) -> None:
    game = opened(table)
    game.move({"type": "leave", "player": 0})       # Ann leaves in Bob's turn
    game.place((1, 0, "blue", "circle"))           # Bob
    game.place((1, 1, "blue", "square"))           # Cy
    with app.app_context():
        cache.forget(game.id)                      # read back from the moves

    state = game.state()
    record = client.get(f"{game.url}/record").get_json()
    sheet = client.get(f"{game.url}/scoresheet.csv").get_data(as_text=True)

    assert [p["left"] for p in state["players"]] == [True, False, False]
    assert state["current_player"] == 1
    assert record["moves"][1] == {"player": 0, "type": "leave"}
    again = table.import_record(record).state()
    assert again["players"] == state["players"]
    rows = list(csv.reader(io.StringIO(sheet.lstrip("\ufeff"))))
    # The leave is no turn: round 1 holds Ann's, Bob's and Cy's moves.
    assert rows == [["Round", "Ann", "Bob", "Cy"], ["1", "2", "2", "4"],
                    ["Total", "2", "2", "4"]]
