"""Error pages: the app's look for page paths, CONTRACT §4 JSON for API paths."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_app
from flask import Flask
from flask.testing import FlaskClient
from test_history_helpers import Node, parse


def error_page(response: object, status: int) -> Node:
    """Assert an HTML error page with the status; return it parsed."""
    assert response.status_code == status  # type: ignore[attr-defined]
    assert response.mimetype == "text/html"  # type: ignore[attr-defined]
    page = parse(response.data)  # type: ignore[attr-defined]
    assert page.find("section", class_="error-page").attrs["data-error"] == str(status)
    # The app's own frame: the main navigation and its stylesheet.
    assert page.find("header", class_="top")
    return page


@pytest.mark.parametrize(
    "url", ["/nope", "/games/999", "/games/999/replay", "/players/Nobody"]
)
def test_an_unknown_page_gets_a_friendly_404(client: FlaskClient, url: str) -> None:
    page = error_page(client.get(url), 404)
    assert page.find("h1").text() == "Page not found"
    links = page.find("p", class_="error-links").find_all("a")
    assert [a.attrs["href"] for a in links] == ["/", "/history"]


def test_a_change_without_the_games_code_gets_a_403_page_back_to_the_game(
    client: FlaskClient,
) -> None:
    game = client.post("/api/games", json={"players": ["Anna", "Bo"]}).get_json()
    other = client.application.test_client()  # a device without the game's token
    page = error_page(other.get(f"/games/{game['id']}/undo"), 403)
    assert page.find("h1").text() == "Not on this device"
    first = page.find("p", class_="error-links").find("a")
    assert first.attrs["href"] == f"/games/{game['id']}"


def test_an_expired_form_gets_a_400_page(csrf_client: FlaskClient) -> None:
    response = csrf_client.post("/games/new", data={"names-0": "A", "names-1": "B"})
    page = error_page(response, 400)
    assert page.find("h1").text() == "The form has expired"


def test_a_wrong_method_gets_a_405_page_with_allow(client: FlaskClient) -> None:
    response = client.delete("/")
    error_page(response, 405)
    assert "GET" in response.headers["Allow"]


@pytest.fixture
def failing_app(tmp_path: Path) -> Flask:
    """An app whose page and API routes raise, with errors handled as in production."""
    app = make_app(tmp_path / "db.sqlite3", PROPAGATE_EXCEPTIONS=False)

    def boom() -> str:
        raise RuntimeError("boom")

    app.add_url_rule("/boom", "boom", boom)
    app.add_url_rule("/api/boom", "api_boom", boom)
    return app


def test_a_server_error_gets_a_500_page(failing_app: Flask) -> None:
    page = error_page(failing_app.test_client().get("/boom"), 500)
    assert page.find("h1").text() == "Something went wrong"
    assert "boom" not in page.text()


# --- API paths keep their JSON errors ---


def test_an_api_server_error_stays_json(failing_app: Flask) -> None:
    response = failing_app.test_client().get("/api/boom")
    assert response.status_code == 500
    assert response.get_json()["error"]["code"] == "internal_error"


@pytest.mark.parametrize(
    ("method", "url", "status", "code"),
    [
        ("GET", "/api/games/999", 404, "not_found"),
        ("GET", "/api/nope", 404, "not_found"),
        ("DELETE", "/api/games", 405, "method_not_allowed"),
    ],
)
def test_api_errors_stay_json(
    client: FlaskClient, method: str, url: str, status: int, code: str
) -> None:
    response = client.open(url, method=method)
    assert response.status_code == status
    assert response.mimetype == "application/json"
    assert response.get_json()["error"]["code"] == code
    if status == 405:
        assert "POST" in response.headers["Allow"]
