"""POST /api/games/<id>/photo (CONTRACT §12): a photo of the board is
read as a proposed move, nothing stored; a bad upload is a 422 or a 400, never a
500, and a body over the limit is refused before it is read."""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from conftest import Table, TableGame, fresh_database, make_app, tiles_json
from corpus import load
from flask import Flask
from flask.testing import FlaskClient
from photo import synth, synth_real
from photo.helpers import BOARD, MOVE, PLAIN, cat_scene, photo_of, png

from scorekeeper import i18n, text
from scorekeeper.photo import REASONS, hues
from scorekeeper.store import photo_lessons
from scorekeeper.web import photo_upload

Tile = tuple[int, int, str, str]

BOARD_MOVES: list[list[Tile]] = [
    [t for t in BOARD if t[0] == 0],
    [t for t in BOARD if (t[0], t[1]) in {(1, 1), (2, 1)}],
    [t for t in BOARD if (t[0], t[1]) in {(2, 2), (2, 3)}],
    [t for t in BOARD if t[0] == -1],
]
"""The helpers' stored board of eight tiles, as four legal moves."""


@pytest.fixture
def app(database: Path) -> Flask:
    """The app reading photos in its own thread (no worker process to start)."""
    return make_app(fresh_database(database), RENDER_IN_PROCESS=False)


@pytest.fixture(scope="module")
def board_photo() -> bytes:
    """The stored board plus the helpers' move of two starbursts, from above."""
    return photo_of(BOARD + MOVE)


def record(moves: list[list[Tile]]) -> dict[str, Any]:
    """A game record of Ann and Bob placing these moves in turn."""
    return {
        "format": "qwirkle-game/1",
        "variant": {"name": "classic", "colors": 6, "shapes": 6, "copies": 3,
                    "hand_size": 6},
        "players": ["Ann", "Bob"],
        "moves": [{"player": i % 2, "type": "place", "tiles": tiles_json(m)}
                  for i, m in enumerate(moves)],
        "final": None,
    }


def send(game: TableGame, data: bytes | None, *, headers: dict[str, str] | None = None,
         mimetype: str = "image/jpeg", field: str = "image") -> Any:
    """POST bytes as the photo of the game, as a phone's form does; return the
    response."""
    # The body is built here, not by the test client, which would spool a large
    # one to a temporary file it never closes.
    boundary = "photo-boundary-7MA4YWxk"
    part = b""
    if data is not None:
        part = (f'--{boundary}\r\nContent-Disposition: form-data; name="{field}";'
                f' filename="photo.jpg"\r\nContent-Type: {mimetype}\r\n\r\n'
                ).encode() + data + b"\r\n"
    return game.client.post(
        f"{game.url}/photo", data=part + f"--{boundary}--\r\n".encode(),
        content_type=f"multipart/form-data; boundary={boundary}",
        headers=game.headers if headers is None else headers,
    )


def test_a_photo_after_a_move_proposes_its_tiles_and_stores_nothing(
        table: Table, board_photo: bytes) -> None:
    game = table.import_record(record(BOARD_MOVES))
    before = game.state()
    response = send(game, board_photo)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert sorted((t["row"], t["col"], t["color"], t["shape"]) for t in body["tiles"]) \
        == sorted(MOVE)
    assert body["matched"] == len(BOARD)
    assert all(0 <= t["confidence"] <= 1 and isinstance(t["low"], bool)
               for t in body["tiles"])
    assert body["conflicts"] == [] and body["warning"] is None
    assert body["text"] == "2 tiles read from the photo: check them, then confirm."
    assert game.state()["turn"] == before["turn"]
    # The proposal is a move the game takes as it is.
    assert game.place(*MOVE)["score"] == 3


def test_the_first_move_is_proposed_along_row_0_from_the_centre(table: Table) -> None:
    game = table.new()
    first = [(5, 7, "red", "circle"), (5, 8, "red", "square"), (5, 9, "red", "clover")]
    response = send(game, photo_of(first, seed=2))
    assert response.status_code == 200, response.get_json()
    tiles = [(t["row"], t["col"]) for t in response.get_json()["tiles"]]
    assert sorted(tiles) == [(0, 0), (0, 1), (0, 2)]
    placed = [(t["row"], t["col"], t["color"], t["shape"])
              for t in response.get_json()["tiles"]]
    assert game.place(*placed)["score"] == 3


def test_a_photo_of_the_board_as_stored_proposes_nothing_and_says_so(
        table: Table) -> None:
    game = table.import_record(record(BOARD_MOVES))
    response = send(game, photo_of(BOARD, seed=8))
    assert response.status_code == 200
    assert response.get_json()["tiles"] == []
    assert "no new tile" in response.get_json()["text"]


def test_a_stored_tile_the_photo_shows_otherwise_is_a_warning(
        table: Table, board_photo: bytes) -> None:
    # The page says a red square at (-1, 2) (legal there too); the table has
    # the yellow diamond of the photo.
    drifted = [[(r, c, "red", "square") if (r, c) == (-1, 2) else (r, c, col, sh)
                for r, c, col, sh in move] for move in BOARD_MOVES]
    game = table.import_record(record(drifted))
    body = send(game, board_photo).get_json()
    assert [(c["row"], c["col"]) for c in body["conflicts"]] == [(-1, 2)]
    assert body["warning"] == (
        "On the photo: yellow diamond; on the page: red square. Check that the"
        " table and the page agree.")


def test_a_tile_the_photo_shows_unread_is_a_warning_saying_how_to_retake_it(
        table: Table) -> None:
    # Taken at a 45° slant, the board's far end lies beyond the lattice the
    # reader fits: the move's far tile is warned of, not read, and dim light
    # is not the cause the sentence may name alone.
    game = table.import_record(record(BOARD_MOVES))
    body = send(game, photo_of(BOARD + MOVE, 0, slant=45.0)).get_json()
    assert [(t["row"], t["col"]) for t in body["tiles"]] == [MOVE[0][:2]]
    assert body["unread"] == [list(MOVE[1][:2])]
    assert body["warning"] == (
        "At (4, 3) the photo shows a tile whose symbol could not be read: it may"
        " be missing from the move. Check the move, or take the photo again from"
        " above, in even light.")


def test_a_photo_needs_the_games_edit_token(table: Table, board_photo: bytes) -> None:
    game = table.import_record(record(BOARD_MOVES))
    # Another device: no session holding the token.
    game.client = game.client.application.test_client()
    assert send(game, board_photo, headers={}).status_code == 403
    wrong = send(game, board_photo, headers={"X-Edit-Token": "nope"})
    assert wrong.status_code == 403
    assert wrong.get_json()["error"]["code"] == "bad_edit_token"


def test_a_photo_for_an_unknown_game_is_404(client: FlaskClient) -> None:
    response = client.post("/api/games/999/photo", data={
        "image": (io.BytesIO(b"x"), "p.jpg")}, headers={"X-Edit-Token": "x"})
    assert response.status_code == 404


def test_a_request_without_the_image_field_is_400(table: Table) -> None:
    game = table.new()
    assert send(game, None).status_code == 400
    assert send(game, b"\xff\xd8", field="photo").status_code == 400
    as_json = game.client.post(f"{game.url}/photo", json={"image": "abc"},
                               headers=game.headers)
    assert as_json.status_code == 400
    assert as_json.get_json()["error"]["code"] == "bad_request"


def test_a_finished_game_takes_no_photo(table: Table, board_photo: bytes) -> None:
    game = table.import_record(load("classic-10001.json"))
    assert game.state()["status"] == "finished"
    response = send(game, board_photo)
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "game_over"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def png_bomb(width: int, height: int) -> bytes:
    """A real PNG of this many grey pixels, deflated to a few hundred KB at most."""
    raw = (b"\x00" + bytes(width)) * height
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))


def jpeg(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return buf.tobytes()


def _sof_jpeg(width: int, height: int) -> bytes:
    """A JPEG whose frame header claims this size, and nothing to decode."""
    sof = struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00"
    return (b"\xff\xd8" + b"\xff\xc0" + struct.pack(">H", len(sof) + 2) + sof
            + b"\xff\xda\x00\x02" + b"\x00" * 10 + b"\xff\xd9")


BAD_UPLOADS = {
    "zero bytes": (b"", "not_an_image"),
    "text sent as a JPEG": (b"this is not a photo at all", "not_an_image"),
    "a GIF": (b"GIF89a" + bytes(200), "not_an_image"),
    "a corrupt JPEG": (b"\xff\xd8\xff\xe0" + bytes(range(256)) * 40, "not_an_image"),
    "a truncated JPEG": (jpeg(cat_scene())[:15_000], "not_an_image"),
    "a 1x1 PNG": (png(np.zeros((1, 1, 3), np.uint8)), "too_small"),
    "a JPEG claiming 60000x60000 pixels": (_sof_jpeg(60_000, 60_000), "too_large"),
    "a PNG bomb of 100 megapixels": (png_bomb(10_000, 10_000), "too_large"),
    "a photo of a cat": (jpeg(cat_scene()), "no_tiles"),
    "a blank photo": (png(np.full((480, 640, 3), 200, np.uint8)), "no_tiles"),
}


@pytest.mark.parametrize("name", BAD_UPLOADS)
def test_an_unreadable_upload_is_422_photo_unreadable_with_a_sentence(
        table: Table, name: str) -> None:
    data, reason = BAD_UPLOADS[name]
    game = table.new()
    response = send(game, data)
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == "photo_unreadable"
    assert error["reason"] == reason
    assert isinstance(error["params"], dict)
    assert error["message"] == text.photo_unreadable(reason, error["params"])
    assert error["message"].endswith(".") and "%(" not in error["message"]
    assert game.state()["turn"] == 0


def test_a_png_bomb_under_the_pixel_limit_is_decoded_and_refused_not_a_500(
        table: Table) -> None:
    game = table.new()
    response = send(game, png_bomb(3000, 3000), mimetype="image/png")
    assert response.status_code == 422
    assert response.get_json()["error"]["reason"] == "no_tiles"


def test_the_content_type_sent_is_not_trusted_the_bytes_are(
        table: Table, board_photo: bytes) -> None:
    game = table.import_record(record(BOARD_MOVES))
    assert send(game, board_photo, mimetype="text/plain").status_code == 200


def test_a_photo_over_15_mb_is_refused_with_the_limit_named(table: Table) -> None:
    game = table.new()
    big = png(np.zeros((100, 100, 3), np.uint8)) + bytes(15 * 1024 * 1024)
    response = send(game, big)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["reason"]) == ("photo_unreadable", "too_large")
    assert error["message"].startswith("The photo is too large (15.1 MB).")
    assert "at most 15 MB" in error["message"]


def test_a_part_just_over_the_limit_within_the_bodys_slack_is_refused(
        database: Path) -> None:
    app = make_app(database, RENDER_IN_PROCESS=False, MAX_PHOTO_BYTES=1000)
    game = Table(app.test_client()).new()
    response = send(game, b"\xff\xd8" + bytes(999))
    assert response.status_code == 422
    assert response.get_json()["error"]["reason"] == "too_large"


class CountingBody(io.RawIOBase):
    """A request body that counts what the server reads of it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.pos = 0
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        self.pos = {0: 0, 1: self.pos, 2: self.size}[whence] + offset
        return self.pos

    def tell(self) -> int:
        return self.pos

    def readinto(self, buffer: Any) -> int:
        n = max(0, min(len(buffer), self.size - self.pos))
        buffer[:n] = b"\0" * n
        self.pos += n
        self.read_bytes += n
        return n


def test_a_body_declared_over_the_limit_is_refused_unread(table: Table) -> None:
    game = table.new()
    body = CountingBody(200 * 1024 * 1024)
    response = game.client.post(
        f"{game.url}/photo", input_stream=body,
        headers={**game.headers, "Content-Length": str(body.size),
                 "Content-Type": "multipart/form-data; boundary=xyz"},
    )
    assert response.status_code == 422
    assert response.get_json()["error"]["reason"] == "too_large"
    assert response.get_json()["error"]["params"]["megabytes"] == 200.0
    assert body.read_bytes == 0


def test_other_routes_keep_the_apps_smaller_body_limit(table: Table) -> None:
    game = table.new()
    response = game.client.post(
        f"{game.url}/moves", data=b"{" + b" " * (3 * 1024 * 1024) + b"}",
        content_type="application/json", headers=game.headers)
    assert response.status_code == 413


def test_the_refusal_is_in_the_requests_language(table: Table) -> None:
    game = table.new()
    response = send(game, b"", headers={**game.headers, "Accept-Language": "de"})
    error = response.get_json()["error"]
    assert error["code"] == "photo_unreadable"
    assert error["message"] != text.PHOTO_REASONS["not_an_image"]
    assert "JPEG" in error["message"]


def test_photos_beyond_the_free_slots_wait_then_get_503(
        app: Flask, table: Table, board_photo: bytes) -> None:
    game = table.import_record(record(BOARD_MOVES))
    queue = app.extensions["scorekeeper_photos"].queue
    queue.wait = 0.05
    with queue._cond:
        queue._reading = queue.slots  # every slot taken by other devices' photos
    try:
        response = send(game, board_photo)
    finally:
        with queue._cond:
            queue._reading = 0
    assert response.status_code == 503
    assert response.headers["Retry-After"] == str(photo_upload.RETRY_AFTER)
    assert response.get_json()["error"]["code"] == "busy"
    assert send(game, board_photo).status_code == 200


def test_a_photo_is_read_in_a_render_worker_process_as_in_the_server(
        database: Path, board_photo: bytes) -> None:
    app = make_app(database, RENDER_IN_PROCESS=True)
    game = Table(app.test_client()).import_record(record(BOARD_MOVES))
    ok = send(game, board_photo)
    assert ok.status_code == 200
    assert sorted((t["row"], t["col"]) for t in ok.get_json()["tiles"]) \
        == sorted((r, c) for r, c, *_ in MOVE)
    # A refusal crosses the process boundary as its reason and parameters.
    refused = send(game, png(np.full((480, 640, 3), 200, np.uint8)))
    assert refused.get_json()["error"]["reason"] == "no_tiles"
    # (A photo too small is refused by the server from its header.)
    refused = send(game, png(np.zeros((1, 1, 3), np.uint8)))
    assert refused.get_json()["error"]["params"]["width"] == 1


def test_every_reason_of_the_reader_has_a_sentence_in_every_language(
        app: Flask) -> None:
    params: dict[str, Any] = {"width": 1, "height": 1, "matched": 2, "stored": 9,
                              "cells": [[0, 1], [2, 3]], "count": 8, "limit": 6}
    for language in ("en", "nl", "de", "fr", "es"):
        with app.app_context(), i18n.language(language, None):
            for reason in REASONS:
                sentence = text.photo_unreadable(reason, params)
                assert sentence.endswith(".") and "%(" not in sentence
            # The cells stay in the error's params for the page; the sentence
            # names no coordinates.
            assert "(0, 1)" not in text.photo_unreadable("not_one_line", params)
            # A first move's line refused has a sentence of its own.
            on_empty = {**params, "first_move": True}
            first = text.photo_unreadable("not_one_line", on_empty)
            assert first.endswith(".") and first != text.photo_unreadable(
                "not_one_line", params)
            assert first == text.photo_unreadable("too_many_tiles", on_empty)


# --- what the table's confirmed moves teach -------------------------------------

REDDER_ORANGE = synth_real.Paint((
    ("red", 356.0, 0.85, 0.55), ("orange", 3.0, 0.9, 0.55),
    ("yellow", 47.0, 0.85, 0.75), ("green", 125.0, 0.8, 0.5),
    ("blue", 216.0, 0.85, 0.55), ("purple", 246.0, 0.7, 0.5),
))
"""A set whose orange is a darker, redder one (3°, 7° from its red) than
the reader expects: alone on a table, read red."""

TABLE_MOVES: list[list[Tile]] = [
    [(0, 0, "orange", "circle"), (0, 1, "orange", "square"),
     (0, 2, "orange", "diamond")],
    [(1, 0, "red", "circle"), (2, 0, "yellow", "circle")],
    [(1, 1, "red", "square")],
    [(2, 1, "yellow", "square")],
    [(0, 3, "orange", "clover"), (0, 4, "orange", "starburst")],
    [(1, 3, "green", "clover")],
    [(2, 3, "blue", "clover")],
    [(1, 4, "green", "starburst")],
    [(2, 4, "blue", "starburst")],
]
"""Nine legal moves of one game, orange first."""

FIRST_ORANGE = TABLE_MOVES[0]


def real_photo(tiles: list[Tile], seed: int) -> bytes:
    """A photo of real tiles of the redder-orange set, in the table's light."""
    shot = replace(PLAIN, tile_px=50, warmth=0.2)
    return synth.encode(synth_real.render(
        tiles, shot, seed, synth_real.Real(REDDER_ORANGE)), 90)


def read_tiles(game: TableGame, data: bytes) -> list[dict[str, Any]]:
    response = send(game, data)
    assert response.status_code == 200, response.get_json()
    tiles: list[dict[str, Any]] = response.get_json()["tiles"]
    return tiles


def test_the_tables_tenth_photo_reads_the_orange_its_first_photo_misread(
        table: Table) -> None:
    game = table.new()
    on_table: list[Tile] = []
    first = None
    for k, move in enumerate(TABLE_MOVES):
        on_table += move
        tiles = read_tiles(game, real_photo(on_table, seed=k + 1))
        if k == 0:
            first = tiles
        # The players check the proposal and confirm the move on the table.
        game.place(*move)
    assert first is not None
    # The first photo: three oranges alone on an empty table, their hue where
    # red usually lies. Read red, and marked uncertain with orange among the
    # likely kinds: wrong, but honestly so.
    assert [t["color"] for t in first] == ["red"] * 3
    assert all(t["low"] and ["orange", t["shape"]] in t["likely"] for t in first)
    # The tenth photo at this table: the next game's first move, the same
    # three oranges alone again. The confirmed moves taught where this
    # set's orange lies.
    other = table.new()
    tenth = read_tiles(other, real_photo(FIRST_ORANGE, seed=10))
    assert [(t["color"], t["shape"]) for t in tenth] in (
        [(c, s) for _, _, c, s in FIRST_ORANGE],
        [(c, s) for _, _, c, s in FIRST_ORANGE][::-1])
    assert not any(t["low"] for t in tenth)


def test_a_corrected_move_teaches_what_the_players_confirmed(table: Table) -> None:
    game = table.new()
    tiles = read_tiles(game, real_photo(FIRST_ORANGE, seed=1))
    assert [t["color"] for t in tiles] == ["red"] * 3
    # Not confirmed yet: the next photo learns nothing.
    read_tiles(game, real_photo(FIRST_ORANGE, seed=2))
    with table.client.application.app_context():
        assert photo_lessons.lessons(game.id) == ([], [])
    game.place(*FIRST_ORANGE)
    read_tiles(game, real_photo(FIRST_ORANGE + TABLE_MOVES[1], seed=3))
    with table.client.application.app_context():
        mine, everywhere = photo_lessons.lessons(game.id)
    kinds = {(what, name): n for what, name, n, *_ in mine}
    # Colours only: the shape model names shapes from the photo itself.
    assert kinds == {("color", "orange"): 3}
    assert {(what, name): n for what, name, n, *_ in everywhere} == kinds
    # Each confirmed tile's paint is measured too: orange paint, not white.
    (orange,) = [row for row in mine if row[0] == "color"]
    assert orange[5] == 3 and orange[6] / orange[5] > hues.PAINT


def test_the_stored_tiles_a_photo_shows_as_stored_teach_with_its_move(
        table: Table) -> None:
    game = table.new()
    # Typed in, not photographed; and the page has one tile wrong: the table
    # holds a yellow circle where the page says green.
    game.place(*FIRST_ORANGE)
    game.place((1, 0, "red", "circle"), (2, 0, "green", "circle"))
    on_table = [*FIRST_ORANGE, *TABLE_MOVES[1]]
    read_tiles(game, real_photo(on_table + TABLE_MOVES[2], seed=4))
    with table.client.application.app_context():
        assert photo_lessons.lessons(game.id) == ([], [])
    game.place(*TABLE_MOVES[2])
    read_tiles(game, real_photo(on_table + TABLE_MOVES[2] + TABLE_MOVES[3], seed=5))
    with table.client.application.app_context():
        mine, everywhere = photo_lessons.lessons(game.id)
    kinds = {(what, name): n for what, name, n, *_ in mine}
    # The move's red square, and the four stored tiles the photo showed as
    # the page has them; not the disputed circle, green or yellow.
    assert kinds == {("color", "orange"): 3, ("color", "red"): 2}
    assert {(what, name): n for what, name, n, *_ in everywhere} == kinds


def test_an_uncertain_tile_carries_its_likely_kinds_best_first(table: Table) -> None:
    game = table.new()
    response = send(game, real_photo(FIRST_ORANGE, seed=4))
    for tile in response.get_json()["tiles"]:
        if tile["low"]:
            assert tile["likely"][0] == [tile["color"], tile["shape"]]
            assert 2 <= len(tile["likely"]) <= 4
            assert len({tuple(k) for k in tile["likely"]}) == len(tile["likely"])
        else:
            assert "likely" not in tile
