"""A page's scripts and styles as bundles (web/assets.py): one answer each,
minified inside their gzip, kept by the browser until a file changes; static
files carry only the headers a file needs (bytes on the wire: bench_page.py)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import rcssmin
import rjsmin
from conftest import new_game
from flask.testing import FlaskClient

from scorekeeper.web import assets

STATIC = Path(__file__).resolve().parents[1] / "static"
GZIP = {"Accept-Encoding": "gzip"}


def bundle_urls(client: FlaskClient, game_id: int, attr: str = "src|href",
                ) -> dict[str, str]:
    """Return the bundles the game page loads (or names in another attribute)."""
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    return {name: url for url, name in (
        (url, url.split("/")[2].split("?")[0])
        for url in re.findall(rf'(?<![-\w])(?:{attr})="(/assets/[^"]+)"', page)
    )}


def test_the_game_page_loads_its_scripts_and_styles_as_two_bundles(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, "Ann", "Bob")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)

    assert set(bundle_urls(client, game_id)) == {"game.js", "game.css"}
    # The hints, reading a photo and saying the score aloud come later, when
    # needed (static/later.js).
    assert set(bundle_urls(client, game_id, "data-src")) == {
        "hints.js", "photo.js", "speech.js"}
    for name in assets.BUNDLES["game.js"] + assets.BUNDLES["game.css"]:
        assert f"/static/{name}" not in page
    # Other pages keep their own files.
    home = client.get("/").get_data(as_text=True)
    assert "/static/app.css" in home and "/assets/" not in home


def test_a_bundle_is_its_files_in_order_plain_or_minified_in_gzip(
    client: FlaskClient,
) -> None:
    urls = bundle_urls(client, new_game(client, "Ann", "Bob"))
    for name, minify, between in (("game.js", rjsmin.jsmin, b";\n"),
                                  ("game.css", rcssmin.cssmin, b"\n")):
        sources = [(STATIC / part).read_bytes() for part in assets.BUNDLES[name]]
        with client.get(urls[name]) as plain:
            assert plain.data == between.join(sources) + b"\n"
            assert "Content-Encoding" not in plain.headers
        with client.get(urls[name], headers=GZIP) as packed:
            assert packed.headers["Content-Encoding"] == "gzip"
            body = gzip.decompress(packed.data)
        assert body == between.join(minify(s) for s in sources) + b"\n"
        assert len(packed.data) * 4 < len(plain.data)


def test_a_versioned_bundle_is_kept_for_a_year_and_revalidates(
    client: FlaskClient,
) -> None:
    url = bundle_urls(client, new_game(client, "Ann", "Bob"))["game.js"]
    with client.get(url, headers=GZIP) as first:
        assert "immutable" in first.headers["Cache-Control"]
        assert "max-age=31536000" in first.headers["Cache-Control"]
        etag = first.headers["ETag"]
    with client.get(url, headers={**GZIP, "If-None-Match": etag}) as again:
        assert again.status_code == 304 and again.data == b""
    # An old or missing version is not promised to stay.
    with client.get("/assets/game.js?v=0000") as stale:
        assert stale.status_code == 200
        assert "immutable" not in stale.headers["Cache-Control"]
        assert "no-cache" in stale.headers["Cache-Control"]


def test_an_unknown_bundle_is_404(client: FlaskClient) -> None:
    for name in ("nope.js", "..%2fapp.py", "game.js.map"):
        assert client.get(f"/assets/{name}").status_code == 404


def test_files_carry_file_headers_and_documents_the_documents(
    client: FlaskClient,
) -> None:
    url = bundle_urls(client, new_game(client, "Ann", "Bob"))["game.js"]
    page = client.get("/")
    for answer in (client.get("/static/board.js", buffered=True), client.get(url)):
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        for header in ("Content-Security-Policy", "X-Frame-Options",
                       "Content-Disposition", "Set-Cookie"):
            assert header not in answer.headers
        assert "Accept-Language" not in answer.headers.get("Vary", "")
        answer.close()
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Frame-Options"] == "DENY"
    assert "Accept-Language" in page.headers["Vary"]
