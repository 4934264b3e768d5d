"""The game page's camera button (CONTRACT §12): there for a device that may enter
moves in a running game of tiles, labelled, opening the back camera."""

from __future__ import annotations

import html
import json
import re

from conftest import new_game
from flask.testing import FlaskClient


def test_the_game_page_has_a_labelled_camera_button_for_the_moving_device(
        client: FlaskClient) -> None:
    game_id = new_game(client, "Ann", "Bob")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    field = re.search(r"<label class=\"button photo-button\">(.*?)</label>", page, re.S)
    assert field is not None
    assert "Photo of the move" in field.group(1)
    assert re.search(r'<input [^>]*type="file" accept="image/\*" capture="environment"'
                     r"[^>]*data-photo-input>", field.group(1))
    assert f'data-url="/api/games/{game_id}/photo"' in page
    # photo.js is a bundle of its own that static/later.js fetches once a
    # photo is taken (web/assets.py; the game page's 30 KB: bench_page.py).
    bundle = re.search(r'data-photo data-src="(/assets/photo\.js\?v=\w+)"', page)
    assert bundle is not None
    with client.get(bundle.group(1)) as script:
        assert b'var KIND = "photo-low"' in script.data


def test_the_camera_button_is_in_the_pages_language(client: FlaskClient) -> None:
    game_id = new_game(client, "Ann", "Bob")
    page = client.get(f"/games/{game_id}?lang=nl").get_data(as_text=True)
    assert "Foto van de zet" in page
    found = re.search(
        r'data-photo data-src="[^"]*" data-url="[^"]*" data-text="([^"]*)"', page)
    assert found is not None
    strings = json.loads(html.unescape(found.group(1)))
    assert strings["reading"] == "De foto wordt gelezen…"


def test_a_viewer_and_a_cubes_game_get_no_camera(client: FlaskClient) -> None:
    game_id = new_game(client, "Ann", "Bob")
    viewer = client.application.test_client()
    page = viewer.get(f"/games/{game_id}").get_data(as_text=True)
    assert "data-photo-input" not in page
    cubes = new_game(client, "Ann", "Bob", tile_set="cubes")
    page = client.get(f"/games/{cubes}").get_data(as_text=True)
    assert "data-photo-input" not in page
