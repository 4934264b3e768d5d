"""Teach the colours, end to end: a household photographs one tile
of each colour on the page, sees the six colours read, keeps them, and the
first photo of a new game reads their real paint right; a photo that is not
one tile of each colour is a clear 422 and stores nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import fresh_database, make_app, new_game, token_of
from flask import Flask
from flask.testing import FlaskClient
from photo.teaching import APART, FAR_SHIFTED, IN_A_ROW, REDDEST_ORANGE, photo, six
from photo.white import WHITE_FOR_PURPLE

from scorekeeper.photo.color_lessons import COLORS
from scorekeeper.photo.lessons import Taught
from scorekeeper.store import photo_lessons
from scorekeeper.web import photo_upload

ORANGE_MOVE = ((0, 0, "orange", "circle"), (0, 1, "orange", "clover"),
               (0, 2, "orange", "diamond"))


@pytest.fixture
def app(database: Path) -> Flask:
    """The app reading photos in its own thread (no helper process to start)."""
    return make_app(fresh_database(database), RENDER_IN_PROCESS=False)


@pytest.fixture(scope="module")
def teaching() -> bytes:
    return photo(six(APART, 1), 1, 0.0, REDDEST_ORANGE)


@pytest.fixture(scope="module")
def first_move() -> bytes:
    """Three orange tiles of a set whose orange lies where red does: read
    red with nothing taught."""
    return photo(ORANGE_MOVE, 101, 0.0, REDDEST_ORANGE)


def multipart(data: bytes | None, **fields: str) -> tuple[bytes, str]:
    """A form body as a phone's browser sends it: the photo and the fields."""
    boundary = "teach-boundary-Q7f3"
    body = b""
    for name, value in fields.items():
        body += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"'
                 f"\r\n\r\n{value}\r\n").encode()
    if data is not None:
        body += (f'--{boundary}\r\nContent-Disposition: form-data; name="image";'
                 ' filename="colours.jpg"\r\nContent-Type: image/jpeg\r\n\r\n'
                 ).encode() + data + b"\r\n"
    return body + f"--{boundary}--\r\n".encode(), \
        f"multipart/form-data; boundary={boundary}"


def send_teaching(client: FlaskClient, game_id: int, data: bytes | None,
                  **fields: str) -> Any:
    body, kind = multipart(data, **fields)
    return client.post(f"/games/{game_id}/colours", data=body, content_type=kind)


def read_first_move(client: FlaskClient, game_id: int, data: bytes) -> list[str]:
    """The colours the API reads from a photo of the game's first move."""
    body, kind = multipart(data)
    response = client.post(f"/api/games/{game_id}/photo", data=body,
                           content_type=kind,
                           headers={"X-Edit-Token": token_of(client, game_id)})
    assert response.status_code == 200, response.get_json()
    return [t["color"] for t in response.get_json()["tiles"]]


def named(html: str, marker: str) -> list[str]:
    """The colours a swatch list of the page names, in order."""
    part = html.split(marker, 1)[1].split("</ul>", 1)[0]
    return re.findall(r'data-color="(\w+)"', part)


def test_teaching_once_makes_a_new_games_first_photo_read_the_real_paint(
        client: FlaskClient, app: Flask, teaching: bytes, first_move: bytes) -> None:
    before = new_game(client, "Ann", "Bob")
    assert read_first_move(client, before, first_move) == ["red"] * 3

    page = client.get(f"/games/{before}")
    assert f'href="/games/{before}/colours"' in page.get_data(as_text=True)
    response = send_teaching(client, before, teaching)
    html = response.get_data(as_text=True)
    assert response.status_code == 200, html
    assert named(html, "data-colours-read") == [
        "red", "orange", "yellow", "green", "blue", "purple"]
    with app.app_context():
        assert photo_lessons.installation_colors() == []  # not kept yet
    kept = client.post(f"/games/{before}/colours/keep")
    assert kept.status_code == 302
    with app.app_context():
        rows = photo_lessons.installation_colors()
    assert sorted(name for _, name, *_ in rows) == sorted(
        ["red", "orange", "yellow", "green", "blue", "purple"])

    # A new game: an empty board, no stored tile to anchor its colours.
    after = new_game(client, "Cleo", "Dan")
    assert read_first_move(client, after, first_move) == ["orange"] * 3
    html = client.get(f"/games/{after}/colours").get_data(as_text=True)
    assert named(html, "data-colours-known")[1] == "orange"


def test_teaching_again_replaces_the_colours_and_forgetting_clears_them(
        client: FlaskClient, app: Flask, teaching: bytes) -> None:
    game = new_game(client, "Ann", "Bob")
    for data in (teaching, photo(six(IN_A_ROW, 2), 2, 0.8, FAR_SHIFTED)):
        assert send_teaching(client, game, data).status_code == 200
        assert client.post(f"/games/{game}/colours/keep").status_code == 302
    with app.app_context():
        rows = photo_lessons.installation_colors()
    # Replaced, not added to: each colour counts as one teaching's examples.
    assert len(rows) == 6 and all(count == 3 for _, _, count, *_ in rows)
    forgot = client.post(f"/games/{game}/colours/forget")
    assert forgot.status_code == 302
    with app.app_context():
        assert photo_lessons.installation_colors() == []
    html = client.get(f"/games/{game}/colours").get_data(as_text=True)
    assert "data-colours-none" in html


@pytest.mark.parametrize("make, reason", [
    (lambda: b"GIF89a this is no photo", "not a JPEG or PNG"),
    (lambda: photo(six(APART, 3)[:5], 3, 0.0, FAR_SHIFTED),
     "5 tiles were found in the photo, not 6"),
    (lambda: photo(six(APART, 4, ("red", "orange", "yellow", "green", "blue",
                                  "blue")), 4, 0.0, FAR_SHIFTED), "too alike"),
], ids=["not an image", "five tiles", "two of one colour"])
def test_a_photo_that_is_not_one_tile_of_each_colour_is_422_and_stores_nothing(
        client: FlaskClient, app: Flask, teaching: bytes, make: Any,
        reason: str) -> None:
    game = new_game(client, "Ann", "Bob")
    assert send_teaching(client, game, teaching).status_code == 200
    client.post(f"/games/{game}/colours/keep")
    with app.app_context():
        taught = photo_lessons.installation_colors()
    response = send_teaching(client, game, make())
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert reason in html and "data-colours-error" in html
    assert "data-colours-read" not in html
    # Nothing to keep, and what was taught before stays.
    kept = client.post(f"/games/{game}/colours/keep")
    assert kept.status_code == 302
    with app.app_context():
        assert photo_lessons.installation_colors() == taught


@pytest.mark.parametrize("pending", [
    {"hues": {"red": 0.0}, "paints": {}},
    {"hues": dict.fromkeys(COLORS, "a hue"), "paints": {}},
    {"hues": dict.fromkeys(COLORS, 10.0), "paints": dict.fromkeys(COLORS, [0.5])},
], ids=["a colour alone", "not a number", "a paint half said"])
def test_a_colour_reading_not_of_its_form_is_refused_and_keeps_nothing(
        client: FlaskClient, app: Flask, pending: dict[str, Any]) -> None:
    game = new_game(client, "Ann", "Bob")
    with client.session_transaction() as session:
        session["taught_colours"] = {"game": game, **pending}
    assert client.post(f"/games/{game}/colours/keep").status_code == 400
    with app.app_context():
        assert photo_lessons.installation_colors() == []


def test_without_a_photo_the_page_says_so(client: FlaskClient) -> None:
    game = new_game(client, "Ann", "Bob")
    response = send_teaching(client, game, None)
    assert response.status_code == 400
    assert "Choose a photo first." in response.get_data(as_text=True)


def test_the_page_needs_the_games_right(app: Flask, client: FlaskClient,
                                        teaching: bytes) -> None:
    game = new_game(client, "Ann", "Bob")
    stranger = app.test_client()
    assert stranger.get(f"/games/{game}/colours").status_code == 403
    assert send_teaching(stranger, game, teaching).status_code == 403
    assert stranger.post(f"/games/{game}/colours/forget").status_code == 403
    assert client.get("/games/999/colours").status_code == 404


def test_every_form_needs_its_csrf_token(database: Path, teaching: bytes) -> None:
    app = make_app(database, WTF_CSRF_ENABLED=True, RENDER_IN_PROCESS=False)
    client = app.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    game = new_game(client, "Ann", "Bob", csrf_token=token.group(1))
    assert send_teaching(client, game, teaching).status_code == 400
    html = client.get(f"/games/{game}/colours").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert token
    response = send_teaching(client, game, teaching, csrf_token=token.group(1))
    assert response.status_code == 200
    assert client.post(f"/games/{game}/colours/keep").status_code == 400
    with app.app_context():
        assert photo_lessons.installation_colors() == []
    kept = client.post(f"/games/{game}/colours/keep",
                       data={"csrf_token": token.group(1)})
    assert kept.status_code == 302
    with app.app_context():
        assert len(photo_lessons.installation_colors()) == 6


def test_the_photo_limit_and_its_body_limit_are_the_move_photos(
        app: Flask, client: FlaskClient) -> None:
    app.config["MAX_PHOTO_BYTES"] = 1000
    game = new_game(client, "Ann", "Bob")
    response = send_teaching(client, game, b"\xff\xd8" + b"0" * 5000)
    assert response.status_code == 422
    assert "too large" in response.get_data(as_text=True)
    assert "color_lessons.read" in photo_upload.ENDPOINTS


def test_each_teaching_refusal_has_its_own_sentence_in_every_language(
        app: Flask) -> None:
    from scorekeeper import text

    params = {"count": 2, "expected": 6}
    counts = set()
    for lang in ("en", "nl", "de", "fr", "es"):
        with app.test_request_context(headers={"Accept-Language": lang}):
            fallback = text.photo_unreadable("not_read", {})
            said = {reason: text.photo_unreadable(reason, params)
                    for reason in ("teach_count", "teach_unread", "teach_alike",
                                   "teach_pale")}
        assert fallback not in said.values(), lang
        assert len(set(said.values())) == 4, lang
        assert "2" in said["teach_count"] and "6" in said["teach_count"], lang
        assert "2" in said["teach_unread"], lang
        counts.add(said["teach_count"])
    assert len(counts) == 5  # each language its own


def test_a_set_whose_sixth_colour_is_white_is_taught_and_kept(
        client: FlaskClient, app: Flask) -> None:
    game = new_game(client, "Ann", "Bob")
    response = send_teaching(client, game, photo(six(APART, 1), 1, 0.0,
                                                 WHITE_FOR_PURPLE))
    html = response.get_data(as_text=True)
    assert response.status_code == 200, html
    assert named(html, "data-colours-read") == [
        "red", "orange", "yellow", "green", "blue", "purple"]
    # The white swatch is grey, without a hue: it has none to show.
    purple = html.split("data-colours-read", 1)[1].split('data-color="purple"', 1)[1]
    assert "°" not in purple.split("</li>", 1)[0]
    assert client.post(f"/games/{game}/colours/keep").status_code == 302
    with app.app_context():
        taught = Taught.from_rows(photo_lessons.installation_colors())
    assert set(taught.pale()) == {"purple"}
    assert set(taught.hues()) == {"red", "orange", "yellow", "green", "blue"}
