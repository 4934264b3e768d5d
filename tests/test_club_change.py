"""Renaming and deleting a club night (CONTRACT §14), by the JSON API and the
event's page: only with the event's token (X-Event-Token, or the session's
with CSRF), or from this machine or an admin session; bad input is a 422 that
changes nothing; deleting a night keeps every game it had."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import pytest
from conftest import fresh_database, make_app
from flask import Flask
from flask.testing import FlaskClient
from test_club_night import close, event_game, new_event
from test_history_helpers import parse

GUEST = "192.168.1.50"
"""Another phone on the club's Wi-Fi: not this machine."""


@pytest.fixture
def app(database: Path) -> Flask:
    return make_app(fresh_database(database), ADMIN_PIN="2468", WTF_CSRF_ENABLED=True)


def phone(app: Flask) -> FlaskClient:
    client = app.test_client()
    client.environ_base.update({"REMOTE_ADDR": GUEST})
    return client


def csrf_of(client: FlaskClient, path: str) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"',
                      client.get(path).get_data(as_text=True))
    assert found, path
    return found.group(1)


def night_with_games(app: Flask) -> tuple[dict, list[int]]:
    """A club night made by a guest's phone, with one finished and one running game."""
    host = phone(app)
    event = new_event(host, "Friday", date="2026-12-04")
    done = event_game(host, event, ["Ann", "Bob"])
    done.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    close(done)
    running = event_game(host, event, ["Cy", "Di"])
    return event, [done.id, running.id]


def test_the_api_renames_a_night_with_its_token(app: Flask) -> None:
    event, games = night_with_games(app)
    stranger = phone(app)
    token = {"X-Event-Token": event["edit_token"]}
    answer = stranger.patch(f"/api/events/{event['id']}", headers=token,
                            json={"name": "  Friday   finals "})
    assert answer.status_code == 200
    assert answer.get_json() == stranger.get(f"/api/events/{event['id']}").get_json()
    assert answer.get_json()["name"] == "Friday finals"
    assert answer.get_json()["date"] == "2026-12-04"  # left as it was
    assert answer.get_json()["games"] == games
    answer = stranger.patch(f"/api/events/{event['id']}", headers=token,
                            json={"date": "2026-12-05"})
    assert answer.get_json()["name"] == "Friday finals"
    assert answer.get_json()["date"] == "2026-12-05"


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"name": " "}, 422, "invalid_event"),
    ({"name": "x" * 200}, 422, "invalid_event"),
    ({"name": "Tab\tbed\x07"}, 422, "invalid_event"),
    ({"name": 12}, 422, "invalid_event"),
    ({"date": "04-12-2026"}, 422, "invalid_event"),
    ({"date": "2026-02-30"}, 422, "invalid_event"),
    (["Friday"], 400, "bad_request"),
    ("Friday", 400, "bad_request"),
])
def test_bad_input_is_refused_and_changes_nothing(
    app: Flask, body: object, status: int, code: str
) -> None:
    event, _ = night_with_games(app)
    client = phone(app)
    before = client.get(f"/api/events/{event['id']}").get_json()
    answer = client.patch(f"/api/events/{event['id']}", json=body,
                          headers={"X-Event-Token": event["edit_token"]})
    assert answer.status_code == status
    assert answer.get_json()["error"]["code"] == code
    assert answer.get_json()["error"]["message"]
    assert client.get(f"/api/events/{event['id']}").get_json() == before


def test_without_the_events_rights_nothing_changes(app: Flask) -> None:
    event, games = night_with_games(app)
    stranger = phone(app)
    url = f"/api/events/{event['id']}"
    for headers, code in (({}, "missing_event_token"),
                          ({"X-Event-Token": "wrong"}, "bad_event_token")):
        answer = stranger.patch(url, headers=headers, json={"name": "Mine"})
        assert answer.status_code == 403
        assert answer.get_json()["error"]["code"] == code
        answer = stranger.delete(url, headers=headers)
        assert answer.status_code == 403
    # Another event's token is not this one's.
    other = new_event(stranger, "Saturday")
    answer = stranger.delete(url, headers={"X-Event-Token": other["edit_token"]})
    assert answer.status_code == 403
    assert stranger.get(url).get_json()["name"] == "Friday"
    assert stranger.get(url).get_json()["games"] == games
    # The pages too: no link, and the forms answer 403.
    page = parse(stranger.get(f"/events/{event['id']}").data)
    assert not page.find_all("a", data_event_change=True)
    assert stranger.get(f"/events/{event['id']}/edit").status_code == 403
    token = csrf_of(stranger, "/events")
    assert stranger.post(f"/events/{event['id']}/delete",
                         data={"csrf_token": token}).status_code == 403
    assert stranger.post(f"/events/{event['id']}/edit", data={
        "name": "Mine", "csrf_token": token}).status_code == 403
    # An unknown event: 404 either way.
    assert stranger.patch("/api/events/999", json={"name": "X"}).status_code == 404
    assert stranger.delete("/api/events/999").status_code == 404
    assert stranger.get("/events/999/edit").status_code == 404


def test_the_session_token_needs_the_pages_csrf_token(app: Flask) -> None:
    event, _ = night_with_games(app)
    guest = phone(app)
    guest.get(f"/events/{event['id']}/join/{event['edit_token']}")
    url = f"/api/events/{event['id']}"
    answer = guest.patch(url, json={"name": "Mine"})
    assert answer.status_code == 403
    assert answer.get_json()["error"]["code"] == "csrf_failed"
    token = csrf_of(guest, f"/events/{event['id']}")
    answer = guest.patch(url, json={"name": "Mine"}, headers={"X-CSRFToken": token})
    assert answer.status_code == 200 and answer.get_json()["name"] == "Mine"


def test_deleting_a_night_keeps_its_games(app: Flask) -> None:
    event, games = night_with_games(app)
    client = phone(app)
    answer = client.delete(f"/api/events/{event['id']}",
                           headers={"X-Event-Token": event["edit_token"]})
    assert answer.status_code == 200
    assert answer.get_json() == {"id": event["id"], "deleted": True, "games": games}
    assert client.get(f"/api/events/{event['id']}").status_code == 404
    for game_id in games:
        assert client.get(f"/api/games/{game_id}").status_code == 200
    history = client.get("/history").get_data(as_text=True)
    assert all(f"/games/{game_id}/" in history for game_id in games)
    # The finished game still counts for the ratings.
    assert {r["name"] for r in client.get("/api/ratings").get_json()} == {"Ann", "Bob"}
    assert client.delete(f"/api/events/{event['id']}",
                         headers={"X-Event-Token": event["edit_token"]}
                         ).status_code == 404


def test_s15_the_admin_may_change_any_night_and_this_machine_alone_not(
    app: Flask,
) -> None:
    event, games = night_with_games(app)
    here = app.test_client()  # 127.0.0.1: the machine the server runs on
    answer = here.patch(f"/api/events/{event['id']}", json={"name": "By the host"})
    assert answer.status_code == 403
    admin = phone(app)
    assert admin.delete(f"/api/events/{event['id']}").status_code == 403
    logged = admin.post("/admin", data={"admin_pin": "2468",
                                        "csrf_token": csrf_of(admin, "/admin")})
    assert logged.status_code == 302
    answer = admin.delete(f"/api/events/{event['id']}")
    assert answer.status_code == 200 and answer.get_json()["games"] == games


def test_the_event_page_renames_and_deletes_by_its_forms(app: Flask) -> None:
    event, games = night_with_games(app)
    guest = phone(app)
    guest.get(f"/events/{event['id']}/join/{event['edit_token']}")
    page = parse(guest.get(f"/events/{event['id']}").data)
    link = page.find("a", data_event_change=True)
    assert link.attrs["href"] == f"/events/{event['id']}/edit"
    form = parse(guest.get(link.attrs["href"]).data)
    assert form.find("input", id="name").attrs["value"] == "Friday"
    assert "2 games stay in the history" in form.find(data_delete_note=True).text()
    token = csrf_of(guest, link.attrs["href"])
    # Without the CSRF token: refused, nothing changes.
    answer = guest.post(link.attrs["href"], data={"name": "Other", "date": ""})
    assert answer.status_code == 400
    assert guest.get(f"/api/events/{event['id']}").get_json()["name"] == "Friday"
    # A bad name: 422 with the sentence, nothing changes.
    answer = guest.post(link.attrs["href"],
                        data={"name": " ", "date": "", "csrf_token": token})
    assert answer.status_code == 422
    assert parse(answer.data).find(data_error=True).text() == "Give the evening a name."
    assert guest.get(f"/api/events/{event['id']}").get_json()["name"] == "Friday"
    answer = guest.post(link.attrs["href"], data={
        "name": "Friday finals", "date": "2026-12-11", "csrf_token": token})
    assert answer.status_code == 302
    assert parse(guest.get(f"/events/{event['id']}").data).find("h1").text() == (
        "Friday finals")
    # Delete: without CSRF refused; with it, the night goes and its games stay.
    assert guest.post(f"/events/{event['id']}/delete").status_code == 400
    answer = guest.post(f"/events/{event['id']}/delete", data={"csrf_token": token})
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/events?undo={event['id']}"
    listed = guest.get("/events").get_data(as_text=True)
    assert "Club night deleted; its 2 games stay in the history." in listed
    assert "Friday finals" not in listed
    for game_id in games:
        assert guest.get(f"/api/games/{game_id}").status_code == 200


@pytest.mark.parametrize("route", ["create", "import"])
def test_a_game_started_while_its_night_is_deleted_is_not_kept(
    app: Flask, monkeypatch: pytest.MonkeyPatch, route: str
) -> None:
    """The night is checked, then deleted by another device before the new game
    joins it: the answer is 404 and no game stays (it was a 500, the game kept
    in no night, when the foreign key refused the link)."""
    from scorekeeper.web.api import games as api

    event, games = night_with_games(app)
    host = phone(app)
    token = {"X-Event-Token": event["edit_token"]}
    before = host.get("/api/games?limit=100").get_json()["games"]
    store = {"create": "create_game", "import": "store_game"}[route]
    original = getattr(api.stored, store)

    def then_deleted(*args: object, **kwargs: object) -> object:
        made = original(*args, **kwargs)
        gone = host.delete(f"/api/events/{event['id']}", headers=token)
        assert gone.status_code == 200
        return made

    monkeypatch.setattr(api.stored, store, then_deleted)
    if route == "create":
        answer = host.post("/api/games", headers=token,
                           json={"players": ["Eve", "Fay"], "event": event["id"]})
    else:
        record = host.get(f"/api/games/{games[0]}/record").get_json()
        answer = host.post(f"/api/games/import?event={event['id']}", headers=token,
                           json=record)
    assert answer.status_code == 404, answer.get_json()
    assert answer.get_json()["error"]["code"] == "not_found"
    assert host.get("/api/games?limit=100").get_json()["games"] == before


def test_the_screens_see_a_rename_and_then_that_the_night_is_gone(
    app: Flask,
) -> None:
    """What the night's page and TV view poll: a rename is a new state (not a
    304), and once the night is deleted the poll and the stream answer 404 and
    an open stream ends (the pages then say so: tests/browser)."""
    app.config["TV_STREAM_SECONDS"] = 5.0
    event, _games = night_with_games(app)
    client = phone(app)
    url = f"/events/{event['id']}/tv.json"
    etag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    client.patch(f"/api/events/{event['id']}", json={"name": "Saturday"},
                 headers={"X-Event-Token": event["edit_token"]})
    renamed = client.get(url, headers={"If-None-Match": etag})
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "Saturday"
    # The same name and date again: nothing new to show.
    etag = renamed.headers["ETag"]
    client.patch(f"/api/events/{event['id']}", json={"name": "Saturday"},
                 headers={"X-Event-Token": event["edit_token"]})
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    stream = client.get(f"/events/{event['id']}/tv/events", buffered=False)
    chunks = iter(stream.response)
    assert b"Saturday" in b"".join(next(chunks) for _ in range(2))
    client.delete(f"/api/events/{event['id']}",
                  headers={"X-Event-Token": event["edit_token"]})
    started = time.monotonic()
    assert b"".join(chunks) == b""  # ends at its next look, long before 5 s
    assert time.monotonic() - started < 2.0
    stream.close()
    assert client.get(url).status_code == 404
    assert client.get(f"/events/{event['id']}/tv/events").status_code == 404


def test_a_deleted_nights_id_is_never_given_to_a_new_night(app: Flask) -> None:
    # A screen still following the deleted night would otherwise show the
    # next night as if the deleted one had been renamed.
    host = phone(app)
    first = new_event(host, "Monday")
    newest = new_event(host, "Friday")
    assert host.delete(f"/api/events/{newest['id']}",
                       headers={"X-Event-Token": newest["edit_token"]}
                       ).status_code == 200
    after = new_event(host, "Saturday")
    assert after["id"] not in (first["id"], newest["id"])
    assert host.get(f"/events/{newest['id']}/tv.json").status_code == 404


def test_the_upgrade_to_unreused_night_ids_keeps_every_game_at_its_night(
    database: Path,
) -> None:
    client = make_app(database).test_client()
    monday = new_event(client, "Monday")
    game_ids = [event_game(client, monday, ["Ann", "Bob"]).id,
                event_game(client, monday, ["Cy", "Di"]).id]
    friday = new_event(client, "Friday")
    # Back to the table as the release before made it (m600), its upgrade
    # not yet applied.
    conn = sqlite3.connect(database)
    conn.execute("PRAGMA foreign_keys = OFF")
    # The rename must not check the later triggers that name events (m850).
    conn.execute("PRAGMA legacy_alter_table = ON")
    conn.executescript(
        "BEGIN;"
        "CREATE TABLE events_old (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " date TEXT NOT NULL, edit_token TEXT NOT NULL, created_at TEXT NOT NULL);"
        "INSERT INTO events_old SELECT id, name, date, edit_token, created_at"
        " FROM events;"
        "DROP TABLE events; ALTER TABLE events_old RENAME TO events;"
        "DROP TABLE event_rounds; DROP TABLE seasons; DROP TABLE deleted_events;"
        "DELETE FROM sqlite_sequence WHERE name = 'events';"
        "DELETE FROM _sqlite_migrations WHERE name IN"
        " ('m810_event_ids_never_reused', 'm840_club_organiser',"
        " 'm880_leavers');"
        "COMMIT;"
    )
    conn.close()

    client = make_app(database).test_client()
    assert client.get(f"/api/events/{monday['id']}").get_json()["games"] == game_ids
    client.delete(f"/api/events/{friday['id']}")  # this machine may
    saturday = new_event(client, "Saturday")
    assert saturday["id"] not in (monday["id"], friday["id"])
    conn = sqlite3.connect(database)
    try:
        sql = conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'events'").fetchone()[0]
        assert "AUTOINCREMENT" in sql
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()
