"""Rounds of a club night (CONTRACT §14): Swiss pairing by the night's
standings, never seating a pair together again while another seating exists,
checked against a search of every seating; the organiser's right only."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta
from itertools import combinations

import pytest
from flask.testing import FlaskClient
from test_club_night import close, event_game, new_event

from scorekeeper import engine

TWELVE = [f"Player {letter}" for letter in "ABCDEFGHIJKL"]


def seatings(players: list[str], sizes: list[int]) -> Iterator[list[list[str]]]:
    """Every way to seat the players at tables of these sizes (tables of one
    size in no particular order): the independent model."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    size, *others = sizes
    for mates in combinations(rest, size - 1):
        left = [p for p in rest if p not in mates]
        for tail in seatings(left, others):
            yield [[first, *mates], *tail]


def pairs(tables: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset(pair) for table in tables for pair in combinations(table, 2)}


def rounds(client: FlaskClient, event: dict, size: int, count: int) -> list[list]:
    out = []
    for number in range(1, count + 1):
        answer = client.post(
            f"/api/events/{event['id']}/rounds",
            json={"pairing": "swiss", "players": TWELVE, "table_size": size},
            headers={"X-Event-Token": event["edit_token"]})
        assert answer.status_code == 201, answer.get_json()
        body = answer.get_json()
        assert body["round"] == number
        out.append(body["tables"])
    return out


@pytest.mark.parametrize("size", [2, 3, 4])
def test_four_swiss_rounds_of_twelve_repeat_a_pair_only_when_they_must(
    client: FlaskClient, size: int,
) -> None:
    event = new_event(client, "Swiss night")
    met: set[frozenset[str]] = set()
    for tables in rounds(client, event, size, 4):
        assert sorted(name for table in tables for name in table) == TWELVE
        assert [len(table) for table in tables] == [size] * (12 // size)
        again = pairs(tables) & met
        if again:
            # A repeat only where no seating of this round avoids every one.
            assert not any(not pairs(s) & met
                           for s in seatings(TWELVE, [size] * (12 // size)))
        met |= pairs(tables)
    if size == 2:
        assert len(met) == 4 * 6  # 24 different pairs: none twice


def two_winners(client: FlaskClient) -> dict:
    """A night where Ann beat Bob and Cy beat Di."""
    event = new_event(client, "Friday")
    for winner, loser in (("Ann", "Bob"), ("Cy", "Di")):
        game = event_game(client, event, [winner, loser])
        game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
        close(game)
    return event


def test_swiss_seats_near_standings_who_have_not_met(client: FlaskClient) -> None:
    event = two_winners(client)
    answer = client.post(f"/api/events/{event['id']}/rounds", json={
        "pairing": "swiss", "players": ["Di", "Bob", "Cy", "Ann"], "table_size": 2},
        headers={"X-Event-Token": event["edit_token"]})
    # The two winners together, the two others together: nobody meets again.
    assert answer.get_json() == {"round": 1, "tables": [["Ann", "Cy"], ["Bob", "Di"]]}


def test_a_round_is_the_organisers_and_checks_its_body(client: FlaskClient) -> None:
    event = new_event(client, "Friday")
    url = f"/api/events/{event['id']}/rounds"
    body = {"pairing": "rating", "players": TWELVE[:5], "table_size": 2}
    stranger = client.application.test_client()
    refused = stranger.post(url, json=body,
                            headers={"X-Event-Token": event["join_token"]})
    assert refused.status_code == 403
    own = {"X-Event-Token": event["edit_token"]}
    made = client.post(url, json=body, headers=own)
    assert made.status_code == 201
    assert sorted(len(t) for t in made.get_json()["tables"]) == [2, 3]
    for bad in ({**body, "pairing": "elo"}, {**body, "table_size": 5},
                {**body, "players": "Ann"}, [1]):
        assert client.post(url, json=bad, headers=own).status_code == 400
    for bad in ({**body, "players": ["Ann"]}, {**body, "players": ["Ann", "ann"]}):
        assert client.post(url, json=bad, headers=own).status_code == 422


def test_round_sizes_keep_tables_of_two_to_four() -> None:
    assert engine.round_sizes(12, 4) == [4, 4, 4]
    assert engine.round_sizes(10, 4) == [4, 3, 3]
    assert engine.round_sizes(5, 2) == [3, 2]
    assert engine.round_sizes(7, 3) == [3, 2, 2]
    for players in range(2, 40):
        for size in (2, 3, 4):
            sizes = engine.round_sizes(players, size)
            assert sum(sizes) == players
            assert all(2 <= s <= 4 for s in sizes)


def test_the_night_page_suggests_a_swiss_round(client: FlaskClient) -> None:
    event = two_winners(client)
    page = client.post(f"/events/{event['id']}/seating", data={
        "present": "Di\nBob\nCy\nAnn\nEve\nFay\nGus\nHal", "mode": "swiss"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "data-suggestion" in html
    # Standing order: Ann, Cy (a win each), Bob, Di, then the newcomers.
    tables = re.findall(r"<li>(.*?)</li>", html.split("data-suggestion")[1])[:2]
    assert tables[0].startswith("Ann") and "Cy" in tables[0]
    assert "Bob" not in tables[0]


def test_a_new_nights_players_box_starts_with_last_nights(
    client: FlaskClient,
) -> None:
    two_winners(client)
    earlier = (date.today() - timedelta(days=30)).isoformat()
    empty = new_event(client, "A month ago", date=earlier)
    nxt = new_event(client, "Next week")
    box = re.search(r"<textarea[^>]*>(.*?)</textarea>",
                    client.get(f"/events/{nxt['id']}").get_data(as_text=True),
                    re.S)
    assert box and box.group(1).split() == ["Ann", "Bob", "Cy", "Di"]
    # A night before any other has none to start from.
    box = re.search(r"<textarea[^>]*>(.*?)</textarea>",
                    client.get(f"/events/{empty['id']}").get_data(as_text=True),
                    re.S)
    assert box and box.group(1).split() == []
