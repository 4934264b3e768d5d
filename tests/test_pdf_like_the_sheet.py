"""The PDF score sheet says what the printable page says: how the game
ended ("ended early") beside the winner, and a row of each player's Qwirkles."""

from __future__ import annotations

import io

from flask.testing import FlaskClient
from pypdf import PdfReader
from test_history_helpers import corpus_record, parse


def pdf_text(client: FlaskClient, game_id: int, lang: str = "en") -> str:
    response = client.get(f"/games/{game_id}/scoresheet.pdf?lang={lang}")
    assert response.status_code == 200
    return " ".join(" ".join(page.extract_text().split())
                    for page in PdfReader(io.BytesIO(response.data)).pages)


def ended_early(client: FlaskClient) -> int:
    record = corpus_record("classic-10003.json")
    record["moves"], record["final"] = record["moves"][:20], None
    created = client.post("/api/games/import", json=record).get_json()
    answer = client.post(f"/api/games/{created['id']}/close", json={"reason": "ended"},
                         headers={"X-Edit-Token": created["edit_token"]})
    assert answer.status_code == 200
    return int(created["id"])


def test_the_pdf_says_the_game_ended_early_as_the_sheet_does(
    client: FlaskClient,
) -> None:
    game_id = ended_early(client)
    sheet = parse(client.get(f"/games/{game_id}/scoresheet").data)
    said = " ".join(sheet.find(data_winner=True).text().split())

    assert ". " in said  # the winner line, then how the game ended
    reason = said.split(". ", 1)[1]
    assert reason and reason in pdf_text(client, game_id)


def test_the_pdf_has_the_qwirkles_row_of_the_sheet(client: FlaskClient) -> None:
    game = client.post("/api/games/import",
                       json=corpus_record("classic-10001.json")).get_json()
    sheet = parse(client.get(f"/games/{game['id']}/scoresheet").data)
    row = sheet.find("tr", class_="qwirkles")
    counts = [cell.text().strip() for cell in row.find_all("td")]
    assert any(count != "0" for count in counts)

    text = pdf_text(client, game["id"])
    assert "Qwirkles " + " ".join(counts) in text
