"""A season's roster (CONTRACT §14): kept in its own table, changed from the
season's page, the night's page or the API, and what a new night in the
season starts its players present from."""

from __future__ import annotations

from flask.testing import FlaskClient
from test_club_night import close, event_game, new_event
from test_history_helpers import parse


def new_season(client: FlaskClient, name: str = "Winter") -> dict:
    made = client.post("/api/seasons", json={"name": name})
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def into_season(client: FlaskClient, event: dict, season: dict) -> None:
    assert client.patch(f"/api/events/{event['id']}", json={"season": season["id"]},
                        headers={"X-Event-Token": event["edit_token"]}
                        ).status_code == 200


def present(client: FlaskClient, event_id: int) -> list[str]:
    box = parse(client.get(f"/events/{event_id}").data).find("textarea",
                                                              name="present")
    typed = "".join(part for part in box.children if isinstance(part, str))
    return [line for line in typed.splitlines() if line]


def test_the_api_adds_and_removes_names_on_a_seasons_roster(
    client: FlaskClient,
) -> None:
    season = new_season(client)
    changed = client.post(f"/api/seasons/{season['id']}/roster",
                          json={"add": ["Ann", " Bob ", "ANN", "Cy"]})
    assert changed.status_code == 200, changed.get_json()
    assert changed.get_json()["roster"] == ["Ann", "Bob", "Cy"]
    after = client.post(f"/api/seasons/{season['id']}/roster",
                        json={"remove": ["bob"], "add": ["Di"]}).get_json()
    assert after["roster"] == ["Ann", "Cy", "Di"]
    assert client.get(f"/api/seasons/{season['id']}").get_json()["roster"] == [
        "Ann", "Cy", "Di"]
    refused = client.post(f"/api/seasons/{season['id']}/roster",
                          json={"add": ["Eve", "\u200b"]})
    assert refused.status_code == 422
    assert client.get(f"/api/seasons/{season['id']}").get_json()["roster"] == [
        "Ann", "Cy", "Di"]  # all or nothing
    assert client.post(f"/api/seasons/{season['id']}/roster",
                       json={"add": "Eve"}).status_code == 400


def test_only_an_organiser_of_one_of_its_nights_changes_a_seasons_roster(
    client: FlaskClient,
) -> None:
    season = new_season(client)
    event = new_event(client, "Friday")
    into_season(client, event, season)
    stranger = client.application.test_client()
    url = f"/api/seasons/{season['id']}/roster"
    assert stranger.post(url, json={"add": ["Zed"]}).status_code == 403
    assert stranger.post(url, json={"add": ["Zed"]}, headers={
        "X-Event-Token": event["join_token"]}).status_code == 403
    assert stranger.post(url, json={"add": ["Zed"]}, headers={
        "X-Event-Token": event["edit_token"]}).status_code == 200
    assert stranger.post(f"/seasons/{season['id']}/roster",
                         data={"add": "Yan"}).status_code == 403
    assert client.get(f"/api/seasons/{season['id']}").get_json()["roster"] == ["Zed"]


def test_a_new_night_in_a_season_starts_from_its_roster(client: FlaskClient) -> None:
    season = new_season(client)
    last = new_event(client, "Last week", date="2026-12-04")
    game = event_game(client, last, ["Ann", "Bob"])
    game.place((0, 0, "red", "circle"))
    close(game)
    tonight = new_event(client, "Tonight", date="2026-12-11")
    # Not in a season: last night's players, as before.
    assert present(client, tonight["id"]) == ["Ann", "Bob"]
    into_season(client, tonight, season)
    # In a season with an empty roster: still last night's.
    assert present(client, tonight["id"]) == ["Ann", "Bob"]
    # The organiser adds names from the night's page: the roster fills the box.
    assert client.post(f"/events/{tonight['id']}/roster",
                       data={"add": "Cy\nDi\n\nAnn"}).status_code == 302
    assert present(client, tonight["id"]) == ["Cy", "Di", "Ann"]
    listed = parse(client.get(f"/seasons/{season['id']}").data).find(
        "ul", data_roster_names=True).find_all("span", data_roster_name=True)
    assert [name.text() for name in listed] == ["Cy", "Di", "Ann"]
    # Taken off on the season's page.
    assert client.post(f"/seasons/{season['id']}/roster",
                       data={"remove": "di"}).status_code == 302
    assert present(client, tonight["id"]) == ["Cy", "Ann"]
    # Once tonight has tables, tonight's players.
    event_game(client, tonight, ["Bob", "Eve"])
    assert present(client, tonight["id"]) == ["Bob", "Eve"]


def test_a_night_in_no_season_has_no_roster_to_change(client: FlaskClient) -> None:
    event = new_event(client, "Alone")
    assert client.post(f"/events/{event['id']}/roster",
                       data={"add": "Ann"}).status_code == 404
    page = parse(client.get(f"/events/{event['id']}").data)
    assert page.find_all(data_roster=True) == []


def test_everyone_who_played_in_the_season_joins_its_roster_in_one_tap(
    client: FlaskClient,
) -> None:
    season = new_season(client)
    nights = [new_event(client, name, date=day) for name, day in (
        ("Two", "2026-12-11"), ("One", "2026-12-04"))]
    for night, names in zip(nights, (["Cy", "ann"], ["Ann", "Bob"]), strict=True):
        into_season(client, night, season)
        event_game(client, night, names)
    elsewhere = new_event(client, "Elsewhere", date="2026-12-05")
    event_game(client, elsewhere, ["Zed", "Yan"])
    client.post(f"/api/seasons/{season['id']}/roster", json={"add": ["Di"]})
    assert client.post(f"/seasons/{season['id']}/roster",
                       data={"played": "1"}).status_code == 302
    # By the nights' dates; a name as written in its latest game.
    assert client.get(f"/api/seasons/{season['id']}").get_json()["roster"] == [
        "Di", "ann", "Bob", "Cy"]
    answer = client.post(f"/api/seasons/{season['id']}/roster",
                         json={"add_played": "yes"})
    assert answer.status_code == 400
