"""Every registered file format, served by one route pattern and by the CONTRACT
§4 API URLs, from the same builders."""

from __future__ import annotations

import csv
import io
import json

import pytest
from flask.testing import FlaskClient
from test_history_helpers import corpus_record

from scorekeeper import engine
from scorekeeper.formats import FORMATS


@pytest.fixture
def game_id(client: FlaskClient) -> int:
    """A finished corpus game, imported."""
    response = client.post("/api/games/import", json=corpus_record())
    assert response.status_code == 201
    return int(response.get_json()["id"])


def test_the_registry_holds_the_sheet_pdf_record_and_chart() -> None:
    assert set(FORMATS) == {
        "scoresheet.csv", "scoresheet.pdf", "record.json", "chart.svg"
    }


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_each_format_is_served_at_its_url(
    client: FlaskClient, game_id: int, name: str
) -> None:
    fmt = FORMATS[name]

    response = client.get(f"/games/{game_id}/{name}")

    assert response.status_code == 200
    assert response.mimetype == fmt.media_type
    disposition = response.headers.get("Content-Disposition")
    if fmt.filename is None:
        assert disposition is None
    else:
        assert disposition == f'attachment; filename="{fmt.download_name(game_id)}"'
    assert response.data


def test_each_format_says_what_it_is(client: FlaskClient, game_id: int) -> None:
    record = corpus_record()
    files = {name: client.get(f"/games/{game_id}/{name}").data for name in FORMATS}

    assert json.loads(files["record.json"]) == record
    rows = list(csv.reader(io.StringIO(files["scoresheet.csv"].decode("utf-8-sig"))))
    assert rows[0] == ["Round", *record["players"]]
    assert rows[-1] == ["Total", *map(str, record["final"]["scores"])]
    assert files["scoresheet.pdf"].startswith(b"%PDF-")
    assert files["chart.svg"].startswith(b"<svg")


def test_the_contract_api_urls_serve_the_same_files(
    client: FlaskClient, game_id: int
) -> None:
    csv_api = client.get(f"/api/games/{game_id}/scoresheet.csv")
    record_api = client.get(f"/api/games/{game_id}/record")

    assert csv_api.data == client.get(f"/games/{game_id}/scoresheet.csv").data
    assert csv_api.mimetype == "text/csv"
    assert csv_api.headers["Content-Disposition"] == (
        f'attachment; filename="qwirkle-{game_id}.csv"'
    )
    assert record_api.data == client.get(f"/games/{game_id}/record.json").data
    assert record_api.mimetype == "application/json"
    assert "Content-Disposition" not in record_api.headers
    assert record_api.get_data(as_text=True) == engine.dumps_record(corpus_record())


@pytest.mark.parametrize(
    "url",
    ["/games/1/nothing.txt", "/games/999/record.json", "/api/games/999/record",
     "/api/games/999/scoresheet.csv", "/api/games/1/chart.svg"],
)
def test_an_unknown_file_or_game_is_404(
    client: FlaskClient, game_id: int, url: str
) -> None:
    assert client.get(url).status_code == 404
