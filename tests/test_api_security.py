"""Who may write, CSRF on browser requests, hostile input that never gives a 500."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from flask_wtf.csrf import generate_csrf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.web import auth

PLACE = {"type": "place", "tiles": [{"row": 0, "col": 0, "color": "red",
                                     "shape": "circle"}]}


def add_probe_routes(app: Flask) -> None:
    """Add a plain form POST and a token source, as the pages would have."""

    @app.post("/_probe/form")
    def _form() -> str:
        return "stored"

    @app.get("/_probe/csrf")
    def _csrf() -> str:
        return generate_csrf()

    @app.get("/_probe/join/<int:game_id>/<token>")
    def _join(game_id: int, token: str) -> str:
        auth.remember_token(game_id, token)
        return "joined"


def test_a_form_post_without_a_csrf_token_is_refused(csrf_app: Flask) -> None:
    add_probe_routes(csrf_app)
    client = csrf_app.test_client()

    refused = client.post("/_probe/form", data={"name": "x"})
    token = client.get("/_probe/csrf").data.decode()
    accepted = client.post("/_probe/form", data={"csrf_token": token})

    assert refused.status_code == 400
    assert accepted.status_code == 200


def test_scripts_write_with_the_edit_token_even_with_csrf_on(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    state = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    script = csrf_app.test_client()

    response = script.post(f"/api/games/{state['id']}/moves", json=PLACE,
                           headers={"X-Edit-Token": state["edit_token"]})

    assert response.status_code == 201


def test_a_browser_session_needs_the_csrf_header_to_write(csrf_app: Flask) -> None:
    add_probe_routes(csrf_app)
    creator = csrf_app.test_client()
    state = creator.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    url = f"/api/games/{state['id']}/moves"
    browser = csrf_app.test_client()
    browser.get(f"/_probe/join/{state['id']}/{state['edit_token']}")

    without = browser.post(url, json=PLACE)
    stale = browser.post(url, json=PLACE, headers={"X-CSRFToken": "forged"})
    token = browser.get("/_probe/csrf").data.decode()
    with_token = browser.post(url, json=PLACE, headers={"X-CSRFToken": token})
    stranger = csrf_app.test_client()
    stranger_token = stranger.get("/_probe/csrf").data.decode()
    no_session = stranger.post(url, json=PLACE, headers={"X-CSRFToken": stranger_token})

    assert without.status_code == 403
    assert without.get_json()["error"]["code"] == "csrf_failed"
    assert stale.status_code == 403
    assert with_token.status_code == 201
    assert no_session.status_code == 403
    assert no_session.get_json()["error"]["code"] == "missing_edit_token"


def test_a_wrong_edit_token_beats_a_valid_session(client: FlaskClient) -> None:
    state = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()

    response = client.post(f"/api/games/{state['id']}/moves", json=PLACE,
                           headers={"X-Edit-Token": "guess"})

    assert response.status_code == 403


# --- hostile input: any answer but a 500 ---

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
tile_like = st.fixed_dictionaries(
    {},
    optional={
        "row": st.integers(-3, 3) | json_values,
        "col": st.integers(-3, 3) | json_values,
        "color": st.sampled_from(["red", "blue", "pink", ""]) | json_values,
        "shape": st.sampled_from(["circle", "square", "heart"]) | json_values,
    },
)
move_like = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["place", "trade", "pass", "PLACE"]) | json_values,
        "tiles": st.lists(tile_like, max_size=7) | json_values,
        "count": st.integers(-2, 8) | json_values,
        "turn": st.integers(-1, 3) | json_values,
        "player": json_values,
    },
)
game_like = st.fixed_dictionaries(
    {},
    optional={
        "players": st.lists(st.text(max_size=45), max_size=9) | json_values,
        "variant": st.fixed_dictionaries({}, optional={
            "colors": st.integers(0, 10) | json_values,
            "copies": st.integers(0, 10) | json_values,
            "hand_size": st.integers(0, 14) | json_values,
            "name": json_values,
            "shapes": json_values,
        }) | json_values,
        "first_player": st.integers(-1, 9) | json_values,
    },
)
record_like = st.fixed_dictionaries(
    {"format": st.just("qwirkle-game/1") | json_values},
    optional={
        "variant": json_values,
        "players": st.lists(st.text(max_size=5), max_size=5) | json_values,
        "moves": st.lists(move_like | json_values, max_size=4) | json_values,
        "final": json_values,
    },
)
ALLOWED = {200, 201, 400, 403, 404, 409, 413, 422}
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def answer_ok(response: Any) -> bool:
    """Return whether a response is an allowed status with a JSON body."""
    body = response.get_json(silent=True)
    return response.status_code in ALLOWED and isinstance(body, dict)


def started_game(client: FlaskClient) -> tuple[int, dict[str, str]]:
    """Create a game with one move and return its id and write headers."""
    state = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    headers = {"X-Edit-Token": state["edit_token"]}
    client.post(f"/api/games/{state['id']}/moves", json=PLACE, headers=headers)
    return state["id"], headers


@FUZZ
@given(body=move_like | json_values)
def test_hostile_move_bodies_never_give_a_server_error(
    client: FlaskClient, body: Any
) -> None:
    game_id, headers = started_game(client)
    for path in ("moves", "preview"):
        response = client.post(f"/api/games/{game_id}/{path}", json=body,
                               headers=headers)
        assert answer_ok(response), (path, body, response.status_code)


@FUZZ
@given(body=game_like | json_values)
def test_hostile_new_game_bodies_never_give_a_server_error(
    client: FlaskClient, body: Any
) -> None:
    response = client.post("/api/games", json=body)

    assert answer_ok(response), (body, response.status_code)


@FUZZ
@given(body=record_like | json_values)
def test_hostile_records_never_give_a_server_error(
    client: FlaskClient, body: Any
) -> None:
    response = client.post("/api/games/import", json=body)

    assert answer_ok(response), (body, response.status_code)


@FUZZ
@given(raw=st.binary(max_size=64) | st.text(max_size=64).map(str.encode))
def test_hostile_raw_bytes_never_give_a_server_error(
    client: FlaskClient, raw: bytes
) -> None:
    game_id, headers = started_game(client)
    for url in ("/api/games", f"/api/games/{game_id}/moves", "/api/games/import",
                f"/api/games/{game_id}/preview"):
        response = client.post(url, data=raw, content_type="application/json",
                               headers=headers)
        assert answer_ok(response), (url, raw, response.status_code)


@FUZZ
@given(segment=st.text(min_size=1, max_size=30).filter(lambda s: "/" not in s))
def test_hostile_paths_answer_json(client: FlaskClient, segment: str) -> None:
    for url in (f"/api/games/{segment}", f"/api/games/{segment}/record",
                f"/api/games/1/moves/last?turn={segment}",
                f"/api/games?limit={segment}"):
        response = client.get(url) if "moves/last" not in url else client.delete(url)
        assert answer_ok(response), (url, response.status_code)


def test_deeply_nested_json_is_refused_cleanly(client: FlaskClient) -> None:
    body = "[" * 100_000 + "]" * 100_000

    response = client.post("/api/games", data=body, content_type="application/json")

    assert response.status_code == 400
    assert json.loads(response.data)["error"]["code"] == "bad_request"
