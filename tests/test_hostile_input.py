"""Bad input never reaches a 500 and changes nothing: huge numbers in
any JSON (API, the restore page, `scorekeeper restore`), a time-zone cookie
naming a folder of zones, and hostile values in every cookie and header the
app reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import make_app, new_game
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_export_records import BOUNDARY, multipart
from test_history_helpers import corpus_names, corpus_record, parse

from scorekeeper import __main__ as command
from scorekeeper.store import stats

HUGE = "9" * 5000
"""An integer past Python's 4,300-digit conversion limit."""

LARGE = "9" * 400
"""An integer Python parses, but far beyond anything a game holds."""


def count(app: Flask) -> int:
    with app.app_context():
        return stats.count_games()


def backup_with(number: str) -> bytes:
    """A backup of one corpus game whose first move's score is `number`."""
    text = json.dumps({
        "format": "qwirkle-backup/1",
        "games": [corpus_record(corpus_names()[0])],
    })
    return text.replace('"score": ', f'"score": {number}, "x": ', 1).encode()


# --- huge numbers ---


@pytest.mark.parametrize("number", [HUGE, LARGE, "-" + HUGE, "1e999", "NaN",
                                    "Infinity"])
def test_a_huge_number_in_an_api_body_is_422_and_stores_nothing(
    app: Flask, client: FlaskClient, number: str
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    bodies = {
        "/api/games": f'{{"players": ["Ann", "Bob"], "first_player": {number}}}',
        f"/api/games/{game_id}/moves": f'{{"type": "trade", "count": {number}}}',
        "/api/games/import": json.dumps(corpus_record(corpus_names()[0])).replace(
            '"score": ', f'"score": {number}, "y": ', 1),
    }
    for path, body in bodies.items():
        response = client.post(path, data=body, content_type="application/json")
        assert response.status_code == 422, (path, response.data[:200])
        assert response.get_json()["error"]["code"] == "number_too_large"
    assert count(app) == 1
    assert client.get(f"/api/games/{game_id}").get_json()["turn"] == 0


def test_a_huge_number_in_a_restored_backup_is_422_and_stores_nothing(
    app: Flask, client: FlaskClient
) -> None:
    response = client.post("/api/restore", data=backup_with(HUGE),
                           content_type="application/json")
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "number_too_large"
    assert count(app) == 0


def test_a_huge_number_in_an_uploaded_backup_is_422_and_stores_nothing(
    app: Flask, client: FlaskClient
) -> None:
    response = client.post(
        "/restore", data=multipart(backup_with(HUGE), "backup.json"),
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )
    assert response.status_code == 422
    assert "too large" in parse(response.data).find(data_error=True).text()
    assert count(app) == 0


def test_a_huge_number_in_an_imported_record_file_is_refused(
    app: Flask, client: FlaskClient
) -> None:
    record = json.dumps(corpus_record(corpus_names()[0])).replace(
        '"score": ', f'"score": {HUGE}, "y": ', 1).encode()
    response = client.post(
        "/import", data=multipart(record, "game.json"),
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )
    assert response.status_code == 422
    assert count(app) == 0


def test_the_restore_command_refuses_a_huge_number_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = tmp_path / "huge.json"
    backup.write_bytes(backup_with(HUGE))
    folder = tmp_path / "instance"

    code = command.main(["restore", str(backup), "--instance", str(folder)])
    err = capsys.readouterr().err

    assert code == 1
    assert "nothing was restored" in err and "too large" in err
    assert "Traceback" not in err
    assert count(make_app(folder / "scorekeeper.sqlite3")) == 0


# --- the time zone cookie ---


@pytest.mark.parametrize("zone", ["America", "Etc", "Europe", "zone.tab",
                                  "tzdata.zi", "posixrules", "America/", "..",
                                  "Europe/../Europe/Paris", "UTC\x00"])
def test_a_zone_cookie_naming_no_zone_is_ignored(
    client: FlaskClient, zone: str
) -> None:
    game_id = new_game(client, "Anna", "Chris")
    client.set_cookie("tz", zone)
    for path in ("/", "/history", f"/games/{game_id}", f"/games/{game_id}/replay"):
        response = client.get(path)
        assert response.status_code == 200, (path, zone)
    assert "UTC" in client.get("/history").get_data(as_text=True)


def test_a_known_zone_cookie_still_applies(client: FlaskClient) -> None:
    new_game(client, "Anna", "Chris")
    client.set_cookie("tz", "Asia/Tokyo")
    page = client.get("/history").get_data(as_text=True)
    assert "UTC" not in parse(page.encode()).find("main").text()


# --- every cookie and header the app reads ---

COOKIES = ("session", "lang", "tz", "scorekeeper_device")
"""Every cookie the app reads."""

HEADERS = (
    "Accept-Language", "Accept-Encoding", "X-Edit-Token", "X-Admin-Pin",
    "X-CSRFToken", "If-None-Match", "Last-Event-ID", "Forwarded",
    "X-Forwarded-For", "X-Real-IP",
)
"""Every request header the app reads."""

HOSTILE_TEXT = st.one_of(
    st.sampled_from([
        "America", "Etc", "..", "/etc/passwd", "\x00", "é" * 300, "9" * 5000,
        '"', "'; DROP TABLE games;--", "nl;q=abc", "*;q=1e999", "W/\"\"",
        "for=\"[::1]\"", "127.0.0.1, 127.0.0.1", "unknown", "eyJ0b2tlbnMiOnt9fQ",
        ".eJyrVkrLz1eyUkpKLFKqBQAb8wS0.Z.x", "gzip;q=NaN", "a" * 8000,
    ]),
    st.text(max_size=200),
)

PAGES = ("/", "/history", "/games/{id}", "/games/{id}/replay", "/api/games/{id}",
         "/games/{id}/tv.json", "/restore", "/players", "/games/{id}/join.svg",
         "/admin")


def latin1(value: str) -> str:
    """A header or cookie value as it can travel (HTTP carries bytes, latin-1)."""
    return value.encode("utf-8", "replace").decode("latin-1").replace("\r", " ") \
        .replace("\n", " ")


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Flask, int]:
    app = make_app(tmp_path_factory.mktemp("fuzz") / "db.sqlite3")
    return app, new_game(app.test_client(), "Anna", "Chris")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    cookies=st.dictionaries(st.sampled_from(COOKIES), HOSTILE_TEXT, max_size=4),
    headers=st.dictionaries(st.sampled_from(HEADERS), HOSTILE_TEXT, max_size=5),
    page=st.sampled_from(PAGES),
    remote=st.sampled_from(["127.0.0.1", "192.168.1.50", "::1", "fe80::1"]),
)
# Attacks found once, always tried: a folder of zones, a 5,000-digit PIN.
@example(cookies={"tz": "Etc"}, headers={}, page="/", remote="192.168.1.50")
@example(cookies={}, headers={"X-Admin-Pin": "9" * 5000}, page="/restore",
         remote="192.168.1.50")
def test_hostile_cookies_and_headers_never_give_a_server_error(
    fuzzed: tuple[Flask, int], cookies: dict[str, str], headers: dict[str, str],
    page: str, remote: str,
) -> None:
    app, game_id = fuzzed
    # No cookie jar: it would replace the raw Cookie header with its own.
    client = app.test_client(use_cookies=False)
    sent: dict[str, Any] = {name: latin1(value) for name, value in headers.items()}
    # Sent raw, as a hostile client would: no quoting, no size limit.
    sent["Cookie"] = "; ".join(f"{name}={latin1(value)}"
                               for name, value in cookies.items())
    path = page.format(id=game_id)
    response = client.get(path, headers=sent, environ_base={"REMOTE_ADDR": remote})
    assert response.status_code < 500, (path, cookies, headers)
    moved = client.post(
        f"/api/games/{game_id}/moves", json={"type": "pass"}, headers=sent,
        environ_base={"REMOTE_ADDR": remote},
    )
    assert moved.status_code < 500
    claimed = client.post(f"/games/{game_id}/claim", data={"pin": "123456"},
                          headers=sent, environ_base={"REMOTE_ADDR": remote})
    assert claimed.status_code < 500
