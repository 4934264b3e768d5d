"""Printable score sheet, its PDF, the score chart and the BG Stats link."""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import unquote

import pytest
from flask.testing import FlaskClient
from test_history_helpers import corpus_record, parse

from scorekeeper.formats import bgstats, chart
from scorekeeper.formats.pdf import scoresheet_pdf
from scorekeeper.formats.scoresheet import Cell, Round, ScoreSheet, cell_text


def imported(client: FlaskClient, name: str = "classic-10003.json") -> int:
    response = client.post("/api/games/import", json=corpus_record(name))
    assert response.status_code == 201
    return response.get_json()["id"]


def test_scoresheet_page_is_laid_out_like_the_paper_sheet(client: FlaskClient) -> None:
    record = corpus_record("classic-10003.json")
    game_id = imported(client)
    page = parse(client.get(f"/games/{game_id}/scoresheet").data)
    table = page.find("table", class_="sheet")
    header = [th.text() for th in table.find("thead").find_all("th")]
    assert header == ["Round", *record["players"]]
    body_rows = table.find("tbody").find_all("tr")
    assert len(body_rows) == 14  # 56 moves, 4 players
    totals = [
        int(td.text().rstrip(" ★"))
        for td in table.find_all("td", data_sheet_total=True)
    ]
    assert totals == record["final"]["scores"]
    winner = record["players"][2]  # Sally: 81
    assert winner in page.find(data_winner=True).text()
    assert table.find("td", class_="winner").text().endswith("★")
    assert table.find_all("td", class_="has-bonus")
    assert "+6" in table.find("td", class_="has-bonus").text()
    assert "Q" in table.find("td", class_="has-qwirkle").text()
    assert page.find("svg", class_="score-chart")


def test_scoresheet_matches_the_csv(client: FlaskClient) -> None:
    game_id = imported(client)
    page = parse(client.get(f"/games/{game_id}/scoresheet").data)
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(f"/api/games/{game_id}/scoresheet.csv").data.decode(
                    "utf-8-sig"
                )
            )
        )
    )
    sheet_rows = page.find("table", class_="sheet").find("tbody").find_all("tr")
    for csv_row, html_row in zip(rows[1:-1], sheet_rows, strict=True):
        cells = html_row.find_all("td")
        numbers = [c.text().split()[0] if c.text() else "" for c in cells]
        assert numbers == csv_row[1:]


def test_print_css_is_linked(client: FlaskClient) -> None:
    game_id = imported(client)
    page = parse(client.get(f"/games/{game_id}/scoresheet").data)
    hrefs = [link.attrs["href"] for link in page.find_all("link", rel="stylesheet")]
    assert any("history.css" in href for href in hrefs)
    response = client.get("/static/history.css")
    css = response.get_data(as_text=True)
    response.close()  # static files are streamed from an open file
    assert "@media print" in css


def test_running_game_sheet_has_no_winner(client: FlaskClient) -> None:
    game = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    page = parse(client.get(f"/games/{game['id']}/scoresheet").data)
    assert "still running" in page.find(data_winner=True).text()
    assert client.get(f"/games/{game['id']}/scoresheet.pdf").status_code == 200


@pytest.mark.parametrize(
    "name", ["classic-10003.json", "stalled-n3-c2-h2-20048.json", "n5-c2-h5-10101.json"]
)
def test_scoresheet_pdf_is_a_pdf_download(client: FlaskClient, name: str) -> None:
    game_id = imported(client, name)
    response = client.get(f"/games/{game_id}/scoresheet.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF-")
    assert response.data.rstrip().endswith(b"%%EOF")
    assert "attachment" in response.headers["Content-Disposition"]


def test_pdf_prints_names_outside_latin_1(client: FlaskClient) -> None:
    record = corpus_record("classic-10001.json")
    record["players"] = ["Łukasz", "Zoë ☺"]
    game = client.post("/api/games/import", json=record).get_json()
    response = client.get(f"/games/{game['id']}/scoresheet.pdf")
    assert response.status_code == 200
    assert response.data.startswith(b"%PDF-")


def test_long_games_break_onto_more_pdf_pages_with_the_header_repeated() -> None:
    rounds = tuple(
        Round(n, (Cell(points=n, type="place", seq=2 * n), None)) for n in range(1, 81)
    )
    sheet = ScoreSheet(names=("Ann", "Bob"), rounds=rounds, totals=(3240, 0))
    data = scoresheet_pdf(
        sheet, winners=[0], title="t", date="d", winner_line="Ann", legend="l"
    )
    assert data.startswith(b"%PDF-")
    assert data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") >= 2


@pytest.mark.parametrize(
    ("cell", "text"),
    [
        (Cell(points=9, type="place", seq=0), "9"),
        (Cell(points=18, type="place", seq=0, qwirkles=1), "18 Q"),
        (Cell(points=30, type="place", seq=0, qwirkles=2), "30 Q Q"),
        (Cell(points=11, type="place", seq=0, end_bonus=6), "11 (+6)"),
        (Cell(points=0, type="trade", seq=0), "0 ⇄"),
        (Cell(points=0, type="pass", seq=0), "0 –"),
        (None, ""),
    ],
)
def test_pdf_cell_texts(cell: Cell | None, text: str) -> None:
    assert cell_text(cell) == text


def test_running_totals_per_round_count_the_end_bonus() -> None:
    class M:
        def __init__(self, player: int, score: int, end_bonus: int = 0) -> None:
            self.player, self.score, self.end_bonus = player, score, end_bonus
            self.mover = player

    moves = [M(1, 4), M(0, 3), M(1, 5), M(0, 2, 6)]
    assert chart.running_totals(moves, 2) == [[0, 3, 11], [0, 4, 9]]
    assert chart.running_totals([M(0, 2)], 3) == [[0, 2], [0, 0], [0, 0]]


def test_chart_escapes_player_names() -> None:
    svg = chart.score_chart_svg(["<script>x</script>", "B&B"], [[0, 5], [0, 7]])
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg and "B&amp;B" in svg


def test_bgstats_play_data_follows_the_documented_shape() -> None:
    data = bgstats.play_data(
        names=["Ann", "Bob", "Cas"],
        scores=[20, 31, 31],
        winners=[False, True, True],
        start_player=1,
        play_date="2025-03-01T19:05:09.123+00:00",
        duration_min=42,
        source_url="http://table.local/games/3/replay",
        source_play_id="3",
    )
    assert data["sourceName"] == "Qwirkle Scorekeeper"
    assert data["game"]["name"] == "Qwirkle"
    assert data["game"]["bggId"] == 25669
    assert data["game"]["highestWins"] is True
    assert data["playDate"] == "2025-03-01 19:05:09"
    assert data["durationMin"] == 42
    assert [p["score"] for p in data["players"]] == [20, 31, 31]
    assert [p["winner"] for p in data["players"]] == [False, True, True]
    assert [p["startPlayer"] for p in data["players"]] == [False, True, False]
    assert [p["rank"] for p in data["players"]] == [3, 1, 1]
    url = bgstats.push_url(data)
    assert url.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert json.loads(unquote(url.split("?data=", 1)[1])) == data
    scheme = bgstats.push_url(data, scheme=True)
    assert scheme.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")


def test_bgstats_page_links_a_finished_game(client: FlaskClient) -> None:
    record = corpus_record("classic-10003.json")
    game_id = imported(client)
    page = parse(client.get(f"/games/{game_id}/bgstats").data)
    href = page.find("a", data_bgstats_link=True).attrs["href"]
    data = json.loads(unquote(href.split("?data=", 1)[1]))
    assert [p["name"] for p in data["players"]] == record["players"]
    assert [p["score"] for p in data["players"]] == record["final"]["scores"]
    assert [p["winner"] for p in data["players"]] == [False, False, True, False]
    start = record["moves"][0]["player"]
    assert [p["startPlayer"] for p in data["players"]].index(True) == start
    assert data["sourceUrl"].endswith(f"/games/{game_id}/replay")
    assert "durationMin" in data and "playDate" in data


def test_bgstats_is_only_for_finished_games(client: FlaskClient) -> None:
    game = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    assert client.get(f"/games/{game['id']}/bgstats").status_code == 404
    assert client.get("/games/999/bgstats").status_code == 404
