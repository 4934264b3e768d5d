"""Club nights, standings and ratings (CONTRACT §14), through the API.

Standings and ratings are computed here independently from the finished games
as the API reports them (final scores, excluded seats), with the openskill
library called directly, and compared with GET /api/events/<id> and
GET /api/ratings.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Table, TableGame, hold
from flask.testing import FlaskClient
from openskill.models import PlackettLuce


def new_event(client: FlaskClient, name: str = "Club night", **extra: Any) -> dict:
    response = client.post("/api/events", json={"name": name, **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def event_game(
    client: FlaskClient, event: dict | None, players: list[str], **extra: Any
) -> TableGame:
    body: dict[str, Any] = {"players": players, **extra}
    headers = {}
    if event is not None:
        body["event"] = event["id"]
        headers["X-Event-Token"] = event["edit_token"]
    response = client.post("/api/games", json=body, headers=headers)
    assert response.status_code == 201, response.get_json()
    return TableGame(client, response.get_json())


def close(game: TableGame, reason: str = "ended") -> None:
    response = game.client.post(
        f"{game.url}/close", json={"reason": reason}, headers=game.headers
    )
    assert response.status_code == 200, response.get_json()


# --- the independent model ---


def final_of(client: FlaskClient, game_id: int) -> dict[str, Any] | None:
    """Return names, scores and excluded seats of a game that has a result."""
    state = client.get(f"/api/games/{game_id}").get_json()
    if state["status"] != "finished" or state["final"]["reason"] == "abandoned":
        return None
    return {
        "names": [p["name"] for p in state["players"]],
        "scores": [p["score"] for p in state["players"]],
        "excluded": [p["excluded"] for p in state["players"]],
    }


def key(name: str) -> str:
    return " ".join(name.split()).casefold()


def expected_standings(finals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for final in finals:
        in_play = [s for s, ex in zip(final["scores"], final["excluded"], strict=True)
                   if not ex]
        top = max(in_play)
        for name, score, excluded in zip(
            final["names"], final["scores"], final["excluded"], strict=True
        ):
            row = rows.setdefault(key(name), {"name": name, "games": 0, "wins": 0,
                                              "points": 0})
            row["name"] = name
            row["games"] += 1
            row["wins"] += int(score == top and not excluded)
            row["points"] += score
            row["value"] = row["wins"]
    ordered = sorted(rows.items(), key=lambda kv: (-kv[1]["wins"], -kv[1]["points"],
                                                   kv[0]))
    out = []
    for i, (_k, row) in enumerate(ordered):
        tied = [o for o in out if (o["wins"], o["points"]) == (row["wins"],
                                                               row["points"])]
        out.append({**row, "rank": tied[0]["rank"] if tied else i + 1})
    return out


Rating = tuple[float, float, int]


def expected_ratings(finals: list[dict[str, Any]]) -> dict[str, Rating]:
    """Rate the games in order with openskill's PlackettLuce, from nothing."""
    model = PlackettLuce()
    current: dict[str, Any] = {}
    games: dict[str, int] = {}
    for final in finals:
        keys = [key(n) for n in final["names"]]
        # Higher score, better rank; an excluded player below everyone in play.
        order = [(ex, -s) for s, ex in zip(final["scores"], final["excluded"],
                                           strict=True)]
        ranks = [sorted(order).index(o) + 1 for o in order]
        teams = [[current.get(k) or model.rating()] for k in keys]
        rated = model.rate(teams, ranks=ranks)
        for k, [r] in zip(keys, rated, strict=True):
            current[k] = r
            games[k] = games.get(k, 0) + 1
    return {k: (r.mu, r.sigma, games[k]) for k, r in current.items()}


def assert_ratings_match(client: FlaskClient, finals: list[dict[str, Any]]) -> None:
    answer = client.get("/api/ratings").get_json()
    expected = expected_ratings(finals)
    got = {key(row["name"]): row for row in answer}
    assert set(got) == set(expected)
    for k, (mu, sigma, games) in expected.items():
        assert got[k]["mu"] == pytest.approx(mu, abs=1e-9)
        assert got[k]["sigma"] == pytest.approx(sigma, abs=1e-9)
        assert got[k]["ordinal"] == pytest.approx(mu - 3 * sigma, abs=1e-9)
        assert got[k]["games"] == games
    ordinals = [row["ordinal"] for row in answer]
    assert ordinals == sorted(ordinals, reverse=True)


# --- a club night ---


def play_evening(client: FlaskClient, event: dict) -> dict[str, TableGame]:
    """Four tables: a tie, a name written two ways, an abandoned game, an
    exclusion of the player with the most points."""
    games = {}
    # Ann 3, Bob 0, Cas 0: Bob and Cas tie.
    g = event_game(client, event, ["Ann", "Bob", "Cas"])
    g.place((0, 0, "red", "circle"), (0, 1, "red", "square"), (0, 2, "red", "diamond"))
    close(g)
    games["tie"] = g
    # "BOB" is Bob (the name rule's key): he wins this one.
    g = event_game(client, event, ["BOB", "Ann"])
    g.place((0, 0, "blue", "circle"), (0, 1, "blue", "square"))
    close(g)
    games["two_ways"] = g
    # Abandoned: neither rated nor in the standings.
    g = event_game(client, event, ["Ann", "Cas"])
    g.place((0, 0, "red", "circle"), (0, 1, "red", "square"),
            (0, 2, "red", "starburst"))
    close(g, "abandoned")
    games["abandoned"] = g
    # Cas has the most points but is excluded: below Ann and Dirk.
    g = event_game(client, event, ["Ann", "Cas", "Dirk"],
                   options={"on_illegal": "exclude"})
    g.place((0, 0, "red", "circle"))
    g.place((0, 1, "red", "square"), (0, 2, "red", "diamond"))
    g.place((1, 0, "blue", "circle"))
    g.trade(1)
    g.move({"type": "penalty", "reason": "illegal"})
    close(g)
    games["excluded"] = g
    return games


def test_standings_and_ratings_match_an_independent_computation(
    client: FlaskClient,
) -> None:
    event = new_event(client, "Friday club", date="2026-12-04")
    assert event["games"] == [] and event["standings"] == []
    assert event["date"] == "2026-12-04"
    games = play_evening(client, event)
    # A game outside the event is rated, not counted in its standings.
    outside = event_game(client, None, ["Dirk", "Eve"])
    outside.place((0, 0, "green", "circle"), (0, 1, "green", "square"))
    close(outside)
    # A running table counts in neither.
    running = event_game(client, event, ["Eve", "Ann"])
    running.place((0, 0, "red", "circle"))

    order = [games["tie"], games["two_ways"], games["abandoned"], games["excluded"],
             outside]
    finals = [f for f in (final_of(client, g.id) for g in order) if f]
    assert len(finals) == 4
    assert finals[2]["excluded"] == [False, True, False]
    assert finals[2]["scores"][1] == max(finals[2]["scores"])

    answer = client.get(f"/api/events/{event['id']}").get_json()
    assert answer["games"] == [g.id for g in games.values()] + [running.id]
    event_finals = finals[:3]
    assert answer["standings"] == expected_standings(event_finals)
    names = {row["name"]: row for row in answer["standings"]}
    # Bob's two spellings are one row, named as in his latest game.
    assert "BOB" in names and "Bob" not in names
    assert names["BOB"]["games"] == 2
    # One win each: Ann by points (3 + 0 + 1); BOB and Dirk tie on 2.
    assert names["Ann"]["rank"] == 1
    assert names["BOB"]["rank"] == names["Dirk"]["rank"] == 2
    # The game in no night is dated the day it finished (today), before the
    # night's date: rated first (CONTRACT §14, Dates).
    assert_ratings_match(client, [finals[3], *finals[:3]])


def test_equal_wins_and_points_share_a_rank(client: FlaskClient) -> None:
    event = new_event(client)
    for first, second in (("Ann", "Bob"), ("Bob", "Ann")):
        g = event_game(client, event, [first, second])
        g.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
        close(g)
    standings = client.get(f"/api/events/{event['id']}").get_json()["standings"]
    assert [(r["name"], r["wins"], r["points"], r["rank"]) for r in standings] == [
        ("Ann", 1, 2, 1), ("Bob", 1, 2, 1)
    ]


def test_a_correction_re_rates_the_game_and_every_game_after_it(
    client: FlaskClient,
) -> None:
    # Cas wins 2-1; corrected, Ann's first move scores 3 and she wins 3-2.
    flip = event_game(client, None, ["Ann", "Cas"])
    flip.place((0, 0, "red", "circle"))
    flip.place((1, 0, "blue", "circle"))
    close(flip)
    games = play_evening(client, new_event(client))
    order = [flip, games["tie"], games["two_ways"], games["excluded"]]
    before = client.get("/api/ratings").get_json()
    assert_ratings_match(client, [final_of(client, g.id) for g in order])

    hold(client, flip.id, flip.token)
    form: dict[str, Any] = {"type": "place", "count": ""}
    tiles = [(0, 0, "red", "circle"), (0, 1, "red", "square"), (0, 2, "red", "diamond")]
    for i, tile in enumerate(tiles + [("", "", "", "")] * 3):
        form.update({f"tiles-{i}-row": tile[0], f"tiles-{i}-col": tile[1],
                     f"tiles-{i}-color": tile[2], f"tiles-{i}-shape": tile[3]})
    response = client.post(f"/games/{flip.id}/moves/1/edit", data=form)
    assert response.status_code == 302
    # Still ended by the table, rescored.
    assert final_of(client, flip.id)["scores"] == [3, 2]

    after = client.get("/api/ratings").get_json()
    assert {r["name"]: r["ordinal"] for r in after} != {
        r["name"]: r["ordinal"] for r in before
    }
    # Still the same order: a correction does not move the game in time.
    assert_ratings_match(client, [final_of(client, g.id) for g in order])


def test_deleting_a_finished_game_re_rates_what_follows(client: FlaskClient) -> None:
    games = play_evening(client, new_event(client))
    response = client.delete(games["two_ways"].url, headers=games["two_ways"].headers)
    assert response.status_code == 200
    order = [games["tie"], games["excluded"]]
    assert_ratings_match(client, [final_of(client, g.id) for g in order])


def test_an_imported_game_is_rated_when_imported_and_joins_by_query(
    client: FlaskClient, table: Table
) -> None:
    event = new_event(client)
    first = event_game(client, event, ["Ann", "Bob"])
    first.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    close(first)
    # A record of an older game (its own dates are older) imported now:
    # rated after `first`, since it finished here when imported.
    source = event_game(client, None, ["Bob", "Ann"])
    source.place((0, 0, "blue", "circle"), (0, 1, "blue", "square"),
                 (0, 2, "blue", "starburst"))
    close(source)
    record = client.get(f"{source.url}/record").get_json()
    client.delete(source.url, headers=source.headers)
    response = client.post(
        f"/api/games/import?event={event['id']}", json=record,
        headers={"X-Event-Token": event["edit_token"]},
    )
    assert response.status_code == 201, response.get_json()
    imported = response.get_json()["id"]
    assert client.get(f"/api/events/{event['id']}").get_json()["games"] == [
        first.id, imported
    ]
    assert_ratings_match(client, [final_of(client, first.id),
                                  final_of(client, imported)])


def test_undoing_the_last_move_of_a_finished_game_unrates_it(
    client: FlaskClient,
) -> None:
    g = event_game(client, None, ["Ann", "Bob"])
    g.place((0, 0, "red", "circle"))
    close(g)
    assert len(client.get("/api/ratings").get_json()) == 2
    g.undo()  # takes the closing back: the game runs again
    assert client.get("/api/ratings").get_json() == []


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "invalid_event"),
        ({"name": "   "}, "invalid_event"),
        ({"name": 5}, "invalid_event"),
        ({"name": "x" * 81}, "invalid_event"),
        ({"name": "Club", "date": "04-12-2026"}, "invalid_event"),
        ({"name": "Club", "date": "2026-02-30"}, "invalid_event"),
        ({"name": "Club", "date": 20261204}, "invalid_event"),
    ],
)
def test_a_bad_event_is_refused_with_400(
    client: FlaskClient, body: dict[str, Any], code: str
) -> None:
    response = client.post("/api/events", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == code


def test_a_body_that_is_not_an_object_is_refused(client: FlaskClient) -> None:
    response = client.post("/api/events", json=["Club"])
    assert response.status_code == 400


def test_an_event_takes_today_when_no_date_is_given(client: FlaskClient) -> None:
    from datetime import date

    assert new_event(client)["date"] == date.today().isoformat()


def test_adding_a_game_needs_the_events_token(app: Any) -> None:
    host = app.test_client()
    event = new_event(host)
    guest = app.test_client()  # another device: no token in its session
    body = {"players": ["Ann", "Bob"], "event": event["id"]}
    for headers, status, code in (
        ({}, 403, "missing_event_token"),
        ({"X-Event-Token": "wrong"}, 403, "bad_event_token"),
    ):
        response = guest.post("/api/games", json=body, headers=headers)
        assert response.status_code == status
        assert response.get_json()["error"]["code"] == code
    response = guest.post("/api/games", json={**body, "event": event["id"] + 1},
                          headers={"X-Event-Token": event["edit_token"]})
    assert response.status_code == 404
    response = guest.post("/api/games", json={**body, "event": "1"},
                          headers={"X-Event-Token": event["edit_token"]})
    assert response.status_code == 400
    # Nothing was stored by the refusals.
    assert guest.get("/api/games").get_json()["total"] == 0
    response = guest.post("/api/games/import?event=999", json={})
    assert response.status_code == 404
    assert guest.get(f"/api/events/{event['id'] + 1}").status_code == 404


def test_renaming_a_player_of_a_finished_game_re_rates_by_the_new_name(
    client: FlaskClient,
) -> None:
    first = event_game(client, None, ["Ann", "Bob"])
    first.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    close(first)
    second = event_game(client, None, ["Bob", "Cas"])
    second.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    close(second)
    hold(client, first.id, first.token)
    # The first game's Bob was someone else: Rob.
    response = client.post(f"/games/{first.id}/rename",
                           data={"names-0": "Ann", "names-1": "Rob"})
    assert response.status_code == 302
    assert_ratings_match(client, [final_of(client, first.id),
                                  final_of(client, second.id)])
    assert {r["name"] for r in client.get("/api/ratings").get_json()} == {
        "Ann", "Rob", "Bob", "Cas"
    }
