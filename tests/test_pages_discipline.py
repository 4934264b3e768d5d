"""Table discipline on the pages (RULES §7): the new-game form's section, the
game page's penalty control, countdown and players out of the game, and the
sheet, replay and PDF of a game with penalties."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import new_game, tiles_json, token_of
from flask.testing import FlaskClient
from test_history_helpers import Node, parse

DISCIPLINE = {"move_seconds": "45", "on_illegal": "deduct", "on_timeout": "exclude",
              "penalty_points": "3"}


def page(client: FlaskClient, url: str) -> Node:
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return parse(response.data)


def state(client: FlaskClient, game_id: int) -> dict[str, Any]:
    return client.get(f"/api/games/{game_id}").get_json()


def place(client: FlaskClient, game_id: int, *tiles: tuple, **extra: Any) -> None:
    response = client.post(
        f"/api/games/{game_id}/moves",
        json={"type": "place", "tiles": tiles_json(tiles), **extra},
        headers={"X-Edit-Token": token_of(client, game_id)},
    )
    assert response.status_code == 201, response.get_json()


def strict(client: FlaskClient, *names: str, **fields: str) -> int:
    return new_game(client, *(names or ("Ann", "Bob", "Cy")),
                    **{**DISCIPLINE, **fields})


# --- the new-game form ---


def test_s7_the_new_game_form_has_a_closed_table_discipline_section(
    client: FlaskClient,
) -> None:
    doc = page(client, "/games/new")

    section = doc.find("details", data_discipline_options=True)
    assert "open" not in section.attrs
    assert "Table discipline" in section.find("summary").text()
    assert section.find("input", name="move_seconds").attrs["min"] == "10"
    assert section.find("input", name="move_seconds").attrs["max"] == "3600"
    # Radio buttons: their sentences wrap on a phone, a select's face cuts them.
    assert [o.attrs["value"] for o in section.find_all("input", name="on_illegal")
            ] == ["retry", "lose_turn", "deduct", "exclude"]
    assert [o.attrs["value"] for o in section.find_all("input", name="on_timeout")
            ] == ["none", "lose_turn", "deduct", "exclude"]
    assert section.find("input", name="on_illegal", checked=True
                        ).attrs["value"] == "retry"
    assert section.find("input", name="penalty_points").attrs["placeholder"] == "5"


def test_s7_a_friendly_table_never_touches_the_section(client: FlaskClient) -> None:
    game_id = new_game(client, "Ann", "Bob")

    assert state(client, game_id)["options"] == {
        "move_seconds": None, "on_illegal": "retry", "on_timeout": "none",
        "penalty_points": 5,
    }
    doc = page(client, f"/games/{game_id}")
    assert doc.find_all(data_discipline=True) == []
    assert doc.find_all(data_countdown=True) == []
    # Nor loads the countdown's script (a page's bytes on the wire: bench_page.py).
    scripts = [s.attrs.get("src", "") for s in doc.find_all("script")]
    assert any(src.startswith("/assets/game.js?v=") for src in scripts)
    assert "/static/countdown.js" not in scripts


def test_s7_the_form_starts_a_game_with_the_chosen_discipline(
    client: FlaskClient,
) -> None:
    game_id = strict(client)

    assert state(client, game_id)["options"] == {
        "move_seconds": 45, "on_illegal": "deduct", "on_timeout": "exclude",
        "penalty_points": 3,
    }
    no_points = new_game(client, "Ann", "Bob", on_illegal="deduct")
    assert state(client, no_points)["options"]["penalty_points"] == 5


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"move_seconds": "9"}, "10 to 3600 seconds"),
        ({"move_seconds": "3601"}, "10 to 3600 seconds"),
        ({"move_seconds": "soon"}, "integer"),
        ({"penalty_points": "0"}, "from 1 to 100"),
        ({"penalty_points": "101"}, "from 1 to 100"),
        ({"on_illegal": "shout"}, "choice"),
        ({"on_timeout": "retry"}, "choice"),
    ],
)
def test_s7_bad_discipline_settings_are_refused_with_a_message(
    client: FlaskClient, fields: dict[str, str], message: str
) -> None:
    response = client.post("/games/new", data={"names-0": "Ann", "names-1": "Bob",
                                               **fields})

    assert response.status_code == 200
    doc = parse(response.data)
    section = doc.find("details", data_discipline_options=True)
    assert "open" in section.attrs
    assert message in " ".join(e.text() for e in section.find_all(class_="error"))
    assert client.get("/api/games").get_json()["total"] == 0


# --- the game page ---


def test_s7_the_penalty_control_names_each_consequence(client: FlaskClient) -> None:
    game_id = strict(client)

    doc = page(client, f"/games/{game_id}")

    form = doc.find("form", data_penalty_form=True)
    assert form.attrs["method"] == "post"
    assert form.attrs["action"] == f"/games/{game_id}/penalty"
    buttons = {b.attrs["value"]: b.text() for b in form.find_all("button")}
    assert buttons == {
        "illegal": "Illegal move by Ann: 3 points off and the turn passes",
        "timeout": "Ann is out of time: the player leaves the game",
    }


def test_s7_only_the_penalties_the_table_gives_are_offered(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, "Ann", "Bob", on_timeout="lose_turn")

    doc = page(client, f"/games/{game_id}")

    buttons = doc.find("form", data_penalty_form=True).find_all("button")
    assert [b.attrs["value"] for b in buttons] == ["timeout"]
    assert doc.find_all(data_countdown=True) == []  # a penalty, but no clock


def test_s7_recording_a_penalty_by_the_form_passes_the_turn(
    client: FlaskClient,
) -> None:
    game_id = strict(client)
    place(client, game_id, (0, 0, "red", "circle"))

    response = client.post(f"/games/{game_id}/penalty",
                           data={"reason": "illegal", "turn": "1"})

    assert response.status_code == 302
    after = state(client, game_id)
    assert [p["score"] for p in after["players"]] == [1, -3, 0]
    assert after["current_player"] == 2
    doc = parse(client.get(f"/games/{game_id}").data)
    assert "Bob: illegal move: 3 points deducted" in doc.find(
        class_="flashes").text()


def test_s7_a_penalty_form_with_a_stale_turn_or_no_reason_stores_nothing(
    client: FlaskClient,
) -> None:
    game_id = strict(client)
    place(client, game_id, (0, 0, "red", "circle"))

    client.post(f"/games/{game_id}/penalty", data={"reason": "illegal", "turn": "0"})
    client.post(f"/games/{game_id}/penalty", data={"reason": "bored", "turn": "1"})
    client.post(f"/games/{game_id}/penalty", data={"turn": "1"})

    assert state(client, game_id)["turn"] == 1


def test_s7_a_penalty_the_table_does_not_give_is_flashed_not_stored(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, "Ann", "Bob")

    client.post(f"/games/{game_id}/penalty", data={"reason": "timeout"})

    assert state(client, game_id)["turn"] == 0
    doc = parse(client.get(f"/games/{game_id}").data)
    assert "no penalty" in doc.find(class_="flashes").text()


def test_s7_the_penalty_form_needs_the_edit_token_and_the_csrf_token(
    client: FlaskClient, csrf_client: FlaskClient
) -> None:
    game_id = strict(client)
    stranger = client.application.test_client()
    assert stranger.post(f"/games/{game_id}/penalty",
                         data={"reason": "illegal"}).status_code == 403

    created = csrf_client.post("/api/games", json={
        "players": ["Ann", "Bob"], "options": {"on_illegal": "deduct"}})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    response = csrf_client.post(f"/games/{game_id}/penalty",
                                data={"reason": "illegal", "turn": "0"})
    assert response.status_code in (302, 400)
    assert state(csrf_client, game_id)["turn"] == 0
    token = page(csrf_client, f"/games/{game_id}").find(
        "form", data_penalty_form=True).find("input", name="csrf_token")
    csrf_client.post(f"/games/{game_id}/penalty", data={
        "reason": "illegal", "turn": "0", "csrf_token": token.attrs["value"]})
    assert state(csrf_client, game_id)["turn"] == 1


def test_s7_excluded_players_are_shown_apart_from_the_scores(
    client: FlaskClient,
) -> None:
    game_id = strict(client)
    place(client, game_id, (0, 0, "red", "circle"))
    client.post(f"/games/{game_id}/penalty", data={"reason": "timeout"})   # Bob

    doc = page(client, f"/games/{game_id}")

    scores = doc.find("section", data_scores=True)
    assert [n.text() for n in scores.find_all(class_="name")] == ["Ann", "Cy"]
    out = doc.find("section", data_excluded_players=True)
    assert out.find("li", data_excluded="1").text() == "Bob 0"
    assert "not ranked" in out.text()
    assert doc.find(class_="turn").text() == "Cy to play"


def test_s7_the_final_screen_lists_excluded_players_apart_from_the_ranking(
    client: FlaskClient,
) -> None:
    game_id = strict(client)
    place(client, game_id, (0, 0, "red", "circle"), (0, 1, "red", "square"),
          (0, 2, "red", "diamond"))                                        # Ann 3
    client.post(f"/games/{game_id}/penalty", data={"reason": "illegal"})  # Bob -3
    client.post(f"/games/{game_id}/penalty", data={"reason": "timeout"})  # Cy out
    client.post(f"/games/{game_id}/penalty", data={"reason": "timeout"})  # Ann out

    doc = page(client, f"/games/{game_id}")

    final = doc.find("section", data_final=True)
    ranking = final.find("ol", class_="ranking")
    assert [li.find(class_="name").text() for li in ranking.find_all("li")] == [
        "Bob ★"]
    out = final.find(data_final_excluded=True)
    assert [li.text() for li in out.find_all("li")] == ["Ann 3", "Cy 0"]
    assert "one player is left" in final.find(data_reason=True).text()
    assert doc.find_all(data_excluded_players=True) == []
    assert doc.find_all(data_penalty_form=True) == []


def test_s7_the_countdown_starts_from_the_last_stored_move(
    client: FlaskClient, database: Path
) -> None:
    game_id = strict(client)
    place(client, game_id, (0, 0, "red", "circle"))
    past = (datetime.now(UTC) - timedelta(seconds=20)).isoformat(
        timespec="microseconds")
    with sqlite3.connect(database) as db:
        db.execute("UPDATE games SET updated_at = ? WHERE id = ?", [past, game_id])

    doc = page(client, f"/games/{game_id}")

    clock = doc.find(data_countdown=True)
    assert clock.attrs["data-seconds"] == "45"
    assert 20 <= int(clock.attrs["data-elapsed"]) <= 22
    assert clock.find(data_countdown_left=True).text() in ("0:25", "0:24", "0:23")
    tap = clock.find("button", data_countdown_tap=True)
    assert "hidden" in tap.attrs
    assert tap.attrs["form"] == "penalty-form"
    assert (tap.attrs["name"], tap.attrs["value"]) == ("reason", "timeout")
    scripts = [s.attrs.get("src", "") for s in doc.find_all("script")]
    assert "/static/countdown.js" in scripts
    # None inline (the game's state is a JSON data block, never run).
    assert all(s.attrs.get("src") for s in doc.find_all("script")
               if s.attrs.get("type") != "application/json")


def test_s7_a_viewer_sees_the_countdown_but_no_penalty_control(
    client: FlaskClient,
) -> None:
    game_id = strict(client)
    viewer = client.application.test_client()

    doc = page(viewer, f"/games/{game_id}")

    clock = doc.find(data_countdown=True)
    assert clock.find_all(data_countdown_tap=True) == []
    assert doc.find_all(data_penalty_form=True) == []


def test_s7_trade_and_pass_forms_carry_the_thinking_time(
    client: FlaskClient,
) -> None:
    game_id = strict(client, "Ann", "Bob")
    place(client, game_id, (0, 0, "red", "circle"))
    doc = page(client, f"/games/{game_id}")
    assert doc.find("form", data_trade=True).find("input", name="seconds").attrs[
        "data-thinking"] == ""

    client.post(f"/games/{game_id}/trade",
                data={"count": "2", "turn": "1", "seconds": "33"})
    client.post(f"/games/{game_id}/trade",
                data={"count": "1", "turn": "2", "seconds": "x"})

    moves = state(client, game_id)["moves"]
    assert [m["type"] for m in moves] == ["place", "trade", "trade"]
    assert moves[1]["seconds"] == 33
    assert "seconds" not in moves[2]


# --- history pages and files ---


def penalised(client: FlaskClient) -> int:
    game_id = strict(client)
    place(client, game_id, (0, 0, "red", "circle"), (0, 1, "red", "square"))
    client.post(f"/games/{game_id}/penalty", data={"reason": "illegal"})   # Bob -3
    client.post(f"/games/{game_id}/penalty", data={"reason": "timeout"})   # Cy out
    return game_id


def test_s7_the_score_sheet_marks_penalties_and_the_exclusion(
    client: FlaskClient,
) -> None:
    game_id = penalised(client)

    doc = page(client, f"/games/{game_id}/scoresheet")

    cells = [td.text() for td in doc.find("table", class_="sheet").find("tbody")
             .find_all("td")]
    assert cells == ["2", "-3 !", "0 ! ✕"]
    assert "excluded" in doc.find(data_sheet_total="2").attrs["class"]
    assert "penalty" in doc.find(data_penalty_legend=True).text()
    pdf = client.get(f"/games/{game_id}/scoresheet.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_s7_the_replay_shows_a_penalty_and_who_is_out(client: FlaskClient) -> None:
    game_id = penalised(client)

    step2 = page(client, f"/games/{game_id}/replay?move=2")
    step3 = page(client, f"/games/{game_id}/replay?move=3")

    assert step2.find(data_move_points=True).text() == "-3"
    # The reason is said once, by the summary; the penalty part says its cost.
    assert step2.find(data_move_summary=True).text() == "Penalty for an illegal move"
    assert step2.find(data_penalty=True).text() == "3 points deducted"
    assert step3.find(data_penalty=True).text() == "excluded from the game"
    assert step2.find_all("tr", data_excluded=True) == []
    out = step3.find_all("tr", data_excluded=True)
    assert [row.find("th").text() for row in out] == ["Cy (excluded, not ranked)"]
    assert "round 1" in step3.find(data_replay_title=True).text()
    chart = client.get(f"/games/{game_id}/chart.svg")
    assert chart.status_code == 200 and b"<svg" in chart.data
