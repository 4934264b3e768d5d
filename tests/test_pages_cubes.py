"""Qwirkle Cubes at the table: the set choice, the game page, the picker options."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import new_game, tiles_json, token_of
from flask.testing import FlaskClient
from test_history_helpers import Node, parse

from scorekeeper.engine import SHAPE_NAMES

SHAPES = SHAPE_NAMES[:6]


def place(client: FlaskClient, game_id: int, tiles: list[tuple[Any, ...]]) -> Any:
    """Place cubes through the JSON API; return the response."""
    return client.post(
        f"/api/games/{game_id}/moves",
        json={"type": "place", "tiles": tiles_json(tiles)},
        headers={"X-Edit-Token": token_of(client, game_id)},
    )


def red_row(row: int, shift: int, count: int = 6) -> list[tuple[Any, ...]]:
    """Red cubes along a row, faces rotated so every column stays distinct."""
    return [(row, c, "red", SHAPES[(c + shift) % 6]) for c in range(count)]


def red_column(rows: range) -> list[tuple[Any, ...]]:
    """Red cubes down column 0 below the two red rows, faces s2, s3, …"""
    return [(r, 0, "red", SHAPES[r]) for r in rows]


def red_down(client: FlaskClient, game_id: int, count: int) -> None:
    """Put 12 + (count - 12) red cubes down in three legal moves, leaving play open.

    Two full red rows, then a red column going down from (1, 0): every cube of
    the column starts an open row, so the game goes on (no stall).
    """
    moves = (red_row(0, 0), red_row(1, 1), red_column(range(2, 2 + count - 12)))
    for tiles in moves:
        assert place(client, game_id, tiles).status_code == 201


def game_page(client: FlaskClient, game_id: int) -> Node:
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200
    return parse(response.data)


def board_state(page: Node) -> dict[str, Any]:
    return json.loads(page.find("script", data_game_state=True).text())


# --- the new-game form ---


def test_the_form_offers_the_box_the_cubes_and_a_custom_set(
    client: FlaskClient,
) -> None:
    page = parse(client.get("/games/new").data)
    radios = page.find_all("input", type="radio", name="tile_set")
    assert [r.attrs["value"] for r in radios] == ["classic", "cubes", "custom"]
    assert "checked" in radios[0].attrs
    labels = page.find("fieldset", data_tile_set=True).text()
    assert "Qwirkle (108 tiles)" in labels
    assert "Qwirkle Cubes (90 cubes)" in labels
    assert "Custom tile set" in labels


def test_choosing_cubes_starts_a_qwirkle_cubes_game(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Bo", tile_set="cubes")
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["variant"]["system"] == "cubes"
    assert state["variant"]["copies"] == 15
    assert state["bag"] == 90 - 12
    assert {u["color"]: u["count"] for u in state["unseen"]} == dict.fromkeys(
        ["red", "orange", "yellow", "green", "blue", "purple"], 15
    )


def test_cubes_allow_at_most_four_players(client: FlaskClient) -> None:
    data = {f"names-{i}": f"P{i}" for i in range(5)}
    response = client.post("/games/new", data={**data, "tile_set": "cubes"})
    assert response.status_code == 200
    assert "at most 4 players" in parse(response.data).text()


def test_the_custom_fields_count_only_for_a_custom_set(client: FlaskClient) -> None:
    classic = new_game(client, "Anna", "Bo", tile_set="classic", colors="5")
    cubes = new_game(client, "Cy", "Di", tile_set="cubes", copies="2")
    custom = new_game(client, "Ed", "Flo", tile_set="custom", colors="5")
    variants = [
        client.get(f"/api/games/{i}").get_json()["variant"]
        for i in (classic, cubes, custom)
    ]
    assert [v["name"] for v in variants] == ["classic", "cubes", "generalised"]
    assert variants[1]["copies"] == 15
    assert variants[2]["colors"] == 5


def test_an_unknown_set_is_refused(client: FlaskClient) -> None:
    response = client.post(
        "/games/new", data={"names-0": "A", "names-1": "B", "tile_set": "dominoes"}
    )
    assert response.status_code == 200
    assert parse(response.data).find_all("p", class_="error")


# --- the game page ---


def test_a_cubes_game_has_no_trade_or_pass_and_says_cubes(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, "Anna", "Bo", tile_set="cubes")
    assert place(client, game_id, red_row(0, 0, count=2)).status_code == 201
    page = game_page(client, game_id)
    assert page.find_all("form", data_trade=True) == []
    actions = page.find("section", class_="actions")
    assert "Pass" not in actions.text() and "Trade" not in actions.text()
    assert "Undo last move" in actions.text()
    assert "cube" in page.find("p", data_preview=True).text()
    assert "Cubes left" in page.find("section", class_="tracker").text()


def test_a_classic_game_keeps_its_trade_form(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Bo")
    assert place(client, game_id, [(0, 0, "red", "circle")]).status_code == 201
    assert game_page(client, game_id).find_all("form", data_trade=True)


def test_the_tracker_counts_cubes_left_per_colour(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Bo", tile_set="cubes")
    assert place(client, game_id, red_row(0, 0, count=3)).status_code == 201
    items = game_page(client, game_id).find("ul", class_="color-left").find_all("li")
    texts = {i.attrs["data-color"]: i.text() for i in items}
    assert texts["red"] == "red 12 left"
    assert texts["blue"] == "blue 15 left"
    assert len(texts) == 6


def test_a_colour_with_all_cubes_down_is_greyed(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Bo", tile_set="cubes")
    red_down(client, game_id, 15)
    page = game_page(client, game_id)
    red = page.find("li", data_color="red")
    assert "gone" in red.attrs["class"].split()
    assert red.text() == "red 0 left"
    state = board_state(page)
    assert "data-supply-per-color" in page.find("svg", data_board=True).attrs
    # Counted per colour: the picker greys every face of red.
    unseen = {(u["color"], u["shape"]): u["count"] for u in state["unseen"]}
    assert unseen[("red", "")] == 0 and unseen[("blue", "")] == 15
    assert len(unseen) == 6
    picks = page.find_all("button", class_="pick")
    assert len(picks) == 36


def test_the_picker_options_never_offer_a_colour_that_is_all_down(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, "Anna", "Bo", tile_set="cubes")
    red_down(client, game_id, 15)
    # A blue cube beside the red one at (3, 0) (same face), then what may follow it.
    tiles = json.dumps([[3, 1, "blue", SHAPES[3]]])
    got = client.get(f"/games/{game_id}/options?cell=3,2&tiles={tiles}").get_json()
    assert f"green {SHAPES[3]}" in got["kinds"]
    assert not [k for k in got["kinds"] if k.startswith("red ")]
    assert all(len(k.split(" ")) == 2 and k.split(" ")[1] for k in got["kinds"])


def test_the_picker_options_count_pending_cubes_by_colour(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, "Anna", "Bo", tile_set="cubes")
    red_down(client, game_id, 14)  # one red cube is left in the game
    alone = client.get(f"/games/{game_id}/options?cell=4,0&tiles=[]").get_json()
    assert f"red {SHAPES[4]}" in alone["kinds"]
    tiles = json.dumps([[4, 0, "red", SHAPES[4]]])
    got = client.get(f"/games/{game_id}/options?cell=5,0&tiles={tiles}").get_json()
    # The pending red cube is the last one: no other face of red can join it.
    assert not [k for k in got["kinds"] if k.startswith("red ")]


@pytest.mark.parametrize("first", [[(0, 0, "red", "circle")]])
def test_the_first_cubes_move_needs_two_cubes(
    client: FlaskClient, first: list[tuple[Any, ...]]
) -> None:
    game_id = new_game(client, "Anna", "Bo", tile_set="cubes")
    page = game_page(client, game_id)
    assert "at least 2" in page.find("p", class_="board-hint").text()
    response = place(client, game_id, first)
    assert response.status_code == 422


def test_the_replay_of_a_cubes_game_says_cubes(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Bo", tile_set="cubes")
    assert place(client, game_id, red_row(0, 0, count=2)).status_code == 201
    response = client.get(f"/games/{game_id}/replay?move=1")
    move = parse(response.data).find("p", class_="replay-move").text()
    assert move.startswith("Placed 2 cubes:")
    assert parse(response.data).find(data_bag=True).text() == str(90 - 2 - 12)


def test_lists_name_a_cubes_game(client: FlaskClient) -> None:
    game_id = new_game(client, "Anna", "Bo", tile_set="cubes")
    new_game(client, "Cy", "Di")
    home = parse(client.get("/").data).find("ul", data_running=True).text()
    assert home.count("Qwirkle Cubes") == 1
    history = parse(client.get("/history").data)
    row = history.find("tr", data_game_id=str(game_id))
    assert row.find("small", data_set="cubes").text() == "Qwirkle Cubes"
    assert len(history.find_all("small", class_="set-name")) == 1
