"""Text answers travel gzipped when the client accepts it, and only then."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin
from conftest import Table
from flask.testing import FlaskClient

STATIC = Path(__file__).resolve().parents[1] / "static"
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def without_csrf(page: bytes) -> bytes:
    """The page with its CSRF tokens blanked: a token is signed with the
    second it was made in, so two loads straddling a second differ there."""
    token = rb'(name="csrf[-_]token"[^>]*?(?:content|value)=")[^"]+'
    return re.sub(token, rb"\1", page)


def test_a_game_page_is_gzipped_for_a_browser_and_plain_for_others(
    client: FlaskClient, table: Table
) -> None:
    game = table.new(["Ann", "Bob"])
    game.place((0, 0, "red", "circle"))
    plain = client.get(f"/games/{game.id}")
    packed = client.get(f"/games/{game.id}", headers=GZIP)

    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert "Accept-Encoding" in plain.headers["Vary"]
    assert without_csrf(gzip.decompress(packed.data)) == without_csrf(plain.data)
    assert len(packed.data) * 3 < len(plain.data)


def test_the_state_is_gzipped_and_its_etag_still_answers_304(
    client: FlaskClient, table: Table
) -> None:
    game = table.new(["Ann", "Bob"])
    game.place((0, 0, "red", "circle"))
    first = client.get(game.url, headers=GZIP)
    assert first.headers["Content-Encoding"] == "gzip"
    etag = first.headers["ETag"]
    assert etag.startswith('W/"')

    again = client.get(game.url, headers={**GZIP, "If-None-Match": etag})

    assert again.status_code == 304 and again.data == b""
    game.place((0, 1, "red", "square"))
    moved = client.get(game.url, headers={**GZIP, "If-None-Match": etag})
    assert moved.status_code == 200
    assert len(gzip.decompress(moved.data)) > len(moved.data)


def test_a_recorded_moves_answer_is_gzipped(client: FlaskClient, table: Table) -> None:
    game = table.new(["Ann", "Bob"])
    answer = client.post(
        f"{game.url}/moves", headers={**game.headers, **GZIP},
        json={"type": "place", "tiles": [
            {"row": 0, "col": 0, "color": "red", "shape": "circle"}]},
    )
    assert answer.status_code == 201
    assert answer.headers["Content-Encoding"] == "gzip"
    assert b'"score":1' in gzip.decompress(answer.data)


def test_static_files_are_gzipped_and_revalidate(client: FlaskClient) -> None:
    def get(**headers: str) -> Any:
        # buffered: the file send_file opened is read and closed at once.
        return client.get("/static/board.js", headers=headers, buffered=True)

    plain = get()
    packed = get(**GZIP)
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == rjsmin.jsmin(plain.data)
    # The same bytes each time (kept per file version).
    assert get(**GZIP).data == packed.data
    again = get(**GZIP, **{"If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304


def test_static_scripts_and_styles_travel_minified_and_plain_clients_get_the_source(
    client: FlaskClient,
) -> None:
    source = (STATIC / "table.js").read_bytes()
    plain = client.get("/static/table.js", buffered=True)
    packed = client.get("/static/app.css", headers=GZIP, buffered=True)
    script = gzip.decompress(
        client.get("/static/table.js", headers=GZIP, buffered=True).data
    )

    assert plain.data == source  # as written, comments and all
    assert b"/*" in source and b"/*" not in script
    assert len(script) < len(source) * 3 // 4
    css = gzip.decompress(packed.data)
    assert b"/*" not in css and b"\n\n" not in css
    assert css == rcssmin.cssmin((STATIC / "app.css").read_bytes())


def test_small_answers_errors_and_downloads_stay_as_they_are(
    client: FlaskClient, table: Table
) -> None:
    game = table.new(["Ann", "Bob"])
    missing = client.get("/api/games/999", headers=GZIP)
    assert missing.status_code == 404
    assert "Content-Encoding" not in missing.headers
    backup = client.get("/backup", headers=GZIP)
    assert backup.status_code == 200
    assert "Content-Encoding" not in backup.headers  # streamed: sent as it goes
    favicon = client.get("/static/favicon.svg", headers=GZIP, buffered=True)
    assert "Content-Encoding" not in favicon.headers  # too small to gain
    assert game.id
