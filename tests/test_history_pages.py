"""History list, replay steps, move correction, delete and rename."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import hold
from flask import Flask
from flask.testing import FlaskClient
from test_history_helpers import Node, Stored, corpus_names, corpus_record, parse

from scorekeeper import engine, text
from scorekeeper.store import backup, connection, loaded, stats


def imported(client: FlaskClient, name: str = "classic-10001.json") -> int:
    response = client.post("/api/games/import", json=corpus_record(name))
    assert response.status_code == 201
    return response.get_json()["id"]


def store_many(app: Flask, count: int, names: list[str] | None = None) -> None:
    record = corpus_record()
    start = datetime(2025, 1, 1, 20, 0, tzinfo=UTC)
    with app.test_request_context():
        backup.restore_backup(
            [
                Stored(record, names or [f"P{i}a", f"P{i}b"], start + timedelta(days=i))
                for i in range(count)
            ]
        )


def rows(page: Node) -> list[Node]:
    return page.find_all("tr", data_game_id=True)


# --- the list ---


def test_history_lists_games_newest_first_with_their_facts(
    app: Flask, client: FlaskClient
) -> None:
    store_many(app, 3)
    page = parse(client.get("/history").data)
    listed = rows(page)
    assert [r.attrs["data-game-id"] for r in listed] == ["3", "2", "1"]
    newest = listed[0].text()
    assert "Jan 3, 2025, 8:00 PM UTC" in newest
    assert "59 min" in newest  # first move at +1 min, last at +60 min
    assert "P2a" in newest and "185" in newest and "183" in newest
    # One wording of the end: the game page's, naming who emptied their hand.
    assert "finished" in newest and "P2a placed their last tile" in newest
    assert "60" in newest
    winner = listed[0].find("li", class_="winner")
    assert "P2a" in winner.text()


def test_running_games_show_as_running_and_link_to_the_table(
    client: FlaskClient,
) -> None:
    game = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    page = parse(client.get("/history").data)
    row = page.find("tr", data_game_id=str(game["id"]))
    assert "running" in row.text()
    assert row.find("a", class_="button").attrs["href"] == f"/games/{game['id']}"
    assert not row.find_all("li", class_="winner")


def test_history_is_paginated(app: Flask, client: FlaskClient) -> None:
    store_many(app, 30)
    first = parse(client.get("/history").data)
    assert len(rows(first)) == 25
    assert first.find("a", rel="next").attrs["href"] == "/history?page=2"
    second = parse(client.get("/history?page=2").data)
    assert [r.attrs["data-game-id"] for r in rows(second)] == ["5", "4", "3", "2", "1"]
    assert second.find("a", rel="prev")
    assert not second.find_all("a", rel="next")
    assert rows(parse(client.get("/history?page=99").data)) == []
    assert client.get("/history?page=-3").status_code == 200
    assert client.get("/history?page=abc").status_code == 200


def test_history_search_matches_part_of_a_name_case_insensitively(
    app: Flask, client: FlaskClient
) -> None:
    store_many(app, 2)
    store_many(app, 1, names=["Zoë Vermeer", "Bob"])
    for query in ("zoë", "VERM", "ë v"):
        page = parse(client.get(f"/history?q={query}").data)
        assert [r.attrs["data-game-id"] for r in rows(page)] == ["3"], query
    assert rows(parse(client.get("/history?q=%25").data)) == []
    assert rows(parse(client.get("/history?q=_").data)) == []
    assert page.find(data_total=True).attrs["data-total"] == "1"


def test_empty_history(client: FlaskClient) -> None:
    page = parse(client.get("/history").data)
    assert rows(page) == []
    assert "No games yet" in page.text()


def test_winners_are_shared_on_a_tie() -> None:
    assert engine.winners([12, 12, 7]) == (0, 1)
    assert engine.ranks([12, 12, 7]) == [1, 1, 3]
    assert engine.winners([]) == ()


@pytest.mark.parametrize(
    ("minutes", "said"), [(None, "–"), (0, "0 min"), (59, "59 min"), (65, "1 h 05 min")]
)
def test_durations_read_as_players_say_them(minutes: int | None, said: str) -> None:
    assert text.duration(minutes) == said


# --- replay ---


def replay(client: FlaskClient, game_id: int, step: int | None = None) -> Node:
    url = f"/games/{game_id}/replay" + ("" if step is None else f"?move={step}")
    response = client.get(url)
    assert response.status_code == 200
    return parse(response.data)


def board_tiles(page: Node) -> list[Node]:
    return page.find("svg", class_="replay-board").find_all("g", class_="rtile")


def totals(page: Node) -> list[int]:
    cells = sorted(
        page.find_all("td", data_total=True), key=lambda n: n.attrs["data-total"]
    )
    return [int(c.text()) for c in cells]


@pytest.mark.parametrize("step", [0, 1, 2, 17, 30, 59, 60])
def test_each_replay_step_shows_the_board_and_totals_as_they_were(
    client: FlaskClient, step: int
) -> None:
    record = corpus_record()
    game_id = imported(client)
    page = replay(client, game_id, step)
    moves = record["moves"][:step]
    assert len(board_tiles(page)) == sum(len(m.get("tiles", [])) for m in moves)
    expected = [0, 0]
    for move in moves:
        expected[move["player"]] += move.get("score", 0)
    if step == len(record["moves"]):
        expected = record["final"]["scores"]
    assert totals(page) == expected
    on_board = int(page.find(data_on_board=True).text())
    assert page.find(data_bag=True).text() == str(max(0, 108 - on_board - 12))
    if step:
        move = record["moves"][step - 1]
        placed = page.find_all("g", class_="placed")
        assert len(placed) == len(move["tiles"])
        assert page.find(data_move_points=True).text() == str(move["score"])
        assert (
            record["players"][move["player"]]
            in page.find(data_replay_title=True).text()
        )


def test_replay_without_a_step_shows_the_end_with_the_winner(
    client: FlaskClient,
) -> None:
    game_id = imported(client)
    page = replay(client, game_id)
    assert page.find(data_replay=True).attrs["data-step"] == "60"
    assert "Game over" in page.find("p", class_="final").text()
    assert "★" in page.find("tr", class_="winner").text()
    assert "Anna" in page.find("tr", class_="winner").text()


def test_replay_marks_qwirkles_and_lists_the_line_breakdown(
    client: FlaskClient,
) -> None:
    record = corpus_record()
    game_id = imported(client)
    with client.application.test_request_context():
        with loaded(game_id) as row:
            step = next(
                i + 1
                for i, m in enumerate(row.game.moves)
                if m.breakdown is not None and m.breakdown.qwirkles
            )
            lines = row.game.moves[step - 1].breakdown.lines  # type: ignore[union-attr]
    page = replay(client, game_id, step)
    items = page.find("ul", class_="breakdown").find_all("li")
    assert len(items) == len(lines)
    assert page.find("strong", class_="qwirkle-mark").text() == "Qwirkle!"
    assert page.find_all("g", class_="qwirkle")
    assert (
        int(page.find(data_move_points=True).text())
        == record["moves"][step - 1]["score"]
    )


def test_trades_are_replay_steps(client: FlaskClient) -> None:
    game_id = imported(client, "stalled-n3-c2-h2-20048.json")
    page = replay(client, game_id, 6)
    assert page.find(data_move_type=True).attrs["data-move-type"] == "trade"
    assert "Traded" in page.find("p", class_="replay-move").text()
    before = len(board_tiles(replay(client, game_id, 5)))
    assert len(board_tiles(page)) == before
    assert page.find_all("g", class_="placed") == []


def test_replay_navigation_links_and_bounds(client: FlaskClient) -> None:
    game_id = imported(client)
    page = replay(client, game_id, 10)
    go = {n.attrs["data-replay-go"]: n for n in page.find_all(data_replay_go=True)}
    assert go["first"].attrs["href"] == f"/games/{game_id}/replay?move=0"
    assert go["prev"].attrs["href"] == f"/games/{game_id}/replay?move=9"
    assert go["next"].attrs["href"] == f"/games/{game_id}/replay?move=11"
    assert go["last"].attrs["href"] == f"/games/{game_id}/replay?move=60"
    slider = page.find("input", data_replay_slider=True)
    assert (slider.attrs["min"], slider.attrs["max"], slider.attrs["value"]) == (
        "0",
        "60",
        "10",
    )
    start = replay(client, game_id, 0)
    assert start.find(data_replay_go="prev").tag == "span"
    assert (
        replay(client, game_id, 999).find(data_replay=True).attrs["data-step"] == "60"
    )
    assert replay(client, game_id, -5).find(data_replay=True).attrs["data-step"] == "0"
    assert client.get("/games/999/replay").status_code == 404


def test_the_score_chart_has_a_line_per_player(client: FlaskClient) -> None:
    game_id = imported(client, "classic-10003.json")
    page = replay(client, game_id)
    lines = page.find("svg", class_="score-chart").find_all("polyline")
    assert len(lines) == 4
    # 56 moves by 4 players: 14 rounds, plus the 0 start.
    assert all(len(line.attrs["points"].split()) == 15 for line in lines)
    standalone = client.get(f"/games/{game_id}/chart.svg")
    assert standalone.mimetype == "image/svg+xml"
    assert standalone.data.startswith(b"<svg")


# --- correcting a past move ---


def opened_game(client: FlaskClient) -> dict[str, Any]:
    """Ann: red circle + red square; Bob: red diamond beside them (3 points)."""
    game = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    headers = {"X-Edit-Token": game["edit_token"]}
    moves = [
        [(0, 0, "red", "circle"), (0, 1, "red", "square")],
        [(0, 2, "red", "diamond")],
    ]
    for tiles in moves:
        body = {
            "type": "place",
            "tiles": [
                {"row": r, "col": c, "color": k, "shape": s} for r, c, k, s in tiles
            ],
        }
        assert (
            client.post(
                f"/api/games/{game['id']}/moves", json=body, headers=headers
            ).status_code
            == 201
        )
    hold(client, game["id"], game["edit_token"])
    return game


def correction(tiles: list[tuple[int, int, str, str]]) -> dict[str, Any]:
    form: dict[str, Any] = {"type": "place", "count": ""}
    for i in range(6):
        r, c, k, s = tiles[i] if i < len(tiles) else ("", "", "", "")
        form.update(
            {
                f"tiles-{i}-row": r,
                f"tiles-{i}-col": c,
                f"tiles-{i}-color": k,
                f"tiles-{i}-shape": s,
            }
        )
    return form


def scores_of(client: FlaskClient, game_id: int) -> list[int]:
    return [m["score"] for m in client.get(f"/api/games/{game_id}").get_json()["moves"]]


def test_the_correction_form_is_filled_with_the_move(client: FlaskClient) -> None:
    game = opened_game(client)
    page = parse(client.get(f"/games/{game['id']}/moves/1/edit").data)
    assert page.find("input", name="tiles-1-col").attrs["value"] == "1"
    selected = page.find("select", name="tiles-1-shape").find("option", selected=True)
    assert selected.attrs["value"] == "square"


def test_correcting_a_move_rescores_every_later_move(client: FlaskClient) -> None:
    game = opened_game(client)
    assert scores_of(client, game["id"]) == [2, 3]
    response = client.post(
        f"/games/{game['id']}/moves/1/edit",
        data=correction(
            [(0, 0, "red", "circle"), (0, 1, "red", "square"), (0, -1, "red", "clover")]
        ),
    )
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game['id']}/replay?move=1"
    assert scores_of(client, game["id"]) == [3, 4]
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert [p["score"] for p in state["players"]] == [3, 4]


def test_a_correction_started_from_the_game_page_goes_back_to_it(
    client: FlaskClient,
) -> None:
    game = opened_game(client)
    game_page = parse(client.get(f"/games/{game['id']}").data)
    # Newest first: the last link corrects move 1.
    link = game_page.find(data_recent=True).find_all("a")[-1].attrs["href"]
    form_page = parse(client.get(link).data)
    assert form_page.find(data_back=True).attrs["href"] == f"/games/{game['id']}"
    clover = [
        (0, 0, "red", "circle"), (0, 1, "red", "square"), (0, -1, "red", "clover")
    ]
    response = client.post(link, data=correction(clover))
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game['id']}"
    back = parse(client.get(response.headers["Location"]).data)
    totals = back.find_all(data_total=True)
    assert [n.text() for n in totals] == ["3", "4"]


def test_the_correction_page_shows_no_coordinates_nor_a_count_for_a_placing_move(
    client: FlaskClient,
) -> None:
    game = opened_game(client)
    page = parse(client.get(f"/games/{game['id']}/moves/1/edit").data)
    entered = page.find("main").find("p").text()
    assert "red circle" in entered and "(0, 0)" not in entered
    assert "hidden" in page.find(data_count=True).attrs


def test_a_correction_that_makes_a_later_move_illegal_is_refused_naming_it(
    client: FlaskClient,
) -> None:
    game = opened_game(client)
    before = client.get(f"/api/games/{game['id']}/record").data
    response = client.post(
        f"/games/{game['id']}/moves/1/edit",
        data=correction([(0, 0, "red", "circle"), (0, 1, "red", "diamond")]),
    )
    assert response.status_code == 422
    message = parse(response.data).find(data_error=True).text()
    assert "Move 2 (Bob)" in message
    assert "red diamond" in message.lower() or "twice" in message.lower()
    assert client.get(f"/api/games/{game['id']}/record").data == before


def test_an_illegal_correction_itself_is_refused(client: FlaskClient) -> None:
    game = opened_game(client)
    response = client.post(
        f"/games/{game['id']}/moves/1/edit",
        data=correction([(0, 0, "red", "circle"), (0, 1, "blue", "square")]),
    )
    assert response.status_code == 422
    assert "not legal" in parse(response.data).find(data_error=True).text()
    assert scores_of(client, game["id"]) == [2, 3]


def test_an_incomplete_tile_row_is_refused(client: FlaskClient) -> None:
    game = opened_game(client)
    response = client.post(
        f"/games/{game['id']}/moves/2/edit",
        data=correction([(0, 2, "red", "")]),
    )
    assert response.status_code == 422
    assert "Tile 1" in parse(response.data).find(data_error=True).text()


def test_a_correction_keeps_the_times_of_unchanged_moves(client: FlaskClient) -> None:
    game = opened_game(client)
    with client.application.test_request_context():
        before = stats.move_times(game["id"])
    client.post(
        f"/games/{game['id']}/moves/2/edit",
        data=correction([(0, 2, "red", "clover")]),
    )
    with client.application.test_request_context():
        after = stats.move_times(game["id"])
    assert after[0] == before[0]
    assert after[1] > before[1]


def test_correcting_needs_the_edit_token(app: Flask, client: FlaskClient) -> None:
    game = opened_game(client)
    stranger = app.test_client()
    url = f"/games/{game['id']}/moves/1/edit"
    assert stranger.get(url).status_code == 403
    assert (
        stranger.post(url, data=correction([(0, 0, "red", "circle")])).status_code
        == 403
    )
    assert client.get(f"/games/{game['id']}/moves/9/edit").status_code == 404


def past_options(client: FlaskClient, game_id: int, number: int, **query: str) -> Any:
    """GET the picker's options for correcting move `number`."""
    return client.get(f"/games/{game_id}/moves/{number}/options", query_string=query)


def test_correction_options_are_the_engines_at_the_moves_step(
    client: FlaskClient,
) -> None:
    game = opened_game(client)
    # Before move 2 the red diamond's cell was free beside red circle + square.
    then = past_options(client, game["id"], 2, cell="0,2", tiles="[]").get_json()
    assert then["turn"] == 1
    assert "red diamond" in then["kinds"] and "red circle" not in then["kinds"]
    assert "blue square" not in then["kinds"]
    assert then["previews"]["red diamond"]["score"] == 3
    # Now that cell holds the diamond: the game page's options offer nothing.
    now = client.get(f"/games/{game['id']}/options?cell=0,2&tiles=[]").get_json()
    assert now["kinds"] == []
    # With the move's own tiles pending, as the correction page sends them.
    mended = past_options(client, game["id"], 1, cell="0,2",
                          tiles='[[0, 0, "red", "circle"], [0, 1, "red", "square"]]')
    kinds = set(mended.get_json()["kinds"])
    assert "red diamond" in kinds and "red square" not in kinds
    assert "green square" not in kinds


def test_a_greyed_tile_at_a_past_step_says_the_engines_reason(
    client: FlaskClient,
) -> None:
    game = opened_game(client)
    why = past_options(client, game["id"], 2, cell="0,2", tiles="[]",
                       why="red circle").get_json()
    assert why["turn"] == 1 and why["kind"] == "red circle"
    # The reason then (a second red circle), not now's (the cell is taken).
    assert why["error"]["message"].startswith("This red circle is already in the row")
    now = client.get(f"/games/{game['id']}/options",
                     query_string={"cell": "0,2", "tiles": "[]",
                                   "why": "red circle"}).get_json()
    assert now["error"]["message"] != why["error"]["message"]
    fits = past_options(client, game["id"], 2, cell="0,2", tiles="[]",
                        why="red diamond").get_json()
    assert fits["error"] is None


@pytest.mark.parametrize("number", [0, 3, 99])
def test_correction_options_outside_the_game_are_404(
    client: FlaskClient, number: int
) -> None:
    game = opened_game(client)
    assert past_options(client, game["id"], number, cell="0,2",
                        tiles="[]").status_code == 404


def test_correction_options_refuse_a_malformed_query(client: FlaskClient) -> None:
    game = opened_game(client)
    response = past_options(client, game["id"], 1, cell="x", tiles="[]")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "bad_request"


# --- delete and rename ---


def test_deleting_asks_first_then_removes_the_game(
    app: Flask, client: FlaskClient
) -> None:
    game_id = imported(client)
    page = parse(client.get(f"/games/{game_id}/delete").data)
    assert page.find("form", method="post").find("button", type="submit")
    assert client.get(f"/games/{game_id}/replay").status_code == 200
    response = client.post(f"/games/{game_id}/delete")
    assert response.status_code == 302
    assert client.get(f"/games/{game_id}/replay").status_code == 404
    with app.app_context():
        assert stats.count_games() == 0
        db = connection.get_db()
        assert db.execute("SELECT count(*) FROM moves").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM game_players").fetchone()[0] == 0


def test_deleting_needs_the_edit_token(app: Flask, client: FlaskClient) -> None:
    game_id = imported(client)
    stranger = app.test_client()
    assert stranger.get(f"/games/{game_id}/delete").status_code == 403
    assert stranger.post(f"/games/{game_id}/delete").status_code == 403
    assert client.get(f"/games/{game_id}/replay").status_code == 200


def test_deleting_needs_the_csrf_token(csrf_client: FlaskClient) -> None:
    game = csrf_client.post("/api/games/import", json=corpus_record()).get_json()
    hold(csrf_client, game["id"], game["edit_token"])
    assert csrf_client.post(f"/games/{game['id']}/delete").status_code == 400
    assert csrf_client.get(f"/games/{game['id']}/replay").status_code == 200
    page = parse(csrf_client.get(f"/games/{game['id']}/delete").data)
    token = page.find("input", name="csrf_token").attrs["value"]
    response = csrf_client.post(
        f"/games/{game['id']}/delete", data={"csrf_token": token}
    )
    assert response.status_code == 302
    assert csrf_client.get(f"/games/{game['id']}/replay").status_code == 404


def test_renaming_a_player_changes_history_and_statistics(client: FlaskClient) -> None:
    game_id = imported(client)
    response = client.post(
        f"/games/{game_id}/rename", data={"names-0": "Anneke", "names-1": "Chris"}
    )
    assert response.status_code == 302
    assert (
        "Anneke"
        in parse(client.get("/history").data).find("tr", data_game_id="1").text()
    )
    assert client.get("/players/Anneke").status_code == 200
    assert client.get("/players/Anna").status_code == 404
    record = json.loads(client.get(f"/games/{game_id}/record.json").data)
    assert record["players"] == ["Anneke", "Chris"]


def test_renaming_refuses_two_equal_names_and_needs_the_token(
    app: Flask, client: FlaskClient
) -> None:
    game_id = imported(client)
    response = client.post(
        f"/games/{game_id}/rename", data={"names-0": "chris", "names-1": "Chris"}
    )
    assert response.status_code == 200
    assert "share a name" in response.get_data(as_text=True)
    stranger = app.test_client()
    assert stranger.get(f"/games/{game_id}/rename").status_code == 403


@pytest.mark.long
def test_every_corpus_game_replays_at_every_fifth_step(client: FlaskClient) -> None:
    for name in corpus_names():
        game_id = imported(client, name)
        record = corpus_record(name)
        for step in range(0, len(record["moves"]) + 1, 5):
            page = replay(client, game_id, step)
            expected = sum(len(m.get("tiles", [])) for m in record["moves"][:step])
            assert len(board_tiles(page)) == expected
