"""Standings by wins, placement or share (CONTRACT §14), checked against an
independent computation: ties, an exclusion, a game ended early (left out
when the organiser says so), an abandoned game (never counted); and seasons,
the standings of several nights together."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from test_club_night import (
    TableGame,
    close,
    event_game,
    final_of,
    key,
    new_event,
    play_evening,
)

from scorekeeper import engine

SMALL = {"colors": 3, "copies": 1, "hand_size": 1}
"""Nine tiles, one in each hand: a game that ends by itself in 8 moves."""


def played_out(client: FlaskClient, event: dict, players: list[str]) -> TableGame:
    """A game that ends normally (hand_emptied): a 3x3 square, row by colour."""
    game = event_game(client, event, players, variant=SMALL)
    colours, shapes = ("red", "orange", "yellow"), ("circle", "crisscross", "diamond")
    for row in range(3):
        for col in range(3):
            state = client.get(f"/api/games/{game.id}").get_json()
            if state["status"] == "finished":
                assert state["final"]["reason"] == "hand_emptied"
                return game
            game.place((row, col, colours[row], shapes[col]))
    raise AssertionError("the game did not end")


def expected(finals: list[dict[str, Any]], scoring: str) -> list[dict[str, Any]]:
    """The standings worked out seat by seat, apart from the engine."""
    rows: dict[str, dict[str, Any]] = {}
    for final in finals:
        places = [(ex, -s) for s, ex in zip(final["scores"], final["excluded"],
                                             strict=True)]
        mean = sum(final["scores"]) / len(final["scores"])
        for i, name in enumerate(final["names"]):
            won = places[i] == min(places) and not final["excluded"][i]
            below = sum(1 for j, p in enumerate(places) if j != i and p > places[i])
            level = sum(1 for j, p in enumerate(places) if j != i and p == places[i])
            value = {"wins": int(won), "placement": below + level / 2,
                     "share": final["scores"][i] / mean if mean else 0.0}[scoring]
            row = rows.setdefault(key(name), {"games": 0, "wins": 0, "points": 0,
                                              "value": 0.0})
            row["name"] = name
            row["games"] += 1
            row["wins"] += int(won)
            row["points"] += final["scores"][i]
            row["value"] += value
    ordered = sorted(rows.items(), key=lambda kv: (
        -round(kv[1]["value"], 6), -kv[1]["points"], kv[0]))
    out: list[dict[str, Any]] = []
    for place, (_k, row) in enumerate(ordered, start=1):
        same = [o for o in out if round(o["value"], 6) == round(row["value"], 6)
                and o["points"] == row["points"]]
        out.append({**row, "rank": same[0]["rank"] if same else place})
    return out


def check(answer: list[dict[str, Any]], wanted: list[dict[str, Any]]) -> None:
    assert [r["name"] for r in answer] == [r["name"] for r in wanted]
    for got, want in zip(answer, wanted, strict=True):
        assert {k: got[k] for k in ("games", "wins", "points", "rank")} == {
            k: want[k] for k in ("games", "wins", "points", "rank")}
        assert got["value"] == pytest.approx(want["value"], abs=5e-4)


@pytest.mark.parametrize("scoring", ["wins", "placement", "share"])
def test_each_scoring_matches_an_independent_computation(
    client: FlaskClient, scoring: str,
) -> None:
    event = new_event(client, "Friday")
    games = list(play_evening(client, event).values())
    games.append(played_out(client, event, ["Eve", "Ann"]))
    finals = [f for f in (final_of(client, g.id) for g in games) if f]
    assert len(finals) == 4  # the abandoned game has no result
    answer = client.get(f"/api/events/{event['id']}?scoring={scoring}").get_json()
    assert answer["scoring"] == scoring
    check(answer["standings"], expected(finals, scoring))
    # Left out at the organiser's word: only the game played out stays.
    assert client.patch(f"/api/events/{event['id']}", json={"count_ended": False},
                        headers={"X-Event-Token": event["edit_token"]}
                        ).status_code == 200
    answer = client.get(f"/api/events/{event['id']}?scoring={scoring}").get_json()
    assert answer["count_ended"] is False
    check(answer["standings"], expected(finals[-1:], scoring))


def test_placement_counts_the_table(client: FlaskClient) -> None:
    # A win at a table of 3 is worth 2, at a table of 2 worth 1; a tie a half.
    seats = [engine.Seat("a", "A", 10), engine.Seat("b", "B", 4),
             engine.Seat("c", "C", 4)]
    assert engine.measures(seats, "placement") == [2.0, 0.5, 0.5]
    assert engine.measures(seats[:2], "placement") == [1.0, 0.0]
    assert engine.measures(seats, "share") == pytest.approx([10 / 6, 4 / 6, 4 / 6])
    excluded = [engine.Seat("a", "A", 10, True), engine.Seat("b", "B", 4)]
    assert engine.measures(excluded, "placement") == [0.0, 1.0]
    assert engine.measures(excluded, "wins") == [0.0, 1.0]


def test_an_unknown_scoring_is_refused(client: FlaskClient) -> None:
    event = new_event(client)
    answer = client.get(f"/api/events/{event['id']}?scoring=elo")
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "bad_request"


def test_a_season_adds_its_nights_together(client: FlaskClient) -> None:
    made = client.post("/api/seasons", json={"name": "Winter 2026"})
    assert made.status_code == 201
    season = made.get_json()
    assert season == {"id": season["id"], "name": "Winter 2026", "events": []}
    nights = [new_event(client, name, date=day) for name, day in (
        ("Second", "2026-12-11"), ("First", "2026-12-04"), ("Elsewhere", "2026-12-05"))]
    finals = []
    for night, players in zip(nights, (["Ann", "Bob"], ["Bob", "Cy"], ["Ann", "Cy"]),
                              strict=True):
        game = played_out(client, night, players)
        finals.append(final_of(client, game.id))
    for night in nights[:2]:
        assert client.patch(f"/api/events/{night['id']}",
                            json={"season": season["id"]},
                            headers={"X-Event-Token": night["edit_token"]}
                            ).status_code == 200
    for scoring in ("wins", "placement", "share"):
        answer = client.get(f"/api/seasons/{season['id']}?scoring={scoring}")
        body = answer.get_json()
        assert body["events"] == [nights[1]["id"], nights[0]["id"]]  # by date
        check(body["standings"], expected([finals[1], finals[0]], scoring))
    # The join token does not put a night in a season; an unknown season: 404.
    stranger = client.application.test_client()  # not the admin
    assert stranger.patch(f"/api/events/{nights[2]['id']}",
                        json={"season": season["id"]},
                        headers={"X-Event-Token": nights[2]["join_token"]}
                        ).status_code == 403
    assert client.patch(f"/api/events/{nights[2]['id']}", json={"season": 999},
                        headers={"X-Event-Token": nights[2]["edit_token"]}
                        ).status_code == 404
    assert client.get("/api/seasons/999").status_code == 404


@pytest.mark.parametrize("scoring", ["wins", "placement", "share"])
def test_a_merged_player_counts_as_one_in_the_season(
    client: FlaskClient, scoring: str,
) -> None:
    # "Chloe" at one night and "Chloé" at the next are two rows until the
    # admin merges them; then one row, as if every game had been written so.
    season = client.post("/api/seasons", json={"name": "Spring"}).get_json()
    finals = []
    for day, players in (("2026-12-04", ["Chloe", "Bob"]),
                         ("2026-12-11", ["Bob", "Chloé", "Cy"])):
        night = new_event(client, day, date=day)
        client.patch(f"/api/events/{night['id']}", json={"season": season["id"]},
                     headers={"X-Event-Token": night["edit_token"]})
        finals.append(final_of(client, played_out(client, night, players).id))
    url = f"/api/seasons/{season['id']}?scoring={scoring}"
    before = client.get(url).get_json()["standings"]
    assert {r["name"] for r in before} >= {"Chloe", "Chloé"}
    assert client.post("/admin/merge", data={"from": "Chloe", "into": "Chloé"}
                       ).status_code == 302
    merged = [{**f, "names": ["Chloé" if n == "Chloe" else n for n in f["names"]]}
              for f in finals]
    check(client.get(url).get_json()["standings"], expected(merged, scoring))


def test_a_seasons_best_nights_alone_count() -> None:
    def night(*scores: tuple[str, int]) -> list[list[engine.Seat]]:
        return [[engine.Seat(name.lower(), name, score) for name, score in scores]]

    nights = [night(("Ann", 10), ("Bob", 20)), night(("Ann", 30), ("Bob", 5)),
              night(("Ann", 12), ("Bob", 3))]
    every = engine.season_standings(nights, "wins")
    assert [(r["name"], r["value"], r["points"]) for r in every] == [
        ("Ann", 2, 52), ("Bob", 1, 28)]
    best = engine.season_standings(nights, "wins", best=1)
    # Each keeps one night: Ann's 30 (a win), Bob's 20 (a win); then points.
    assert [(r["name"], r["value"], r["points"], r["games"]) for r in best] == [
        ("Ann", 1, 30, 1), ("Bob", 1, 20, 1)]


def test_the_night_page_says_how_standings_are_computed(client: FlaskClient) -> None:
    event = new_event(client, "Friday")
    ended = event_game(client, event, ["Ann", "Bob"])
    ended.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    close(ended)
    played_out(client, event, ["Cy", "Di"])
    page = client.get(f"/events/{event['id']}?scoring=placement").get_data(
        as_text=True)
    assert page.count("data-ended-early") == 1  # the played-out game is not
    assert "data-value" in page and "Ties: then points, then name." in page
    assert "Games ended early count." in page
    # The organiser leaves them out in one tap: Ann and Bob leave the table.
    assert client.post(f"/events/{event['id']}/count-ended").status_code == 302
    page = client.get(f"/events/{event['id']}").get_data(as_text=True)
    assert "Games ended early do not count." in page
    assert 'data-standing="Ann"' not in page and 'data-standing="Cy"' in page


def test_the_season_page_lists_its_nights_and_their_standings(
    client: FlaskClient,
) -> None:
    made = client.post("/seasons", data={"name": "Spring"})
    assert made.status_code == 302
    season_url = made.headers["Location"]
    season_id = int(season_url.rstrip("/").rsplit("/", 1)[1])
    nights = [new_event(client, name, date=day) for name, day in (
        ("One", "2026-12-04"), ("Two", "2026-12-11"))]
    played_out(client, nights[0], ["Ann", "Bob"])
    played_out(client, nights[1], ["Bob", "Ann"])
    played_out(client, nights[1], ["Bob", "Cy"])
    for night in nights:  # from the night's page, as its organiser
        assert client.post(f"/events/{night['id']}/season",
                           data={"season": str(season_id)}).status_code == 302
    page = client.get(f"/seasons/{season_id}?scoring=placement").get_data(
        as_text=True)
    assert page.count("data-standing=") == 3 and "Every night counts." in page
    api = client.get(f"/api/seasons/{season_id}?scoring=placement").get_json()
    rows = list(csv.reader(io.StringIO(client.get(
        f"/seasons/{season_id}/standings.csv?scoring=placement"
    ).data.decode("utf-8-sig"))))
    assert [r[1] for r in rows[1:]] == [r["name"] for r in api["standings"]]
    assert [float(r[5]) for r in rows[1:]] == [r["value"] for r in api["standings"]]
    # Best night only: Bob's night two (2 games) against Ann's best single night.
    best = client.get(f"/api/seasons/{season_id}?best=1").get_json()["standings"]
    every = client.get(f"/api/seasons/{season_id}").get_json()["standings"]
    assert sum(r["games"] for r in best) < sum(r["games"] for r in every)
    assert client.get(f"/api/seasons/{season_id}?best=0").status_code == 400
    # Someone else's device may not move a night into a season.
    stranger = client.application.test_client()
    assert stranger.post(f"/events/{nights[0]['id']}/season",
                         data={"season": ""}).status_code == 403


def test_a_nights_finished_tables_go_to_bg_stats_in_one_page(
    client: FlaskClient,
) -> None:
    event = new_event(client, "Friday")
    done = played_out(client, event, ["Ann", "Bob"])
    abandoned = event_game(client, event, ["Cy", "Di"])
    close(abandoned, "abandoned")
    event_game(client, event, ["Eve", "Fay"])  # still running
    page = client.get(f"/events/{event['id']}").get_data(as_text=True)
    assert "data-bgstats-night" in page
    night = client.get(f"/events/{event['id']}/bgstats").get_data(as_text=True)
    links = re.findall(r'href="([^"]+)" data-bgstats-link', night)
    assert len(links) == 1  # neither the abandoned nor the running table
    single = client.get(f"/games/{done.id}/bgstats").get_data(as_text=True)
    assert links == re.findall(r'data-bgstats-link href="([^"]+)"', single)


def test_the_tv_view_marks_a_game_ended_early(client: FlaskClient) -> None:
    event = new_event(client, "Friday")
    ended = event_game(client, event, ["Ann", "Bob"])
    ended.place((0, 0, "red", "circle"))
    close(ended)
    played_out(client, event, ["Cy", "Di"])
    state = client.get(f"/events/{event['id']}/tv.json").get_json()
    assert [t["ended_early"] for t in state["tables"]] == [True, False]
    page = client.get(f"/events/{event['id']}/tv").get_data(as_text=True)
    assert page.count("· Ended early") == 1
