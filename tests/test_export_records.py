"""Game records: download, upload page and API import, including hostile files."""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_history_helpers import corpus_names, corpus_record, parse

from scorekeeper import engine
from scorekeeper.store import games, loaded, stats


def game_count(app: Flask) -> int:
    with app.app_context():
        return stats.count_games()


BOUNDARY = "----qwirkle-test-boundary"


def multipart(data: bytes, filename: str = "game.json", field: str = "file") -> bytes:
    """Return a multipart/form-data body holding one file (built by hand, so that
    the test client spools no temporary file for big uploads)."""
    return (
        (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{field}";'
            f' filename="{filename}"\r\nContent-Type: application/json\r\n\r\n'
        ).encode()
        + data
        + f"\r\n--{BOUNDARY}--\r\n".encode()
    )


def upload(
    client: FlaskClient, data: bytes, filename: str = "game.json", url: str = "/import"
) -> Any:
    return client.post(
        url,
        data=multipart(data, filename),
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )


def upload_json(client: FlaskClient, document: object) -> Any:
    return upload(client, json.dumps(document).encode())


def error_text(response: Any) -> str:
    return parse(response.data).find(data_error=True).text()


@pytest.mark.parametrize("name", corpus_names())
def test_export_then_import_gives_the_same_record_byte_for_byte(
    client: FlaskClient, name: str
) -> None:
    first = upload_json(client, corpus_record(name))
    assert first.status_code == 302
    game_id = int(first.headers["Location"].split("/")[2])
    exported = client.get(f"/games/{game_id}/record.json")
    assert exported.status_code == 200
    assert exported.mimetype == "application/json"
    assert "attachment" in exported.headers["Content-Disposition"]
    assert json.loads(exported.data) == corpus_record(name)

    second = upload(client, exported.data)
    again = client.get(
        f"/games/{int(second.headers['Location'].split('/')[2])}/record.json"
    )
    assert again.data == exported.data
    # The page download and the API's record are the same bytes.
    assert client.get(f"/api/games/{game_id}/record").data == exported.data


def test_download_of_an_unknown_game_is_404(client: FlaskClient) -> None:
    assert client.get("/games/999/record.json").status_code == 404


def test_import_page_shows_an_upload_form(client: FlaskClient) -> None:
    page = parse(client.get("/import").data)
    form = page.find("form", method="post")
    assert form.attrs["enctype"] == "multipart/form-data"
    assert form.find("input", type="file")


def test_imported_game_is_editable_by_the_uploader(client: FlaskClient) -> None:
    response = upload_json(client, corpus_record())
    game_id = int(response.headers["Location"].split("/")[2])
    assert client.get(f"/games/{game_id}/delete").status_code == 200
    other = client.application.test_client()
    assert other.get(f"/games/{game_id}/delete").status_code == 403


def _with_move(record: dict[str, Any], index: int, **changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(record)
    record["moves"][index].update(changes)
    return record


def _hostile_cases() -> list[tuple[str, bytes, str]]:
    record = corpus_record()
    wrong_score = _with_move(record, 4, score=record["moves"][4]["score"] + 1)
    unknown_tile = copy.deepcopy(record)
    unknown_tile["moves"][2]["tiles"][0]["color"] = "magenta"
    illegal = copy.deepcopy(record)
    # Move 3 placed on a cell move 1 already holds.
    illegal["moves"][2]["tiles"][0].update(row=0, col=0)
    wrong_tag = dict(record, format="qwirkle-game/2")
    out_of_turn = _with_move(record, 1, player=1)
    return [
        ("wrong score", json.dumps(wrong_score).encode(), "5"),
        ("unknown tile", json.dumps(unknown_tile).encode(), "3"),
        ("illegal move", json.dumps(illegal).encode(), "3"),
        ("wrong format tag", json.dumps(wrong_tag).encode(), "qwirkle-game/1"),
        ("out of turn", json.dumps(out_of_turn).encode(), "2"),
        ("not JSON", b"this is { not json", "not JSON"),
        ("JSON list", b"[1, 2, 3]", "object"),
        ("JSON string", b'"qwirkle"', "object"),
        ("not UTF-8", b"\xff\xfe\x00\x00garbage", "UTF-8"),
        ("empty file", b"", "not JSON"),
        ("deep nesting", b"[" * 100_000 + b"]" * 100_000, ""),
        ("moves not a list", json.dumps(dict(record, moves=5)).encode(), ""),
        (
            "tiles not a list",
            json.dumps(_with_move(record, 0, tiles="red")).encode(),
            "1",
        ),
        (
            "variant nonsense",
            json.dumps(dict(record, variant={"colors": 99})).encode(),
            "",
        ),
        (
            "duplicate names",
            json.dumps(dict(record, players=["Ann", "ann"])).encode(),
            "Two players",
        ),
    ]


@pytest.mark.parametrize(
    ("label", "data", "needle"), _hostile_cases(), ids=[c[0] for c in _hostile_cases()]
)
def test_a_bad_upload_is_refused_with_a_reason_and_stores_nothing(
    app: Flask, client: FlaskClient, label: str, data: bytes, needle: str
) -> None:
    before = game_count(app)
    response = upload(client, data)
    assert response.status_code == 422, label
    message = error_text(response)
    assert message
    assert needle in message
    assert game_count(app) == before


@pytest.mark.parametrize(("index", "number"), [(4, 5), (30, 31)])
def test_a_wrong_score_names_the_move_number(
    client: FlaskClient, index: int, number: int
) -> None:
    record = corpus_record()
    bad = _with_move(record, index, score=record["moves"][index]["score"] + 3)
    message = error_text(upload_json(client, bad))
    assert f"{number}" in message
    assert f"Move {number}" in message
    assert "points" in message


def test_an_illegal_move_names_its_number_and_reason(client: FlaskClient) -> None:
    record = corpus_record()
    record["moves"][2]["tiles"][0].update(row=0, col=0)
    message = error_text(upload_json(client, record))
    assert "3" in message
    assert "occupied" in message.lower() or "already" in message.lower()


def test_a_huge_file_is_refused(app: Flask, client: FlaskClient) -> None:
    huge = b'{"format": "qwirkle-game/1", "pad": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    response = upload(client, huge)
    # Either the app-wide body limit (413) or the record limit (422) stops it.
    assert response.status_code in (413, 422)
    assert game_count(app) == 0


def test_a_record_just_over_the_record_limit_is_refused_by_size(
    app: Flask, client: FlaskClient
) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 10 * 1024 * 1024
    body = b'{"format": "qwirkle-game/1", "pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    response = upload(client, body)
    assert response.status_code == 422
    assert "too large" in error_text(response)


def test_upload_without_a_file_is_refused(client: FlaskClient) -> None:
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422


def test_import_form_needs_the_csrf_token(csrf_client: FlaskClient) -> None:
    response = upload(csrf_client, json.dumps(corpus_record()).encode())
    assert response.status_code == 400
    with csrf_client.application.app_context():
        assert stats.count_games() == 0


def test_import_form_works_with_the_csrf_token(csrf_client: FlaskClient) -> None:
    page = parse(csrf_client.get("/import").data)
    token = page.find("input", name="csrf_token").attrs["value"]
    response = csrf_client.post(
        "/import",
        data={
            "csrf_token": token,
            "file": (io.BytesIO(json.dumps(corpus_record()).encode()), "g.json"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 302


@pytest.mark.parametrize(
    "body",
    [
        [1, 2],
        {"format": "nope"},
        {"format": "qwirkle-game/1", "variant": {}, "players": ["A", "B"], "moves": {}},
    ],
)
def test_api_import_refuses_hostile_bodies_without_storing(
    app: Flask, client: FlaskClient, body: object
) -> None:
    response = client.post("/api/games/import", json=body)
    assert response.status_code in (400, 422)
    assert "error" in response.get_json()
    assert game_count(app) == 0


def test_api_import_wrong_score_is_422_score_mismatch(client: FlaskClient) -> None:
    record = corpus_record()
    bad = _with_move(record, 6, score=record["moves"][6]["score"] + 1)
    response = client.post("/api/games/import", json=bad)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "score_mismatch"
    assert "7" in error["message"]


def test_engine_records_round_trip_through_the_store(app: Flask) -> None:
    record = corpus_record("n5-c2-h5-10101.json")
    with app.test_request_context():
        game_id, _token = games.store_game(*reversed(engine.from_record(record)))
        with loaded(game_id) as row:
            assert engine.to_record(row.game, row.names) == record
