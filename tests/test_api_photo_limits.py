"""The photo route under attack: a pixel bomb is refused before it is
decoded, a device and a game have a photo rate, and photos sent by a stranger
from one device never keep the table's own photo out."""

from __future__ import annotations

import struct
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    Table,
    TableGame,
    as_admin,
    client_at,
    fresh_database,
    make_app,
)
from flask import Flask
from test_api_photo import png_bomb, send

from scorekeeper.web import photo_upload

STRANGER = "192.0.2.66"
TABLE = "192.0.2.10"


@pytest.fixture
def app(database: Path) -> Flask:
    """The app reading photos in its own thread (no helper process to start)."""
    return make_app(fresh_database(database), RENDER_IN_PROCESS=False)


def device(app: Flask, address: str) -> Table:
    """A device at this address, starting games through the API."""
    return Table(client_at(app, address))


def fake_reader(monkeypatch: pytest.MonkeyPatch, seconds: float = 0.0) -> None:
    """Read every photo as "no new tile" after `seconds`, without OpenCV."""

    def read(data: bytes, stored: Any, variant: Any, taught: Any = None
             ) -> dict[str, Any]:
        time.sleep(seconds)
        return {"tiles": [], "matched": len(stored), "conflicts": [],
                "glare": [], "looks": [], "unread": []}

    monkeypatch.setattr(photo_upload, "read_photo", read)


def test_a_png_declaring_40_megapixels_is_refused_before_it_is_decoded(
        app: Flask) -> None:
    game = device(app, TABLE).new()
    bomb = png_bomb(7300, 5475)  # 40.0 MP in about 50 KB
    assert len(bomb) < 200_000
    response = send(game, bomb, mimetype="image/png")
    assert response.status_code == 422
    error = response.get_json()["error"]
    # Unguarded, it was decoded whole (120 MB of pixels), then "no tiles".
    assert error["reason"] == "too_large"
    assert "16" in error["message"] and "7300" in error["message"]
    assert game.state()["turn"] == 0


def progressive_jpeg_header(width: int, height: int) -> bytes:
    """The start of a progressive JPEG (SOF2) of this size, its scan cut short."""
    sof = struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00"
    return (b"\xff\xd8" + b"\xff\xc2" + struct.pack(">H", len(sof) + 2) + sof
            + b"\xff\xda\x00\x02" + b"\x00" * 10 + b"\xff\xd9")


def test_a_progressive_jpeg_of_40_megapixels_is_refused_before_it_is_decoded(
        app: Flask) -> None:
    # libjpeg keeps every coefficient of a progressive image, whatever the
    # scale it decodes at: 40 MP is +145 MB, so it is held to the PNG's limit.
    game = device(app, TABLE).new()
    response = send(game, progressive_jpeg_header(7300, 5475))
    assert response.status_code == 422
    assert response.get_json()["error"]["reason"] == "too_large"


def test_a_device_sending_photos_too_fast_gets_429_and_others_do_not(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_reader(monkeypatch)
    stranger = device(app, STRANGER)
    burst, _every = photo_upload.CLIENT_RATE
    games = [stranger.new() for _ in range(burst + 1)]
    answers = [send(game, png_bomb(200, 200)) for game in games]
    assert [a.status_code for a in answers[:burst]] == [200] * burst
    refused = answers[burst]
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "busy"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # The sentence says when the next photo may go (the page shows it).
    assert refused.headers["Retry-After"] in refused.get_json()["error"]["message"]
    # Creating games does not give a device more photos: the rate is its own.
    assert send(stranger.new(), png_bomb(200, 200)).status_code == 429
    # Another device is not held back by the first one's rate.
    assert send(device(app, TABLE).new(), png_bomb(200, 200)).status_code == 200
    # This machine by itself has a rate; the admin's device has none.
    local = device(app, "127.0.0.1")
    assert [send(local.new(), png_bomb(200, 200)).status_code
            for _ in range(burst + 1)] == [200] * burst + [429]
    here = Table(as_admin(client_at(app, "127.0.0.1"))).new()
    assert [send(here, png_bomb(200, 200)).status_code
            for _ in range(burst + 2)] == [200] * (burst + 2)


def test_a_game_has_a_photo_rate_whatever_the_device(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_reader(monkeypatch)
    game = device(app, TABLE).new()
    burst, _every = photo_upload.GAME_RATE
    statuses = []
    for n in range(burst + 1):
        # Each photo from a device of its own: the game's rate still holds.
        other = client_at(app, f"192.0.2.{100 + n}")
        statuses.append(send(TableGame(other, game.created), png_bomb(200, 200))
                        .status_code)
    assert statuses == [200] * burst + [429]


def test_a_strangers_photos_never_keep_the_tables_photo_out(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each reading takes two seconds; the stranger sends eight photos at once,
    # one per game it created, then the table sends its own.
    fake_reader(monkeypatch, seconds=2.0)
    stranger = device(app, STRANGER)
    theirs = [stranger.new() for _ in range(8)]
    ours = device(app, TABLE).new()
    answers: dict[str, list[int]] = {"stranger": [], "table": []}

    def sender(who: str, game: TableGame) -> threading.Thread:
        def run() -> None:
            answers[who].append(send(game, png_bomb(200, 200)).status_code)
        thread = threading.Thread(target=run)
        thread.start()
        return thread

    threads = [sender("stranger", game) for game in theirs]
    time.sleep(0.3)  # the stranger's photos are in before the table's
    threads.append(sender("table", ours))
    for thread in threads:
        thread.join(60)
    # Without a queue per device, the stranger's eight readings filled the one slot for
    # sixteen seconds and the table's photo got 503 after three.
    assert answers["table"] == [200]
    assert answers["stranger"].count(200) == 1
    assert answers["stranger"].count(429) == 7


def test_a_pixel_bomb_is_refused_without_starting_the_helper(database: Path) -> None:
    from scorekeeper.web import helper

    app = make_app(database, RENDER_IN_PROCESS=True)
    game = device(app, TABLE).new()
    helper._HELPER.stop()
    response = send(game, png_bomb(7300, 5475), mimetype="image/png")
    assert response.get_json()["error"]["reason"] == "too_large"
    # Refused from its header in the server: no helper process (and its 100 MB
    # of OpenCV) was started for it.
    assert helper._HELPER.pid() is None
