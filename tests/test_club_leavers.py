"""How a player who left a game counts in a night's standings (CONTRACT §14,
RULES §7.5), as the organiser chose: placed last (the default), or the game
counts without them; checked against test_club_scoring's independent
computation, with ties, an exclusion, a game ended early and an abandoned one
in the same night. And the next round: who left is not offered for it, a late
arrival is seated in it."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from test_club_night import close, event_game, new_event, play_evening
from test_club_scoring import check, expected
from test_history_helpers import parse


def leave(game: Any, seat: int) -> None:
    game.move({"type": "leave", "player": seat})


def play_leavers(client: FlaskClient, event: dict) -> None:
    """Two tables with a leaver: one ended early, one ended by the leave."""
    game = event_game(client, event, ["Ann", "Dan", "Eve"])
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"),
               (0, 2, "red", "diamond"))                     # Ann 3
    leave(game, 0)                                          # Ann leaves, ahead
    game.place((1, 0, "blue", "circle"))                    # Dan 2
    close(game)
    game = event_game(client, event, ["Fay", "Gus"])
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))  # Fay 2
    leave(game, 0)                                          # Gus is left: the end


def final_of(client: FlaskClient, game_id: int, count_leavers: bool
             ) -> dict[str, Any] | None:
    """Names, scores and excluded seats of a game with a result; without
    count_leavers, the seats that left are not at the table."""
    state = client.get(f"/api/games/{game_id}").get_json()
    if state["status"] != "finished" or state["final"]["reason"] == "abandoned":
        return None
    seats = [p for p in state["players"] if count_leavers or not p["left"]]
    return {"names": [p["name"] for p in seats],
            "scores": [p["score"] for p in seats],
            "excluded": [p["excluded"] for p in seats]}


@pytest.mark.parametrize("scoring", ["wins", "placement", "share"])
def test_s7_5_a_leaver_counts_last_or_not_at_all_as_the_organiser_chose(
    client: FlaskClient, scoring: str
) -> None:
    event = new_event(client, "Friday")
    play_evening(client, event)
    play_leavers(client, event)
    url = f"/api/events/{event['id']}"
    ids = client.get(url).get_json()["games"]

    for count_leavers in (True, False):
        assert client.patch(url, json={"count_leavers": count_leavers}, headers={
            "X-Event-Token": event["edit_token"]}).status_code == 200
        answer = client.get(f"{url}?scoring={scoring}").get_json()
        finals = [f for f in (final_of(client, i, count_leavers) for i in ids) if f]

        assert answer["count_leavers"] is count_leavers
        check(answer["standings"], expected(finals, scoring))
    # Without them, Ann's and Fay's games no longer count for Ann and Fay.
    rows = {r["name"]: r for r in answer["standings"]}
    assert "Fay" not in rows and rows["Gus"]["games"] == 1


def test_s7_5_the_choice_is_the_organisers_and_a_bad_one_is_refused(
    client: FlaskClient,
) -> None:
    event = new_event(client, "Friday")
    url = f"/api/events/{event['id']}"
    stranger = client.application.test_client()

    assert stranger.patch(url, json={"count_leavers": False}, headers={
        "X-Event-Token": event["join_token"]}).status_code == 403
    answer = client.patch(url, json={"count_leavers": "no"}, headers={
        "X-Event-Token": event["edit_token"]})
    assert answer.status_code == 400
    assert client.get(url).get_json()["count_leavers"] is True


def test_s7_5_the_night_page_says_how_leavers_count_and_switches_it(
    client: FlaskClient,
) -> None:
    event = new_event(client, "Friday")
    play_leavers(client, event)
    page = f"/events/{event['id']}"

    assert "A player who left a game counts in it" in client.get(page).get_data(
        as_text=True)
    assert client.post(f"{page}/count-leavers").status_code == 302
    text = client.get(page).get_data(as_text=True)
    assert "A game counts without the players who left it." in text
    assert 'data-standing="Fay"' not in text and 'data-standing="Gus"' in text


def test_s7_5_the_next_round_leaves_out_who_left_and_seats_a_late_arrival(
    client: FlaskClient,
) -> None:
    event = new_event(client, "Friday")
    game = event_game(client, event, ["Ann", "Bob", "Cy", "Dan"])
    game.place((0, 0, "red", "circle"))
    leave(game, 2)                                  # Cy goes home mid-game

    page = parse(client.get(f"/events/{event['id']}").data)
    box = page.find("textarea", name="present").text()
    table = page.find("span", class_="who").text()
    seated = client.post(f"/api/events/{event['id']}/rounds", json={
        "pairing": "swiss", "players": [*box.split(), "Zoe"], "table_size": 2,
    }, headers={"X-Event-Token": event["edit_token"]})

    assert box.split() == ["Ann", "Bob", "Dan"]
    assert "Cy 0 (left the game)" in table
    # Zoe came late: her running table cannot take her, the next round does.
    assert seated.status_code == 201
    tables = seated.get_json()["tables"]
    assert sorted(name for t in tables for name in t) == ["Ann", "Bob", "Dan", "Zoe"]
    assert [len(t) for t in tables] == [2, 2]
