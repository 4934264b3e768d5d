"""Merging two players in one action (the admin's): every game of the first
name gets the second, the ratings re-rate as if it had been written so, and
a game both sat at is left alone."""

from __future__ import annotations

from flask.testing import FlaskClient
from test_club_night import assert_ratings_match, close, event_game, final_of


def finished(client: FlaskClient, players: list[str]) -> int:
    game = event_game(client, None, players)
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    close(game)
    return game.id


def test_merging_renames_every_game_and_re_rates(client: FlaskClient) -> None:
    ids = [finished(client, ["Chloe", "Bob"]), finished(client, ["Bob", "Chloé"]),
           finished(client, ["Chloe", "Chloé"]), finished(client, ["Chloe", "Cy"])]
    answer = client.post("/admin/merge", data={"from": "chloe", "into": "Chloé"})
    assert answer.status_code == 302
    names = {i: [p["name"] for p in client.get(f"/api/games/{i}").get_json()[
        "players"]] for i in ids}
    assert names == {ids[0]: ["Chloé", "Bob"], ids[1]: ["Bob", "Chloé"],
                     ids[2]: ["Chloe", "Chloé"], ids[3]: ["Chloé", "Cy"]}
    page = client.get("/admin").get_data(as_text=True)
    assert f"game(s) {ids[2]}" in page
    finals = [final_of(client, i) for i in ids]
    assert_ratings_match(client, [f for f in finals if f])


def test_only_the_admin_merges(client: FlaskClient) -> None:
    game_id = finished(client, ["Chloe", "Bob"])
    guest = client.application.test_client()
    assert guest.post("/admin/merge", data={"from": "Chloe", "into": "Chloé"}
                      ).status_code == 403
    players = client.get(f"/api/games/{game_id}").get_json()["players"]
    assert players[0]["name"] == "Chloe"
