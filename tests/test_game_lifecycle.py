"""Ending and abandoning a game: the engine's close, the record, the
store, the API, the game page, history and the players table."""

from __future__ import annotations

import pytest
from conftest import Table, new_game, token_of
from flask.testing import FlaskClient
from test_history_helpers import parse

from scorekeeper import engine

OPENING = ((0, 0, "red", "circle"), (0, 1, "red", "square"))
REPLY = ((1, 0, "blue", "circle"), (1, 1, "blue", "square"))


def _played() -> engine.Game:
    game = engine.Game()
    game.place(OPENING)
    game.place(REPLY)
    return game


def test_an_ended_game_is_finished_as_it_stood_with_no_end_bonus() -> None:
    game = _played()
    final = game.close("ended")
    assert game.status == "finished"
    assert final.scores == tuple(game.scores) == (2, 6)
    assert final.end_bonus_player is None and final.scored
    assert final.winners == (1,)


def test_an_abandoned_game_has_no_result() -> None:
    game = _played()
    final = game.close("abandoned")
    assert game.status == "finished" and not final.scored


def test_a_closed_game_takes_no_move_until_it_is_reopened() -> None:
    game = _played()
    game.close("ended")
    with pytest.raises(engine.IllegalMove) as refused:
        game.pass_turn()
    assert refused.value.code == "game_over"
    game.reopen()
    assert game.status == "active" and game.max_trade() > 0


def test_closing_refuses_an_unknown_reason_and_a_game_already_over() -> None:
    game = _played()
    with pytest.raises(engine.BadInput):
        game.close("stalled")
    game.close("abandoned")
    with pytest.raises(engine.IllegalMove):
        game.close("ended")


@pytest.mark.parametrize("reason", ["ended", "abandoned"])
def test_a_closed_game_survives_export_and_import(reason: str) -> None:
    game = _played()
    game.close(reason)
    record = engine.to_record(game, ["Ann", "Bob"])
    assert record["final"] == {"scores": [2, 6], "end_bonus_player": None,
                               "reason": reason}
    again, _names = engine.from_record(record)
    assert again.final == game.final


def _api_game(table: Table) -> tuple[FlaskClient, int, dict[str, str]]:
    game = table.new()
    game.place(*OPENING)
    game.place(*REPLY)
    return game.client, game.id, game.headers


def test_the_api_ends_a_game_and_its_undo_reopens_it(table: Table) -> None:
    client, game_id, headers = _api_game(table)
    answer = client.post(f"/api/games/{game_id}/close", json={"reason": "ended",
                         "turn": 2}, headers=headers)
    assert answer.status_code == 200, answer.get_json()
    state = answer.get_json()
    assert state["status"] == "finished"
    assert state["final"] == {"scores": [2, 6], "end_bonus_player": None,
                              "reason": "ended"}
    assert client.get(f"/api/games/{game_id}").get_json()["final"]["reason"] == "ended"
    refused = client.post(f"/api/games/{game_id}/moves", json={"type": "pass"},
                          headers=headers)
    assert refused.status_code == 422
    assert refused.get_json()["error"]["code"] == "game_over"
    undone = client.delete(f"/api/games/{game_id}/moves/last", headers=headers)
    assert undone.status_code == 200
    assert undone.get_json()["status"] == "active"
    assert undone.get_json()["turn"] == 2  # the moves stay; only the ending goes


def test_the_api_refuses_a_bad_close_and_changes_nothing(table: Table) -> None:
    client, game_id, headers = _api_game(table)
    url = f"/api/games/{game_id}/close"
    assert client.post(url, json={"reason": "stalled"},
                       headers=headers).status_code == 400
    assert client.post(url, json=["ended"], headers=headers).status_code == 400
    stranger = client.application.test_client()  # no edit token in its session
    assert stranger.post(url, json={"reason": "ended"}).status_code == 403
    stale = client.post(url, json={"reason": "ended", "turn": 1}, headers=headers)
    assert stale.status_code == 409
    assert client.get(f"/api/games/{game_id}").get_json()["status"] == "active"
    assert client.post("/api/games/999/close", json={"reason": "ended"},
                       headers=headers).status_code in (403, 404)


def test_the_record_of_an_abandoned_game_imports_as_abandoned(table: Table) -> None:
    client, game_id, headers = _api_game(table)
    client.post(f"/api/games/{game_id}/close", json={"reason": "abandoned"},
                headers=headers)
    record = client.get(f"/api/games/{game_id}/record").get_json()
    assert record["final"]["reason"] == "abandoned"
    imported = table.import_record(record)
    assert imported.state()["final"]["reason"] == "abandoned"


def _ann_bob_game(client: FlaskClient) -> int:
    game_id = new_game(client, "Ann", "Bob")
    headers = {"X-Edit-Token": token_of(client, game_id)}
    for tiles in (OPENING, REPLY):
        client.post(f"/api/games/{game_id}/moves", headers=headers, json={
            "type": "place", "tiles": [
                {"row": r, "col": c, "color": k, "shape": s} for r, c, k, s in tiles
            ]})
    return game_id


def test_the_game_page_ends_a_game_and_reopens_it(client: FlaskClient) -> None:
    game_id = _ann_bob_game(client)
    html = parse(client.get(f"/games/{game_id}").data)
    assert html.find("details", **{"data-close-game": True})
    client.post(f"/games/{game_id}/close", data={"reason": "ended", "turn": "2"})
    html = parse(client.get(f"/games/{game_id}").data)
    final = html.find("section", **{"data-final": True})
    assert final.attrs["data-end-reason"] == "ended"
    assert "Game ended early" in final.text()
    assert "Bob" in final.find("ol").text()  # the ranking as it stood
    client.post(f"/games/{game_id}/reopen", data={"turn": "2"})
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["status"] == "active" and state["turn"] == 2


def test_a_bad_close_form_changes_nothing(client: FlaskClient) -> None:
    game_id = _ann_bob_game(client)
    client.post(f"/games/{game_id}/close", data={"reason": "exploded", "turn": "2"})
    client.post(f"/games/{game_id}/close", data={"reason": "ended", "turn": "1"})
    assert client.get(f"/api/games/{game_id}").get_json()["status"] == "active"


def test_history_marks_ended_and_abandoned_games(client: FlaskClient) -> None:
    ended = _ann_bob_game(client)
    abandoned = _ann_bob_game(client)
    running = _ann_bob_game(client)
    client.post(f"/games/{ended}/close", data={"reason": "ended", "turn": "2"})
    client.post(f"/games/{abandoned}/close", data={"reason": "abandoned", "turn": "2"})
    html = parse(client.get("/history").data)
    status = {
        int(row.attrs["data-game-id"]): row.find("td", **{"data-status": True})
        for row in html.find_all("tr") if "data-game-id" in row.attrs
    }
    assert status[ended].attrs["data-status"] == "ended"
    assert status[abandoned].attrs["data-status"] == "abandoned"
    assert status[running].attrs["data-status"] == "active"
    assert status[running].find("a", **{"data-end-link": True})


def test_the_players_table_counts_finished_games_only(client: FlaskClient) -> None:
    ended = _ann_bob_game(client)
    abandoned = _ann_bob_game(client)
    _ann_bob_game(client)  # running
    client.post(f"/games/{ended}/close", data={"reason": "ended", "turn": "2"})
    client.post(f"/games/{abandoned}/close", data={"reason": "abandoned", "turn": "2"})
    html = parse(client.get("/players").data)
    bob = html.find("tr", **{"data-player": "bob"})
    cells = [cell.text().strip() for cell in bob.find_all("td")]
    # Finished games, wins, win rate, average, best: the ended game only.
    assert cells[0] == "1" and cells[1] == "1"
    assert cells[4] == "6"


def test_an_abandoned_game_has_no_winner_anywhere(table: Table) -> None:
    client, game_id, headers = _api_game(table)
    client.post(f"/api/games/{game_id}/close", json={"reason": "abandoned"},
                headers=headers)
    assert client.get(f"/games/{game_id}/bgstats").status_code == 404
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "/bgstats" not in page and "Game abandoned" in page
    sheet = client.get(f"/games/{game_id}/scoresheet").get_data(as_text=True)
    assert "no result" in sheet and "Winner" not in sheet
