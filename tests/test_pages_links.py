"""After a game: the home page replays finished games; the final screen links onward."""

from __future__ import annotations

from flask.testing import FlaskClient
from test_history_helpers import corpus_record, parse


def imported(client: FlaskClient) -> int:
    response = client.post("/api/games/import", json=corpus_record())
    assert response.status_code == 201
    return int(response.get_json()["id"])


def test_a_finished_game_on_the_home_page_opens_its_replay(
    client: FlaskClient,
) -> None:
    game_id = imported(client)
    recent = parse(client.get("/").data).find("ul", data_finished=True)
    link = recent.find("a", class_="game-link")
    assert link.attrs["href"] == f"/games/{game_id}/replay"
    assert client.get(link.attrs["href"]).status_code == 200


def test_the_final_screen_links_to_replay_analysis_sheet_pdf_and_bg_stats(
    client: FlaskClient,
) -> None:
    game_id = imported(client)
    page = parse(client.get(f"/games/{game_id}").data)
    links = page.find("nav", data_final_links=True).find_all("a")
    hrefs = {a.text(): a.attrs["href"] for a in links}
    assert hrefs == {
        "Replay": f"/games/{game_id}/replay?move=0",
        "Analysis": f"/games/{game_id}/analysis",
        "Score sheet": f"/games/{game_id}/scoresheet",
        "PDF": f"/games/{game_id}/scoresheet.pdf",
        "BG Stats": f"/games/{game_id}/bgstats",
    }
    for href in hrefs.values():
        with client.get(href) as response:
            assert response.status_code == 200, href


def test_a_running_game_has_no_final_links(client: FlaskClient) -> None:
    game = client.post("/api/games", json={"players": ["Anna", "Bo"]}).get_json()
    page = parse(client.get(f"/games/{game['id']}").data)
    assert page.find_all("nav", data_final_links=True) == []
