"""Insights on the pages (CONTRACT §11): the replay's best spot, the analysis page."""

from __future__ import annotations

import json

from conftest import Table, TableGame
from flask.testing import FlaskClient
from test_history_helpers import parse

FIVE_REDS = [(0, c, "red", s) for c, s in enumerate(
    ["circle", "square", "diamond", "starburst", "clover"])]


def missed_qwirkle_game(table: Table) -> TableGame:
    """Ann lays five reds; Bob puts the red crisscross under them (2 points)
    where the end of the line made a Qwirkle (12)."""
    game = table.new()
    game.place(*FIVE_REDS)
    game.place((1, 0, "red", "crisscross"))
    return game


def steps_of(client: FlaskClient, game_id: int, step: int) -> dict[str, object]:
    page = parse(client.get(f"/games/{game_id}/replay?move={step}").data)
    data: dict[str, object] = json.loads(
        page.find("script", data_replay_steps=True).text())
    return data


def test_the_replay_draws_the_better_spot_and_says_the_moves_efficiency(
    table: Table, client: FlaskClient,
) -> None:
    game = missed_qwirkle_game(table)

    page = parse(client.get(f"/games/{game.id}/replay?move=2").data)
    steps = steps_of(client, game.id, 2)["steps"]

    best = page.find("g", data_best=True).find_all("g", class_="best-tile")
    assert [b.attrs["data-cell"] for b in best] in (["0,5"], ["0,-1"])
    assert page.find("p", data_best_line=True).text() == (
        "Same tiles, best spot: 12 (scored 2, 17%)."
    )
    assert isinstance(steps, list)
    assert steps[2]["best"][0][2:] in ([0, 5, "red", "crisscross"],
                                       [0, -1, "red", "crisscross"])
    assert steps[1]["best"] == []
    assert steps[1]["best_line"] == "Same tiles, best spot: this was it (5)."
    assert steps[0]["best_line"] == ""


def test_the_replay_frames_the_board_to_hold_the_better_spot(
    table: Table, client: FlaskClient,
) -> None:
    game = missed_qwirkle_game(table)
    page = parse(client.get(f"/games/{game.id}/replay?move=2").data)
    board = page.find("svg", class_="replay-board")
    width = int(board.attrs["viewbox"].split()[2])
    tiles = page.find("g", data_best=True).find_all("g", class_="best-tile")
    assert tiles
    for tile in tiles:
        # A board's tile is placed by its transform: translate(x y) scale(s).
        x = float(tile.attrs["transform"].split("(")[1].split()[0])
        assert 0 <= x < width


def test_the_analysis_page_shows_efficiency_missed_points_and_qwirkles(
    table: Table, client: FlaskClient,
) -> None:
    game = missed_qwirkle_game(table)

    response = client.get(f"/games/{game.id}/analysis")

    assert response.status_code == 200
    page = parse(response.data)
    seats = page.find("table", data_efficiency=True).find_all("tr", data_seat=True)
    assert [s.find("span", data_eff=True).text() for s in seats] == ["100%", "17%"]
    assert [s.find("td", data_missed_qwirkles=True).text() for s in seats] == [
        "0", "1"]
    moves = page.find("table", data_moves=True).find_all("tr", data_move=True)
    assert [m.attrs["class"] for m in moves] == ["", "missed"]
    assert moves[1].find_all("strong", data_missed_qwirkle=True)
    assert "Points missed in total: 10" in page.text()
    assert page.find("section", class_="chart").find_all("svg")


def test_the_analysis_page_of_an_unknown_game_is_a_404(client: FlaskClient) -> None:
    assert client.get("/games/424242/analysis").status_code == 404


def test_the_history_list_links_each_game_to_its_analysis(
    table: Table, client: FlaskClient,
) -> None:
    game = missed_qwirkle_game(table)
    page = parse(client.get("/history").data)
    links = page.find_all("a", data_analysis_link=True)
    assert [a.attrs["href"] for a in links] == [f"/games/{game.id}/analysis"]


def test_players_pages_show_each_players_efficiency_over_their_games(
    table: Table, client: FlaskClient,
) -> None:
    first = missed_qwirkle_game(table)
    second = table.new(players=["Bob", "Cy"])
    second.place((0, 0, "blue", "circle"), (0, 1, "blue", "square"))  # 2 of 2
    # Running games count once analysed (a finished game is, as it ends).
    unasked = parse(client.get("/players/Bob").data)
    for game in (first, second):
        client.get(f"{game.url}/analysis")

    bob = parse(client.get("/players/Bob").data)
    listed = parse(client.get("/players").data)

    assert unasked.find("dd", data_stat="efficiency").text() == "–"
    # Bob: 2 of 12 in the first game, 2 of 2 in the second: 4 of 14, not 58%.
    assert bob.find("dd", data_stat="efficiency").text().startswith("29%")
    assert "4 of 14 points" in bob.find("dd", data_stat="efficiency").text()
    rows = {r.attrs["data-player"]: r.find("td", data_efficiency=True).text()
            for r in listed.find_all("tr", data_player=True)}
    assert rows == {"ann": "100%", "bob": "29%", "cy": "–"}


def test_an_undo_takes_the_move_out_of_the_players_efficiency(
    table: Table, client: FlaskClient,
) -> None:
    game = missed_qwirkle_game(table)
    client.get(f"{game.url}/analysis")
    game.undo()
    bob = parse(client.get("/players/Bob").data)
    assert bob.find("dd", data_stat="efficiency").text() == "–"


def test_only_a_running_cubes_game_offers_the_best_move_of_a_roll(
    table: Table, client: FlaskClient,
) -> None:
    classic = table.new()
    cubes = table.new(variant={"colors": 6, "copies": 15, "hand_size": 6,
                               "system": "cubes"})

    classic_page = parse(client.get(f"/games/{classic.id}").data)
    cubes_page = parse(client.get(f"/games/{cubes.id}").data)

    assert classic_page.find_all("details", data_best_move=True) == []
    box = cubes_page.find("details", data_best_move=True)
    assert "open" not in box.attrs
    assert box.attrs["data-url"] == f"/api/games/{cubes.id}/best-move"
    assert len(box.find_all("button", data_roll=True)) == 36


def test_the_hints_toggle_is_on_every_game_page_and_off_in_the_markup(
    table: Table, client: FlaskClient,
) -> None:
    game = table.new()
    page = parse(client.get(f"/games/{game.id}").data)
    section = page.find("section", data_hints=True)
    assert section.attrs["data-url"] == f"/api/games/{game.id}/hints"
    assert "checked" not in section.find("input", data_hints_toggle=True).attrs
    assert "hidden" in section.find("div", data_hints_panel=True).attrs


def test_the_final_screen_gives_each_players_efficiency(
    table: Table, client: FlaskClient,
) -> None:
    from corpus import game_files, load

    record = load(game_files("classic")[0])
    game = table.import_record(record)
    expected = client.get(f"{game.url}/analysis").get_json()["efficiency"]

    page = parse(client.get(f"/games/{game.id}").data)

    ranking = page.find("ol", class_="ranking").find_all("li")
    shown = {li.find("span", class_="name").text().rstrip(" ★"):
             li.find("span", data_efficiency=True).text() for li in ranking}
    assert shown == {
        record["players"][seat["player"]]:
        f"efficiency {round(100 * seat['efficiency'])}%"
        for seat in expected
    }
