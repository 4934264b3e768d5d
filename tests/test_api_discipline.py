"""Table discipline through the JSON API (CONTRACT §10, RULES §7): options,
penalty moves, thinking time, and the records, backups and files that carry
them."""

from __future__ import annotations

import csv
import io
import json
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from conftest import Table, TableGame, as_admin, make_app
from flask.testing import FlaskClient
from test_export_backup import restore
from test_history_helpers import parse

STRICT = {"move_seconds": 30, "on_illegal": "deduct", "on_timeout": "exclude",
          "penalty_points": 4}


def tile(row: int, col: int, color: str = "red", shape: str = "circle") -> tuple:
    return (row, col, color, shape)


def strict_game(table: Table, players: tuple[str, ...] = ("Ann", "Bob", "Cy"),
                **options: Any) -> TableGame:
    return table.new(players, options={**STRICT, **options})


# --- options ---


def test_s7_a_new_game_keeps_its_options_and_says_so_in_the_state(
    table: Table,
) -> None:
    game = strict_game(table)

    assert game.created["options"] == STRICT
    assert game.state()["options"] == STRICT
    assert [p["excluded"] for p in game.state()["players"]] == [False] * 3


def test_s7_a_game_without_options_has_the_friendly_defaults(table: Table) -> None:
    for extra in ({}, {"options": None}, {"options": {}}):
        game = table.new(**extra)
        assert game.state()["options"] == {
            "move_seconds": None, "on_illegal": "retry", "on_timeout": "none",
            "penalty_points": 5,
        }


@pytest.mark.parametrize(
    "options",
    [
        [], "strict", 30, True,
        {"move_seconds": 9}, {"move_seconds": 3601}, {"move_seconds": 0},
        {"move_seconds": -30}, {"move_seconds": 30.5}, {"move_seconds": "30"},
        {"move_seconds": True}, {"move_seconds": [30]},
        {"on_illegal": "none"}, {"on_illegal": "disqualify"}, {"on_illegal": None},
        {"on_illegal": 1}, {"on_illegal": "RETRY"},
        {"on_timeout": "retry"}, {"on_timeout": ""}, {"on_timeout": {}},
        {"penalty_points": 0}, {"penalty_points": 101}, {"penalty_points": -5},
        {"penalty_points": 2.0}, {"penalty_points": None}, {"penalty_points": "5"},
        {"penalty_points": False},
        {"seconds": 30}, {"move_seconds": 30, "extra": 1},
    ],
)
def test_s7_options_outside_the_contract_are_400_and_store_nothing(
    client: FlaskClient, options: object
) -> None:
    response = client.post(
        "/api/games", json={"players": ["Ann", "Bob"], "options": options}
    )

    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == "invalid_options"
    assert error["message"]
    assert client.get("/api/games").get_json()["total"] == 0


# --- penalty moves ---


def test_s7_a_deduction_is_a_move_with_a_negative_score(table: Table) -> None:
    game = strict_game(table)
    game.place(tile(0, 0))

    answer = game.move({"type": "penalty", "reason": "illegal"})

    assert answer["score"] == -4
    assert answer["text"] == "illegal move: 4 points deducted"
    state = answer["game"]
    assert [p["score"] for p in state["players"]] == [1, -4, 0]
    assert state["current_player"] == 2
    assert state["moves"][-1] == {"player": 1, "type": "penalty", "reason": "illegal",
                                  "score": -4, "consequence": "deduct"}
    assert state["last_move"]["text"] == "illegal move: 4 points deducted"


def test_s7_an_exclusion_marks_the_player_and_skips_their_seat(table: Table) -> None:
    game = strict_game(table)
    game.place(tile(0, 0))
    bag = game.state()["bag"]

    state = game.move({"type": "penalty", "reason": "timeout"})["game"]

    assert [p["excluded"] for p in state["players"]] == [False, True, False]
    assert state["players"][1]["hand"] == 0
    assert state["bag"] == bag + 6
    assert state["current_player"] == 2
    state = game.place(tile(1, 0, "blue"))["game"]
    assert state["current_player"] == 0
    state = game.place(tile(2, 0, "green"))["game"]
    assert state["current_player"] == 2


def test_s7_the_last_player_in_play_ends_the_game_excluded(table: Table) -> None:
    game = strict_game(table, ("Ann", "Bob"))
    game.place(tile(0, 0), tile(0, 1, "red", "square"))

    state = game.move({"type": "penalty", "reason": "timeout"})["game"]

    assert state["status"] == "finished"
    assert state["final"] == {"scores": [2, 0], "end_bonus_player": None,
                              "reason": "excluded"}
    assert game.undo()["status"] == "active"
    assert [p["excluded"] for p in game.state()["players"]] == [False, False]


@pytest.mark.parametrize(
    ("options", "reason"),
    [({}, "illegal"), ({}, "timeout"),
     ({"on_illegal": "retry", "on_timeout": "exclude"}, "illegal"),
     ({"on_illegal": "deduct", "on_timeout": "none"}, "timeout")],
)
def test_s7_a_penalty_the_table_does_not_give_is_422_no_penalty(
    table: Table, options: dict[str, Any], reason: str
) -> None:
    game = table.new(options=options) if options else table.new()
    game.place(tile(0, 0))
    before = game.client.get(game.url).data

    answer = game.move({"type": "penalty", "reason": reason}, status=422)

    assert answer["error"]["code"] == "no_penalty"
    assert answer["error"]["message"]
    assert game.client.get(game.url).data == before


@pytest.mark.parametrize(
    "body",
    [
        {"type": "penalty"},
        {"type": "penalty", "reason": "late"},
        {"type": "penalty", "reason": ["illegal"]},
        {"type": "penalty", "reason": "timeout", "seconds": 5},
        {"type": "place", "tiles": [], "seconds": -1},
        {"type": "pass", "seconds": 1.5},
        {"type": "trade", "count": 1, "seconds": "12"},
        {"type": "trade", "count": 1, "seconds": True},
        {"type": "trade", "count": 1, "seconds": 86_401},
        {"type": "trade", "count": 1, "seconds": None},
    ],
)
def test_s7_malformed_penalties_and_thinking_times_are_400(
    table: Table, body: dict[str, Any]
) -> None:
    game = strict_game(table)
    game.place(tile(0, 0))

    answer = game.move(body, status=400)

    assert answer["error"]["code"] == "bad_request"
    assert game.state()["turn"] == 1


def test_s7_a_penalty_respects_the_turn_guard(table: Table) -> None:
    game = strict_game(table)
    game.place(tile(0, 0))

    answer = game.move({"type": "penalty", "reason": "illegal", "turn": 0},
                       status=409)

    assert answer["error"]["code"] == "turn_conflict"
    assert game.state()["turn"] == 1


def test_s7_moves_carry_their_thinking_time_into_state_and_record(
    table: Table,
) -> None:
    game = strict_game(table)
    game.place(tile(0, 0), seconds=17)
    game.move({"type": "trade", "count": 2, "seconds": 0})
    game.place(tile(1, 0, "blue"))

    moves = game.state()["moves"]
    record = game.client.get(f"{game.url}/record").get_json()

    assert [m.get("seconds") for m in moves] == [17, 0, None]
    assert [m.get("seconds") for m in record["moves"]] == [17, 0, None]
    assert "seconds" not in record["moves"][2]


# --- records, import, backup, restore ---


def played(table: Table) -> TableGame:
    """A strict game with a deduction, an exclusion and thinking times."""
    game = strict_game(table, ("Ann", "Bob", "Cy", "Dee"))
    game.place(tile(0, 0), tile(0, 1, "red", "square"), seconds=21)
    game.move({"type": "penalty", "reason": "illegal"})              # Bob -4
    game.move({"type": "trade", "count": 3, "seconds": 44})           # Cy
    game.move({"type": "penalty", "reason": "timeout"})               # Dee out
    game.place(tile(1, 0, "blue"), seconds=8)                         # Ann
    game.move({"type": "penalty", "reason": "timeout"})               # Bob out
    return game


def test_s7_a_record_with_options_and_penalties_imports_back_the_same(
    table: Table,
) -> None:
    game = played(table)
    record = game.client.get(f"{game.url}/record").get_json()

    assert record["options"] == STRICT
    again = table.import_record(record)

    assert game.client.get(f"{again.url}/record").get_json() == record
    state, original = again.state(), game.state()
    for key in ("players", "current_player", "bag", "moves", "status", "options"):
        assert state[key] == original[key], key


def test_s7_a_record_file_of_a_disciplined_game_is_byte_stable(
    table: Table,
) -> None:
    game = played(table)
    text = game.client.get(f"/games/{game.id}/record.json").data.decode()

    again = table.import_record(json.loads(text))

    assert game.client.get(f"/games/{again.id}/record.json").data.decode() == text


@pytest.mark.parametrize("options", [{"penalty_points": 0}, "strict", {"clock": 1}])
def test_s7_an_import_with_bad_options_is_refused(
    table: Table, options: object
) -> None:
    game = played(table)
    record = game.client.get(f"{game.url}/record").get_json()
    record["options"] = options

    response = game.client.post("/api/games/import", json=record)

    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "bad_record"


def test_s7_an_import_without_the_options_its_penalties_need_is_refused(
    table: Table,
) -> None:
    game = played(table)
    record = game.client.get(f"{game.url}/record").get_json()
    del record["options"]

    response = game.client.post("/api/games/import", json=record)

    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["move_number"]) == ("no_penalty", 2)


def test_s7_backup_and_restore_keep_options_penalties_and_thinking_times(
    table: Table, tmp_path: Path
) -> None:
    game = played(table)
    plain = table.new()
    plain.place(tile(0, 0))
    record = game.client.get(f"{game.url}/record").get_json()
    plain_record = game.client.get(f"{plain.url}/record").get_json()

    backup = game.client.get("/backup")
    assert backup.status_code == 200
    document = json.loads(backup.data)
    entries = document["games"]
    assert {k: v for k, v in entries[0].items() if k in record} == record
    assert "options" not in entries[1]
    assert {k: v for k, v in entries[1].items() if k in plain_record} == plain_record

    fresh = as_admin(make_app(tmp_path / "restored.sqlite3").test_client())
    restored = restore(fresh, backup.data)
    assert restored.status_code == 302, restored.data
    assert fresh.get("/api/games").get_json()["total"] == 2
    assert fresh.get("/api/games/1/record").get_json() == record
    assert fresh.get("/api/games/1").get_json()["players"] == game.state()["players"]


# --- files ---


def test_s7_the_csv_writes_a_penalty_as_0_or_minus_the_deduction(
    table: Table,
) -> None:
    game = played(table)

    response = game.client.get(f"{game.url}/scoresheet.csv")

    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert rows[0] == ["Round", "Ann", "Bob", "Cy", "Dee"]
    assert rows[1] == ["1", "2", "-4", "0", "0"]
    # Round 2 without Dee, who is out: Ann, Bob (out now), then Cy in round 3.
    assert rows[2] == ["2", "2", "0", "", ""]
    assert rows[-1] == ["Total", "4", "-4", "0", "0"]


def test_s7_an_excluded_leader_is_not_the_winner(table: Table) -> None:
    game = strict_game(table, ("Ann", "Bob"))
    game.place(tile(0, 0), tile(0, 1, "red", "square"), tile(0, 2, "red", "diamond"))
    state = game.move({"type": "penalty", "reason": "timeout"})["game"]   # Bob out

    assert state["final"]["scores"] == [3, 0]
    game2 = strict_game(table, ("Cas", "Dirk"))
    game2.place(tile(0, 0), tile(0, 1, "red", "square"), tile(0, 2, "red", "diamond"))
    state = game2.move({"type": "penalty", "reason": "illegal"})["game"]  # Dirk -4
    state = game2.move({"type": "penalty", "reason": "timeout"})["game"]  # Cas out

    assert state["final"] == {"scores": [3, -4], "end_bonus_player": None,
                              "reason": "excluded"}
    dirk = game2.client.get("/players/Dirk").data.decode()
    assert 'data-stat="wins">1<' in dirk
    assert 'data-stat="exclusions"' not in dirk
    cas = game2.client.get("/players/Cas").data.decode()
    assert 'data-stat="wins">0<' in cas
    assert 'data-stat="exclusions">1<' in cas
    history = game2.client.get("/history").data.decode()
    assert history.count('data-excluded') == 2



def test_s7_bg_stats_ranks_an_excluded_player_after_the_players_in_play(
    table: Table,
) -> None:
    game = strict_game(table, ("Ann", "Bob", "Cy"))
    game.place(tile(0, 0), tile(0, 1, "red", "square"), tile(0, 2, "red", "diamond"))
    game.move({"type": "penalty", "reason": "timeout"})        # Bob out
    game.place(tile(1, 0, "blue"))                             # Cy 2
    game.move({"type": "penalty", "reason": "timeout"})        # Ann out, Cy left

    page = parse(game.client.get(f"/games/{game.id}/bgstats").data)

    link = next(a.attrs["href"] for a in page.find_all("a")
                if a.attrs.get("href", "").startswith("https://app.bgstatsapp"))
    data = json.loads(urllib.parse.unquote(link.split("?data=", 1)[1]))
    players = {p["name"]: (p["rank"], p["winner"]) for p in data["players"]}
    assert players == {"Cy": (1, True), "Ann": (2, False), "Bob": (2, False)}

