"""A player who leaves, on the pages (RULES §7.5): the game menu's "Player
leaves" and its confirmation, for whoever may enter moves; the leaver marked
as left on the game page, the table view, the score sheet, its PDF and the
replay; corrections around a leave."""

from __future__ import annotations

from conftest import new_game, tiles_json, token_of
from flask import Flask
from flask.testing import FlaskClient
from test_history_helpers import Node, parse
from test_history_pages import correction
from test_pdf_like_the_sheet import pdf_text


def page(client: FlaskClient, url: str) -> Node:
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return parse(response.data)


def opened(client: FlaskClient) -> int:
    """A game of Ann, Bob and Cy after Ann's opening move (Bob to move)."""
    game_id = new_game(client, "Ann", "Bob", "Cy")
    response = client.post(
        f"/api/games/{game_id}/moves",
        json={"type": "place", "tiles": tiles_json([(0, 0, "red", "circle")])},
        headers={"X-Edit-Token": token_of(client, game_id)},
    )
    assert response.status_code == 201
    return game_id


def leave(client: FlaskClient, game_id: int, seat: int) -> Node:
    """Tap "Player leaves" in the menu, the seat's name, then confirm; return
    the game page."""
    doc = page(client, f"/games/{game_id}")
    chooser = page(client, doc.find("a", data_leave=True).attrs["href"])
    link = chooser.find("a", data_leave_seat=str(seat)).attrs["href"]
    form = page(client, link).find("form", class_="confirm")
    fields = {i.attrs["name"]: i.attrs.get("value", "")
              for i in form.find_all("input")}
    response = client.post(form.attrs["action"], data=fields)
    assert response.status_code == 302
    return page(client, response.headers["Location"])


def test_s7_5_the_menu_offers_each_player_in_play_and_asks_first(
    client: FlaskClient,
) -> None:
    game_id = opened(client)
    entry = page(client, f"/games/{game_id}").find("a", data_leave=True)
    assert entry.text() == "Player leaves"
    chooser = page(client, entry.attrs["href"])
    assert chooser.find("h1").text() == "Who leaves the game?"
    assert [a.text() for a in chooser.find_all("a", data_leave_seat=True)] == [
        "Ann", "Bob", "Cy"]

    question = page(client, f"/games/{game_id}/leave?player=2")

    assert question.find("h1").text() == "Does Cy leave the game?"
    assert "Cy keeps 0 points on the sheet" in question.find(
        "p", class_="big-text").text()
    # Asking changes nothing.
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["turn"] == 1 and not state["players"][2]["left"]


def test_s7_5_confirmed_the_leaver_is_marked_and_the_turn_skips_them(
    client: FlaskClient,
) -> None:
    game_id = opened(client)

    doc = leave(client, game_id, 1)                 # Bob, whose turn it was

    assert [p.attrs["data-player"] for p in doc.find_all(data_player=True)] == [
        "0", "2"]
    out = doc.find("section", data_excluded_players=True)
    assert out.find("h2").text() == "Players who left"
    assert out.find("li", data_left=True).text() == "Bob 0 left the game"
    assert doc.find(data_turn=True).text() == "Cy to play"
    chooser = page(client, f"/games/{game_id}/leave")
    assert [a.text() for a in chooser.find_all("a", data_leave_seat=True)] == [
        "Ann", "Cy"]


def test_s7_5_only_who_may_enter_moves_sees_and_uses_it(
    app: Flask, client: FlaskClient,
) -> None:
    game_id = opened(client)
    stranger = app.test_client()

    assert not page(stranger, f"/games/{game_id}").find_all(data_leave=True)
    assert stranger.get(f"/games/{game_id}/leave?player=1").status_code == 403
    assert stranger.get(f"/games/{game_id}/leave").status_code == 403
    assert stranger.post(f"/games/{game_id}/leave",
                         data={"player": "1"}).status_code == 403
    assert client.get(f"/games/{game_id}/leave?player=3").status_code == 404
    assert client.get(f"/games/{game_id}/leave?player=x").status_code == 404
    assert not client.get(f"/api/games/{game_id}").get_json()["players"][1]["left"]


def test_s7_5_the_table_view_sheet_pdf_and_replay_mark_the_leaver(
    client: FlaskClient,
) -> None:
    game_id = opened(client)
    leave(client, game_id, 2)

    tv = page(client, f"/games/{game_id}/tv")
    sheet = page(client, f"/games/{game_id}/scoresheet")
    replay = page(client, f"/games/{game_id}/replay?move=2")

    marks = tv.find_all(data_tv_left=True)
    assert ["hidden" in m.attrs for m in marks] == [True, True, False]
    assert marks[2].text() == "left the game"
    assert sheet.find("td", data_sheet_total="2").find(
        data_sheet_left=True).attrs["title"] == "left the game"
    assert sheet.find(data_left_legend=True).text() == (
        "↗ = left the game (not ranked).")
    assert replay.find("tr", data_seat="2").find(data_out=True).text() == (
        "(left the game, not ranked)")
    assert "↗ = left the game (not ranked)." in pdf_text(client, game_id)


def test_s7_5_leaving_is_not_counted_as_an_exclusion_on_the_players_page(
    client: FlaskClient,
) -> None:
    game_id = opened(client)
    leave(client, game_id, 2)

    cy = page(client, "/players/Cy")

    assert not cy.find_all(data_stat="exclusions")


def test_s7_5_a_correction_keeps_the_leave_and_a_leave_is_not_corrected(
    client: FlaskClient,
) -> None:
    game_id = opened(client)                        # Ann: red circle, 1
    leave(client, game_id, 2)                       # Cy

    moved = client.post(f"/games/{game_id}/moves/1/edit", data=correction(
        [(0, 0, "red", "circle"), (0, 1, "red", "square")]))
    refused = client.get(f"/games/{game_id}/moves/2/edit")

    assert moved.status_code == 302
    state = client.get(f"/api/games/{game_id}").get_json()
    assert [p["score"] for p in state["players"]] == [2, 0, 0]
    assert [p["left"] for p in state["players"]] == [False, False, True]
    assert refused.status_code == 302
    flashed = page(client, refused.headers["Location"]).find(class_="flashes")
    assert "Undo takes it back" in flashed.text()


def test_s7_5_the_final_screen_of_a_game_ended_by_leaving_says_so(
    client: FlaskClient,
) -> None:
    game_id = opened(client)
    leave(client, game_id, 1)

    doc = leave(client, game_id, 2)

    assert doc.find(data_reason=True).text() == (
        "Every other player has left the game, so one player is still in play:"
        " the game ends with no end bonus.")
    out = doc.find(data_final_excluded=True)
    assert [li.text() for li in out.find_all("li", data_left=True)] == [
        "Bob 0 left the game", "Cy 0 left the game"]
    assert not doc.find_all(data_leave=True)       # nobody left to leave
