"""A club night's two rights (CONTRACT §14, §15): the join link adds tables
and nothing else; the organiser (the night's edit token) renames, deletes and
corrects any game of the night; the admin gives a device the organiser's
right to any night."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from test_club_night import new_event


def joined(app: Flask, event: dict) -> FlaskClient:
    """A table's phone that scanned the night's QR code."""
    phone = app.test_client()
    answer = phone.get(f"/events/{event['id']}/join/{event['join_token']}")
    assert answer.status_code == 302
    return phone


def table_by_join_token(phone: FlaskClient, event: dict) -> int:
    answer = phone.post("/api/games", json={"players": ["Ann", "Bob"],
                                            "event": event["id"]},
                        headers={"X-Event-Token": event["join_token"]})
    assert answer.status_code == 201, answer.get_json()
    game_id: int = answer.get_json()["id"]
    tile = {"row": 0, "col": 0, "color": "red", "shape": "circle"}
    assert phone.post(f"/api/games/{game_id}/moves", json={
        "type": "place", "tiles": [tile]},
        headers={"X-Edit-Token": answer.get_json()["edit_token"]}).status_code == 201
    return game_id


def test_the_join_token_adds_a_table_and_nothing_else(app: Flask) -> None:
    host = app.test_client()
    event = new_event(host, "Friday")
    assert event["join_token"] != event["edit_token"]
    phone = joined(app, event)
    game_id = table_by_join_token(phone, event)
    assert host.get(f"/api/events/{event['id']}").get_json()["games"] == [game_id]
    by_join = {"X-Event-Token": event["join_token"]}
    assert phone.patch(f"/api/events/{event['id']}", json={"name": "Mine"},
                       headers=by_join).status_code == 403
    assert phone.delete(f"/api/events/{event['id']}",
                        headers=by_join).status_code == 403
    # The page too: no rename, no delete, no correction of another table.
    assert phone.get(f"/events/{event['id']}/edit").status_code == 403
    assert phone.post(f"/events/{event['id']}/delete").status_code == 403
    page = phone.get(f"/events/{event['id']}").get_data(as_text=True)
    assert "data-event-change" not in page and "data-add-table" in page
    assert host.get(f"/api/events/{event['id']}").get_json()["name"] == "Friday"


def test_the_organiser_corrects_any_game_of_the_night(app: Flask) -> None:
    host = app.test_client()
    event = new_event(host, "Friday")
    game_id = table_by_join_token(joined(app, event), event)
    stranger = app.test_client()
    assert stranger.get(f"/games/{game_id}/moves/1/edit").status_code == 403
    # The host never held this game's own right: the night's gives it.
    assert host.get(f"/games/{game_id}/moves/1/edit").status_code == 200
    assert host.delete(f"/api/games/{game_id}/moves/last", headers={
        "X-Event-Token": event["edit_token"]}).status_code == 200
    assert stranger.delete(f"/api/games/{game_id}/moves/last", headers={
        "X-Event-Token": event["join_token"]}).status_code == 403
    # Following the join link again leaves the organiser the organiser.
    host.get(f"/events/{event['id']}/join/{event['join_token']}")
    assert host.get(f"/events/{event['id']}/edit").status_code == 200


def test_the_admin_makes_a_device_the_organiser_of_any_night(app: Flask) -> None:
    host = app.test_client()
    event = new_event(host, "Friday")
    game_id = table_by_join_token(host, event)
    admin = app.test_client()
    admin.get(f"/admin/key/{app.config['ADMIN_KEY']}")
    page = admin.get(f"/events/{event['id']}").get_data(as_text=True)
    assert "data-grant-event" in page
    assert admin.get(f"/games/{game_id}/moves/1/edit").status_code == 403
    # Its cards offer the grant, not codes the admin may not draw yet.
    cards = admin.get(f"/events/{event['id']}/cards").get_data(as_text=True)
    assert "data-grant-event" in cards and f"/games/{game_id}/join.svg" not in cards
    answer = admin.post("/admin/event-grant", data={"event": str(event["id"])})
    assert answer.status_code == 302
    assert admin.get(f"/games/{game_id}/moves/1/edit").status_code == 200
    assert "data-grant-event" not in admin.get(
        f"/events/{event['id']}").get_data(as_text=True)
    guest = app.test_client()
    assert guest.post("/admin/event-grant",
                      data={"event": str(event["id"])}).status_code == 403



def test_the_organiser_undoes_a_deleted_night(app: Flask) -> None:
    host = app.test_client()
    event = new_event(host, "Friday")
    game_id = table_by_join_token(joined(app, event), event)
    gone = host.post(f"/events/{event['id']}/delete")
    assert gone.status_code == 302
    assert host.get(f"/api/events/{event['id']}").status_code == 404
    index = host.get(gone.headers["Location"]).get_data(as_text=True)
    assert "data-undo-delete" in index
    # Nobody else may bring it back, nor see the offer.
    stranger = app.test_client()
    assert "data-undo-delete" not in stranger.get(
        f"/events?undo={event['id']}").get_data(as_text=True)
    assert stranger.post(f"/events/{event['id']}/undelete").status_code == 404
    assert host.post(f"/events/{event['id']}/undelete").status_code == 302
    back = host.get(f"/api/events/{event['id']}").get_json()
    assert back["name"] == "Friday" and back["games"] == [game_id]
    # Its tokens are the same: the join link still adds a table.
    assert host.get(f"/events/{event['id']}/edit").status_code == 200
    assert host.post(f"/events/{event['id']}/undelete").status_code == 404


def test_a_table_started_outside_the_night_moves_into_it(app: Flask) -> None:
    host = app.test_client()
    event = new_event(host, "Friday")
    other = new_event(host, "Saturday")
    phone = app.test_client()
    made = phone.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    url = f"/api/events/{event['id']}/games"
    organiser = {"X-Event-Token": event["edit_token"]}
    # The organiser alone, or the game's right alone, is not enough.
    assert host.post(url, json={"game": made["id"]}, headers=organiser
                     ).status_code == 403
    assert phone.post(url, json={"game": made["id"]}, headers={
        "X-Event-Token": event["join_token"], "X-Edit-Token": made["edit_token"]}
    ).status_code == 403
    both = {**organiser, "X-Edit-Token": made["edit_token"]}
    moved = host.post(url, json={"game": made["id"]}, headers=both)
    assert moved.status_code == 200 and moved.get_json()["games"] == [made["id"]]
    # Once in a night, it stays there.
    assert host.post(f"/api/events/{other['id']}/games", json={"game": made["id"]},
                     headers={"X-Event-Token": other["edit_token"],
                              "X-Edit-Token": made["edit_token"]}
                     ).status_code == 409
    assert host.post(url, json={"game": 999}, headers=both).status_code == 404


def test_the_night_page_moves_a_game_this_device_holds(app: Flask) -> None:
    host = app.test_client()
    event = new_event(host, "Friday")
    mine = host.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    theirs = app.test_client().post(
        "/api/games", json={"players": ["Cy", "Di"]}).get_json()
    page = host.get(f"/events/{event['id']}").get_data(as_text=True)
    assert "data-move-game" in page
    for game in (mine, theirs):
        assert host.post(f"/events/{event['id']}/move-game",
                         data={"game": str(game["id"])}).status_code == 302
    assert host.get(f"/api/events/{event['id']}").get_json()["games"] == [mine["id"]]


def test_the_organiser_prints_a_card_with_a_code_for_each_running_table(
    app: Flask,
) -> None:
    host = app.test_client()
    event = new_event(host, "Friday")
    phone = joined(app, event)
    game_id = table_by_join_token(phone, event)
    page = host.get(f"/events/{event['id']}/cards").get_data(as_text=True)
    assert f'data-table-card="{game_id}"' in page and "Ann" in page
    # The organiser's right draws the table's code; the join link's does not.
    app.config.update(LISTEN_HOST="192.168.1.20", LISTEN_PORT=5000)
    assert host.get(f"/games/{game_id}/join.svg").status_code == 200
    assert app.test_client().get(f"/events/{event['id']}/cards").status_code == 403
    other = joined(app, event)
    assert other.get(f"/events/{event['id']}/cards").status_code == 403
