"""A season renamed, deleted and brought back; its TV view, its standings as
PDF and the date its ratings are as of (CONTRACT §14)."""

from __future__ import annotations

import csv
import io
import json

from flask.testing import FlaskClient
from test_club_night import close, event_game, new_event
from test_history_helpers import parse
from test_season_roster import into_season, new_season


def night_with_a_game(client: FlaskClient, name: str, day: str,
                      players: list[str]) -> dict:
    event = new_event(client, name, date=day)
    game = event_game(client, event, players)
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    close(game)
    return event


def test_the_api_renames_and_deletes_a_season_its_nights_stay(
    client: FlaskClient,
) -> None:
    season = new_season(client, "Winter")
    event = night_with_a_game(client, "Friday", "2026-12-04", ["Ann", "Bob"])
    into_season(client, event, season)
    url = f"/api/seasons/{season['id']}"
    stranger = client.application.test_client()
    assert stranger.patch(url, json={"name": "Mine"}).status_code == 403
    renamed = stranger.patch(url, json={"name": " Winter  2026 "}, headers={
        "X-Event-Token": event["edit_token"]})
    assert renamed.status_code == 200
    assert renamed.get_json()["name"] == "Winter 2026"
    assert client.patch(url, json={"name": ""}).status_code == 422
    assert client.patch(url, json=["x"]).status_code == 400
    assert stranger.delete(url).status_code == 403
    deleted = client.delete(url)
    assert deleted.get_json() == {"id": season["id"], "deleted": True,
                                  "events": [event["id"]]}
    assert client.get(url).status_code == 404
    night = client.get(f"/api/events/{event['id']}").get_json()
    assert night["season"] is None and len(night["standings"]) == 2
    assert client.delete(url).status_code == 404


def test_an_empty_season_is_anyones_to_rename_or_delete(client: FlaskClient) -> None:
    season = new_season(client, "Typo")
    stranger = client.application.test_client()
    url = f"/api/seasons/{season['id']}"
    assert stranger.patch(url, json={"name": "Spring"}).get_json()["name"] == "Spring"
    assert stranger.delete(url).status_code == 200


def test_deleting_a_season_asks_first_and_can_be_undone(client: FlaskClient) -> None:
    season = new_season(client, "Winter")
    event = night_with_a_game(client, "Friday", "2026-12-04", ["Ann", "Bob"])
    into_season(client, event, season)
    client.post(f"/api/seasons/{season['id']}/roster", json={"add": ["Ann", "Cy"]})
    page = parse(client.get(f"/seasons/{season['id']}").data)
    edit = page.find("a", data_season_change=True).attrs["href"]
    asked = parse(client.get(edit).data)
    assert asked.find(data_delete_note=True).text().startswith(
        "Its club night stays, with its games, in no season")
    assert asked.find("form", data_season_delete=True)
    gone = client.post(f"/seasons/{season['id']}/delete")
    assert gone.status_code == 302
    assert client.get(f"/seasons/{season['id']}").status_code == 404
    listing = parse(client.get(gone.headers["Location"]).data)
    undo = listing.find("form", data_undo_delete=True).attrs["action"]
    # Someone else may not bring it back.
    stranger = client.application.test_client()
    assert stranger.post(undo).status_code == 404
    assert client.post(undo).status_code == 302
    back = client.get(f"/api/seasons/{season['id']}").get_json()
    assert back["name"] == "Winter" and back["events"] == [event["id"]]
    assert back["roster"] == ["Ann", "Cy"]
    # Once brought back there is nothing to undo.
    assert client.post(undo).status_code == 404


def test_the_season_page_renames_it(client: FlaskClient) -> None:
    season = new_season(client, "Winter")
    response = client.post(f"/seasons/{season['id']}/edit", data={"name": " Spring "})
    assert response.status_code == 302
    assert parse(client.get(f"/seasons/{season['id']}").data).find(
        "h1").text() == "Spring"
    refused = client.post(f"/seasons/{season['id']}/edit", data={"name": ""})
    assert refused.status_code == 422
    assert parse(refused.data).find(data_error=True)


def test_a_stranger_may_not_change_a_season_with_nights(client: FlaskClient) -> None:
    season = new_season(client, "Winter")
    into_season(client, new_event(client, "Friday"), season)
    stranger = client.application.test_client()
    assert stranger.get(f"/seasons/{season['id']}/edit").status_code == 403
    assert stranger.post(f"/seasons/{season['id']}/delete").status_code == 403
    page = parse(stranger.get(f"/seasons/{season['id']}").data)
    assert page.find_all(data_season_change=True) == []
    assert page.find_all(data_roster_add=True) == []


def test_the_season_says_the_date_its_ratings_and_files_are_as_of(
    client: FlaskClient,
) -> None:
    season = new_season(client, "Winter")
    first = night_with_a_game(client, "One", "2026-12-04", ["Ann", "Bob"])
    second = night_with_a_game(client, "Two", "2026-12-11", ["Ann", "Bob"])
    for night in (first, second):
        into_season(client, night, season)
    api = client.get(f"/api/seasons/{season['id']}").get_json()
    assert api["as_of"] == "2026-12-11"
    page = parse(client.get(f"/seasons/{season['id']}").data)
    assert "Dec 11, 2026" in page.find(data_as_of=True).text()
    rows = list(csv.reader(io.StringIO(client.get(
        f"/seasons/{season['id']}/standings.csv").data.decode("utf-8-sig"))))
    assert {row[-1] for row in rows[1:]} == {"2026-12-11"}
    # The ratings are those at the end of the last night: a game a week
    # later outside the season moves today's ratings, not the season's.
    before = {row[1]: row[6] for row in rows[1:]}
    later = night_with_a_game(client, "Later", "2026-12-18", ["Bob", "Ann"])
    assert later["id"]
    rows = list(csv.reader(io.StringIO(client.get(
        f"/seasons/{season['id']}/standings.csv").data.decode("utf-8-sig"))))
    assert {row[1]: row[6] for row in rows[1:]} == before
    today = {r["name"]: r["ordinal"] for r in client.get("/api/ratings").get_json()}
    assert today != {name: float(value) for name, value in before.items()}


def test_the_seasons_standings_come_as_pdf(client: FlaskClient) -> None:
    season = new_season(client, "Winter")
    into_season(client, night_with_a_game(client, "One", "2026-12-04",
                                          ["Ann", "Bob"]), season)
    page = parse(client.get(f"/seasons/{season['id']}").data)
    link = page.find("a", data_season_pdf=True).attrs["href"]
    response = client.get(link)
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    assert f"season-{season['id']}-standings.pdf" in response.headers[
        "Content-Disposition"]
    assert client.get("/seasons/999/standings.pdf").status_code == 404


def test_the_seasons_tv_view_shows_its_latest_night_and_follows(
    client: FlaskClient,
) -> None:
    season = new_season(client, "Winter")
    first = night_with_a_game(client, "One", "2026-12-04", ["Ann", "Bob"])
    tonight = new_event(client, "Two", date="2026-12-11")
    for night in (first, tonight):
        into_season(client, night, season)
    running = event_game(client, tonight, ["Cy", "Di"])
    page = parse(client.get(f"/seasons/{season['id']}").data)
    tv_url = page.find("a", data_season_tv=True).attrs["href"]
    tv = parse(client.get(tv_url).data)
    state = json.loads(tv.find("script", data_etv_state=True).text())
    assert state["name"] == "Winter"
    assert [[p["name"] for p in t["players"]] for t in state["tables"]] == [
        ["Cy", "Di"]]
    assert {row["name"] for row in state["standings"]} == {"Ann", "Bob"}
    poll = tv.find(data_etv=True).attrs["data-poll"]
    answer = client.get(poll)
    assert answer.status_code == 200
    etag = answer.headers["ETag"]
    assert client.get(poll, headers={"If-None-Match": etag}).status_code == 304
    running.place((0, 0, "red", "circle"))
    moved = client.get(poll, headers={"If-None-Match": etag})
    assert moved.status_code == 200
    assert moved.get_json()["tables"][0]["players"][0]["score"] == 1
    # By placement the view ranks by value and shows it where wins stand.
    placed = parse(client.get(f"/seasons/{season['id']}/tv?scoring=placement").data)
    heads = [th.text() for th in placed.find("table", data_etv_standings=True)
             .find("thead").find_all("th")]
    assert heads == ["Place", "Player", "Value", "Points"]
    assert heads != [th.text() for th in tv.find("table", data_etv_standings=True)
                     .find("thead").find_all("th")]
    client.delete(f"/api/seasons/{season['id']}")
    assert client.get(poll).status_code == 404
