"""Backups carry club nights (CONTRACT §14): the optional top-level "events" key."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import TableGame, as_admin, make_app
from flask.testing import FlaskClient
from test_club_night import close, event_game, new_event


def evening(client: FlaskClient) -> tuple[dict, list[TableGame]]:
    event = new_event(client, "Backup night", date="2026-12-04")
    outside = event_game(client, None, ["Zoe", "Yan"])
    first = event_game(client, event, ["Ann", "Bob"])
    first.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    close(first)
    second = event_game(client, event, ["Cas", "Ann"])
    second.place((0, 0, "blue", "circle"))
    return event, [outside, first, second]


def restore(client: FlaskClient, document: dict) -> object:
    return client.post("/api/restore", data=json.dumps(document),
                       content_type="application/json")


def test_a_backup_lists_each_club_night_with_its_games_by_position(
    client: FlaskClient,
) -> None:
    event, games = evening(client)
    document = json.loads(client.get("/api/backup").data)
    assert len(document["games"]) == 3
    [night] = document["events"]
    assert night["name"] == "Backup night" and night["date"] == "2026-12-04"
    assert night["games"] == [1, 2]  # not the game outside the event
    assert "edit_token" not in night


def test_a_backup_without_club_nights_has_no_events_key(client: FlaskClient) -> None:
    event_game(client, None, ["Ann", "Bob"])
    assert "events" not in json.loads(client.get("/api/backup").data)


def test_restoring_a_backup_brings_its_club_nights_back_once(
    client: FlaskClient, tmp_path: Path
) -> None:
    event, _games = evening(client)
    before = client.get(f"/api/events/{event['id']}").get_json()
    document = json.loads(client.get("/api/backup").data)
    fresh = as_admin(make_app(tmp_path / "fresh.sqlite3").test_client())
    response = restore(fresh, document)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["restored"] == 3
    after = fresh.get("/api/events/1").get_json()
    assert after["name"] == before["name"] and after["date"] == before["date"]
    assert after["standings"] == before["standings"]
    assert len(after["games"]) == 2
    # The same backup again: the games are skipped and the night is not doubled.
    again = restore(fresh, document)
    assert again.get_json() == {"restored": 0, "skipped": 3}
    assert fresh.get("/api/events/2").status_code == 404
    assert fresh.get("/api/events/1").get_json()["games"] == after["games"]
    # A fresh token: the one of the original server adds nothing here.
    refused = fresh.post("/api/games", json={"players": ["A", "B"], "event": 1},
                         headers={"X-Event-Token": event["edit_token"]})
    assert refused.status_code == 403


def test_club_nights_before_the_games_restore_too(
    client: FlaskClient, tmp_path: Path
) -> None:
    evening(client)
    document = json.loads(client.get("/api/backup").data)
    reordered = {"format": document["format"], "events": document["events"],
                 "exported_at": document["exported_at"], "games": document["games"]}
    fresh = as_admin(make_app(tmp_path / "fresh.sqlite3").test_client())
    assert restore(fresh, reordered).status_code == 200
    assert len(fresh.get("/api/events/1").get_json()["games"]) == 2


def test_malformed_club_nights_refuse_the_whole_backup(
    client: FlaskClient, tmp_path: Path
) -> None:
    evening(client)
    document = json.loads(client.get("/api/backup").data)
    fresh = as_admin(make_app(tmp_path / "fresh.sqlite3").test_client())
    for events in (
        {"name": "x"},
        [{"name": "", "date": "2026-12-04", "created_at": "2026-12-04T19:00:00",
          "games": []}],
        [{"name": "N", "date": "2026-13-04", "created_at": "2026-12-04T19:00:00",
          "games": []}],
        [{"name": "N", "date": "2026-12-04", "created_at": "not a time",
          "games": []}],
        [{"name": "N", "date": "2026-12-04", "created_at": "2026-12-04T19:00:00",
          "games": [-1]}],
        [{"name": "N", "date": "2026-12-04", "created_at": "2026-12-04T19:00:00",
          "games": ["0"]}],
    ):
        response = restore(fresh, {**document, "events": events})
        assert response.status_code == 422, events
        assert response.get_json()["error"]["code"] == "bad_events"
    assert fresh.get("/api/games").get_json()["total"] == 0
    assert fresh.get("/api/events/1").status_code == 404


def test_a_backup_carries_each_nights_season_and_choice(
    client: FlaskClient, tmp_path: Path
) -> None:
    event, _games = evening(client)
    season = client.post("/api/seasons", json={"name": "Winter"}).get_json()
    assert client.patch(f"/api/events/{event['id']}", json={
        "season": season["id"], "count_ended": False, "count_leavers": False,
    }).status_code == 200
    document = json.loads(client.get("/api/backup").data)
    [night] = document["events"]
    assert night["season"] == "Winter" and night["count_ended"] is False
    assert night["count_leavers"] is False
    fresh = as_admin(make_app(tmp_path / "fresh.sqlite3").test_client())
    assert restore(fresh, document).status_code == 200
    after = fresh.get("/api/events/1").get_json()
    assert after["count_ended"] is False and after["count_leavers"] is False
    assert fresh.get(f"/api/seasons/{after['season']}").get_json()["name"] == "Winter"
    # A night of an older backup (no season, no choice) counts every game.
    for key in ("season", "count_ended", "count_leavers"):
        del night[key]
    older = as_admin(make_app(tmp_path / "older.sqlite3").test_client())
    assert restore(older, document).status_code == 200
    plain = older.get("/api/events/1").get_json()
    assert plain["season"] is None and plain["count_ended"] is True
    assert plain["count_leavers"] is True
